package layout

import (
	"fmt"
	"slices"
	"testing"
)

// ghostCases are arrays with ghost cells: dims, widths and block starts.
var ghostCases = []struct {
	dims, width []int
	starts      [][]int
}{
	{[]int{2, 4}, []int{1, 1}, [][]int{{0}, {0, 2}}},
	{[]int{9}, []int{2}, [][]int{{0, 3, 5}}},
	{[]int{7, 6}, []int{2, 0}, [][]int{{0, 2, 4}, {0, 3}}},
	{[]int{5, 6, 4}, []int{1, 3, 2}, [][]int{{0, 2}, {0, 3}, {0}}},
	{[]int{3, 3}, []int{3, 1}, [][]int{{0}, {0, 1, 2}}},
	{[]int{4, 3, 2, 5}, []int{1, 1, 0, 2}, [][]int{{0, 2}, {0}, {0, 1}, {0, 2}}},
}

// fillHalo plays every piece of block i's halo into a model of its storage, each cell holding the C-order index of
// the element it copies, and returns the model (-1: not written) with the
// storage's extents. It fails if two pieces write one cell.
func fillHalo(t *testing.T, m Map, i int) ([]int, []int) {
	t.Helper()
	nd := len(m.Dims)
	ext := make([]int, nd)
	m.Place(m.BlockCoords(i), nil, ext)
	cells := slices.Repeat([]int{-1}, Product(ext))
	dir := make([]int, nd)
	for k := range Product(slices.Repeat([]int{3}, nd)) {
		for d, x := range Unravel(slices.Repeat([]int{3}, nd), k) {
			dir[d] = x - 1
		}
		p, ok := m.Ghost(i, dir)
		if !ok {
			continue
		}
		shape := make([]int, nd)
		for d := range nd {
			shape[d] = p.Hi[d] - p.Lo[d] + 1
		}
		for e := range Product(shape) {
			sub := Unravel(shape, e)
			at, src := 0, 0
			for d := range nd {
				at = at*ext[d] + p.At[d] + sub[d]
				src = src*m.Dims[d] + p.Lo[d] + sub[d]
			}
			if cells[at] != -1 {
				t.Fatalf("block %d dir %v: cell %d written twice", i, dir, at)
			}
			cells[at] = src
		}
	}
	return cells, ext
}

// TestGhostPieces checks that the pieces of every block's halo cover it once,
// each cell with the element at its position wrapped around the array, and
// leave the block's own cells alone; with a fixed dimension, the cells
// past its ends are left too.
func TestGhostPieces(t *testing.T) {
	for _, tc := range ghostCases {
		periodic, err := WithGhosts(Map{Dims: tc.dims, Starts: tc.starts}, tc.width)
		if err != nil {
			t.Fatal(err)
		}
		nd := len(tc.dims)
		// Every dimension periodic, then the first one fixed.
		fixed := make([]bool, nd)
		fixed[0] = true
		firstFixed, err := WithFixed(periodic, fixed)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []Map{periodic, firstFixed} {
			for i := range m.Blocks() {
				cells, ext := fillHalo(t, m, i)
				lo, hi := m.Patch(i)
				for at, got := range cells {
					s := Unravel(ext, at)
					inside, past, want := true, false, 0
					for d := range nd {
						g := lo[d] - tc.width[d] + s[d]
						inside = inside && g >= lo[d] && g <= hi[d]
						past = past || m.deal.(Ghosts).Fixed != nil && fixed[d] && (g < 0 || g >= tc.dims[d])
						want = want*tc.dims[d] + (g+tc.dims[d])%tc.dims[d]
					}
					if inside || past {
						want = -1
					}
					if got != want {
						t.Fatalf("%v width %v fixed %v block %d: storage cell %v holds %d, want %d", tc.dims, tc.width, m.deal.(Ghosts).Fixed, i, s, got, want)
					}
				}
			}
		}
	}
	if _, err := WithFixed(Map{Dims: []int{4}, Starts: [][]int{{0}}}, []bool{true}); err == nil {
		t.Error("WithFixed on a map without ghost cells: no error")
	}
}

func TestWithGhostsRefuses(t *testing.T) {
	plain := Map{Dims: []int{10, 8}, Starts: [][]int{{0, 5}, {0, 3}}}
	cyclic, err := NewCyclic([]int{7, 9}, []int{2, 3}, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		m     Map
		width []int
	}{
		{plain, []int{1}},
		{plain, []int{-1, 0}},
		{plain, []int{6, 1}},
		{plain, []int{1, 4}},
		{cyclic, []int{1, 1}},
	} {
		if _, err := WithGhosts(tc.m, tc.width); err == nil {
			t.Errorf("%v width %v: no error", tc.m.Dims, tc.width)
		}
	}
	m, err := WithGhosts(plain, []int{0, 0})
	if err != nil || m.GhostWidths() != nil {
		t.Errorf("zero widths: %v, widths %v; want the map unchanged", err, m.GhostWidths())
	}
	m, err = WithGhosts(plain, []int{5, 3})
	if err != nil || m.BlockCyclic() || fmt.Sprint(m.GhostWidths()) != "[5 3]" {
		t.Errorf("widths of whole blocks: %v, cyclic %v, widths %v", err, m.BlockCyclic(), m.GhostWidths())
	}
}

// TestFaces checks that a block's faces, packed in the order of
// Directions, lie one after another and fill exactly its halo's size, and
// that each face holds the elements that the neighbour on its side copies
// into the piece of its halo facing the block.
func TestFaces(t *testing.T) {
	for _, tc := range ghostCases {
		t.Run(fmt.Sprint(tc.dims, tc.width), func(t *testing.T) {
			m, err := WithGhosts(Map{Dims: tc.dims, Starts: tc.starts}, tc.width)
			if err != nil {
				t.Fatal(err)
			}
			nd := len(tc.dims)
			for i := range m.Blocks() {
				lo, hi := m.Patch(i)
				next := 0
				Directions(nd, func(dir []int) {
					f := m.Face(i, dir)
					if f.Off != next {
						t.Errorf("block %d dir %v: face at %d, want %d", i, dir, f.Off, next)
					}
					next += Product(f.Count)
					// The neighbour's piece facing the block copies
					// exactly the face's elements.
					back := make([]int, nd)
					for d := range dir {
						back[d] = -dir[d]
					}
					p, ok := m.Ghost(m.Neighbour(i, dir), back)
					if !ok {
						if Product(f.Count) != 0 {
							t.Errorf("block %d dir %v: no piece faces a face of %v elements", i, dir, f.Count)
						}
						return
					}
					if m.BlockAt(p.Lo) != i {
						t.Errorf("block %d dir %v: the facing piece %v..%v is not block %d's", i, dir, p.Lo, p.Hi, i)
					}
					for d := range nd {
						want := lo[d] + f.At[d] - tc.width[d]
						if p.Lo[d] != want || p.Hi[d]-p.Lo[d]+1 != f.Count[d] {
							t.Errorf("block %d dir %v dim %d: piece [%d, %d], face from %d count %d (block [%d, %d])",
								i, dir, d, p.Lo[d], p.Hi[d], want, f.Count[d], lo[d], hi[d])
						}
					}
				})
				if want := m.LocalSize(m.BlockOwner(i)) - Volume(lo, hi); next != want {
					t.Errorf("block %d: faces hold %d elements, the halo %d", i, next, want)
				}
			}
		})
	}
}
