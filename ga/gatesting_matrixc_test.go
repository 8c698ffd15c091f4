package ga_test

import (
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingMatrixc ports global/testing/matrixc.c of GlobalArrays/ga
// (commit dd40347): the matrix utilities on an 8 × 8 float64 matrix A with
// A[i][j] = 8i + j and a vector v of 8, as the original runs them in turn,
// every process reading the results back and comparing them exactly:
// GetDiag gives v[i] = 9i; AddDiagonal(v) doubles the diagonal (GetDiag:
// 18i); SetDiagonal of va[i] = 9i restores it; ShiftDiagonal(1) gives
// 9i + 1; ZeroDiagonal gives 0; after SetDiagonal(va) again, ScaleRows(va)
// gives A[i][j]·va[i]; on the original A, ScaleCols(va) gives A[i][j]·va[j].
//
// GA C's GA_Scale_rows and GA_Scale_cols scale C rows and C columns (its C
// binding swaps the Fortran routines), as goga's ScaleRows and ScaleCols
// do. GA C 5.8.2's GA_Zero_diagonal zeroes cells off the diagonal and
// leaves diagonal ones on 2 and 3 processes (run against it), so that
// the original fails there, at its zero_diagonal check and at scale_rows,
// which reads the cells it zeroed; this port checks goga's correct answer,
// and also that ZeroDiagonal leaves every other element as it was.
func TestGATestingMatrixc(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		const n = 8
		me := ga.Nodeid()
		v, err := ga.New[float64](n).Allocate()
		must(t, err)
		defer destroy(t, v)
		a, err := ga.New[float64](n, n).Allocate()
		must(t, err)
		defer destroy(t, a)
		lo, hi := fullPatch([]int{n, n})
		vlo, vhi := fullPatch([]int{n})

		orig := make([]float64, n*n) // the original's a: A[i][j] = 8i + j
		va := make([]float64, n)     // and va[i] = 9i, A's diagonal
		for i := range n {
			for j := range n {
				orig[i*n+j] = float64(j + i*n)
			}
			va[i] = float64(i * (n + 1))
		}
		put := func(x *ga.Array[float64], xlo, xhi []int, buf []float64) {
			if me == 0 {
				must(t, x.Put(xlo, xhi, buf, nil))
			}
			must(t, ga.Sync())
		}
		put(a, lo, hi, orig)

		// diag checks, after GetDiag, that v[i] = want(9i). Like matrix, it
		// ends with a sync, which the original's GA_Igop of its verdict
		// makes: no process may write what another is still reading.
		diag := func(what string, want func(d float64) float64) {
			t.Helper()
			must(t, a.GetDiag(v))
			must(t, ga.Sync())
			got := getAll(t, v)
			for i, d := range va {
				if got[i] != want(d) {
					t.Errorf("%s: diagonal element %d = %v, want %v", what, i, got[i], want(d))
				}
			}
			must(t, ga.Sync())
		}
		// matrix checks that A[i][j] = want(i, j) for every element.
		matrix := func(what string, want func(i, j int) float64) {
			t.Helper()
			got := getAll(t, a)
			for i := range n {
				for j := range n {
					if got[i*n+j] != want(i, j) {
						t.Errorf("%s: A[%d][%d] = %v, want %v", what, i, j, got[i*n+j], want(i, j))
					}
				}
			}
			must(t, ga.Sync())
		}

		diag("GetDiag", func(d float64) float64 { return d })

		must(t, a.AddDiagonal(v))
		must(t, ga.Sync())
		diag("AddDiagonal", func(d float64) float64 { return 2 * d })

		put(v, vlo, vhi, va)
		must(t, a.SetDiagonal(v))
		must(t, ga.Sync())
		diag("SetDiagonal", func(d float64) float64 { return d })

		must(t, a.ShiftDiagonal(1))
		must(t, ga.Sync())
		diag("ShiftDiagonal", func(d float64) float64 { return d + 1 })

		must(t, a.ZeroDiagonal())
		must(t, ga.Sync())
		diag("ZeroDiagonal", func(float64) float64 { return 0 })
		matrix("ZeroDiagonal", func(i, j int) float64 {
			if i == j {
				return 0
			}
			return orig[i*n+j]
		})

		put(v, vlo, vhi, va)
		must(t, a.SetDiagonal(v))
		must(t, ga.Sync())
		must(t, a.ScaleRows(v))
		must(t, ga.Sync())
		matrix("ScaleRows", func(i, j int) float64 { return orig[i*n+j] * va[i] })

		put(a, lo, hi, orig)
		put(v, vlo, vhi, va)
		must(t, a.ScaleCols(v))
		must(t, ga.Sync())
		matrix("ScaleCols", func(i, j int) float64 { return orig[i*n+j] * va[j] })
	})
}
