package ga

import (
	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/layout"
)

// The common one-sided case is a patch that one process owns and that is
// contiguous both in its block and in the caller's buffer (any 1-D patch, or
// whole rows of a block). It is moved with one contiguous armci call, with no
// allocation: on a node that is a bare memory copy.

// single returns the coordinates of the block that holds all of [lo, hi], or
// false if several do.
func (a *Array[T]) single(lo, hi []int) (c [MaxDim]int, ok bool) {
	for d, s := range a.m.Starts {
		b := layout.BlockIndex(s, lo[d])
		if hi[d] >= a.m.Dims[d] || (b+1 < len(s) && hi[d] >= s[b+1]) {
			return c, false
		}
		c[d] = b
	}
	return c, true
}

// located is where a single-block patch lives: the owner, the element offset
// of the patch's corner in its storage, and the storage's extents.
type located struct {
	rank, off int
	ext       [MaxDim]int
}

func (a *Array[T]) locate(c [MaxDim]int, lo []int) located {
	nd := len(a.dims)
	var l located
	l.rank, l.off = a.m.Place(c[:nd], lo, l.ext[:nd])
	return l
}

// contiguous reports whether the patch [lo, hi] at l is one run of memory in
// the owner's storage and in the caller's buffer b.
func (a *Array[T]) contiguous(l *located, lo, hi []int, b *layout.Buffer) bool {
	// Past the first dimension the patch spans more than one index, every
	// dimension must be whole in both the storage and the buffer.
	spanning := false
	for d := range lo {
		if spanning {
			ext := l.ext[d]
			if hi[d]-lo[d]+1 != ext || b.Pitch[d-1] != b.Pitch[d]*ext {
				return false
			}
		} else if hi[d] > lo[d] {
			spanning = true
		}
	}
	return true
}

// fast moves a single-owner patch with one armci call, and reports false when
// several processes own parts of it; the caller has checked the transfer.
func (a *Array[T]) fast(op int, lo, hi []int, buf []T, b *layout.Buffer, alpha T) (bool, error) {
	c, ok := a.single(lo, hi)
	if !ok {
		return false, nil
	}
	l := a.locate(c, lo)
	if !a.contiguous(&l, lo, hi, b) {
		return true, a.fastStrided(op, &l, lo, hi, buf, b, alpha)
	}
	r, off := l.rank, l.off
	n := b.Need // a contiguous patch needs exactly its elements
	buf = buf[:n]
	switch op {
	case opPut:
		a.note(r, statPut, n*a.es)
		return true, armci.Put(a.seg, r, off*a.es, buf)
	case opGet:
		a.note(r, statGet, n*a.es)
		return true, armci.Get(a.seg, r, off*a.es, buf)
	default:
		a.note(r, statAcc, n*a.es)
		return true, armci.Acc(a.seg, r, off*a.es, buf, alpha)
	}
}

// stridedBuf backs the slices of an armci.Strided for one call; pooled (in
// the group) so that a single-owner strided patch allocates nothing.
type stridedBuf struct {
	count, local, remote [MaxDim + 1]int
}

// fastStrided moves a patch that one process owns but that is not contiguous,
// as one armci strided call.
func (a *Array[T]) fastStrided(op int, l *located, lo, hi []int, buf []T, b *layout.Buffer, alpha T) error {
	nd := len(a.dims)
	var rpitch [MaxDim]int
	rpitch[nd-1] = 1
	for d := nd - 2; d >= 0; d-- {
		rpitch[d] = rpitch[d+1] * l.ext[d+1]
	}
	sb := a.g.strided.Get().(*stridedBuf)
	defer a.g.strided.Put(sb)
	for d := range nd {
		k := nd - 1 - d
		sb.count[k] = hi[d] - lo[d] + 1
		if k > 0 {
			sb.local[k-1] = b.Pitch[d] * a.es
			sb.remote[k-1] = rpitch[d] * a.es
		}
	}
	sb.count[0] *= a.es
	p := armci.Strided{Count: sb.count[:nd], LocalStride: sb.local[:nd-1], RemoteStride: sb.remote[:nd-1]}
	r, off := l.rank, l.off
	switch op {
	case opPut:
		a.note(r, statPut, p.Bytes())
		return armci.PutS(a.seg, r, off*a.es, buf, p)
	case opGet:
		a.note(r, statGet, p.Bytes())
		return armci.GetS(a.seg, r, off*a.es, buf, p)
	default:
		a.note(r, statAcc, p.Bytes())
		return armci.AccS(a.seg, r, off*a.es, buf, p, alpha)
	}
}

const (
	opPut = iota
	opGet
	opAcc
)
