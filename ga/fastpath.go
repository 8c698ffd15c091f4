package ga

import (
	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/layout"
)

// The common one-sided case is a patch that one process owns and that is
// contiguous both in its block and in the caller's buffer (any 1-D patch, or
// whole rows of a block). It is moved with one contiguous armci call, with no
// allocation: on a node that is a bare memory copy.

// contiguous reports whether the patch [lo, hi] of block c is one run of
// memory in the owner's storage and in the caller's buffer b.
func contiguous(c *corner, lo, hi []int, b *layout.Buffer) bool {
	// Past the first dimension the patch spans more than one index, every
	// dimension must be whole in both the storage and the buffer.
	spanning := false
	for d := range lo {
		if spanning {
			ext := c.extent(d)
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
	blk, ok := singleBlock(a.dims, a.m.Starts, lo, hi)
	if !ok {
		return false, nil
	}
	var spare corner
	c := a.cornerOf(blk, &spare)
	r, off := c.rank, c.at(lo)
	if !contiguous(c, lo, hi, b) {
		return true, a.fastStrided(op, c, off, lo, hi, buf, b, alpha)
	}
	n := b.Need // a contiguous patch needs exactly its elements
	buf = buf[:n]
	switch op {
	case opPut:
		st := a.note(r, statPut, n*a.es)
		err := armci.Put(a.seg, r, off*a.es, buf)
		a.g.took(st, r, statPut)
		return true, err
	case opGet:
		st := a.note(r, statGet, n*a.es)
		err := armci.Get(a.seg, r, off*a.es, buf)
		a.g.took(st, r, statGet)
		return true, err
	default:
		st := a.note(r, statAcc, n*a.es)
		err := armci.Acc(a.seg, r, off*a.es, buf, alpha)
		a.g.took(st, r, statAcc)
		return true, err
	}
}

// stridedBuf backs the slices of an armci.Strided for one call; pooled (in
// the group) so that a single-owner strided patch allocates nothing.
type stridedBuf struct {
	count, local, remote [MaxDim + 1]int
}

// fastStrided moves a patch of block c that is not contiguous, its first
// element off elements into the owner's storage, as one armci strided call.
func (a *Array[T]) fastStrided(op int, c *corner, off int, lo, hi []int, buf []T, b *layout.Buffer, alpha T) error {
	nd := len(a.dims)
	sb := a.g.strided.Get().(*stridedBuf)
	defer a.g.strided.Put(sb)
	for d := range nd {
		k := nd - 1 - d
		sb.count[k] = hi[d] - lo[d] + 1
		if k > 0 {
			sb.local[k-1] = b.Pitch[d] * a.es
			sb.remote[k-1] = c.pitch[d] * a.es
		}
	}
	sb.count[0] *= a.es
	p := armci.Strided{Count: sb.count[:nd], LocalStride: sb.local[:nd-1], RemoteStride: sb.remote[:nd-1]}
	r := c.rank
	switch op {
	case opPut:
		st := a.note(r, statPut, p.Bytes())
		err := armci.PutS(a.seg, r, off*a.es, buf, p)
		a.g.took(st, r, statPut)
		return err
	case opGet:
		st := a.note(r, statGet, p.Bytes())
		err := armci.GetS(a.seg, r, off*a.es, buf, p)
		a.g.took(st, r, statGet)
		return err
	default:
		st := a.note(r, statAcc, p.Bytes())
		err := armci.AccS(a.seg, r, off*a.es, buf, p, alpha)
		a.g.took(st, r, statAcc)
		return err
	}
}

const (
	opPut = iota
	opGet
	opAcc
)
