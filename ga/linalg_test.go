package ga_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/scalapack"
)

// residual is ||op(A)·X − B||∞ / (||A||∞·||X||∞·n·eps) on row-major n×n A and
// n×nrhs X, B.
func residual(trans bool, a, x, b []float64, n, nrhs int) float64 {
	var rmax, amax, xmax float64
	for i := range n {
		row, xr := 0.0, 0.0
		for j := range n {
			row += math.Abs(a[i*n+j])
		}
		amax = max(amax, row)
		for k := range nrhs {
			xr += math.Abs(x[i*nrhs+k])
			s := 0.0
			for j := range n {
				aij := a[i*n+j]
				if trans {
					aij = a[j*n+i]
				}
				s += aij * x[j*nrhs+k]
			}
			rmax = max(rmax, math.Abs(s-b[i*nrhs+k]))
		}
		xmax = max(xmax, xr)
	}
	return rmax / (amax * xmax * float64(n) * 0x1p-52)
}

func TestLinearSolvers(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		mpitest.Must(t, ga.Init())
		defer endGA(t)
		regular := func(name string, dims ...int) (*ga.Array[float64], error) {
			return ga.Create[float64](name, dims, nil)
		}
		checkSolvers(t, regular, regular)
	}, mpitest.ManyNodes())
}

// maker creates the arrays a solver test works on.
type maker func(name string, dims ...int) (*ga.Array[float64], error)

