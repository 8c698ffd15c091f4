package scalapack

import (
	"errors"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// nearSquare returns the grid BLACS programs use for n processes.
func nearSquare(n int) (int, int) {
	r := int(math.Sqrt(float64(n)))
	for n%r != 0 {
		r--
	}
	return r, n / r
}

func abs[T Elem](v T) float64 { return cmplx.Abs(toC(v)) }

func fromFloat[T Elem](f float64) T {
	var z T
	switch any(z).(type) {
	case float32:
		return any(float32(f)).(T)
	case complex64:
		return any(complex64(complex(f, 0))).(T)
	case complex128:
		return any(complex(f, 0)).(T)
	}
	return any(f).(T)
}

func toC[T Elem](v T) complex128 {
	switch x := any(v).(type) {
	case float32:
		return complex(float64(x), 0)
	case float64:
		return complex(x, 0)
	case complex64:
		return complex128(x)
	case complex128:
		return x
	}
	panic("type")
}

// conj is v's complex conjugate; v itself for the real types.
func conj[T Elem](v T) T {
	switch x := any(v).(type) {
	case complex64:
		return any(complex64(cmplx.Conj(complex128(x)))).(T)
	case complex128:
		return any(cmplx.Conj(x)).(T)
	}
	return v
}

// eps is the machine epsilon of T's precision.
func eps[T Elem]() float64 {
	var z T
	switch any(z).(type) {
	case float32, complex64:
		return 0x1p-23
	}
	return 0x1p-52
}

// residual is ||op(A)·X − B||∞ / (||A||∞·||X||∞·n·eps), ScaLAPACK's test
// criterion, on column-major gathered matrices.
func residual[T Elem](trans Trans, a, x, b []T, n, nrhs int) float64 {
	var rmax, amax, xmax float64
	for i := range n {
		row := 0.0
		for j := range n {
			row += abs(a[i+j*n])
		}
		amax = max(amax, row)
	}
	for i := range n {
		xr := 0.0
		for k := range nrhs {
			xr += abs(x[i+k*n])
			var s T
			for j := range n {
				aij := a[i+j*n]
				switch trans {
				case Transpose:
					aij = a[j+i*n]
				case ConjTrans:
					aij = conj(a[j+i*n])
				}
				s += aij * x[j+k*n]
			}
			rmax = max(rmax, abs(s-b[i+k*n]))
		}
		xmax = max(xmax, xr)
	}
	return rmax / (amax * xmax * float64(n) * eps[T]())
}

// worldGrid is the near-square grid of every rank; the caller exits it.
func worldGrid(t *testing.T) *blacs.Grid {
	w := mpi.World()
	rows, cols := nearSquare(w.Size())
	g, err := blacs.GridInit(w, blacs.RowMajor, rows, cols)
	mpitest.Must(t, err)
	return g
}

// tridiag is the SPD (3, -1) tridiagonal matrix, eigenvalues 3 - 2cos(kπ/(n+1)).
func tridiag(i, j int) float64 {
	switch {
	case i == j:
		return 3
	case i-j == 1 || j-i == 1:
		return -1
	}
	return 0
}

// diagonalWith is a diagonal matrix of d, except bad at (at, at): with bad < 0
// it is not positive definite, its leading minor of order at+1 failing first.
func diagonalWith(d, bad float64, at int) func(i, j int) float64 {
	return func(i, j int) float64 {
		switch {
		case i != j:
			return 0
		case i == at:
			return bad
		}
		return d
	}
}

func TestDrivers(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		g := worldGrid(t)
		defer mpitest.Cleanup(t, g.Exit)
		t.Run("GesvReal", func(t *testing.T) { testGesv[float64](t, g) })
		t.Run("GesvComplex", func(t *testing.T) { testGesv[complex128](t, g) })
		t.Run("GesvSingle", func(t *testing.T) { testGesv[float32](t, g) })
		t.Run("GesvComplexSingle", func(t *testing.T) { testGesv[complex64](t, g) })
		// The drivers that exist in double, in every precision.
		eachElem(t, "GetrsTrans", func(t *testing.T) { testGetrs[float32](t, g) }, func(t *testing.T) { testGetrs[float64](t, g) },
			func(t *testing.T) { testGetrs[complex64](t, g) }, func(t *testing.T) { testGetrs[complex128](t, g) })
		eachElem(t, "Posv", func(t *testing.T) { testPosv[float32](t, g) }, func(t *testing.T) { testPosv[float64](t, g) },
			func(t *testing.T) { testPosv[complex64](t, g) }, func(t *testing.T) { testPosv[complex128](t, g) })
		eachElem(t, "Gemm", func(t *testing.T) { testGemm[float32](t, g) }, func(t *testing.T) { testGemm[float64](t, g) },
			func(t *testing.T) { testGemm[complex64](t, g) }, func(t *testing.T) { testGemm[complex128](t, g) })
		t.Run("Singular", func(t *testing.T) { testSingular(t, g) })
	}, mpitest.AcrossNodes(), mpitest.ManyNodes())
}

