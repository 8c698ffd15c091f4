package ga

import (
	"slices"

	"github.com/goga-hpc/goga/internal/layout"
)

// SetTiledProcGrid deals blocks of the given size cyclically over a process
// grid whose extents multiply to the number of processes, as
// BlockCyclicGrid does, but each process stores its blocks one after
// another in index order, each packed, instead of as one ScaLAPACK local
// array (GA 5's GA_Set_tiled_proc_grid). Process ranks run row-major over
// the grid.
func (b *Builder[T]) SetTiledProcGrid(block, grid []int) *Builder[T] {
	b.cyclic, b.tiled = true, true
	b.block, b.grid, b.starts = slices.Clone(block), slices.Clone(grid), nil
	return b
}

// SetTiledIrregProcGrid is SetTiledProcGrid with blocks of any sizes:
// starts[d] lists the first index of each block along dimension d,
// beginning with 0 (GA 5's GA_Set_tiled_irreg_proc_grid, with mapc and
// nblocks in Go's shape).
func (b *Builder[T]) SetTiledIrregProcGrid(starts [][]int, grid []int) *Builder[T] {
	b.cyclic, b.tiled = true, true
	b.block, b.grid = nil, slices.Clone(grid)
	b.starts = make([][]int, len(starts))
	for d, s := range starts {
		b.starts[d] = slices.Clone(s)
	}
	return b
}

// tiledLayout makes the map of a tiled builder.
func (b *Builder[T]) tiledLayout(op string, nproc int) (layout.Map, error) {
	if b.chunk != nil {
		return layout.Map{}, errorf(op, b.name, "a tiled distribution cannot also have a chunk")
	}
	var m layout.Map
	var err error
	if b.block != nil {
		m, err = layout.NewTiledGrid(b.dims, b.block, b.grid)
	} else {
		m, err = layout.NewTiledIrregGrid(b.dims, b.starts, b.grid)
	}
	if err != nil {
		return layout.Map{}, errorf(op, b.name, "tiled distribution: %v", err)
	}
	if p := layout.Product(b.grid); p != nproc {
		return layout.Map{}, errorf(op, b.name, "process grid %v has %d processes; there are %d", b.grid, p, nproc)
	}
	return m, nil
}
