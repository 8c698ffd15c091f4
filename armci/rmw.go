package armci

import (
	"sync/atomic"
	"unsafe"
)

// RmwElem is the set of types that read-modify-write works on (ARMCI's INT
// and LONG variants).
type RmwElem interface{ ~int32 | ~int64 }

// Read-modify-write kinds (atomics.rmw, and on the wire).
const (
	rmwFetchAdd = iota
	rmwSwap
	rmwCompareSwap
)

func (s *Segment) checkRmw(op string, rank, off, elem int) error {
	return s.checkAcc(op, rank, off, elem, elem)
}

// FetchAdd adds v to the element at byte offset off in rank's part of s and
// returns its old value, atomically with respect to every other
// read-modify-write on s (ARMCI_Rmw with ARMCI_FETCH_AND_ADD(_LONG)).
func FetchAdd[T RmwElem](s *Segment, rank, off int, v T) (T, error) {
	if err := s.checkRmw("FetchAdd", rank, off, sizeOf[T]()); err != nil {
		return 0, err
	}
	// The processor's atomic inline, without the atomics' interface call,
	// where they are its (as Acc).
	if m := s.near[rank]; m != nil && m.lock != nil {
		return fetchAddAt(unsafe.Pointer(&m.part[off]), v), nil
	}
	return rmw(s, rank, off, rmwFetchAdd, v, 0)
}

// rmw applies a read-modify-write of kind through rank's atomics.
func rmw[T RmwElem](s *Segment, rank, off, kind int, v, expect T) (T, error) {
	old, err := s.at[rank].rmw(off, kind, sizeOf[T](), int64(v), int64(expect))
	return T(old), err
}

// fetchAddAt adds v to the T at p with the processor's atomic and returns
// the old value.
func fetchAddAt[T RmwElem](p unsafe.Pointer, v T) T {
	if sizeOf[T]() == 4 {
		return T(atomic.AddInt32((*int32)(p), int32(v)) - int32(v))
	}
	return T(atomic.AddInt64((*int64)(p), int64(v)) - int64(v))
}

// Swap stores v in the element at byte offset off in rank's part of s and
// returns its old value, atomically (ARMCI_Rmw with ARMCI_SWAP(_LONG)).
func Swap[T RmwElem](s *Segment, rank, off int, v T) (T, error) {
	if err := s.checkRmw("Swap", rank, off, sizeOf[T]()); err != nil {
		return 0, err
	}
	return rmw(s, rank, off, rmwSwap, v, 0)
}

// CompareSwap stores v in the element at byte offset off in rank's part of s if
// it equals expect, atomically, and returns the value it held.
func CompareSwap[T RmwElem](s *Segment, rank, off int, expect, v T) (T, error) {
	if err := s.checkRmw("CompareSwap", rank, off, sizeOf[T]()); err != nil {
		return 0, err
	}
	return rmw(s, rank, off, rmwCompareSwap, v, expect)
}

// rmwAt applies a read-modify-write of a size-byte integer at p.
func rmwAt(p unsafe.Pointer, size, kind int, v, expect int64) int64 {
	if size == 4 {
		p32 := (*int32)(p)
		switch kind {
		case rmwFetchAdd:
			return int64(atomic.AddInt32(p32, int32(v)) - int32(v))
		case rmwSwap:
			return int64(atomic.SwapInt32(p32, int32(v)))
		}
		for {
			cur := atomic.LoadInt32(p32)
			if int64(cur) != expect || atomic.CompareAndSwapInt32(p32, cur, int32(v)) {
				return int64(cur)
			}
		}
	}
	p64 := (*int64)(p)
	switch kind {
	case rmwFetchAdd:
		return atomic.AddInt64(p64, v) - v
	case rmwSwap:
		return atomic.SwapInt64(p64, v)
	}
	for {
		cur := atomic.LoadInt64(p64)
		if cur != expect || atomic.CompareAndSwapInt64(p64, cur, v) {
			return cur
		}
	}
}
