package ga_test

import (
	"errors"
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/scalapack"
)

// TestSolverTypes: LuSolve (N, T and C), LltSolve, Solve and SpdInvert on
// float32, complex64 and complex128 arrays (float64 has TestLinearSolvers),
// in GA's default distribution and in place (BlockCyclicGrid), on 1-4
// processes: residuals at ScaLAPACK's criterion in T's precision, A kept,
// Hermitian checks, NaN refused, and Cholesky falling back to LU.
func TestSolverTypes(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		np := ga.Nnodes()
		for _, l := range []struct {
			name string
			grid []int // BlockCyclicGrid's process grid; nil: GA's default
		}{{"regular", nil}, {"inplace", []int{np, 1}}} {
			name, grid := l.name, l.grid
			t.Run(fmt.Sprintf("%s/float32", name), func(t *testing.T) { solverTypeCase[float32](t, grid) })
			t.Run(fmt.Sprintf("%s/complex64", name), func(t *testing.T) { solverTypeCase[complex64](t, grid) })
			t.Run(fmt.Sprintf("%s/complex128", name), func(t *testing.T) { solverTypeCase[complex128](t, grid) })
		}
	})
}

func solverTypeCase[T scalapack.Elem](t *testing.T, grid []int) {
	const n, nrhs = 23, 3
	make2 := func(name string, rows, cols int) *ga.Array[T] {
		var a *ga.Array[T]
		var err error
		if grid == nil {
			a, err = ga.Create[T](name, []int{rows, cols}, nil)
		} else {
			a, err = ga.New[T](rows, cols).Name(name).BlockCyclicGrid([]int{4, 4}, grid).Allocate()
		}
		must(t, err)
		return a
	}
	a, b := make2("A", n, n), make2("B", n, nrhs)
	defer destroy(t, a)
	defer destroy(t, b)
	rng := rand.New(rand.NewPCG(11, 3))
	general := make([]T, n*n)
	for i := range general {
		general[i] = rnd[T](rng)
	}
	herm := make([]T, n*n) // MᴴM + n·10⁶·I
	for i := range n {
		for j := range n {
			var s T
			for k := range n {
				s += conjT(general[k*n+i]) * general[k*n+j]
			}
			herm[i*n+j] = s
		}
		herm[i*n+i] += mk[T](n*1000000, 0)
	}
	rhs := make([]T, n*nrhs)
	for i := range rhs {
		rhs[i] = rnd[T](rng)
	}
	load := func(av []T) {
		if ga.Nodeid() == 0 {
			must(t, a.Put([]int{0, 0}, []int{n - 1, n - 1}, av, nil))
			must(t, b.Put([]int{0, 0}, []int{n - 1, nrhs - 1}, rhs, nil))
		}
		must(t, ga.Sync())
	}
	check := func(what string, trans ga.TransOp, av []T) {
		t.Helper()
		x := make([]T, n*nrhs)
		must(t, b.Get([]int{0, 0}, []int{n - 1, nrhs - 1}, x, nil))
		if res := residualT(trans, av, x, rhs, n, nrhs); !(res < 16) {
			fatalf(t, "%s: scaled residual %g", what, res)
		}
		sameElems(t, what+" left A", getAll(t, a), av)
		must(t, ga.Sync())
	}
	for _, trans := range []ga.TransOp{ga.NoTrans, ga.Trans, ga.ConjTrans} {
		load(general)
		must(t, ga.LuSolve(trans, a, b))
		check(fmt.Sprintf("LuSolve %c", trans), trans, general)
	}
	load(herm)
	must(t, ga.LltSolve(a, b))
	check("LltSolve", ga.NoTrans, herm)
	load(herm)
	must(t, ga.Solve(a, b))
	check("Solve", ga.NoTrans, herm)

	// The inverse: A·A⁻¹ = I to ScaLAPACK's tolerance.
	load(herm)
	must(t, ga.SpdInvert(a))
	inv := getAll(t, a)
	var anorm float64
	for i := range n {
		row := 0.0
		for j := range n {
			row += absT(herm[i*n+j])
		}
		anorm = max(anorm, row)
	}
	for i := range n {
		for j := range n {
			var s T
			for k := range n {
				s += herm[i*n+k] * inv[k*n+j]
			}
			if i == j {
				s -= mk[T](1, 0)
			}
			if absT(s) > 16*n*epsT[T]()*anorm*absT(inv[i*n+i])*4 {
				fatalf(t, "SpdInvert: (A·A⁻¹)[%d][%d] is off by %g", i, j, absT(s))
			}
		}
	}
	must(t, ga.Sync())

	// Not Hermitian (for real T: not symmetric): LltSolve refuses on every
	// process with B unchanged, Solve takes LU.
	skew := append([]T(nil), herm...)
	skew[1*n+2] += mk[T](1, 1)
	load(skew)
	wantErr(t, "LltSolve of a non-Hermitian A", ga.LltSolve(a, b), "LltSolve", "A", ga.ErrNotSymmetric)
	sameElems(t, "B after a refused LltSolve", getAll(t, b), rhs)
	must(t, ga.Solve(a, b))
	check("Solve of a non-Hermitian A", ga.NoTrans, skew)
	// Hermitian but indefinite: LltSolve says so, Solve falls back to LU.
	indef := append([]T(nil), herm...)
	indef[5*n+5] = mk[T](-1, 0)
	load(indef)
	var npd *scalapack.NotPositiveDefiniteError
	if err := ga.LltSolve(a, b); !errors.As(err, &npd) {
		fatalf(t, "LltSolve of an indefinite A: %v", err)
	}
	load(indef)
	must(t, ga.Solve(a, b))
	check("Solve of an indefinite A", ga.NoTrans, indef)

	// NaN in B: refused everywhere, nothing written.
	load(general)
	if ga.Nodeid() == 0 {
		must(t, b.Put([]int{4, 1}, []int{4, 1}, []T{nanOf[T]()}, nil))
	}
	must(t, ga.Sync())
	before := getAll(t, b)
	wantErr(t, "NaN in B", ga.LuSolve(ga.NoTrans, a, b), "LuSolve", "B", ga.ErrNotFinite, "[4 1]")
	after := getAll(t, b)
	for i := range after {
		if after[i] != before[i] && i != 4*nrhs+1 {
			fatalf(t, "B changed at %d after a refused solve", i)
		}
	}
	wantErr(t, "trans", ga.LuSolve('X', a, b), "LuSolve", "", nil, "'X'")
	must(t, ga.Sync())
}

