package armci

import (
	"sync"
	"unsafe"

	"github.com/goga-hpc/goga/mpi"
)

// bytesOf views a slice's memory as bytes.
func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
}

// elems views n elements of T at p.
func elems[T any](p *byte, n int) []T {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(p)), n)
}

// elemsOf views b as elements of E (its length rounded down).
func elemsOf[E any](b []byte) []E {
	var z E
	return elems[E](unsafe.SliceData(b), len(b)/int(unsafe.Sizeof(z)))
}

func sizeOf[T any]() int {
	var z T
	return int(unsafe.Sizeof(z))
}

// turn waits for this process's turn to operate over MPI on rank's memory and
// returns the function that ends it; the turn covers an operation's issue and
// its completion (or, non-blocking, its issue). Threads of one process that
// operate on one target at once only compete inside MPI: Open MPI's osc ucx
// takes a lock at the target with a loop of remote compare-and-swaps for every
// accumulate and read-modify-write, and flushes the endpoints of every thread
// that ever used the window. Over TCP, 8 goroutines per rank calling Acc fell
// from 1,400 to 12 calls/s; taking turns keeps them at several hundred. (The
// index is the segment's rank: for a group segment that is another process's
// turn, which costs some concurrency and nothing else. Active messages take
// their target's turn by its rank in the runtime, viaAM.turn: their order
// depends on it.)
func (s *Segment) turn(rank int) func() { return takeTurn(&s.rt.turns[rank]) }

// takeTurn locks m and returns its unlock, for defer.
func takeTurn(m *sync.Mutex) func() {
	m.Lock()
	return m.Unlock
}

// maxPiece is the most bytes one MPI call moves. MPI counts are C ints, so a
// larger transfer goes as several calls on consecutive pieces; 1 GiB is a
// whole number of elements of every type. (A variable: tests split small
// transfers with a few bytes.)
var maxPiece = 1 << 30

// inPieces calls f with the byte offset and length of each consecutive piece
// of n bytes, in order, and stops at the first error.
func inPieces(n int, f func(off, n int) error) error {
	for o := 0; o < n; o += maxPiece {
		if err := f(o, min(maxPiece, n-o)); err != nil {
			return err
		}
	}
	return nil
}

// pieces calls f on each consecutive piece of buf (see inPieces), with the
// piece's byte offset in buf.
func pieces[T any](buf []T, f func(piece []T, off int) error) error {
	es := sizeOf[T]()
	return inPieces(len(buf)*es, func(o, n int) error { return f(buf[o/es:(o+n)/es], o) })
}

// Put copies src into rank's part of s at byte offset off (ARMCI_Put). It
// returns when src may be reused.
func Put[T mpi.Elem](s *Segment, rank, off int, src []T) error {
	b := bytesOf(src)
	if err := s.check("Put", rank, off, len(b)); err != nil {
		return err
	}
	// The mapped transport inline, through a field set once where Malloc
	// chose it (Segment.near), not an interface call: that call is 5% of an
	// 8-byte put.
	if m := s.near[rank]; m != nil {
		if len(b) >= bigCopy {
			m.entered.span(off, len(b))
		}
		copyBytes(m.part[off:], b)
		return nil
	}
	_, err := s.to[rank].put(off, b, true)
	return err
}

// Get copies len(dst) elements from rank's part of s at byte offset off into dst
// (ARMCI_Get). It returns with the data.
func Get[T mpi.Elem](s *Segment, rank, off int, dst []T) error {
	b := bytesOf(dst)
	if err := s.check("Get", rank, off, len(b)); err != nil {
		return err
	}
	if m := s.near[rank]; m != nil { // inline, as in Put
		copyBytes(b, m.part[off:])
		return nil
	}
	_, err := s.to[rank].get(off, b, true)
	return err
}

// Acc adds scale·src to rank's part of s at byte offset off, element by element
// (ARMCI_Acc). It is atomic per element with respect to other accumulates and
// returns when src may be reused. off must be a multiple of the element size.
func Acc[T AccElem](s *Segment, rank, off int, src []T, scale T) error {
	n := len(src) * sizeOf[T]()
	if err := s.checkAcc("Acc", rank, off, n, sizeOf[T]()); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	// The processor's accumulate inline where it is the part's atomics, as
	// Put's copy.
	if m := s.near[rank]; m != nil && m.lock != nil {
		lockWord(m.lock)
		accumulate(elems[T](&m.part[off], len(src)), src, scale)
		unlockWord(m.lock)
		return nil
	}
	_, err := s.at[rank].acc(off, bytesOf(src), kindOf[T]{}, scaleWords(scale), true)
	return err
}

func (s *Segment) check(op string, rank, off, n int) error {
	if err := s.valid(op); err != nil {
		return err
	}
	return s.span(op, rank, off, n)
}

func (s *Segment) checkAcc(op string, rank, off, n, elem int) error {
	if err := s.check(op, rank, off, n); err != nil {
		return err
	}
	if off%elem != 0 {
		return argErr(op, "offset", "%d is not a multiple of the element size %d", off, elem)
	}
	return nil
}
