package ga

import (
	"math"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/layout"
	"github.com/goga-hpc/goga/internal/percpu"
)

// Put copies buf into the patch [lo, hi] (NGA_Put). buf holds the patch in C
// order with leading dimensions ld (nil: packed). It returns when buf may be
// reused; the data may still be on its way (see Fence and Sync).
func (a *Array[T]) Put(lo, hi []int, buf []T, ld []int) error {
	if r, off, n, ok := a.quick(lo, hi, ld, len(buf)); ok {
		st := a.note(r, statPut, n*a.es)
		if d := a.direct.at(r); d.Mapped() {
			d.Put(off, buf[:n])
			a.g.took(st, r, statPut)
			return nil
		}
		err := armci.Put(a.seg, r, off*a.es, buf[:n])
		a.g.took(st, r, statPut)
		return err
	}
	return a.put(lo, hi, buf, ld)
}

// put is Put's general path: checks, the faster passes of fastpath.go, and
// the pieces.
func (a *Array[T]) put(lo, hi []int, buf []T, ld []int) error {
	var b layout.Buffer
	if err := a.transfer("Put", lo, hi, ld, len(buf), &b); err != nil {
		return err
	}
	if done, err := a.fast(opPut, lo, hi, buf, &b, 0); done || err != nil {
		return err
	}
	a.countCall(statPut)
	return a.pieces(lo, hi, b.Pitch[:len(lo)], func(pc piece) error {
		st := a.notePiece(pc.rank, statPut, pc.p.Bytes())
		err := armci.PutS(a.seg, pc.rank, pc.remote, buf[pc.local:], pc.p)
		a.g.took(st, pc.rank, statPut)
		return err
	})
}

// Get copies the patch [lo, hi] into buf (NGA_Get); it returns with the data.
// A read_only array is read from its node's copy (see SetProperty).
func (a *Array[T]) Get(lo, hi []int, buf []T, ld []int) error {
	if a != nil && a.cache != nil {
		return a.cachedGet(lo, hi, buf, ld)
	}
	a = a.source()
	if r, off, n, ok := a.quick(lo, hi, ld, len(buf)); ok {
		st := a.note(r, statGet, n*a.es)
		if d := a.direct.at(r); d.Mapped() {
			d.Get(off, buf[:n])
			a.g.took(st, r, statGet)
			return nil
		}
		err := armci.Get(a.seg, r, off*a.es, buf[:n])
		a.g.took(st, r, statGet)
		return err
	}
	return a.get(lo, hi, buf, ld)
}

// get is Get's general path: checks, the faster passes of fastpath.go, and
// the pieces.
func (a *Array[T]) get(lo, hi []int, buf []T, ld []int) error {
	var b layout.Buffer
	if err := a.transfer("Get", lo, hi, ld, len(buf), &b); err != nil {
		return err
	}
	if done, err := a.fast(opGet, lo, hi, buf, &b, 0); done || err != nil {
		return err
	}
	a.countCall(statGet)
	return a.pieces(lo, hi, b.Pitch[:len(lo)], func(pc piece) error {
		st := a.notePiece(pc.rank, statGet, pc.p.Bytes())
		err := armci.GetS(a.seg, pc.rank, pc.remote, buf[pc.local:], pc.p)
		a.g.took(st, pc.rank, statGet)
		return err
	})
}

// Acc adds alpha·buf to the patch [lo, hi] (NGA_Acc), atomically per element
// with respect to other accumulates. It returns when buf may be reused.
func (a *Array[T]) Acc(lo, hi []int, buf []T, ld []int, alpha T) error {
	if r, off, n, ok := a.quick(lo, hi, ld, len(buf)); ok {
		st := a.note(r, statAcc, n*a.es)
		var err error
		if d := a.direct.at(r); d.Mapped() {
			err = d.Acc(off, buf[:n], alpha)
		} else {
			err = armci.Acc(a.seg, r, off*a.es, buf[:n], alpha)
		}
		a.g.took(st, r, statAcc)
		return err
	}
	return a.acc(lo, hi, buf, ld, alpha)
}

// acc is Acc's general path: checks, the faster passes of fastpath.go, and
// the pieces.
func (a *Array[T]) acc(lo, hi []int, buf []T, ld []int, alpha T) error {
	var b layout.Buffer
	if err := a.transfer("Acc", lo, hi, ld, len(buf), &b); err != nil {
		return err
	}
	if done, err := a.fast(opAcc, lo, hi, buf, &b, alpha); done || err != nil {
		return err
	}
	a.countCall(statAcc)
	return a.pieces(lo, hi, b.Pitch[:len(lo)], func(pc piece) error {
		st := a.notePiece(pc.rank, statAcc, pc.p.Bytes())
		err := armci.AccS(a.seg, pc.rank, pc.remote, buf[pc.local:], pc.p, alpha)
		a.g.took(st, pc.rank, statAcc)
		return err
	})
}

// ReadInc adds inc to the element at sub and returns its old value, atomically
// (NGA_Read_inc): the shared counter of dynamic load balancing. The array
// must hold int32 or int64.
func (a *Array[T]) ReadInc(sub []int, inc int64) (int64, error) {
	// An integer this process maps and adds to with the processor's
	// atomic: countedFetchAdd. Elsewhere (MPI's atomics) the general path.
	if r, off, _, ok := a.quick(sub, sub, nil, 1); ok {
		if d := a.direct64.at(r); d.CPU() {
			return countedFetchAdd(a.g, d, r, off, inc, a.es)
		}
		if d := a.direct32.at(r); d.CPU() && inc >= math.MinInt32 && inc <= math.MaxInt32 {
			return countedFetchAdd(a.g, d, r, off, int32(inc), a.es)
		}
	}
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
	st := a.note(rank, statReadInc, a.es)
	defer a.g.took(st, rank, statReadInc)
	if _, ok := any(z).(int64); ok {
		return armci.FetchAdd(a.seg, rank, off, inc)
	}
	old, err := armci.FetchAdd(a.seg, rank, off, int32(inc))
	return int64(old), err
}

// countedFetchAdd is ReadInc's fetch-and-add on rank's block, which this
// process maps and adds to with the processor's atomic (d.CPU(): nothing
// blocks while the slot is pinned), counted for PrintStats as tally counts
// but in a slot pinned before the atomic, with no call between the two:
// with two processes on one counter, tally after the atomic cost a fifth
// of their increments.
func countedFetchAdd[E int32 | int64](g *group, d *armci.Direct[E], rank, off int, inc E, es int) (int64, error) {
	if p := prof.Load(); p != nil {
		st := g.profTally(p, rank, statReadInc, 1, es)
		old, err := armci.DirectFetchAdd(d, off, inc)
		g.took(st, rank, statReadInc)
		return int64(old), err
	}
	i, to := g.counters(rank, statReadInc)
	s := g.stats.ops.Pin()
	old, err := armci.DirectFetchAdd(d, off, inc)
	if s != nil {
		s[i]++
		s[to] += int64(es)
		percpu.Unpin()
	} else {
		percpu.Unpin()
		g.spill(i, to, 1, es)
	}
	g.noteTarget(rank)
	return int64(old), err
}

// element returns the owner of sub and its byte offset in the owner's storage.
func (a *Array[T]) element(sub []int) (rank, off int) {
	var spare corner
	c := a.cornerOf(a.m.BlockAt(sub), &spare)
	return c.rank, c.at(sub) * a.es
}
