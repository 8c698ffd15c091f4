package ga_test

import (
	"fmt"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// The solvers on arrays laid out as ScaLAPACK wants (BlockCyclicGrid, square
// blocks), which they use in place, on every grid shape of the job: with B
// in a compatible layout, with B regular (moved in and out), and with A in a
// layout they cannot use in place (non-square blocks), which is copied.
func TestLinearSolversInPlace(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		mpitest.Must(t, ga.Init())
		defer func() { mpitest.Must(t, ga.Terminate()) }()
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
		// The simple block-cyclic deal is not ScaLAPACK's: it is copied.
		t.Run("BlockCyclic", func(t *testing.T) {
			checkSolvers(t, func(name string, dims ...int) (*ga.Array[float64], error) {
				return ga.New[float64](dims...).Name(name).BlockCyclic(4, 4).Allocate()
			}, regular)
		})
	})
}
