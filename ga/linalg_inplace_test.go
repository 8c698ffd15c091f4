package ga_test

import (
	"fmt"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// The solvers on arrays laid out as ScaLAPACK wants (BlockCyclicGrid, square
// blocks), which they use in place, on every grid shape of the job: with B
// in a compatible layout, with B regular (moved in and out), and with A in
// layouts they can neither use in place nor redistribute with PxGEMR2D
// (non-square blocks, unequal blocks, round-robin blocks), which are copied.
// (TestLinearSolvers covers GA's default distribution, which is in equal
// blocks and redistributed.)
func TestLinearSolversInPlace(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		mpitest.Must(t, ga.Init())
		defer endGA(t)
		np := ga.Nnodes()
		grids := [][]int{{np, 1}, {1, np}}
		if np == 4 {
			grids = append(grids, []int{2, 2})
		}
		regular := func(name string, dims ...int) (*ga.Array[float64], error) {
			return ga.Create[float64](name, dims, nil)
		}
		for _, grid := range grids {
			for _, nb := range []int{4, 5} {
				cyclic := func(rb, cb int) maker {
					return func(name string, dims ...int) (*ga.Array[float64], error) {
						return ga.New[float64](dims...).Name(name).BlockCyclicGrid([]int{rb, cb}, grid).Allocate()
					}
				}
				t.Run(fmt.Sprintf("grid%v/nb%d", grid, nb), func(t *testing.T) {
					checkSolvers(t, cyclic(nb, nb), cyclic(nb, 2))
				})
				t.Run(fmt.Sprintf("grid%v/nb%d/regularB", grid, nb), func(t *testing.T) {
					checkSolvers(t, cyclic(nb, nb), regular)
				})
			}
			t.Run(fmt.Sprintf("grid%v/oblong", grid), func(t *testing.T) {
				checkSolvers(t, func(name string, dims ...int) (*ga.Array[float64], error) {
					return ga.New[float64](dims...).Name(name).BlockCyclicGrid([]int{3, 4}, grid).Allocate()
				}, regular)
			})
		}
		// Unequal blocks are not ScaLAPACK's block distribution: copied by
		// one-sided Gets, as are arrays whose B is in unequal blocks.
		irregular := func(name string, dims ...int) (*ga.Array[float64], error) {
			starts := []int{0}
			if np > 1 && dims[0]/3 > 0 {
				starts = append(starts, dims[0]/3)
			}
			return ga.CreateIrreg[float64](name, dims, [][]int{starts, {0}})
		}
		t.Run("unequal", func(t *testing.T) { checkSolvers(t, irregular, regular) })
		t.Run("unequalB", func(t *testing.T) { checkSolvers(t, regular, irregular) })
		// The simple block-cyclic deal is not ScaLAPACK's: it is copied.
		t.Run("BlockCyclic", func(t *testing.T) {
			checkSolvers(t, func(name string, dims ...int) (*ga.Array[float64], error) {
				return ga.New[float64](dims...).Name(name).BlockCyclic(4, 4).Allocate()
			}, regular)
		})
	})
}
