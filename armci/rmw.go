package armci

import (
	"sync/atomic"
	"unsafe"

	"github.com/goga-hpc/goga/mpi"
)

// RmwElem is the set of types that read-modify-write works on (ARMCI's INT
// and LONG variants).
type RmwElem interface{ ~int32 | ~int64 }

func (s *Segment) checkRmw(op string, rank, off, elem int) error {
	return s.checkAcc(op, rank, off, elem, elem)
}

// addr is the address of an element of rank's shared-memory part.
func addr(s *Segment, rank, off int) unsafe.Pointer { return unsafe.Pointer(&s.parts[rank][off]) }

// FetchAdd adds v to the element at byte offset off in rank's part of s and
// returns its old value, atomically with respect to every other
// read-modify-write on s (ARMCI_Rmw with ARMCI_FETCH_AND_ADD(_LONG)).
func FetchAdd[T RmwElem](s *Segment, rank, off int, v T) (T, error) {
	if err := s.checkRmw("FetchAdd", rank, off, sizeOf[T]()); err != nil {
		return 0, err
	}
	if !s.cpu {
		defer s.turn(rank)()
		return mpi.FetchAndOp(s.win, v, rank, off, mpi.Sum)
	}
	if am := s.viaAM(rank); am != nil {
		return rmwAM(am, off, amFetchAdd, v, 0)
	}
	return fetchAddAt(addr(s, rank, off), v), nil
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
	if !s.cpu {
		defer s.turn(rank)()
		return mpi.FetchAndOp(s.win, v, rank, off, mpi.Replace)
	}
	if am := s.viaAM(rank); am != nil {
		return rmwAM(am, off, amSwap, v, 0)
	}
	if sizeOf[T]() == 4 {
		return T(atomic.SwapInt32((*int32)(addr(s, rank, off)), int32(v))), nil
	}
	return T(atomic.SwapInt64((*int64)(addr(s, rank, off)), int64(v))), nil
}

// CompareSwap stores v in the element at byte offset off in rank's part of s if
// it equals expect, atomically, and returns the value it held.
func CompareSwap[T RmwElem](s *Segment, rank, off int, expect, v T) (T, error) {
	if err := s.checkRmw("CompareSwap", rank, off, sizeOf[T]()); err != nil {
		return 0, err
	}
	if !s.cpu {
		defer s.turn(rank)()
		return mpi.CompareAndSwap(s.win, v, expect, rank, off)
	}
	if am := s.viaAM(rank); am != nil {
		return rmwAM(am, off, amCompareSwap, v, expect)
	}
	p := addr(s, rank, off)
	for {
		if sizeOf[T]() == 4 {
			cur := atomic.LoadInt32((*int32)(p))
			if T(cur) != expect || atomic.CompareAndSwapInt32((*int32)(p), cur, int32(v)) {
				return T(cur), nil
			}
		} else {
			cur := atomic.LoadInt64((*int64)(p))
			if T(cur) != expect || atomic.CompareAndSwapInt64((*int64)(p), cur, int64(v)) {
				return T(cur), nil
			}
		}
	}
}
