package layout

import "testing"

// TestTiledGrid: on tiled maps, regular and irregular, every element lies in
// its owner's storage exactly once, inside [0, LocalSize), the blocks one
// after another in index order, each packed, and owners follow the grid.
func TestTiledGrid(t *testing.T) {
	reg, err := NewTiledGrid([]int{7, 10}, []int{2, 3}, []int{2, 2})
	if err != nil {
		t.Fatal(err)
	}
	irr, err := NewTiledIrregGrid([]int{6, 9}, [][]int{{0, 1, 4}, {0, 2, 3, 7}}, []int{3, 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		m    Map
		grid []int
	}{{"regular", reg, []int{2, 2}}, {"irregular", irr, []int{3, 1}}} {
		m := c.m
		if !m.BlockCyclic() || m.ProcGrid() != nil {
			t.Errorf("%s: BlockCyclic() = %v, ProcGrid() = %v", c.name, m.BlockCyclic(), m.ProcGrid())
		}
		np := Product(c.grid)
		seen := make([][]int, np)
		for r := range np {
			seen[r] = make([]int, m.LocalSize(r))
		}
		for i := range m.Blocks() {
			bc := m.BlockCoords(i)
			want := 0
			for d, x := range bc {
				want = want*c.grid[d] + x%c.grid[d]
			}
			if got := m.BlockOwner(i); got != want {
				t.Errorf("%s: block %d at %v owned by %d, want %d", c.name, i, bc, got, want)
			}
			lo, hi := m.Patch(i)
			ext := make([]int, len(lo))
			first := -1
			for k := range Volume(lo, hi) {
				sub := Unravel(shapeOf(lo, hi), k)
				for d := range sub {
					sub[d] += lo[d]
				}
				rank, off := m.Place(bc, sub, ext)
				if first < 0 {
					first = off
				}
				if rank != want || off != first+k || off >= len(seen[rank]) {
					t.Fatalf("%s: element %v at rank %d offset %d (block starts at %d, storage %d)", c.name, sub, rank, off, first, len(seen[rank]))
				}
				seen[rank][off]++
			}
		}
		for r, s := range seen {
			for off, n := range s {
				if n != 1 {
					t.Errorf("%s: rank %d offset %d holds %d elements", c.name, r, off, n)
				}
			}
		}
	}
	if _, err := NewTiledGrid([]int{4, 4}, []int{2, 2}, []int{2}); err == nil {
		t.Errorf("a grid of 1 dimension for 2: no error")
	}
	if _, err := NewTiledIrregGrid([]int{4}, [][]int{{1, 2}}, []int{1}); err == nil {
		t.Errorf("irregular starts not from 0: no error")
	}
}

func shapeOf(lo, hi []int) []int {
	s := make([]int, len(lo))
	for d := range s {
		s[d] = hi[d] - lo[d] + 1
	}
	return s
}