// residualT is ||op(A)·X − B||∞ / (||A||∞·||X||∞·n·eps) on row-major n×n A
// and n×nrhs X, B, eps T's precision.
func residualT[T scalapack.Elem](trans ga.TransOp, a, x, b []T, n, nrhs int) float64 {
	var rmax, amax, xmax float64
	for i := range n {
		row, xr := 0.0, 0.0
		for j := range n {
			row += absT(a[i*n+j])
		}
		amax = max(amax, row)
		for k := range nrhs {
			xr += absT(x[i*nrhs+k])
			var s T
			for j := range n {
				aij := a[i*n+j]
				switch trans {
				case ga.Trans:
					aij = a[j*n+i]
				case ga.ConjTrans:
					aij = conjT(a[j*n+i])
				}
				s += aij * x[j*nrhs+k]
			}
			rmax = max(rmax, absT(s-b[i*nrhs+k]))
		}
		xmax = max(xmax, xr)
	}
	return rmax / (amax * xmax * float64(n) * epsT[T]())
}

func absT[T scalapack.Elem](v T) float64 { return cmplx.Abs(complexOf(v)) }

func conjT[T scalapack.Elem](v T) T {
	return fromC[T](cmplx.Conj(complexOf(v)))
}

// fromC is z as a T: its real part for the real types (truncated toward
// zero for the integers).
func fromC[T ga.Elem](z complex128) T {
	var v T
	switch p := any(&v).(type) {
	case *int32:
		*p = int32(real(z))
	case *int64:
		*p = int64(real(z))
	case *float32:
		*p = float32(real(z))
	case *float64:
		*p = real(z)
	case *complex64:
		*p = complex64(z)
	case *complex128:
		*p = z
	}
	return v
}

func epsT[T scalapack.Elem]() float64 {
	switch any(*new(T)).(type) {
	case float32, complex64:
		return 0x1p-23
	}
	return 0x1p-52
}
