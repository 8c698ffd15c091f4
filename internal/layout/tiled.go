package layout

import "fmt"

// TiledGrid deals blocks over a process grid as ProcGrid does (the block at
// coordinates c to the rank at coordinates c mod Grid), but each rank stores
// its blocks one after another in index order, each packed, as RoundRobin
// does (GA 5's GA_Set_tiled_proc_grid and GA_Set_tiled_irreg_proc_grid).
type TiledGrid struct {
	ProcGrid
	offset []int // element offset of each block in its owner's storage
}

// NewTiledGrid returns the tiled map of blocks of block[d] elements over a
// process grid (GA_Set_tiled_proc_grid).
func NewTiledGrid(dims, block, grid []int) (Map, error) {
	m, err := cut(dims, block)
	if err != nil {
		return Map{}, err
	}
	return tile(m, grid)
}

// NewTiledIrregGrid returns the tiled map of the blocks whose first indices
// along dimension d are starts[d], over a process grid
// (GA_Set_tiled_irreg_proc_grid).
func NewTiledIrregGrid(dims []int, starts [][]int, grid []int) (Map, error) {
	m := Map{Dims: append([]int(nil), dims...), Starts: starts}
	if err := m.Check(); err != nil {
		return Map{}, err
	}
	return tile(m, grid)
}

func tile(m Map, grid []int) (Map, error) {
	if len(grid) != len(m.Dims) {
		return Map{}, fmt.Errorf("process grid %v for %d dimensions", grid, len(m.Dims))
	}
	for d, p := range grid {
		if p < 1 {
			return Map{}, fmt.Errorf("process grid %v: dimension %d has %d processes", grid, d, p)
		}
	}
	t := &TiledGrid{ProcGrid: ProcGrid{Grid: append([]int(nil), grid...)}, offset: make([]int, m.Blocks())}
	next := make([]int, Product(grid))
	for i := range t.offset {
		r := t.Owner(&m, i)
		t.offset[i] = next[r]
		lo, hi := m.Patch(i)
		next[r] += Volume(lo, hi)
	}
	m.deal = t
	return m, nil
}

func (t *TiledGrid) Place(m *Map, c, at, ext []int) (rank, off int) {
	i, off := inBlock(m, c, at, ext)
	return t.Owner(m, i), t.offset[i] + off
}

func (t *TiledGrid) LocalSize(m *Map, rank int) int { return blocksVolume(m, t.LocalBlocks(m, rank)) }