func randVal[T Elem](r *rand.Rand) T {
	return fromParts[T](r.Float64()*2-1, r.Float64()*2-1)
}

// fromParts is re + im·i in T; re alone in the real types.
func fromParts[T Elem](re, im float64) T {
	var z T
	switch any(z).(type) {
	case complex64:
		return any(complex64(complex(re, im))).(T)
	case complex128:
		return any(complex(re, im)).(T)
	}
	return fromFloat[T](re)
}

func testGesv[T Elem](t *testing.T, g *blacs.Grid) {
	for _, c := range []struct{ n, nrhs, nb int }{{1, 1, 1}, {17, 1, 4}, {50, 5, 7}, {64, 5, 16}} {
		for _, dominant := range []bool{false, true} {
			r := rand.New(rand.NewPCG(uint64(c.n), 7))
			av := make([]T, c.n*c.n)
			for i := range av {
				av[i] = randVal[T](r)
			}
			if dominant {
				for i := range c.n {
					av[i+i*c.n] += fromFloat[T](float64(c.n))
				}
			}
			bv := make([]T, c.n*c.nrhs)
			for i := range bv {
				bv[i] = randVal[T](r)
			}
			a, err := NewMatrix[T](g, c.n, c.n, c.nb, c.nb)
			mpitest.Must(t, err)
			b, err := NewMatrix[T](g, c.n, c.nrhs, c.nb, c.nb)
			mpitest.Must(t, err)
			a.Fill(func(i, j int) T { return av[i+j*c.n] })
			b.Fill(func(i, j int) T { return bv[i+j*c.n] })
			mpitest.Must(t, Gesv(a, b))
			x, err := b.Gather()
			mpitest.Must(t, err)
			if res := residual(NoTrans, av, x, bv, c.n, c.nrhs); !(res < 16) {
				mpitest.Fatalf(t, "n=%d nrhs=%d nb=%d dominant=%v: scaled residual %g", c.n, c.nrhs, c.nb, dominant, res)
			}
		}
	}
}

// eachElem runs the four precisions of a test as subtests of name:
// single, double, complex single, complex double.
func eachElem(t *testing.T, name string, s, d, c, z func(*testing.T)) {
	t.Run(name+"/Single", s)
	t.Run(name+"/Double", d)
	t.Run(name+"/ComplexSingle", c)
	t.Run(name+"/ComplexDouble", z)
}

func testGetrs[T Elem](t *testing.T, g *blacs.Grid) {
	const n, nrhs, nb = 23, 5, 3
	r := rand.New(rand.NewPCG(3, 3))
	av := make([]T, n*n)
	for i := range av {
		av[i] = randVal[T](r)
	}
	bv := make([]T, n*nrhs)
	for i := range bv {
		bv[i] = randVal[T](r)
	}
	transes := []Trans{NoTrans, Transpose}
	var z T
	switch any(z).(type) {
	case complex64, complex128:
		transes = append(transes, ConjTrans)
	}
	for _, trans := range transes {
		a, _ := NewMatrix[T](g, n, n, nb, nb)
		b, _ := NewMatrix[T](g, n, nrhs, nb, nb)
		a.Fill(func(i, j int) T { return av[i+j*n] })
		b.Fill(func(i, j int) T { return bv[i+j*n] })
		ipiv, err := Getrf(a)
		mpitest.Must(t, err)
		mpitest.Must(t, Getrs(trans, a, ipiv, b))
		x, err := b.Gather()
		mpitest.Must(t, err)
		if res := residual(trans, av, x, bv, n, nrhs); !(res < 16) {
			mpitest.Fatalf(t, "trans %c: scaled residual %g", trans, res)
		}
	}
}

