package layout

import (
	"fmt"
	"reflect"
	"slices"
)

// Deal is how a map's blocks are given to ranks and laid out in each rank's
// storage: the seam where a distribution plugs in. Everything else about a
// map (the blocks, which blocks a patch touches) is common to all deals.
type Deal interface {
	// Owner returns the rank that owns block i.
	Owner(m *Map, i int) int
	// Place returns the owner of the block at coordinates c and the element
	// offset, in the owner's storage, of the block's element at global
	// indices at (nil: the block's first element), and fills ext (one entry
	// per dimension) with the extents of the storage that holds the block,
	// row-major.
	Place(m *Map, c, at, ext []int) (rank, off int)
	// LocalBlocks returns the indices of the blocks rank owns, ascending.
	LocalBlocks(m *Map, rank int) []int
	// LocalSize returns the number of elements rank stores.
	LocalSize(m *Map, rank int) int
	// Coords returns rank's coordinates in the deal's process grid, and
	// false if it has none.
	Coords(m *Map, rank int) ([]int, bool)
}

// OnePerRank gives block i to rank i, which stores it packed; ranks past the
// grid of blocks own nothing. Regular and irregular arrays are dealt so.
type OnePerRank struct{}

func (OnePerRank) Owner(_ *Map, i int) int { return i }

func (OnePerRank) Place(m *Map, c, at, ext []int) (rank, off int) {
	return inBlock(m, c, at, ext)
}

func (OnePerRank) LocalBlocks(m *Map, rank int) []int {
	if rank >= 0 && rank < m.Blocks() {
		return []int{rank}
	}
	return nil
}

func (OnePerRank) LocalSize(m *Map, rank int) int {
	if rank < 0 || rank >= m.Blocks() {
		return 0
	}
	lo, hi := m.Patch(rank)
	return Volume(lo, hi)
}

func (OnePerRank) Coords(m *Map, rank int) ([]int, bool) {
	if rank < 0 || rank >= m.Blocks() {
		return nil, false
	}
	return m.BlockCoords(rank), true
}

// inBlock returns the index of the block at coordinates c and the offset of
// the element at at in the block stored packed, and fills ext with the
// block's extents.
func inBlock(m *Map, c, at, ext []int) (i, off int) {
	for d, s := range m.Starts {
		lo, hi := m.BlockRange(d, c[d])
		ext[d] = hi - lo + 1
		off *= ext[d]
		if at != nil {
			off += at[d] - lo
		}
		i = i*len(s) + c[d]
	}
	return i, off
}

// RoundRobin gives block i to rank i mod Procs, which stores its blocks one
// after another in index order, each packed (GA_Set_block_cyclic).
type RoundRobin struct {
	Procs  int
	offset []int // element offset of each block in its owner's storage
}

func (r *RoundRobin) Owner(_ *Map, i int) int { return i % r.Procs }

func (r *RoundRobin) Place(m *Map, c, at, ext []int) (rank, off int) {
	i, off := inBlock(m, c, at, ext)
	return i % r.Procs, r.offset[i] + off
}

func (r *RoundRobin) LocalBlocks(m *Map, rank int) []int {
	var out []int
	if rank >= 0 && rank < r.Procs {
		for i := rank; i < m.Blocks(); i += r.Procs {
			out = append(out, i)
		}
	}
	return out
}

func (r *RoundRobin) LocalSize(m *Map, rank int) int { return blocksVolume(m, r.LocalBlocks(m, rank)) }

// blocksVolume is the number of elements in the blocks, each stored packed.
func blocksVolume(m *Map, blocks []int) int {
	n := 0
	for _, i := range blocks {
		lo, hi := m.Patch(i)
		n += Volume(lo, hi)
	}
	return n
}

func (r *RoundRobin) Coords(*Map, int) ([]int, bool) { return nil, false }

// ProcGrid deals the block at coordinates c to the rank at coordinates
// c mod Grid (row-major ranks over the grid), which stores all its elements
// as one packed local array, ScaLAPACK's layout
// (GA_Set_block_cyclic_proc_grid).
type ProcGrid struct{ Grid []int }

func (g *ProcGrid) Owner(m *Map, i int) int {
	r := 0
	for d, c := range m.BlockCoords(i) {
		r = r*g.Grid[d] + c%g.Grid[d]
	}
	return r
}

func (g *ProcGrid) Place(m *Map, c, at, ext []int) (rank, off int) {
	for d, p := range g.Grid {
		b := m.BlockSize(d)
		ext[d] = Numroc(m.Dims[d], b, c[d]%p, 0, p)
		off = off*ext[d] + c[d]/p*b
		if at != nil {
			off += at[d] - c[d]*b
		}
		rank = rank*p + c[d]%p
	}
	return rank, off
}

