package armci

import (
	"sync/atomic"
	"unsafe"
)

// Direct is rank's part of a segment as this process maps it, resolved once
// for a caller that keeps its own bounds, as ga does for a patch inside one
// block. Its Put, Get and Acc are those of the mapped transport, without the
// segment's checks (validity, rank, span) and transport dispatch, which were
// a third of an 8-byte ga.Put. Offsets are in elements; an offset or length
// outside the part panics as a slice index does. The caller must stop using
// a Direct when the segment is freed: its memory is then unmapped.
type Direct[T AccElem] struct {
	part []T
	// lock is the part's accumulate lock, or nil where accumulates must go
	// through MPI to stay atomic with others (Acc then takes the general path).
	lock    *uint32
	s       *Segment
	rank    int
	entered *entered
}

// DirectTo returns rank's part of s for direct transfers, or ok false where
// this process does not map it (or it is not a whole number of T).
func DirectTo[T AccElem](s *Segment, rank int) (d Direct[T], ok bool) {
	part, ok := PartAs[T](s, rank)
	if !ok {
		return Direct[T]{}, false
	}
	m := s.near[rank]
	return Direct[T]{part: part, s: s, rank: rank, entered: m.entered, lock: m.lock}, true
}

// Put copies src to the part at element offset off. One element is a
// store, with no call: Put then inlines into its caller.
func (d *Direct[T]) Put(off int, src []T) {
	if len(src) == 1 {
		d.part[off] = src[0]
		return
	}
	d.put(off, src)
}

func (d *Direct[T]) put(off int, src []T) {
	dst := bytesOf(d.part[off : off+len(src)])
	if len(dst) >= bigCopy {
		d.entered.span(off*sizeOf[T](), len(dst))
	}
	copyBytes(dst, bytesOf(src))
}

// Get copies the part's elements from element offset off into dst; one
// element is a load, as in Put.
func (d *Direct[T]) Get(off int, dst []T) {
	if len(dst) == 1 {
		dst[0] = d.part[off]
		return
	}
	d.get(off, dst)
}

func (d *Direct[T]) get(off int, dst []T) { copyBytes(bytesOf(dst), bytesOf(d.part[off:off+len(dst)])) }

// Acc adds scale·src to the part at element offset off, atomically per
// element with respect to other accumulates, as Acc does. One element under
// a free lock is added in place, with no call.
func (d *Direct[T]) Acc(off int, src []T, scale T) error {
	if len(src) == 1 && d.lock != nil && atomic.CompareAndSwapUint32(d.lock, 0, 1) {
		if scale == 1 {
			d.part[off] += src[0]
		} else {
			d.part[off] += scale * src[0]
		}
		unlockWord(d.lock)
		return nil
	}
	return d.acc(off, src, scale)
}

func (d *Direct[T]) acc(off int, src []T, scale T) error {
	dst := d.part[off : off+len(src)]
	if d.lock == nil {
		return Acc(d.s, d.rank, off*sizeOf[T](), src, scale)
	}
	lockWord(d.lock)
	accumulate(dst, src, scale)
	unlockWord(d.lock)
	return nil
}

// Mapped reports whether d is a part (DirectTo's ok), not the zero Direct.
func (d *Direct[T]) Mapped() bool { return d.s != nil }

// CPU reports whether d's accumulates and DirectFetchAdd are the
// processor's own atomic operations, with no MPI call (false for the zero
// Direct).
func (d *Direct[T]) CPU() bool { return d.lock != nil }

// DirectFetchAdd adds v to d's element at element offset off and returns its
// old value, atomically with respect to every other read-modify-write and
// accumulate on it (FetchAdd).
func DirectFetchAdd[T RmwElem](d *Direct[T], off int, v T) (T, error) {
	if d.lock == nil {
		return FetchAdd(d.s, d.rank, off*sizeOf[T](), v)
	}
	return fetchAddAt(unsafe.Pointer(&d.part[off]), v), nil
}
