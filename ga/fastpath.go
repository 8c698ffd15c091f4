package ga

import (
	"sync"

	"github.com/goga-hpc/goga/armci"
)

// The common one-sided case is a patch that one process owns and that is
// contiguous both in its block and in the caller's buffer (any 1-D patch, or
// whole rows of a block). It is moved with one contiguous armci call, with no
// allocation: on a node that is a bare memory copy.

// single returns the rank that owns all of [lo, hi], or -1 if several do.
func (a *Array[T]) single(lo, hi []int) int {
	r := 0
	for d, s := range a.m.Starts {
		b := blockIndex(s, lo[d])
		if hi[d] >= a.m.Dims[d] || (b+1 < len(s) && hi[d] >= s[b+1]) {
			return -1
		}
		r = r*len(s) + b
	}
	return r
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

// contiguous reports whether the patch [lo, hi] of the owner r's block is one
// run of memory in the block and in a buffer with leading dimensions ld, and
// returns its element offset in r's block.
func (a *Array[T]) contiguous(r int, lo, hi, ld []int) (off int, ok bool) {
	nd := len(a.dims)
	c := a.coords(r)
	// Past the first dimension the patch spans more than one index, every
	// dimension must be whole in both the block and the buffer.
	spanning := false
	for d := range nd {
		blo, bhi := a.blockRange(d, c[d])
		ext := bhi - blo + 1
		if spanning {
			if hi[d]-lo[d]+1 != ext || (ld != nil && ld[d-1] != ext) {
				return 0, false
			}
		} else if hi[d] > lo[d] {
			spanning = true
		}
		off = off*ext + lo[d] - blo
	}
	return off, true
}

// coords are r's block coordinates, without allocating.
func (a *Array[T]) coords(r int) [MaxDim]int {
	var c [MaxDim]int
	for d := len(a.m.Starts) - 1; d >= 0; d-- {
		n := len(a.m.Starts[d])
		c[d] = r % n
		r /= n
	}
	return c
}

func (a *Array[T]) blockRange(d, i int) (lo, hi int) {
	s := a.m.Starts[d]
	lo = s[i]
	if i+1 < len(s) {
		return lo, s[i+1] - 1
	}
	return lo, a.m.Dims[d] - 1
}

// fast moves a single-owner contiguous patch, and reports false when the
// patch is not one; the caller has checked the patch.
func (a *Array[T]) fast(op int, lo, hi []int, buf []T, ld []int, alpha T) (bool, error) {
	r := a.single(lo, hi)
	if r < 0 {
		return false, nil
	}
	off, ok := a.contiguous(r, lo, hi, ld)
	if !ok {
		return a.fastStrided(op, r, lo, hi, buf, ld, alpha)
	}
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
func (a *Array[T]) fastStrided(op, r int, lo, hi []int, buf []T, ld []int, alpha T) (bool, error) {
	nd := len(a.dims)
	c := a.coords(r)
	var bpitch, lpitch [MaxDim]int
	bpitch[nd-1], lpitch[nd-1] = 1, 1
	for d := nd - 2; d >= 0; d-- {
		blo, bhi := a.blockRange(d+1, c[d+1])
		bpitch[d] = bpitch[d+1] * (bhi - blo + 1)
		l := hi[d+1] - lo[d+1] + 1
		if ld != nil {
			if len(ld) != nd-1 || ld[d] < l {
				return false, nil // let the general path report it
			}
			l = ld[d]
		}
		lpitch[d] = lpitch[d+1] * l
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
	off := 0
	for d := range nd {
		blo, _ := a.blockRange(d, c[d])
		off += (lo[d] - blo) * bpitch[d]
		k := nd - 1 - d
		sb.count[k] = hi[d] - lo[d] + 1
		if k > 0 {
			sb.local[k-1] = lpitch[d] * a.es
			sb.remote[k-1] = bpitch[d] * a.es
		}
	}
	sb.count[0] *= a.es
	p := armci.Strided{Count: sb.count[:nd], LocalStride: sb.local[:nd-1], RemoteStride: sb.remote[:nd-1]}
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
