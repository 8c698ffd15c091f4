package ga

import (
	"unsafe"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/layout"
)

// Block-cyclic arrays are cut into many equal blocks that are dealt to the
// processes in turn, so a process owns several blocks, as ScaLAPACK's
// matrices do. Every one-sided operation and collective works on them as on
// any array; the block calls below reach the local pieces in place.
//
// Two deals are offered, as in GA. BlockCyclic numbers the blocks in C order
// and gives block i to process i mod Nnodes(); each process stores its
// blocks one after another, each packed. BlockCyclicGrid deals the blocks
// over a process grid, block (i, j, …) to the process at (i mod P0, j mod P1,
// …), and each process stores all its elements as one packed row-major local
// array: for a matrix this is ScaLAPACK's layout of the transpose, which is
// what lets the linear solvers work on such arrays in place.

// BlockCyclic deals blocks of the given size round-robin over the processes
// (GA_Set_block_cyclic).
func (b *Builder[T]) BlockCyclic(block ...int) *Builder[T] {
	b.cyclic, b.tiled = true, false
	b.block = append([]int(nil), block...)
	b.grid = nil
	return b
}

// BlockCyclicGrid deals blocks of the given size cyclically over a process
// grid whose extents multiply to Nnodes() (GA_Set_block_cyclic_proc_grid).
// Process ranks run row-major over the grid.
func (b *Builder[T]) BlockCyclicGrid(block, grid []int) *Builder[T] {
	b.cyclic, b.tiled = true, false
	b.block = append([]int(nil), block...)
	b.grid = append([]int{}, grid...)
	return b
}

// cyclicLayout makes the map of a block-cyclic builder.
func (b *Builder[T]) cyclicLayout(op string, nproc int) (layout.Map, error) {
	if b.tiled {
		return b.tiledLayout(op, nproc)
	}
	if b.starts != nil || b.chunk != nil {
		return layout.Map{}, errorf(op, b.name, "a block-cyclic distribution cannot also have a chunk or an irregular distribution")
	}
	if b.grid == nil {
		m, err := layout.NewCyclic(b.dims, b.block, nproc)
		if err != nil {
			return layout.Map{}, errorf(op, b.name, "block-cyclic distribution: %v", err)
		}
		return m, nil
	}
	m, err := layout.NewProcGrid(b.dims, b.block, b.grid)
	if err != nil {
		return layout.Map{}, errorf(op, b.name, "block-cyclic distribution: %v", err)
	}
	p := 1
	for _, x := range b.grid {
		p *= x
	}
	if p != nproc {
		return layout.Map{}, errorf(op, b.name, "process grid %v has %d processes; there are %d", b.grid, p, nproc)
	}
	return m, nil
}

// BlockCyclic reports whether the array is block-cyclic.
func (a *Array[T]) BlockCyclic() bool { return a != nil && a.m.BlockCyclic() }

// TotalBlocks returns the number of blocks the array is cut into
// (GA_Total_blocks); for an array that is not block-cyclic it is the number
// of processes that own data.
func (a *Array[T]) TotalBlocks() int {
	if a == nil {
		return 0
	}
	return a.m.Blocks()
}

// BlockInfo returns the number of blocks along each dimension and the blocks'
// size (GA_Get_block_info): for a block-cyclic array the size it was given,
// even where that exceeds the extent; otherwise the first block's.
func (a *Array[T]) BlockInfo() (blocks, size []int) {
	if a == nil {
		return nil, nil
	}
	blocks = a.m.Grid()
	if a.m.BlockDims != nil {
		return blocks, append([]int(nil), a.m.BlockDims...)
	}
	size = make([]int, len(blocks))
	for d := range size {
		size[d] = a.m.BlockSize(d)
	}
	return blocks, size
}

// LocalBlocks returns the indices of the blocks this process owns, in the
// order it stores them.
func (a *Array[T]) LocalBlocks() []int {
	if a == nil {
		return nil
	}
	return append([]int(nil), a.own...)
}

// BlockOwner returns the rank that owns block i, or -1 if there is no such
// block.
func (a *Array[T]) BlockOwner(i int) int {
	if a == nil || i < 0 || i >= a.m.Blocks() {
		return -1
	}
	return a.m.BlockOwner(i)
}

// AccessBlock returns block i, which this process must own, in place
// (NGA_Access_block): element (i, j, …) of the block is at
// ((i-lo0)·ld[0] + (j-lo1))·ld[1] + …, where lo is the block's corner
// (Distribution(i)). Writes go straight into the array.
func (a *Array[T]) AccessBlock(i int) ([]T, []int, error) {
	if err := a.valid("AccessBlock"); err != nil {
		return nil, nil, err
	}
	if i < 0 || i >= a.m.Blocks() {
		return nil, nil, errorf("AccessBlock", a.name, "block %d; the array has blocks 0 to %d", i, a.m.Blocks()-1)
	}
	if r := a.m.BlockOwner(i); r != a.g.rank {
		return nil, nil, errorf("AccessBlock", a.name, "block %d belongs to process %d, not to %d", i, r, a.g.rank)
	}
	return a.blockData(i)
}