func (g *ProcGrid) LocalBlocks(m *Map, rank int) []int {
	c, ok := g.Coords(m, rank)
	if !ok {
		return nil
	}
	var out []int
	for i := range m.Blocks() {
		ok := true
		for d, x := range m.BlockCoords(i) {
			ok = ok && x%g.Grid[d] == c[d]
		}
		if ok {
			out = append(out, i)
		}
	}
	return out
}

func (g *ProcGrid) LocalSize(m *Map, rank int) int {
	c, ok := g.Coords(m, rank)
	if !ok {
		return 0
	}
	n := 1
	for d, p := range g.Grid {
		n *= Numroc(m.Dims[d], m.BlockSize(d), c[d], 0, p)
	}
	return n
}

func (g *ProcGrid) Coords(_ *Map, rank int) ([]int, bool) {
	if rank < 0 || rank >= Product(g.Grid) {
		return nil, false
	}
	return Unravel(g.Grid, rank), true
}

// SameDeal reports whether o deals its blocks as m does; deals are plain
// values, equal when their fields are.
func (m Map) SameDeal(o Map) bool { return reflect.DeepEqual(m.Deal(), o.Deal()) }

// Place returns the owner of the block at coordinates c and the element
// offset, in the owner's storage, of the block's element at global indices at
// (nil: the block's first element), and fills ext (one entry per dimension)
// with the extents of the storage that holds the block (see Deal.Place).
//
// It calls each deal's Place directly, not through the Deal interface: an
// interface call makes c, at and ext escape, and every one-sided operation
// would allocate its coordinates on the heap.
func (m *Map) Place(c, at, ext []int) (rank, off int) {
	switch d := m.deal.(type) {
	case nil:
		return inBlock(m, c, at, ext)
	case OnePerRank:
		return d.Place(m, c, at, ext)
	case Ghosts:
		return d.Place(m, c, at, ext)
	case Restricted:
		return d.Place(m, c, at, ext)
	case *RoundRobin:
		return d.Place(m, c, at, ext)
	case *ProcGrid:
		return d.Place(m, c, at, ext)
	case *TiledGrid:
		return d.Place(m, c, at, ext)
	case RestrictedCyclic:
		return d.Place(m, c, at, ext)
	}
	panic(fmt.Sprintf("layout: Place on a map dealt by %T", m.deal))
}

// LocalSize returns the number of elements rank stores.
func (m Map) LocalSize(rank int) int { return m.Deal().LocalSize(&m, rank) }

// LocalBlocks returns the indices of the blocks rank owns, ascending.
func (m Map) LocalBlocks(rank int) []int { return m.Deal().LocalBlocks(&m, rank) }

// Span is a run of elements that a rank owns, contiguous in its storage:
// Off elements in, N long.
type Span struct{ Off, N int }

// Spans returns the runs of elements rank owns, in storage order, the
// adjacent ones merged: every element a rank owns is in one span, and
// nothing else (a halo, padding) is. Element-wise operations walk these.
func (m *Map) Spans(rank int) []Span {
	blocks := m.LocalBlocks(rank)
	owned := 0
	for _, i := range blocks {
		lo, hi := m.Patch(i)
		owned += Volume(lo, hi)
	}
	switch n := m.LocalSize(rank); {
	case n == 0:
		return nil
	case owned == n: // the storage is the owned elements and nothing else
		return []Span{{0, n}}
	}
	var out []Span
	var c, ext, count [MaxDim]int
	nd := len(m.Dims)
	for _, i := range blocks {
		lo, hi := m.Patch(i)
		copy(c[:nd], m.BlockCoords(i))
		_, off := m.Place(c[:nd], lo, ext[:nd])
		// The block is runs along its last dimension, longer where its
		// trailing dimensions are whole in storage.
		run, whole := 1, true
		for d := nd - 1; d >= 0; d-- {
			count[d] = hi[d] - lo[d] + 1
			if whole {
				run *= count[d]
				whole = count[d] == ext[d]
				count[d] = 1
			}
		}
		for k := range Product(count[:nd]) {
			at, pitch, rem := 0, 1, k
			for d := nd - 1; d >= 0; d-- {
				at += rem % count[d] * pitch
				rem /= count[d]
				pitch *= ext[d]
			}
			out = append(out, Span{off + at, run})
		}
	}
	slices.SortFunc(out, func(a, b Span) int { return a.Off - b.Off })
	merged := out[:1]
	for _, x := range out[1:] {
		if last := &merged[len(merged)-1]; last.Off+last.N == x.Off {
			last.N += x.N
		} else {
			merged = append(merged, x)
		}
	}
	return merged
}
