package ga_test

import (
	"math/cmplx"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/scalapack"
)

// TestGATestingGemmtest ports global/testing/gemmtest.c of GlobalArrays/ga
// (commit dd40347): in float32, float64, complex128 and complex64, on 8 × 8
// arrays A[i][j] = 8i+j and B[i][j] = 8j+i (+1i for the complex types) put
// by process 0, MatmulPatch computes C = A·B over the whole arrays, then,
// with the arrays zeroed, over the patch [2, 5] × [2, 5] holding the same
// values. Each product is checked as the original's checks do (which its
// build leaves out, #if 0): every element against a product computed here
// within a relative 1e-4, and the model put into A, subtracted from C (Add,
// AddPatch into B) and the difference's dot (Dot, DotPatch) within 1e-4 of
// A's. The original's four layouts are each run (it builds one, regular):
// GA's default, simple block-cyclic in 2 × 1 blocks, and 2 × 1 blocks
// block-cyclic (ScaLAPACK) and tiled over the process grid its grid_factor
// makes. GA C 5.8 passes these checks on 1-4 processes in the first three
// layouts; in the tiled one it computes a wrong C on 1-3 processes. The
// sizes are the original's; NGA_Matmul_patch takes C-order bounds as
// MatmulPatch does.
func TestGATestingGemmtest(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		for _, layout := range []string{"regular", "simple block-cyclic", "ScaLAPACK", "tiled"} {
			t.Run(layout, func(t *testing.T) {
				t.Run("float32", func(t *testing.T) { gemmtestCase[float32](t, layout) })
				t.Run("float64", func(t *testing.T) { gemmtestCase[float64](t, layout) })
				t.Run("complex128", func(t *testing.T) { gemmtestCase[complex128](t, layout) })
				t.Run("complex64", func(t *testing.T) { gemmtestCase[complex64](t, layout) })
			})
		}
	})
}

func gemmtestCase[T scalapack.Elem](t *testing.T, layout string) {
	const N = 8
	b := ga.New[T](N, N).Name("array A")
	block := []int{2, 1}
	switch layout {
	case "simple block-cyclic":
		b.BlockCyclic(block...)
	case "ScaLAPACK":
		x, y := gemmtestGrid(ga.Nnodes())
		b.BlockCyclicGrid(block, []int{x, y})
	case "tiled":
		x, y := gemmtestGrid(ga.Nnodes())
		b.SetTiledProcGrid(block, []int{x, y})
	}
	arrA, err := b.Allocate()
	must(t, err)
	defer destroy(t, arrA)
	arrB, err := arrA.Duplicate("array B")
	must(t, err)
	defer destroy(t, arrB)
	arrC, err := arrA.Duplicate("array C")
	must(t, err)
	defer destroy(t, arrC)

	// values is A's (or, transposed, B's) patch [lo, lo+n) in both
	// dimensions, row-major.
	values := func(lo, n int, transposed bool) []T {
		return pattern([]int{n, n}, func(l int) T {
			i, j := lo+l/n, lo+l%n
			if transposed {
				i, j = j, i
			}
			return mk[T](i*N+j, 1)
		})
	}
	gemmtestProduct(t, "whole arrays", arrA, arrB, arrC, 0, N, values(0, N, false), values(0, N, true), true)

	for _, x := range []*ga.Array[T]{arrA, arrB, arrC} {
		must(t, x.Zero())
	}
	gemmtestProduct(t, "patch", arrA, arrB, arrC, N/4, N/2, values(N/4, N/2, false), values(N/4, N/2, true), false)
}

// gemmtestProduct multiplies the patches [lo, lo+n) × [lo, lo+n) of a and b
// (first put there from av and bv) into c's, and checks C as gemmtest.c's
// checks do; whole says the patches are the whole arrays, checked with Dot
// and Add as the original does there.
func gemmtestProduct[T scalapack.Elem](t *testing.T, what string, a, b, c *ga.Array[T], lo0, n int, av, bv []T, whole bool) {
	const tol = 1e-4
	lo, hi := []int{lo0, lo0}, []int{lo0 + n - 1, lo0 + n - 1}
	if ga.Nodeid() == 0 {
		must(t, a.Put(lo, hi, av, nil))
		must(t, b.Put(lo, hi, bv, nil))
	}
	must(t, ga.Sync())
	one, zero := mk[T](1, 0), mk[T](0, 0)
	must(t, ga.MatmulPatch(ga.NoTrans, ga.NoTrans, one, a, lo, hi, b, lo, hi, zero, c, lo, hi))

	model := make([]T, n*n)
	for i := range n {
		for j := range n {
			for k := range n {
				model[i*n+j] += av[i*n+k] * bv[k*n+j]
			}
		}
	}
	if ga.Nodeid() == 0 {
		got := make([]T, n*n)
		must(t, c.Get(lo, hi, got, nil))
		for i := range got {
			diff := cmplx.Abs(complexOf(got[i] - model[i]))
			if got[i] != zero {
				diff /= cmplx.Abs(complexOf(got[i]))
			}
			if diff > tol {
				t.Errorf("%s: C[%d][%d] = %v, want %v", what, lo0+i/n, lo0+i%n, got[i], model[i])
			}
		}
		must(t, a.Put(lo, hi, model, nil))
	}
	must(t, ga.Sync())

	// B = A - C, and its dot relative to A's.
	var norm, diff T
	var err error
	if whole {
		norm, err = ga.Dot(a, a)
		must(t, err)
		must(t, b.Zero())
		must(t, ga.Add(one, a, -one, c, b))
		diff, err = ga.Dot(b, b)
	} else {
		norm, err = ga.DotPatch(a, ga.NoTrans, lo, hi, a, ga.NoTrans, lo, hi)
		must(t, err)
		must(t, b.ZeroPatch(lo, hi))
		must(t, ga.AddPatch(one, a, lo, hi, -one, c, lo, hi, b, lo, hi))
		diff, err = ga.DotPatch(b, ga.NoTrans, lo, hi, b, ga.NoTrans, lo, hi)
	}
	must(t, err)
	rel := cmplx.Abs(complexOf(diff))
	if norm != zero {
		rel /= cmplx.Abs(complexOf(norm))
	}
	if rel > tol {
		t.Errorf("%s: the difference from the model has dot %v against %v", what, diff, norm)
	}
}

// gemmtestGrid is gemmtest.c's grid_factor: p's prime factors, largest
// first, each multiplied into the smaller side of an x × y grid (x first
// on ties).
func gemmtestGrid(p int) (x, y int) {
	var fac []int
	for q, r := 2, p; r > 1; q++ {
		for ; r%q == 0; r /= q {
			fac = append(fac, q)
		}
	}
	x, y = 1, 1
	for i := len(fac) - 1; i >= 0; i-- {
		if x <= y {
			x *= fac[i]
		} else {
			y *= fac[i]
		}
	}
	return x, y
}
