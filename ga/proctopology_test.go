package ga_test

import (
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestProcTopologyCOrder checks that ProcGrid and ProcTopology answer in C
// order, as their docs say, and that reversing them gives GA C's answers.
// The GA C figures were printed by GA C 5.8.2 (Debian) for a default
// 100 × 100 C_DBL array: GA_Get_proc_grid [1 1], [2 1], [3 1], [2 2] on
// 1-4 processes, and NGA_Proc_topology of rank 1 [1 0] on 2 and 3
// processes, of ranks 1 and 2 on 4 processes [1 0] and [0 1]; and for
// GA_Set_block_cyclic_proc_grid with grid [2 np/2]: GA_Get_proc_grid [1 2]
// and [2 2] on 2 and 4 processes, and GA_Get_proc_index (C order) of rank 1
// [1 0] and [0 1].
func TestProcTopologyCOrder(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		np := ga.Nnodes()

		// goga's grid and each rank's coordinates; GA C's are these reversed.
		grid := map[int][]int{1: {1, 1}, 2: {1, 2}, 3: {1, 3}, 4: {2, 2}}[np]
		gaCGrid := map[int][]int{1: {1, 1}, 2: {2, 1}, 3: {3, 1}, 4: {2, 2}}[np]
		coord := func(r int) []int { return []int{r / grid[1], r % grid[1]} }
		gaCTopology := map[int][][]int{
			1: {{0, 0}},
			2: {{0, 0}, {1, 0}},
			3: {{0, 0}, {1, 0}, {2, 0}},
			4: {{0, 0}, {1, 0}, {0, 1}, {1, 1}},
		}[np]

		a, err := ga.Create[float64]("A", []int{100, 100}, nil)
		must(t, err)
		defer destroy(t, a)
		g := a.ProcGrid()
		if !slices.Equal(g, grid) {
			t.Errorf("ProcGrid() = %v on %d processes, want %v (C order)", g, np, grid)
		}
		if !slices.Equal(fortranOrder(g), gaCGrid) {
			t.Errorf("ProcGrid() = %v reversed is not GA C's GA_Get_proc_grid %v", g, gaCGrid)
		}
		for r := range np {
			c, ok := a.ProcTopology(r)
			if !ok || !slices.Equal(c, coord(r)) {
				t.Errorf("ProcTopology(%d) = %v %v on %d processes, want %v (C order)", r, c, ok, np, coord(r))
				continue
			}
			if rc := fortranOrder(c); !slices.Equal(rc, gaCTopology[r]) {
				t.Errorf("ProcTopology(%d) = %v reversed is not GA C's NGA_Proc_topology %v", r, c, gaCTopology[r])
			}
			// C order agrees with dims: c[d] counts blocks along dimension d.
			lo, hi, _ := a.Distribution(r)
			for d := range 2 {
				// GA's cuts of 100 into 1, 2 and 3 blocks.
				want := map[int][]int{1: {0}, 2: {0, 50}, 3: {0, 34, 67}}[g[d]][c[d]]
				if lo[d] != want {
					t.Errorf("rank %d at %v: Distribution lo %v hi %v, want lo[%d] = %d", r, c, lo, hi, d, want)
				}
			}
		}

		if np%2 == 0 {
			b, err := ga.New[float64](100, 60).Name("B").BlockCyclicGrid([]int{10, 10}, []int{2, np / 2}).Allocate()
			must(t, err)
			defer destroy(t, b)
			if g, want := b.ProcGrid(), []int{2, np / 2}; !slices.Equal(g, want) {
				t.Errorf("BlockCyclicGrid([10 10], %v): ProcGrid() = %v, want the grid as given", want, g)
			}
			gaCGrid := map[int][]int{2: {1, 2}, 4: {2, 2}}[np]
			if g := fortranOrder(b.ProcGrid()); !slices.Equal(g, gaCGrid) {
				t.Errorf("BlockCyclicGrid: ProcGrid() reversed = %v, not GA C's GA_Get_proc_grid %v", g, gaCGrid)
			}
			gaCIndex := map[int][][]int{2: {{0, 0}, {1, 0}}, 4: {{0, 0}, {0, 1}, {1, 0}, {1, 1}}}[np]
			for r := range np {
				if c, ok := b.ProcTopology(r); !ok || !slices.Equal(c, gaCIndex[r]) {
					t.Errorf("BlockCyclicGrid: ProcTopology(%d) = %v %v, want GA C's GA_Get_proc_index %v", r, c, ok, gaCIndex[r])
				}
			}
		}
	})
}

// fortranOrder is GA C's order of goga's C-order grid or coordinates c: c
// reversed, in a new slice.
func fortranOrder(c []int) []int {
	r := slices.Clone(c)
	slices.Reverse(r)
	return r
}
