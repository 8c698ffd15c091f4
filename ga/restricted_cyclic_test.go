package ga_test

import (
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestRestrictedBlockCyclic: block-cyclic arrays, round-robin and on a
// process grid, restricted to some processes listed out of order: their
// blocks are dealt as over len(list) processes, process k's to list[k];
// the others own nothing yet put, get and take part in collectives. Exact
// owners, storage and values on 1-4 processes. GA C 5.8.2 places a
// restricted BlockCyclicGrid array so (4 × 4, blocks 2 × 2, grid [2 1],
// list [2 0] on 3 processes: block row 0 on process 2, row 1 on process
// 0); its round-robin form sizes each process's storage as if unrestricted
// and reads back wrong values, so only the grid's rule is GA's to follow.
func TestRestrictedBlockCyclic(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		np, me := ga.Nnodes(), ga.Nodeid()
		list := restrictionList(np)
		nl := len(list)
		dims := []int{7, 5} // blocks of 2 × 2: a grid of 4 × 3 blocks
		rr, err := ga.New[float64](dims...).Name("rr").BlockCyclic(2, 2).SetRestricted(list...).Allocate()
		must(t, err)
		defer destroy(t, rr)
		grid, err := ga.New[float64](dims...).Name("grid").BlockCyclicGrid([]int{2, 2}, []int{nl, 1}).SetRestricted(list...).Allocate()
		must(t, err)
		defer destroy(t, grid)
		owner := map[string]func(b int) int{
			"rr":   func(b int) int { return list[b%nl] },
			"grid": func(b int) int { return list[(b/3)%nl] }, // block row mod the grid's rows
		}
		want := make([]float64, total(dims))
		for k := range want {
			want[k] = float64(k + 1)
		}
		for _, a := range []*ga.Array[float64]{rr, grid} {
			own := owner[a.Name()]
			if a.TotalBlocks() != 12 {
				t.Errorf("%s: %d blocks, want 12", a.Name(), a.TotalBlocks())
			}
			var mine []int
			for b := range 12 {
				if got := a.BlockOwner(b); got != own(b) {
					t.Errorf("%s: block %d owned by %d, want %d", a.Name(), b, got, own(b))
				}
				if own(b) == me {
					mine = append(mine, b)
				}
				lo, _, _ := a.Distribution(b)
				if r, err := a.Locate(lo); err != nil || r != own(b) {
					t.Errorf("%s: Locate(%v) = %d, %v; want %d", a.Name(), lo, r, err, own(b))
				}
			}
			if got := a.LocalBlocks(); !slices.Equal(got, mine) {
				t.Errorf("%s: process %d stores blocks %v, want %v", a.Name(), me, got, mine)
			}
			// Every process puts rows of its own, listed or not.
			for r := me; r < dims[0]; r += np {
				must(t, a.Put([]int{r, 0}, []int{r, dims[1] - 1}, want[r*dims[1]:(r+1)*dims[1]], nil))
			}
			must(t, ga.Sync())
			sameElems(t, a.Name()+": rows put by every process", getAll(t, a), want)
			// In place, each block holds its patch's values.
			for _, b := range mine {
				p, ld, err := a.AccessBlock(b)
				must(t, err)
				lo, hi, _ := a.Distribution(b)
				eachSub(lo, hi, func(sub []int) {
					if v := p[(sub[0]-lo[0])*ld[0]+sub[1]-lo[1]]; v != want[linear(dims, sub)] {
						t.Errorf("%s: block %d holds %v at %v, want %v", a.Name(), b, v, sub, want[linear(dims, sub)])
					}
				})
			}
			seg, err := a.AccessBlockSegment()
			must(t, err)
			n := 0
			for _, b := range mine {
				lo, hi, _ := a.Distribution(b)
				n += (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1)
			}
			if len(seg) != n {
				t.Errorf("%s: process %d stores %d elements, want %d", a.Name(), me, len(seg), n)
			}
		}
		if g := grid.ProcGrid(); !slices.Equal(g, []int{nl, 1}) || !grid.UsesProcGrid() || rr.UsesProcGrid() {
			t.Errorf("ProcGrid = %v, want [%d 1]; UsesProcGrid %v and round-robin's %v, want true, false", g, nl, grid.UsesProcGrid(), rr.UsesProcGrid())
		}

		// Collectives with a plain array and between the two.
		must(t, ga.Sync())
		b, err := ga.Create[float64]("plain", dims, nil)
		must(t, err)
		defer destroy(t, b)
		must(t, b.Fill(1))
		must(t, rr.Scale(3))
		dot, err := ga.Dot(rr, b)
		must(t, err)
		if w := float64(3 * total(dims) * (total(dims) + 1) / 2); dot != w {
			t.Errorf("Dot = %v, want %v", dot, w)
		}
		must(t, ga.Add(1, rr, -2, grid, grid))
		for k := range want {
			want[k] = float64(k + 1)
		}
		sameElems(t, "Add of the two", getAll(t, grid), want)
		d, err := grid.Duplicate("dup")
		must(t, err)
		defer destroy(t, d)
		if !ga.CompareDistr(grid, d) || ga.CompareDistr(grid, rr) {
			t.Errorf("CompareDistr: duplicate %v, round-robin %v; want true, false", ga.CompareDistr(grid, d), ga.CompareDistr(grid, rr))
		}
		must(t, ga.Copy(grid, d))
		sameElems(t, "Copy into the duplicate", getAll(t, d), want)
		if np > 1 && !slices.Contains(list, me) {
			if _, _, err := rr.AccessBlock(0); err == nil {
				t.Errorf("process %d, not listed, accessed block 0", me)
			}
		}
		must(t, ga.Sync())
	})
}