// checkSolvers runs every solver on random, diagonally dominant and SPD
// systems with A made by makeA and B by makeB, and checks residuals, that A is
// kept, and the errors for singular and non-SPD matrices.
func checkSolvers(t *testing.T, makeA, makeB maker) {
	t.Helper()
	{
		for _, c := range []struct {
			n, nrhs int
			kind    string
		}{{1, 1, "random"}, {37, 1, "random"}, {70, 5, "dominant"}, {40, 2, "indefinite"}, {45, 5, "spd"}, {130, 1, "spd"}} {
			r := rand.New(rand.NewPCG(uint64(c.n), 1))
			av := make([]float64, c.n*c.n)
			for i := range av {
				av[i] = r.Float64()*2 - 1
			}
			switch c.kind {
			case "dominant":
				for i := range c.n {
					av[i*c.n+i] += float64(c.n)
				}
			case "indefinite": // symmetric, one negative eigenvalue or more
				for i := range c.n {
					for j := range i {
						av[j*c.n+i] = av[i*c.n+j]
					}
					av[i*c.n+i] += float64(c.n)
				}
				av[0] = -float64(c.n)
			case "spd":
				m := append([]float64(nil), av...)
				for i := range c.n {
					for j := range c.n {
						s := 0.0
						for k := range c.n {
							s += m[k*c.n+i] * m[k*c.n+j]
						}
						av[i*c.n+j] = s
					}
					av[i*c.n+i] += 1
				}
			}
			bv := make([]float64, c.n*c.nrhs)
			for i := range bv {
				bv[i] = r.Float64()
			}
			a, err := makeA("A", c.n, c.n)
			mpitest.Must(t, err)
			b, err := makeB("B", c.n, c.nrhs)
			mpitest.Must(t, err)
			load := func() {
				if ga.Nodeid() == 0 {
					mpitest.Must(t, a.Put([]int{0, 0}, []int{c.n - 1, c.n - 1}, av, nil))
					mpitest.Must(t, b.Put([]int{0, 0}, []int{c.n - 1, c.nrhs - 1}, bv, nil))
				}
				mpitest.Must(t, ga.Sync())
			}
			check := func(what string, trans bool) {
				t.Helper()
				x := make([]float64, c.n*c.nrhs)
				mpitest.Must(t, b.Get([]int{0, 0}, []int{c.n - 1, c.nrhs - 1}, x, nil))
				if res := residual(trans, av, x, bv, c.n, c.nrhs); !(res < 16) {
					fatalf(t, "%s n=%d nrhs=%d %s: scaled residual %g", what, c.n, c.nrhs, c.kind, res)
				}
				left := make([]float64, c.n*c.n)
				mpitest.Must(t, a.Get([]int{0, 0}, []int{c.n - 1, c.n - 1}, left, nil))
				for i := range left {
					if left[i] != av[i] {
						fatalf(t, "%s changed A[%d]", what, i)
					}
				}
				mpitest.Must(t, ga.Sync())
			}
			load()
			mpitest.Must(t, ga.LuSolve(ga.NoTrans, a, b))
			check("LuSolve N", false)
			load()
			mpitest.Must(t, ga.LuSolve(ga.Trans, a, b))
			check("LuSolve T", true)
			load()
			mpitest.Must(t, ga.Solve(a, b))
			check("Solve", false)
			load()
			used, err := ga.SolveBy(a, b)
			mpitest.Must(t, err)
			check("SolveBy", false)
			// Cholesky where A is symmetric positive definite (a 1 × 1 A
			// where its element is positive), else LU.
			want := ga.ByLU
			if c.kind == "spd" || c.n == 1 && av[0] > 0 {
				want = ga.ByCholesky
			}
			if used != want {
				t.Errorf("SolveBy on %s A of n=%d: %v, want %v", c.kind, c.n, used, want)
			}
			if c.kind == "spd" {
				load()
				mpitest.Must(t, ga.LltSolve(a, b))
				check("LltSolve", false)
				load()
				mpitest.Must(t, ga.SpdInvert(a))
				inv := make([]float64, c.n*c.n)
				mpitest.Must(t, a.Get([]int{0, 0}, []int{c.n - 1, c.n - 1}, inv, nil))
				anorm := 0.0
				for i := range c.n {
					row := 0.0
					for j := range c.n {
						row += math.Abs(av[i*c.n+j])
					}
					anorm = max(anorm, row)
				}
				for i := range c.n {
					for j := range c.n {
						s := 0.0
						for k := range c.n {
							s += av[i*c.n+k] * inv[k*c.n+j]
						}
						if i == j {
							s--
						}
						if math.Abs(s) > 16*float64(c.n)*0x1p-52*anorm*1e3 {
							fatalf(t, "SpdInvert n=%d: (A·A⁻¹ - I)[%d][%d] = %g", c.n, i, j, s)
						}
					}
				}
				mpitest.Must(t, ga.Sync())
			} else if c.kind == "random" && c.n > 1 {
				// A random matrix is not symmetric: LltSolve refuses it.
				load()
				if err := ga.LltSolve(a, b); !errors.Is(err, ga.ErrNotSymmetric) {
					fatalf(t, "LltSolve of a random matrix: %v", err)
				}
				mpitest.Must(t, ga.Sync())
				// Made symmetric it is indefinite: LltSolve says so, and
				// SpdInvert leaves A as it was.
				for i := range c.n {
					for j := range i {
						av[i*c.n+j] = av[j*c.n+i]
					}
				}
				load()
				var npd *scalapack.NotPositiveDefiniteError
				if err := ga.LltSolve(a, b); !errors.As(err, &npd) {
					fatalf(t, "LltSolve of a symmetric indefinite matrix: %v", err)
				}
				mpitest.Must(t, ga.Sync())
				if err := ga.SpdInvert(a); !errors.As(err, &npd) {
					fatalf(t, "SpdInvert of a symmetric indefinite matrix: %v", err)
				}
				mpitest.Must(t, ga.Sync())
				left := make([]float64, c.n*c.n)
				mpitest.Must(t, a.Get([]int{0, 0}, []int{c.n - 1, c.n - 1}, left, nil))
				for i := range left {
					if left[i] != av[i] {
						fatalf(t, "failed SpdInvert changed A[%d]", i)
					}
				}
				mpitest.Must(t, ga.Sync())
			}
			mpitest.Must(t, a.Destroy())
			mpitest.Must(t, b.Destroy())
		}
		// A singular matrix: every process gets the error.
		s, err := makeA("S", 6, 6)
		mpitest.Must(t, err)
		mpitest.Must(t, s.Fill(1))
		b, err := makeB("b", 6, 1)
		mpitest.Must(t, err)
		mpitest.Must(t, b.Fill(1))
		var se *scalapack.SingularError
		if err := ga.LuSolve(ga.NoTrans, s, b); !errors.As(err, &se) {
			fatalf(t, "LuSolve of a singular matrix: %v", err)
		}
		mpitest.Must(t, ga.Sync())
		var ge *ga.Error
		if err := ga.LuSolve(ga.NoTrans, b, s); !errors.As(err, &ge) {
			fatalf(t, "LuSolve with a non-square A: %v", err)
		}
		mpitest.Must(t, s.Destroy())
		mpitest.Must(t, b.Destroy())
	}
}
