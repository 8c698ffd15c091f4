package layout

import (
	"slices"
	"testing"
)

// TestRestricted: a 6 × 4 map for 3 processes dealt to ranks 4, 1 and 2 of
// 5: block i goes to the i-th listed rank, with the element offsets of the
// blocks packed; the others own nothing; bad lists are refused.
func TestRestricted(t *testing.T) {
	base, err := Regular([]int{6, 4}, nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	m, err := WithRestricted(base, []int{4, 1, 2}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Restriction(), []int{4, 1, 2}) || m.BlockCyclic() {
		t.Errorf("Restriction() = %v, BlockCyclic() = %v", m.Restriction(), m.BlockCyclic())
	}
	for i, r := range []int{4, 1, 2} {
		if got := m.BlockOwner(i); got != r {
			t.Errorf("BlockOwner(%d) = %d, want %d", i, got, r)
		}
		blo, bhi := base.Patch(i)
		lo, hi, ok := m.Block(r)
		if !ok || !slices.Equal(lo, blo) || !slices.Equal(hi, bhi) {
			t.Errorf("Block(%d) = %v %v %v, want block %d's %v %v", r, lo, hi, ok, i, blo, bhi)
		}
		if got, want := m.LocalSize(r), Volume(blo, bhi); got != want {
			t.Errorf("LocalSize(%d) = %d, want %d", r, got, want)
		}
		ext := make([]int, 2)
		rank, off := m.Place(base.BlockCoords(i), bhi, ext)
		if rank != r || off != Volume(blo, bhi)-1 {
			t.Errorf("Place of block %d's last element = rank %d offset %d, want %d %d", i, rank, off, r, Volume(blo, bhi)-1)
		}
	}
	for _, r := range []int{0, 3} {
		if _, _, ok := m.Block(r); ok || m.LocalSize(r) != 0 || m.LocalBlocks(r) != nil {
			t.Errorf("rank %d, not listed, owns something", r)
		}
	}
	for _, bad := range [][]int{nil, {1, 1, 2}, {0, 5, 1}, {-1, 0, 1}, {0, 1}} {
		if _, err := WithRestricted(base, bad, 5); err == nil {
			t.Errorf("WithRestricted(%v): no error", bad)
		}
	}
}
