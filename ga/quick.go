package ga

import (
	"sync/atomic"

	"github.com/goga-hpc/goga/internal/layout"
)

// The quickest one-sided call is a patch inside one block, contiguous there
// and packed in the caller's buffer: a single element, a piece of a row, whole
// rows. quick recognises it and finds where it lives in one pass over the
// dimensions, with the block's placement read from a table made when the
// array was placed; anything else (a refusal included) takes the general path,
// which checks and reports in full. An 8-byte Put spent three quarters of its
// time above armci in that general path's separate checks, searches and
// placement.

// corner is where one block lives: its owner, the element offset of its
// first element in the owner's storage, the storage's pitches in elements, and
// the block's first and last index along each dimension.
type corner struct {
	rank, off     int
	pitch, lo, hi [MaxDim]int
}

// cornerTable is what quick reads, kept apart from the generic Array so
// that its pass is one plain function with its arguments in registers.
type cornerTable struct {
	dims   []int
	starts [][]int
	blocks []corner
	// last is the block that quick found last (the first block at
	// first): calls in a row mostly fall in one block, and a patch inside it
	// needs no search. A miss costs one atomic store.
	last atomic.Pointer[corner]
}

// maxCorners bounds the table: arrays of more blocks (fine block-cyclic
// ones) take the general path.
const maxCorners = 1 << 12

// cornersOf places every block of m, or returns nil when m has too many.
func cornersOf(m *layout.Map) *cornerTable {
	n := m.Blocks()
	if n > maxCorners || n == 0 {
		return nil
	}
	out := make([]corner, n)
	for i := range out {
		placeBlock(m, i, &out[i])
	}
	t := &cornerTable{dims: m.Dims, starts: m.Starts, blocks: out}
	t.last.Store(&out[0])
	return t
}

// placeBlock fills c with where block blk of m lives.
func placeBlock(m *layout.Map, blk int, c *corner) {
	nd := len(m.Dims)
	var coord, ext [MaxDim]int
	for d, i := nd-1, blk; d >= 0; d-- {
		g := len(m.Starts[d])
		coord[d] = i % g
		i /= g
		c.lo[d], c.hi[d] = m.BlockRange(d, coord[d])
	}
	c.rank, c.off = m.Place(coord[:nd], c.lo[:nd], ext[:nd])
	c.pitch[nd-1] = 1
	for d := nd - 2; d >= 0; d-- {
		c.pitch[d] = c.pitch[d+1] * ext[d+1]
	}
}

// cornerOf returns where block blk lives: the array's table entry, or, for
// arrays of more blocks than the table holds, the block placed now into
// spare. Every operation that moves a patch places its blocks here.
func (a *Array[T]) cornerOf(blk int, spare *corner) *corner {
	if a.corners != nil {
		return &a.corners.blocks[blk]
	}
	placeBlock(&a.m, blk, spare)
	return spare
}

// at returns the element offset of sub, inside the block, in its owner's
// storage.
func (c *corner) at(sub []int) int {
	off := c.off
	for d, i := range sub {
		off += (i - c.lo[d]) * c.pitch[d]
	}
	return off
}

// extent returns the extent of the block's storage along dimension d > 0
// (ghost cells included): its pitches are products of these.
func (c *corner) extent(d int) int { return c.pitch[d-1] / c.pitch[d] }

// quick returns the owner of the patch [lo, hi], the element offset of its
// first element in the owner's storage and its number of elements, when the
// patch is valid, lies in one block, is contiguous there, and fits packed in a
// buffer of n elements with leading dimensions ld; ok is false otherwise.
// Arrays whose calls need more than placement (destroyed, freed, overlays,
// read_only ones) never pass.
//
// A patch inside the block that the last call found takes one pass over the
// dimensions, which checks that it is inside (and so inside the array) and
// computes its offset, its number of elements and the span from its first
// element to its last in the block's storage: as no two of its elements
// share a place there, it is contiguous exactly when the span holds no more
// than its elements. Others search for their block first (miss). The pass
// calls nothing: on the machines measured here a call costs 1.2-1.6 ns, and
// an 8-byte Put made eight of them.
func (a *Array[T]) quick(lo, hi, ld []int, n int) (rank, off, need int, ok bool) {
	if a == nil || a.corners == nil || a.dead || a.freed || a.parent != nil || a.readOnly {
		return 0, 0, 0, false
	}
	t := a.corners
	nd := len(t.dims)
	if len(lo) != nd || len(hi) != nd {
		return 0, 0, 0, false
	}
	c := t.last.Load()
	off, need = c.off, 1
	span, inside := 1, true
	for d, p := range c.pitch[:nd] {
		l, h := lo[d], hi[d]
		if l < c.lo[d] || h > c.hi[d] {
			inside = false
			break
		}
		if h < l {
			return 0, 0, 0, false
		}
		off += (l - c.lo[d]) * p
		span += (h - l) * p
		need *= h - l + 1
	}
	if !inside {
		if c, off, need, span = t.miss(lo, hi); c == nil {
			return 0, 0, 0, false
		}
	}
	if span != need || need > n || ld != nil && !packed(lo, hi, ld) {
		return 0, 0, 0, false
	}
	return c.rank, off, need, true
}

// miss is quick's pass for a patch outside the last block found: it
// searches for the patch's block (nil: none holds it), keeps it as the last
// one, and places the patch there as quick does. Placing it by running
// quick's own pass again, in a loop around it, cost every hit 0.5 ns (the
// call inside the loop made the compiler keep the pass's values on the
// stack), so the few lines are repeated here.
func (t *cornerTable) miss(lo, hi []int) (c *corner, off, need, span int) {
	if c = t.search(lo, hi); c == nil {
		return nil, 0, 0, 0
	}
	t.last.Store(c)
	off, need, span = c.off, 1, 1
	for d, p := range c.pitch[:len(lo)] {
		off += (lo[d] - c.lo[d]) * p
		span += (hi[d] - lo[d]) * p
		need *= hi[d] - lo[d] + 1
	}
	return c, off, need, span
}

// search returns the block that holds the patch [lo, hi], or nil when the
// patch is not inside the array or spans blocks.
func (t *cornerTable) search(lo, hi []int) *corner {
	blk, ok := singleBlock(t.dims, t.starts, lo, hi)
	if !ok {
		return nil
	}
	return &t.blocks[blk]
}

// singleBlock returns the index of the block that holds all of the patch
// [lo, hi] of an array of dims cut at starts; ok is false when the patch is
// not inside the array or spans blocks.
func singleBlock(dims []int, starts [][]int, lo, hi []int) (blk int, ok bool) {
	for d, e := range dims {
		l, h := lo[d], hi[d]
		if l < 0 || h < l || h >= e {
			return 0, false
		}
		s := starts[d]
		b := layout.BlockIndex(s, l)
		if b+1 < len(s) && h >= s[b+1] {
			return 0, false
		}
		blk = blk*len(s) + b
	}
	return blk, true
}
