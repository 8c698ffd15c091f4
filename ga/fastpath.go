package ga

import (
	"sync"

	"github.com/goga-hpc/goga/armci"
)

// The common one-sided case is a patch that one process owns and that is
// contiguous both in its block and in the caller's buffer (any 1-D patch, or
// whole rows of a block). It is moved with one contiguous armci call, with no
// allocation: on a node that is a bare memory copy.

// single returns the coordinates of the block that holds all of [lo, hi], or
// false if several do.
func (a *Array[T]) single(lo, hi []int) (c [MaxDim]int, ok bool) {
	for d, s := range a.m.Starts {
		b := blockIndex(s, lo[d])
		if hi[d] >= a.m.Dims[d] || (b+1 < len(s) && hi[d] >= s[b+1]) {
			return c, false
		}
		c[d] = b
	}
	return c, true
}

// blockIndex is the index of the block of starts s that holds i.
func blockIndex(s []int, i int) int {
	lo, hi := 0, len(s)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if s[mid] <= i {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
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
// the owner's storage and in a buffer with leading dimensions ld.
func (a *Array[T]) contiguous(l *located, lo, hi, ld []int) bool {
	// Past the first dimension the patch spans more than one index, every
	// dimension must be whole in both the storage and the buffer.
	spanning := false
	for d := range lo {
		if spanning {
			ext := l.ext[d]
			if hi[d]-lo[d]+1 != ext || (ld != nil && ld[d-1] != ext) {
				return false
			}
		} else if hi[d] > lo[d] {
			spanning = true
		}
	}
	return true
}

// fast moves a single-owner contiguous patch, and reports false when the
// patch is not one; the caller has checked the patch.
func (a *Array[T]) fast(op int, lo, hi []int, buf []T, ld []int, alpha T) (bool, error) {
	c, ok := a.single(lo, hi)
	if !ok {
		return false, nil
	}
	l := a.locate(c, lo)
	if !a.contiguous(&l, lo, hi, ld) {
		return a.fastStrided(op, &l, lo, hi, buf, ld, alpha)
	}
	r, off := l.rank, l.off
	n := 1
	for d := range lo {
		n *= hi[d] - lo[d] + 1
	}
	if len(buf) < n {
		return false, nil // let the general path report it
	}
	b := buf[:n]
	switch op {
	case opPut:
		a.note(r, &st.stats.Put, n*a.es)
		return true, armci.Put(a.seg, r, off*a.es, b)
	case opGet:
		a.note(r, &st.stats.Get, n*a.es)
		return true, armci.Get(a.seg, r, off*a.es, b)
	default:
		a.note(r, &st.stats.Acc, n*a.es)
		return true, armci.Acc(a.seg, r, off*a.es, b, alpha)
	}
}

// stridedBuf backs the slices of an armci.Strided for one call; pooled so that
// a single-owner strided patch allocates nothing.
type stridedBuf struct {
	count, local, remote [MaxDim + 1]int
}

var stridedPool = sync.Pool{New: func() any { return new(stridedBuf) }}

// fastStrided moves a patch that one process owns but that is not contiguous,
// as one armci strided call.
func (a *Array[T]) fastStrided(op int, l *located, lo, hi []int, buf []T, ld []int, alpha T) (bool, error) {
	nd := len(a.dims)
	var lpitch, rpitch [MaxDim]int
	lpitch[nd-1], rpitch[nd-1] = 1, 1
	for d := nd - 2; d >= 0; d-- {
		rpitch[d] = rpitch[d+1] * l.ext[d+1]
		n := hi[d+1] - lo[d+1] + 1
		if ld != nil {
			if len(ld) != nd-1 || ld[d] < n {
				return false, nil // let the general path report it
			}
			n = ld[d]
		}
		lpitch[d] = lpitch[d+1] * n
	}
	need := 1
	for d := range nd {
		need += (hi[d] - lo[d]) * lpitch[d]
	}
	if len(buf) < need {
		return false, nil
	}
	sb := stridedPool.Get().(*stridedBuf)
	defer stridedPool.Put(sb)
	for d := range nd {
		k := nd - 1 - d
		sb.count[k] = hi[d] - lo[d] + 1
		if k > 0 {
			sb.local[k-1] = lpitch[d] * a.es
			sb.remote[k-1] = rpitch[d] * a.es
		}
	}
	sb.count[0] *= a.es
	p := armci.Strided{Count: sb.count[:nd], LocalStride: sb.local[:nd-1], RemoteStride: sb.remote[:nd-1]}
	r, off := l.rank, l.off
	switch op {
	case opPut:
		a.note(r, &st.stats.Put, p.Bytes())
		return true, armci.PutS(a.seg, r, off*a.es, buf, p)
	case opGet:
		a.note(r, &st.stats.Get, p.Bytes())
		return true, armci.GetS(a.seg, r, off*a.es, buf, p)
	default:
		a.note(r, &st.stats.Acc, p.Bytes())
		return true, armci.AccS(a.seg, r, off*a.es, buf, p, alpha)
	}
}

const (
	opPut = iota
	opGet
	opAcc
)
