// Package dist is the index arithmetic of block distributions, with no MPI:
// which blocks an n-dimensional array is cut into, which rank owns which block,
// and which ranks own parts of a patch. Indices are 0-based, in C order (the
// last index fastest), and lo/hi are inclusive, as in GA's C interface.
package dist

import (
	"fmt"
	"sort"
)

// MaxDim is the most dimensions an array may have.
const MaxDim = 7

// Map is a block distribution: along dimension d the array is cut at
// Starts[d] (the first index of each block, ascending, starting at 0), and
// the blocks' Cartesian product is dealt to ranks in row-major order over the
// grid of block counts (the last dimension fastest), which is GA's
// column-major order in Fortran terms. Ranks past the grid own nothing.
type Map struct {
	Dims   []int
	Starts [][]int
}

// Grid returns the number of blocks along each dimension.
func (m Map) Grid() []int {
	g := make([]int, len(m.Starts))
	for d, s := range m.Starts {
		g[d] = len(s)
	}
	return g
}

// Blocks returns the number of blocks, which is the number of ranks that own
// data.
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

// Coords returns the block coordinates of rank, and false if it owns nothing.
func (m Map) Coords(rank int) ([]int, bool) {
	if rank < 0 || rank >= m.Blocks() {
		return nil, false
	}
	c := make([]int, len(m.Starts))
	for d := len(m.Starts) - 1; d >= 0; d-- {
		n := len(m.Starts[d])
		c[d] = rank % n
		rank /= n
	}
	return c, true
}

// Rank returns the rank that owns the block at coordinates c.
func (m Map) Rank(c []int) int {
	r := 0
	for d, s := range m.Starts {
		r = r*len(s) + c[d]
	}
	return r
}

// blockRange is the index range of block i along dimension d.
func (m Map) blockRange(d, i int) (lo, hi int) {
	s := m.Starts[d]
	lo = s[i]
	if i+1 < len(s) {
		return lo, s[i+1] - 1
	}
	return lo, m.Dims[d] - 1
}

// Block returns the patch rank owns; ok is false if it owns nothing.
func (m Map) Block(rank int) (lo, hi []int, ok bool) {
	c, ok := m.Coords(rank)
	if !ok {
		return nil, nil, false
	}
	lo, hi = make([]int, len(c)), make([]int, len(c))
	for d := range c {
		lo[d], hi[d] = m.blockRange(d, c[d])
	}
	return lo, hi, true
}

// blockOf returns the index of the block along d that holds index i.
func (m Map) blockOf(d, i int) int {
	s := m.Starts[d]
	return sort.Search(len(s), func(k int) bool { return s[k] > i }) - 1
}

// Owner returns the rank that owns the element at sub (which must be inside
// the array).
func (m Map) Owner(sub []int) int {
	r := 0
	for d, s := range m.Starts {
		r = r*len(s) + m.blockOf(d, sub[d])
	}
	return r
}

// Owners calls f, in rank order, for every rank that owns part of the patch
// [lo, hi] (inside the array), with the part it owns. f returns false to stop.
func (m Map) Owners(lo, hi []int, f func(rank int, lo, hi []int) bool) {
	n := len(m.Starts)
	first, last := make([]int, n), make([]int, n)
	for d := range n {
		first[d], last[d] = m.blockOf(d, lo[d]), m.blockOf(d, hi[d])
	}
	c := append([]int(nil), first...)
	plo, phi := make([]int, n), make([]int, n)
	for {
		for d := range n {
			blo, bhi := m.blockRange(d, c[d])
			plo[d], phi[d] = max(blo, lo[d]), min(bhi, hi[d])
		}
		if !f(m.Rank(c), plo, phi) {
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
