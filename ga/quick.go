package ga

import "github.com/goga-hpc/goga/internal/layout"

// The quickest one-sided call is a patch inside one block, contiguous there
// and packed in the caller's buffer: a single element, a piece of a row, whole
// rows. quick recognises it and finds where it lives in one pass over the
// dimensions, with the block's placement read from a table made when the
// array was placed; anything else (a refusal included) takes the general path,
// which checks and reports in full. An 8-byte Put spent three quarters of its
// time above armci in that general path's separate checks, searches and
// placement.

// corner is where one block lives: its owner, the element offset of its first
// element in the owner's storage, the storage's pitches in elements, and the
// block's first index along each dimension.
type corner struct {
	rank, off int
	pitch, lo [MaxDim]int
}

// maxCorners bounds the table: arrays of more blocks (fine block-cyclic
// ones) take the general path.
const maxCorners = 1 << 12

// cornersOf places every block of m, or returns nil when m has too many.
func cornersOf(m *layout.Map) []corner {
	n := m.Blocks()
	if n > maxCorners {
		return nil
	}
	nd := len(m.Dims)
	out := make([]corner, n)
	var ext [MaxDim]int
	for i := range out {
		lo, _ := m.Patch(i)
		c := &out[i]
		c.rank, c.off = m.Place(m.BlockCoords(i), lo, ext[:nd])
		copy(c.lo[:], lo)
		c.pitch[nd-1] = 1
		for d := nd - 2; d >= 0; d-- {
			c.pitch[d] = c.pitch[d+1] * ext[d+1]
		}
	}
	return out
}

// quick returns the owner of the patch [lo, hi], the element offset of its
// first element in the owner's storage and its number of elements, when the
// patch is valid, lies in one block, is contiguous there, and fits packed in a
// buffer of n elements with leading dimensions ld; ok is false otherwise.
// Arrays whose calls need more than placement (destroyed, freed, overlays,
// read_only ones) never pass.
func (a *Array[T]) quick(lo, hi, ld []int, n int) (rank, off, need int, ok bool) {
	if a == nil || a.corners == nil || a.dead || a.freed || a.parent != nil || a.readOnly {
		return 0, 0, 0, false
	}
	m := &a.m
	nd := len(m.Starts)
	if len(lo) != nd || len(hi) != nd || (ld != nil && len(ld) != nd-1) {
		return 0, 0, 0, false
	}
	// First pass: the block, and the patch inside the array and inside it.
	blk := 0
	for d, s := range m.Starts {
		l, h := lo[d], hi[d]
		if l < 0 || h < l || h >= m.Dims[d] {
			return 0, 0, 0, false
		}
		b := layout.BlockIndex(s, l)
		if b+1 < len(s) && h >= s[b+1] {
			return 0, 0, 0, false
		}
		blk = blk*len(s) + b
	}
	c := &a.corners[blk]
	// Second pass: the offset, and contiguity. Once a dimension spans more
	// than one index, every later one must be whole in the storage.
	off, need = c.off, 1
	spanning := false
	for d := range nd {
		count := hi[d] - lo[d] + 1
		if spanning && count*c.pitch[d] != c.pitch[d-1] {
			return 0, 0, 0, false
		}
		if d > 0 && ld != nil && ld[d-1] != count {
			return 0, 0, 0, false
		}
		off += (lo[d] - c.lo[d]) * c.pitch[d]
		spanning = spanning || count > 1
		need *= count
	}
	if need > n {
		return 0, 0, 0, false
	}
	return c.rank, off, need, true
}
