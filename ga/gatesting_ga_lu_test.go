package ga_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingGaLu ports global/testing/ga_lu.c of GlobalArrays/ga (commit
// dd40347). Its LU factorization is not there to port: the call is
// commented out in the original (GA_Lu does not exist), and so is its
// LAPACK check. What it runs is the rest, twice: a 1234 × 1234 float64
// matrix of uniform values in [0, 1] whose diagonal is forced to
// max + i; two arrays A and B dealt block-cyclically in 500 × 500 blocks
// over a ScaLAPACK-style 2 × np/2 process grid (BlockCyclicGrid); process 0
// puts the whole matrix into A; Transpose(A, B). The original checks
// nothing after that; this checks that B is the matrix's transpose,
// exactly, on every process.
//
// The original refuses an odd number of processes itself (GA_Error "nprocs
// must be divisible by 2"); goga refuses the grid 2 × np/2 then, since it
// does not hold np processes, with an error on every process naming the
// grid, which the test checks at np 1 and 3 before it runs the rest on a
// 1 × np grid.
func TestGATestingGaLu(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		const (
			n     = 1234
			block = 500
		)
		me, nproc := ga.Nodeid(), ga.Nnodes()
		blocks := []int{block, block}
		grid := []int{2, nproc / 2}
		if nproc%2 != 0 {
			_, err := ga.New[float64](n, n).Name("A").BlockCyclicGrid(blocks, grid).Allocate()
			wantErr(t, "odd np", err, "Allocate", "A", nil, fmt.Sprint(grid))
			grid = []int{1, nproc}
		}
		// rand() unseeded gives every process of the original the same
		// matrix; one seed does that here.
		rng := rand.New(rand.NewPCG(1234, 500))
		m := make([]float64, n*n)
		got := make([]float64, n*n)
		for range 2 {
			mx := 0.0
			for i := range m {
				m[i] = rng.Float64()
				mx = max(mx, m[i])
			}
			// The diagonal is the largest element, so LU needs no pivoting.
			for i := range n {
				m[i*n+i] = mx + float64(i)
			}

			a, err := ga.New[float64](n, n).Name("A").BlockCyclicGrid(blocks, grid).Allocate()
			must(t, err)
			b, err := ga.New[float64](n, n).Name("B").BlockCyclicGrid(blocks, grid).Allocate()
			must(t, err)
			if me == 0 {
				must(t, a.Put([]int{0, 0}, []int{n - 1, n - 1}, m, nil))
			}
			must(t, ga.Sync())
			must(t, ga.Transpose(a, b))

			must(t, b.Get([]int{0, 0}, []int{n - 1, n - 1}, got, nil))
			bad := 0
			for i := range n {
				for j := range n {
					if got[i*n+j] != m[j*n+i] {
						if bad == 0 {
							t.Errorf("grid %v: B(%d, %d) = %v, want A(%d, %d) = %v", grid, i, j, got[i*n+j], j, i, m[j*n+i])
						}
						bad++
					}
				}
			}
			if bad > 0 {
				t.Errorf("grid %v: %d elements of B are not A's transpose", grid, bad)
			}
			must(t, a.Destroy())
			must(t, b.Destroy())
		}
	})
}