func testPosv[T Elem](t *testing.T, g *blacs.Grid) {
	const n, nrhs, nb = 31, 2, 4
	r := rand.New(rand.NewPCG(5, 5))
	m := make([]T, n*n)
	for i := range m {
		m[i] = randVal[T](r)
	}
	av := make([]T, n*n) // MᴴM + n·I is Hermitian positive definite
	for i := range n {
		for j := range n {
			var s T
			for k := range n {
				s += conj(m[k+i*n]) * m[k+j*n]
			}
			av[i+j*n] = s
		}
		av[i+i*n] += fromFloat[T](n)
	}
	bv := make([]T, n*nrhs)
	for i := range bv {
		bv[i] = fromFloat[T](float64(i%7) - 3)
	}
	for _, uplo := range []Uplo{Lower, Upper} {
		a, _ := NewMatrix[T](g, n, n, nb, nb)
		b, _ := NewMatrix[T](g, n, nrhs, nb, nb)
		a.Fill(func(i, j int) T { return av[i+j*n] })
		b.Fill(func(i, j int) T { return bv[i+j*n] })
		mpitest.Must(t, Posv(uplo, a, b))
		x, err := b.Gather()
		mpitest.Must(t, err)
		if res := residual(NoTrans, av, x, bv, n, nrhs); !(res < 16) {
			mpitest.Fatalf(t, "uplo %c: scaled residual %g", uplo, res)
		}
	}
	// A matrix that is not positive definite: the error names the minor.
	a, _ := NewMatrix[T](g, n, n, nb, nb)
	a.Fill(func(i, j int) T { return fromFloat[T](diagonalWith(2, -1, 5)(i, j)) })
	var npd *NotPositiveDefiniteError
	if err := Potrf(Lower, a); !errors.As(err, &npd) || npd.Order != 6 {
		mpitest.Fatalf(t, "Potrf of a matrix with a negative 6th pivot: %v", err)
	}
}

func testSingular(t *testing.T, g *blacs.Grid) {
	const n, nb = 12, 5
	a, _ := NewMatrix[float64](g, n, n, nb, nb)
	b, _ := NewMatrix[float64](g, n, 1, nb, nb)
	// Column 7 is zero: U(7,7) is zero after pivoting.
	a.Fill(func(i, j int) float64 {
		if j == 7 {
			return 0
		}
		if i == j {
			return 4
		}
		return 1 / float64(1+i+j)
	})
	b.Fill(func(i, j int) float64 { return 1 })
	var se *SingularError
	if err := Gesv(a, b); !errors.As(err, &se) || se.Index != 7 {
		mpitest.Fatalf(t, "Gesv of a matrix with a zero column 7: %v", err)
	}
	// Shapes that do not fit are refused before ScaLAPACK sees them.
	c, _ := NewMatrix[float64](g, n+1, 1, nb, nb)
	var e *Error
	if err := Gesv(a, c); !errors.As(err, &e) || e.Arg != "b" {
		mpitest.Fatalf(t, "Gesv with a mismatched b: %v", err)
	}
}

// testGemm: small integers, exact in every precision.
func testGemm[T Elem](t *testing.T, g *blacs.Grid) {
	const m, k, n, nb = 13, 9, 11, 4
	a, _ := NewMatrix[T](g, m, k, nb, nb)
	b, _ := NewMatrix[T](g, k, n, nb, nb)
	c, _ := NewMatrix[T](g, m, n, nb, nb)
	a.Fill(func(i, j int) T { return fromFloat[T](float64(i + 2*j)) })
	b.Fill(func(i, j int) T { return fromFloat[T](float64(i - j)) })
	c.Fill(func(i, j int) T { return 1 })
	mpitest.Must(t, Gemm(NoTrans, NoTrans, 2, a, b, 3, c))
	got, err := c.Gather()
	mpitest.Must(t, err)
	for i := range m {
		for j := range n {
			want := fromFloat[T](3)
			for p := range k {
				want += fromFloat[T](2 * float64(i+2*p) * float64(p-j))
			}
			if got[i+j*m] != want {
				mpitest.Fatalf(t, "C[%d][%d] = %v, want %v", i, j, got[i+j*m], want)
			}
		}
	}
}
