package ga_test

import (
	"math"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingTestc ports global/testing/testc.c of GlobalArrays/ga
// (commit dd40347): a 100 × 100 float64 matrix A, filled row by row by the
// processes in turn (row r gets sin(i + 0.1(r+1)) at column i), is
// symmetrized; B = Aᵀ by Transpose, B = A - B by Add, and Dot(B, B) must be
// 0. The original prints that error without checking it; GA C 5.8.2 gives
// exactly 0 at np 1-4, which this port requires, and it also checks
// Symmetrize's values, (a + aᵀ)/2 within 1e-15 of the model, which
// symmetry alone would not catch. Then every process accumulates
// 0, 1, ..., 99 into row 50 of the zeroed A (alpha 1): after Sync, the row
// must hold nproc·i exactly, as the original checks on process 0 (here on
// every process).
func TestGATestingTestc(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		const n = 100
		me, nproc := ga.Nodeid(), ga.Nnodes()
		a, err := ga.Create[float64]("A", []int{n, n}, nil)
		must(t, err)
		defer destroy(t, a)
		b, err := a.Duplicate("B")
		must(t, err)
		defer destroy(t, b)
		must(t, a.Zero())

		elem := func(row, i int) float64 { return math.Sin(float64(i) + 0.1*float64(row+1)) }
		buf := make([]float64, n)
		for row := me; row < n; row += nproc {
			for i := range buf {
				buf[i] = elem(row, i)
			}
			must(t, a.Put([]int{row, 0}, []int{row, n - 1}, buf, nil))
		}

		must(t, a.Symmetrize())
		got := getAll(t, a)
		for i := range n {
			for j := range n {
				if want := (elem(i, j) + elem(j, i)) / 2; math.Abs(got[i*n+j]-want) > 1e-15 {
					t.Errorf("Symmetrize: A[%d][%d] = %v, want %v", i, j, got[i*n+j], want)
				}
			}
		}
		must(t, ga.Transpose(a, b))
		must(t, ga.Add(1, a, -1, b, b))
		e, err := ga.Dot(b, b)
		must(t, err)
		if e != 0 {
			t.Errorf("Dot(A - Aᵀ, A - Aᵀ) after Symmetrize = %v, want 0", e)
		}

		// Every process accumulates into the same row.
		must(t, a.Zero())
		for i := range buf {
			buf[i] = float64(i)
		}
		row := n / 2
		lo, hi := []int{row, 0}, []int{row, n - 1}
		must(t, a.Acc(lo, hi, buf, nil, 1))
		must(t, ga.Sync())
		must(t, a.Get(lo, hi, buf, nil))
		for i, x := range buf {
			if x != float64(nproc*i) {
				t.Errorf("accumulate: A[%d][%d] = %v, want %v", row, i, x, nproc*i)
			}
		}
	})
}