// AccessBlockGrid is AccessBlock for the block at coordinates c in the grid of
// blocks (NGA_Access_block_grid).
func (a *Array[T]) AccessBlockGrid(c []int) ([]T, []int, error) {
	if err := a.checkBlockGrid("AccessBlockGrid", c); err != nil {
		return nil, nil, err
	}
	return a.AccessBlock(a.m.Index(c))
}

func (a *Array[T]) checkBlockGrid(op string, c []int) error {
	if err := a.valid(op); err != nil {
		return err
	}
	g := a.m.Grid()
	if len(c) != len(g) {
		return errorf(op, a.name, "block coordinates %v for a %d-dimensional array", c, len(g))
	}
	for d := range c {
		if c[d] < 0 || c[d] >= g[d] {
			return errorf(op, a.name, "block coordinates %v are outside the grid of blocks %v", c, g)
		}
	}
	return nil
}

// AccessBlockSegment returns all the elements this process stores, in place
// (NGA_Access_block_segment for the calling process): its blocks in the
// order of LocalBlocks, each packed, or for a BlockCyclicGrid array its one
// local array.
func (a *Array[T]) AccessBlockSegment() ([]T, error) {
	if err := a.valid("AccessBlockSegment"); err != nil {
		return nil, err
	}
	return a.localData()
}

// ReleaseBlock ends an AccessBlock that only read (NGA_Release_block).
func (a *Array[T]) ReleaseBlock(i int) error { return a.checkBlock("ReleaseBlock", i) }

// ReleaseUpdateBlock ends an AccessBlock that wrote (NGA_Release_update_block).
func (a *Array[T]) ReleaseUpdateBlock(i int) error { return a.checkBlock("ReleaseUpdateBlock", i) }

// ReleaseBlockGrid ends an AccessBlockGrid that only read
// (NGA_Release_block_grid).
func (a *Array[T]) ReleaseBlockGrid(c []int) error { return a.checkBlockGrid("ReleaseBlockGrid", c) }

// ReleaseUpdateBlockGrid ends an AccessBlockGrid that wrote
// (NGA_Release_update_block_grid).
func (a *Array[T]) ReleaseUpdateBlockGrid(c []int) error {
	return a.checkBlockGrid("ReleaseUpdateBlockGrid", c)
}

// ReleaseBlockSegment ends an AccessBlockSegment that only read
// (NGA_Release_block_segment).
func (a *Array[T]) ReleaseBlockSegment() error { return a.valid("ReleaseBlockSegment") }

// ReleaseUpdateBlockSegment ends an AccessBlockSegment that wrote
// (NGA_Release_update_block_segment).
func (a *Array[T]) ReleaseUpdateBlockSegment() error { return a.valid("ReleaseUpdateBlockSegment") }

func (a *Array[T]) checkBlock(op string, i int) error {
	if err := a.valid(op); err != nil {
		return err
	}
	if i < 0 || i >= a.m.Blocks() {
		return errorf(op, a.name, "block %d; the array has blocks 0 to %d", i, a.m.Blocks()-1)
	}
	return nil
}

// localData is this process's storage (nil if it stores nothing).
func (a *Array[T]) localData() ([]T, error) {
	if a.n == 0 || a.es != int(unsafe.Sizeof(*new(T))) {
		// Nothing, or a UserArray's storage, which it reads as its own type.
		return nil, nil
	}
	local, err := armci.LocalAs[T](a.seg)
	if err != nil {
		return nil, err
	}
	return local[:a.n], nil
}

// blockData returns block i of this process's storage from its first
// element on, with the storage's leading dimensions.
func (a *Array[T]) blockData(i int) ([]T, []int, error) {
	local, err := a.localData()
	if err != nil {
		return nil, nil, err
	}
	ext := make([]int, len(a.dims))
	_, off := a.m.Place(a.m.BlockCoords(i), nil, ext)
	return local[off:], ext[1:], nil
}

// storedBlocks calls f for every block this process owns, with its patch, the
// element offset of its corner in the local storage, and the storage's
// extents (ext[1:] are GA's leading dimensions).
func (a *Array[T]) storedBlocks(f func(lo, hi []int, off int, ext []int) error) error {
	ext := make([]int, len(a.dims))
	for _, i := range a.own {
		_, off := a.m.Place(a.m.BlockCoords(i), nil, ext)
		lo, hi := a.m.Patch(i)
		if err := f(lo, hi, off, ext); err != nil {
			return err
		}
	}
	return nil
}
