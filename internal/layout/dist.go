// Package layout is the index arithmetic of global arrays' layouts, with no
// MPI: which blocks an n-dimensional array is cut into, which rank owns which
// block and where in its storage each element lives, and which ranks own
// parts of a patch. Indices are 0-based, in C order (the last index fastest),
// and lo/hi are inclusive, as in GA's C interface.
//
// A layout is a Map: the blocks (Dims and Starts, common to every
// distribution) and a Deal, which gives the blocks to ranks and lays out each
// rank's storage. The deals are one block per rank (regular and irregular
// arrays), round-robin (GA_Set_block_cyclic) and a process grid
// (GA_Set_block_cyclic_proc_grid). A new distribution is a new Deal; ghost
// widths belong to a deal's storage (its extents grow by the halo and its
// offsets move into it) and a restricted process list to its owners, so that
// the arrays' code, which reaches storage only through Place, LocalSize and
// Spans, does not change.
package layout

import (
	"fmt"
)

// MaxDim is the most dimensions an array may have.
const MaxDim = 7

// Map is a layout: along dimension d the array is cut at Starts[d] (the first
// index of each block, ascending, starting at 0). The blocks' Cartesian
// product is numbered in row-major order over the grid of block counts (the
// last dimension fastest, which is GA's column-major order in Fortran terms);
// that number is the block's index. Its deal gives the blocks to ranks.
//
// A Map made as a literal, or by Regular, gives block i to rank i, which
// stores it packed, and ranks past the grid own nothing. The block-cyclic
// maps made by NewCyclic and NewProcGrid deal many blocks to each rank.
type Map struct {
	Dims   []int
	Starts [][]int

	// BlockDims is the block size a block-cyclic map was asked for (the blocks
	// along a dimension are shorter when it exceeds the extent).
	BlockDims []int

	deal Deal // nil: one block per rank
}

// Grid returns the number of blocks along each dimension.
func (m Map) Grid() []int {
	g := make([]int, len(m.Starts))
	for d, s := range m.Starts {
		g[d] = len(s)
	}
	return g
}

// Blocks returns the number of blocks; on a map that is not block-cyclic it
// is the number of ranks that own data.
func (m Map) Blocks() int {
	n := 1
	for _, s := range m.Starts {
		n *= len(s)
	}
	return n
}

// Check verifies that dims and starts describe a valid map.
func (m Map) Check() error {
	if len(m.Dims) < 1 || len(m.Dims) > MaxDim {
		return fmt.Errorf("%d dimensions; want 1 to %d", len(m.Dims), MaxDim)
	}
	if len(m.Starts) != len(m.Dims) {
		return fmt.Errorf("block starts for %d dimensions, array has %d", len(m.Starts), len(m.Dims))
	}
	for d, n := range m.Dims {
		if n < 1 {
			return fmt.Errorf("dimension %d has extent %d", d, n)
		}
		s := m.Starts[d]
		if len(s) < 1 || s[0] != 0 {
			return fmt.Errorf("dimension %d: blocks must start at 0 (got %v)", d, s)
		}
		for i := 1; i < len(s); i++ {
			if s[i] <= s[i-1] || s[i] >= n {
				return fmt.Errorf("dimension %d: block starts %v are not increasing inside [0, %d)", d, s, n)
			}
		}
	}
	return nil
}

// Deal returns how the map deals its blocks.
func (m Map) Deal() Deal {
	if m.deal == nil {
		return OnePerRank{}
	}
	return m.deal
}

// BlockCyclic reports whether ranks may own more than one block.
func (m Map) BlockCyclic() bool {
	switch m.Deal().(type) {
	case OnePerRank, Ghosts, Restricted:
		return false
	}
	return true
}

// ProcGrid returns the process grid of a NewProcGrid map, or nil.
func (m Map) ProcGrid() []int {
	if g, ok := m.deal.(*ProcGrid); ok {
		return g.Grid
	}
	return nil
}

// Coords returns rank's coordinates in the process grid (the grid of blocks,
// or the ProcGrid's), and false if it has none.
func (m Map) Coords(rank int) ([]int, bool) { return m.Deal().Coords(&m, rank) }

// BlockCoords returns the coordinates of block i in the grid of blocks.
func (m Map) BlockCoords(i int) []int { return Unravel(m.Grid(), i) }

// Index returns the index of the block at coordinates c.
func (m Map) Index(c []int) int {
	r := 0
	for d, s := range m.Starts {
		r = r*len(s) + c[d]
	}
	return r
}

// BlockOwner returns the rank that owns block i.
func (m Map) BlockOwner(i int) int { return m.Deal().Owner(&m, i) }

// Patch returns the patch of block i.
func (m Map) Patch(i int) (lo, hi []int) {
	c := m.BlockCoords(i)
	lo, hi = make([]int, len(c)), make([]int, len(c))
	for d := range c {
		lo[d], hi[d] = m.BlockRange(d, c[d])
	}
	return lo, hi
}

// BlockRange is the index range of the i-th block along dimension d.
func (m Map) BlockRange(d, i int) (lo, hi int) {
	s := m.Starts[d]
	lo = s[i]
	if i+1 < len(s) {
		return lo, s[i+1] - 1
	}
	return lo, m.Dims[d] - 1
}

// Block returns the patch rank owns on a map that is not block-cyclic; ok is
// false if it owns nothing or the map is block-cyclic.
func (m Map) Block(rank int) (lo, hi []int, ok bool) {
	if m.BlockCyclic() {
		return nil, nil, false
	}
	b := m.LocalBlocks(rank)
	if len(b) != 1 {
		return nil, nil, false
	}
	lo, hi = m.Patch(b[0])
	return lo, hi, true
}

// BlockOf returns the position along d of the block that holds index i.
func (m Map) BlockOf(d, i int) int { return BlockIndex(m.Starts[d], i) }

// BlockIndex is the index of the block of starts s (ascending, s[0] = 0)
// that holds i: the last start at or below i. A loop rather than
// sort.Search, whose call per probe was a quarter of placing an element.
func BlockIndex(s []int, i int) int {
	lo, hi := 0, len(s)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if s[mid] <= i {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// BlockAt returns the index of the block that holds the element at sub
// (which must be inside the array).
func (m Map) BlockAt(sub []int) int {
	r := 0
	for d, s := range m.Starts {
		r = r*len(s) + m.BlockOf(d, sub[d])
	}
	return r
}

// Owner returns the rank that owns the element at sub (which must be inside
// the array).
func (m Map) Owner(sub []int) int { return m.BlockOwner(m.BlockAt(sub)) }

// Owners calls f, in block-index order, for every block that holds part of
// the patch [lo, hi] (inside the array), with that part. f returns false to
// stop. On a map that is not block-cyclic the block index is the owner's rank.
func (m Map) Owners(lo, hi []int, f func(block int, lo, hi []int) bool) {
	n := len(m.Starts)
	first, last := make([]int, n), make([]int, n)
	for d := range n {
		first[d], last[d] = m.BlockOf(d, lo[d]), m.BlockOf(d, hi[d])
	}
	c := append([]int(nil), first...)
	plo, phi := make([]int, n), make([]int, n)
	for {
		for d := range n {
			blo, bhi := m.BlockRange(d, c[d])
			plo[d], phi[d] = max(blo, lo[d]), min(bhi, hi[d])
		}
		if !f(m.Index(c), plo, phi) {
			return
		}
		d := n - 1
		for ; d >= 0; d-- {
			if c[d] < last[d] {
				c[d]++
				break
			}
			c[d] = first[d]
		}
		if d < 0 {
			return
		}
	}
}
