package layout

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
	rr := &RoundRobin{Procs: nproc, offset: make([]int, m.Blocks())}
	next := make([]int, nproc)
	for i := range rr.offset {
		r := i % nproc
		rr.offset[i] = next[r]
		lo, hi := m.Patch(i)
		next[r] += Volume(lo, hi)
	}
	m.deal = rr
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
	m.deal = &ProcGrid{Grid: append([]int(nil), grid...)}
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

// Numroc is ScaLAPACK's NUMROC: how many of n indices, dealt in blocks of nb
// over nprocs processes from process isrc on, process iproc holds. Package
// scalapack exports it, checked against the library's own.
func Numroc(n, nb, iproc, isrc, nprocs int) int {
	mydist := (nprocs + iproc - isrc) % nprocs
	nblocks := n / nb
	num := nblocks / nprocs * nb
	switch extra := nblocks % nprocs; {
	case mydist < extra:
		num += nb
	case mydist == extra:
		num += n % nb
	}
	return num
}

// Product is the number of elements of an array of extents dims.
func Product(dims []int) int {
	n := 1
	for _, v := range dims {
		n *= v
	}
	return n
}

// Unravel returns the row-major (C order) coordinates of linear position i
// in an array of extents dims.
func Unravel(dims []int, i int) []int {
	c := make([]int, len(dims))
	for d := len(dims) - 1; d >= 0; d-- {
		c[d] = i % dims[d]
		i /= dims[d]
	}
	return c
}

// Volume is the number of elements of the patch [lo, hi].
func Volume(lo, hi []int) int {
	n := 1
	for d := range lo {
		n *= hi[d] - lo[d] + 1
	}
	return n
}
