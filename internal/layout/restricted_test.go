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

// TestRestrictedCyclic: a round-robin deal of 5 blocks over 2 processes,
// restricted to ranks 3 and 1 of 4: block i on rank [3 1][i mod 2], stored
// as that process's would be; ranks 0 and 2 own nothing.
func TestRestrictedCyclic(t *testing.T) {
	m, err := NewCyclic([]int{5}, []int{1}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if m, err = WithRestricted(m, []int{3, 1}, 4); err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{3, 1, 3, 1, 3} {
		if got := m.BlockOwner(i); got != want {
			t.Errorf("block %d owned by %d, want %d", i, got, want)
		}
	}
	for rank, want := range [][]int{nil, {1, 3}, nil, {0, 2, 4}} {
		if got := m.LocalBlocks(rank); !slices.Equal(got, want) || m.LocalSize(rank) != len(want) {
			t.Errorf("rank %d stores blocks %v (%d elements), want %v", rank, got, m.LocalSize(rank), want)
		}
	}
	ext := make([]int, 1)
	if r, off := m.Place([]int{3}, nil, ext); r != 1 || off != 1 {
		t.Errorf("block 3 placed at rank %d offset %d, want rank 1 offset 1", r, off)
	}
	if got := m.Restriction(); !slices.Equal(got, []int{3, 1}) || !m.BlockCyclic() {
		t.Errorf("Restriction = %v, BlockCyclic %v; want [3 1], true", got, m.BlockCyclic())
	}
	if _, err := WithRestricted(m, []int{0, 1}, 4); err == nil {
		t.Errorf("a restricted map restricted again")
	}
}
