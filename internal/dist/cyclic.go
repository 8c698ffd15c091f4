package dist

import "fmt"

// NewCyclic returns GA's simple block-cyclic map (GA_Set_block_cyclic): the
// array is cut into blocks of block[d] elements along each dimension (the
// last ones shorter), and block i goes to rank i mod nproc.
func NewCyclic(dims, block []int, nproc int) (Map, error) {
	if nproc < 1 {
		return Map{}, fmt.Errorf("%d processes", nproc)
	}
	m, err := cut(dims, block)
	if err != nil {
		return Map{}, err
	}
	m.Cyclic = nproc
	m.offset = make([]int, m.Blocks())
	next := make([]int, nproc)
	for i := range m.offset {
		r := i % nproc
		m.offset[i] = next[r]
		lo, hi := m.Patch(i)
		next[r] += volume(lo, hi)
	}
	return m, nil
}

// NewProcGrid returns the ScaLAPACK-style map of
// GA_Set_block_cyclic_proc_grid: blocks of block[d] elements dealt cyclically
// over a process grid, each rank holding its elements as one local array.
func NewProcGrid(dims, block, grid []int) (Map, error) {
	if len(grid) != len(dims) {
		return Map{}, fmt.Errorf("process grid %v for %d dimensions", grid, len(dims))
	}
	for d, p := range grid {
		if p < 1 {
			return Map{}, fmt.Errorf("process grid %v: dimension %d has %d processes", grid, d, p)
		}
	}
	m, err := cut(dims, block)
	if err != nil {
		return Map{}, err
	}
	m.ProcGrid = append([]int(nil), grid...)
	return m, nil
}

// cut makes the blocks of a block-cyclic map.
func cut(dims, block []int) (Map, error) {
	if len(dims) < 1 || len(dims) > MaxDim {
		return Map{}, fmt.Errorf("%d dimensions; want 1 to %d", len(dims), MaxDim)
	}
	if len(block) != len(dims) {
		return Map{}, fmt.Errorf("block sizes %v for %d dimensions", block, len(dims))
	}
	m := Map{Dims: append([]int(nil), dims...), Starts: make([][]int, len(dims)), BlockDims: append([]int(nil), block...)}
	for d, n := range dims {
		if n < 1 {
			return Map{}, fmt.Errorf("dimension %d has extent %d", d, n)
		}
		if block[d] < 1 {
			return Map{}, fmt.Errorf("block sizes %v: dimension %d has block size %d", block, d, block[d])
		}
		for at := 0; at < n; at += block[d] {
			m.Starts[d] = append(m.Starts[d], at)
		}
	}
	return m, nil
}

// BlockSize returns the size of the blocks along dimension d (the first one's).
func (m Map) BlockSize(d int) int {
	lo, hi := m.BlockRange(d, 0)
	return hi - lo + 1
}

// Place returns the owner of the block at coordinates c and the element
// offset of the block's first element in the owner's storage, and fills
// pitch (one entry per dimension) with the distance in elements between
// neighbours along each dimension there.
func (m Map) Place(c, pitch []int) (rank, off int) {
	nd := len(m.Starts)
	if m.ProcGrid == nil {
		pitch[nd-1] = 1
		for d := nd - 2; d >= 0; d-- {
			lo, hi := m.BlockRange(d+1, c[d+1])
			pitch[d] = pitch[d+1] * (hi - lo + 1)
		}
		i := m.Index(c)
		if m.Cyclic > 0 {
			return i % m.Cyclic, m.offset[i]
		}
		return i, 0
	}
	pitch[nd-1] = 1
	for d := nd - 1; d >= 0; d-- {
		p, b := m.ProcGrid[d], m.BlockSize(d)
		if d > 0 {
			pitch[d-1] = pitch[d] * Numroc(m.Dims[d], b, c[d]%p, p)
		}
		off += c[d] / p * b * pitch[d]
	}
	for d := range nd {
		rank = rank*m.ProcGrid[d] + c[d]%m.ProcGrid[d]
	}
	return rank, off
}

// LocalSize returns the number of elements rank stores.
func (m Map) LocalSize(rank int) int {
	switch {
	case m.ProcGrid != nil:
		c, ok := m.Coords(rank)
		if !ok {
			return 0
		}
		n := 1
		for d, p := range m.ProcGrid {
			n *= Numroc(m.Dims[d], m.BlockSize(d), c[d], p)
		}
		return n
	case m.Cyclic > 0:
		n := 0
		for _, i := range m.LocalBlocks(rank) {
			lo, hi := m.Patch(i)
			n += volume(lo, hi)
		}
		return n
	}
	lo, hi, ok := m.Block(rank)
	if !ok {
		return 0
	}
	return volume(lo, hi)
}

// LocalBlocks returns the indices of the blocks rank owns, ascending.
func (m Map) LocalBlocks(rank int) []int {
	var out []int
	switch {
	case m.Cyclic > 0:
		if rank >= 0 && rank < m.Cyclic {
			for i := rank; i < m.Blocks(); i += m.Cyclic {
				out = append(out, i)
			}
		}
	case m.ProcGrid != nil:
		c, ok := m.Coords(rank)
		if !ok {
			return nil
		}
		for i := range m.Blocks() {
			ok := true
			for d, x := range m.BlockCoords(i) {
				ok = ok && x%m.ProcGrid[d] == c[d]
			}
			if ok {
				out = append(out, i)
			}
		}
	default:
		if rank >= 0 && rank < m.Blocks() {
			out = append(out, rank)
		}
	}
	return out
}

// Numroc is ScaLAPACK's NUMROC with the first block on process 0: how many
// of n indices, dealt in blocks of nb over np processes, process p holds.
func Numroc(n, nb, p, np int) int {
	full := n / nb
	k := full / np * nb
	switch extra := full % np; {
	case p < extra:
		k += nb
	case p == extra:
		k += n % nb
	}
	return k
}

func product(x []int) int {
	n := 1
	for _, v := range x {
		n *= v
	}
	return n
}

// unravel returns the row-major coordinates of i in a grid of extents g.
func unravel(g []int, i int) []int {
	c := make([]int, len(g))
	for d := len(g) - 1; d >= 0; d-- {
		c[d] = i % g[d]
		i /= g[d]
	}
	return c
}

func volume(lo, hi []int) int {
	n := 1
	for d := range lo {
		n *= hi[d] - lo[d] + 1
	}
	return n
}
