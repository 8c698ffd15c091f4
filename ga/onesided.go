package ga

import (
	"math"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/layout"
)

// Put copies buf into the patch [lo, hi] (NGA_Put). buf holds the patch in C
// order with leading dimensions ld (nil: packed). It returns when buf may be
// reused; the data may still be on its way (see Fence and Sync).
func (a *Array[T]) Put(lo, hi []int, buf []T, ld []int) error {
	if r, off, n, ok := a.quick(lo, hi, ld, len(buf)); ok {
		a.note(r, &a.g.stats.Put, n*a.es)
		return armci.Put(a.seg, r, off*a.es, buf[:n])
	}
	var b layout.Buffer
	if err := a.transfer("Put", lo, hi, ld, len(buf), &b); err != nil {
		return err
	}
	if done, err := a.fast(opPut, lo, hi, buf, &b, 0); done || err != nil {
		return err
	}
	a.countCall(&a.g.stats.Put)
	return a.pieces(lo, hi, b.Pitch[:len(lo)], func(pc piece) error {
		a.notePiece(pc.rank, &a.g.stats.Put, pc.p.Bytes())
		return armci.PutS(a.seg, pc.rank, pc.remote, buf[pc.local:], pc.p)
	})
}

// Get copies the patch [lo, hi] into buf (NGA_Get); it returns with the data.
// A read_only array is read from its node's copy (see SetProperty).
func (a *Array[T]) Get(lo, hi []int, buf []T, ld []int) error {
	a = a.source()
	if r, off, n, ok := a.quick(lo, hi, ld, len(buf)); ok {
		a.note(r, &a.g.stats.Get, n*a.es)
		return armci.Get(a.seg, r, off*a.es, buf[:n])
	}
	var b layout.Buffer
	if err := a.transfer("Get", lo, hi, ld, len(buf), &b); err != nil {
		return err
	}
	if done, err := a.fast(opGet, lo, hi, buf, &b, 0); done || err != nil {
		return err
	}
	a.countCall(&a.g.stats.Get)
	return a.pieces(lo, hi, b.Pitch[:len(lo)], func(pc piece) error {
		a.notePiece(pc.rank, &a.g.stats.Get, pc.p.Bytes())
		return armci.GetS(a.seg, pc.rank, pc.remote, buf[pc.local:], pc.p)
	})
}

// Acc adds alpha·buf to the patch [lo, hi] (NGA_Acc), atomically per element
// with respect to other accumulates. It returns when buf may be reused.
func (a *Array[T]) Acc(lo, hi []int, buf []T, ld []int, alpha T) error {
	if r, off, n, ok := a.quick(lo, hi, ld, len(buf)); ok {
		a.note(r, &a.g.stats.Acc, n*a.es)
		return armci.Acc(a.seg, r, off*a.es, buf[:n], alpha)
	}
	var b layout.Buffer
	if err := a.transfer("Acc", lo, hi, ld, len(buf), &b); err != nil {
		return err
	}
	if done, err := a.fast(opAcc, lo, hi, buf, &b, alpha); done || err != nil {
		return err
	}
	a.countCall(&a.g.stats.Acc)
	return a.pieces(lo, hi, b.Pitch[:len(lo)], func(pc piece) error {
		a.notePiece(pc.rank, &a.g.stats.Acc, pc.p.Bytes())
		return armci.AccS(a.seg, pc.rank, pc.remote, buf[pc.local:], pc.p, alpha)
	})
}

// ReadInc adds inc to the element at sub and returns its old value, atomically
// (NGA_Read_inc): the shared counter of dynamic load balancing. The array
// must hold int32 or int64.
func (a *Array[T]) ReadInc(sub []int, inc int64) (int64, error) {
	// Not through quick: with two processes on one counter, ReadInc through
	// quick (31 ns alone, against 40) made 10-14 Mop/s between them, this
	// path 14-17. The counter's cache line is what they wait for.
	if err := a.checkPatch("ReadInc", sub, sub); err != nil {
		return 0, err
	}
	// Refuse before anything moves or is counted.
	var z T
	switch any(z).(type) {
	case int64:
	case int32:
		if inc < math.MinInt32 || inc > math.MaxInt32 {
			return 0, errorf("ReadInc", a.name, "increment %d does not fit the array's int32 elements", inc)
		}
	default:
		return 0, errorf("ReadInc", a.name, "element type %T is not an integer (int32 or int64)", z)
	}
	rank, off := a.element(sub)
	a.note(rank, &a.g.stats.ReadInc, a.es)
	if _, ok := any(z).(int64); ok {
		return armci.FetchAdd(a.seg, rank, off, inc)
	}
	old, err := armci.FetchAdd(a.seg, rank, off, int32(inc))
	return int64(old), err
}

// element returns the owner of sub and its byte offset in the owner's storage.
func (a *Array[T]) element(sub []int) (rank, off int) {
	var pitch [MaxDim]int
	rank, off = a.place(sub, pitch[:len(sub)])
	return rank, off * a.es
}
