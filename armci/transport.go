package armci

import (
	"sync/atomic"
	"unsafe"

	"github.com/goga-hpc/goga/mpi"
)

// transport is how this process reaches one rank's part of a segment. Each
// segment chooses one per rank when it is allocated (Segment.to): the rank's
// part mapped into this process (mapped), the segment's MPI window
// (overMPI), or the owner's active-message server (viaAM, am_client.go). The
// operations below take byte offsets and byte buffers already checked
// against the part and the buffer; with wait they complete locally before
// returning (nil requests), without it they may return requests still in
// flight, whose buffers stay pinned until they complete.
type transport interface {
	put(off int, b []byte, wait bool) ([]*mpi.Request, error)
	get(off int, b []byte, wait bool) ([]*mpi.Request, error)
	putS(off int, b []byte, p Strided, wait bool) ([]*mpi.Request, error)
	getS(off int, b []byte, p Strided, wait bool) ([]*mpi.Request, error)
	putV(b []byte, vecs []IOVec, wait bool) ([]*mpi.Request, error)
	getV(b []byte, vecs []IOVec, wait bool) ([]*mpi.Request, error)
	// fence completes this process's operations at the target.
	fence() error
	// started wraps an operation issued without wait as a Handle (err: the
	// first failure, after which what was issued is completed).
	started(op string, reqs []*mpi.Request, err error) (*Handle, error)
}

// atomics is how this process accumulates into and reads-modifies-writes
// one rank's part of a segment (Segment.at). They must stay atomic against
// each other whichever process issues them, so a segment chooses one
// mechanism for every target when it is allocated: the processor's atomics
// and the part's accumulate lock where every part this process does not
// map is reached by active messages, whose owner applies them the same way
// (mapped, viaAM); else MPI's accumulates on every target, mapped or not
// (overMPI). Sources are packed elements of kind k, scale its words
// (scaleWords); offsets and buffers are checked, and a whole number of
// elements.
type atomics interface {
	acc(off int, src []byte, k accKind, scale [2]int64, wait bool) ([]*mpi.Request, error)
	accS(off int, src []byte, p Strided, k accKind, scale [2]int64) error
	accV(src []byte, vecs []IOVec, k accKind, scale [2]int64) error
	// rmw applies a read-modify-write of kind (rmwFetchAdd, rmwSwap,
	// rmwCompareSwap) to the size-byte integer at off and returns its old
	// value.
	rmw(off, kind, size int, v, expect int64) (int64, error)
	started(op string, reqs []*mpi.Request, err error) (*Handle, error)
}

// mapped reaches a part that this process maps (a shared-memory window on
// its node): every transfer is a memory copy, complete when it returns.
type mapped struct {
	part []byte
	word *atomic.Uint32 // the runtime's word for memory fences
	// entered is nil for this process's own part, whose pages Malloc
	// populated; large writes into a peer's part enter its pages first.
	entered *entered
	// lock is the part's accumulate lock where the segment's accumulates
	// are the processor's (mapped is then the part's atomics too); nil
	// where they go through MPI.
	lock *uint32
}

func (m *mapped) put(off int, b []byte, _ bool) ([]*mpi.Request, error) {
	if len(b) >= bigCopy {
		m.entered.span(off, len(b))
	}
	copyBytes(m.part[off:], b)
	return nil, nil
}

func (m *mapped) get(off int, b []byte, _ bool) ([]*mpi.Request, error) {
	copyBytes(b, m.part[off:])
	return nil, nil
}

func (m *mapped) putS(off int, b []byte, p Strided, _ bool) ([]*mpi.Request, error) {
	m.entered.strided(off, p)
	if len(p.Count) == 2 {
		copyRows(m.part[off:], b, p.Count[0], p.Count[1], p.RemoteStride[0], p.LocalStride[0])
		return nil, nil
	}
	dst, n := m.part[off:], p.Count[0]
	p.blocks(func(l, r int) { copyBytes(dst[r:r+n], b[l:l+n]) })
	return nil, nil
}

func (m *mapped) getS(off int, b []byte, p Strided, _ bool) ([]*mpi.Request, error) {
	src := m.part[off:]
	if len(p.Count) == 2 {
		copyRows(b, src, p.Count[0], p.Count[1], p.LocalStride[0], p.RemoteStride[0])
		return nil, nil
	}
	n := p.Count[0]
	p.blocks(func(l, r int) { copyBytes(b[l:l+n], src[r:r+n]) })
	return nil, nil
}

// copyRows copies rows of n bytes, dst's dstride apart and src's sstride
// apart: one level of strides without the general walk's closure and
// offset arithmetic per row. A ghost update's column faces are thousands
// of 8-byte rows, moved here as single words.
func copyRows(dst, src []byte, n, rows, dstride, sstride int) {
	if rows == 0 || n == 0 {
		return
	}
	_ = dst[(rows-1)*dstride+n-1]
	_ = src[(rows-1)*sstride+n-1]
	if n == 8 {
		d, s := unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0])
		for i := range rows {
			*(*uint64)(unsafe.Add(d, i*dstride)) = *(*uint64)(unsafe.Add(s, i*sstride))
		}
		return
	}
	for i := range rows {
		copyBytes(dst[i*dstride:i*dstride+n], src[i*sstride:i*sstride+n])
	}
}

func (m *mapped) putV(b []byte, vecs []IOVec, _ bool) ([]*mpi.Request, error) {
	for _, v := range vecs {
		for i := range v.Local {
			if v.Bytes >= bigCopy {
				m.entered.span(v.Remote[i], v.Bytes)
			}
			copyBytes(m.part[v.Remote[i]:], b[v.Local[i]:v.Local[i]+v.Bytes])
		}
	}
	return nil, nil
}

func (m *mapped) getV(b []byte, vecs []IOVec, _ bool) ([]*mpi.Request, error) {
	for _, v := range vecs {
		for i := range v.Local {
			copyBytes(b[v.Local[i]:v.Local[i]+v.Bytes], m.part[v.Remote[i]:])
		}
	}
	return nil, nil
}

func (m *mapped) fence() error {
	// Copies are complete when they return; order them before what follows.
	m.word.Add(1)
	return nil
}

// started: a copy is complete when it returns.
func (m *mapped) started(op string, _ []*mpi.Request, err error) (*Handle, error) {
	if err != nil {
		return nil, err
	}
	return completed(op), nil
}

func (m *mapped) acc(off int, src []byte, k accKind, scale [2]int64, _ bool) ([]*mpi.Request, error) {
	lockWord(m.lock)
	k.add(m.part[off:off+len(src)], src, scale)
	unlockWord(m.lock)
	return nil, nil
}

func (m *mapped) accS(off int, src []byte, p Strided, k accKind, scale [2]int64) error {
	lockWord(m.lock)
	k.addS(m.part[off:], src, p, scale)
	unlockWord(m.lock)
	return nil
}

func (m *mapped) accV(src []byte, vecs []IOVec, k accKind, scale [2]int64) error {
	lockWord(m.lock)
	k.addV(m.part, src, vecs, scale)
	unlockWord(m.lock)
	return nil
}

func (m *mapped) rmw(off, kind, size int, v, expect int64) (int64, error) {
	return rmwAt(unsafe.Pointer(&m.part[off]), size, kind, v, expect), nil
}

// overMPI reaches rank's part through the segment's window, in its lock_all
// epoch. One goroutine of this process at a time operates on a target
// (Segment.turn).
type overMPI struct {
	s    *Segment
	rank int // in the window
}

func (o *overMPI) put(off int, b []byte, wait bool) ([]*mpi.Request, error) {
	return o.move(off, b, wait, mpi.Put[byte])
}

func (o *overMPI) get(off int, b []byte, wait bool) ([]*mpi.Request, error) {
	return o.move(off, b, wait, mpi.Get[byte])
}

// move issues a contiguous transfer in pieces, completed by one local flush
// with wait, else left to the handle (Segment.issued).
func (o *overMPI) move(off int, b []byte, wait bool, issue func(w *mpi.Win, b []byte, rank, disp int) error) ([]*mpi.Request, error) {
	defer o.s.turn(o.rank)()
	err := pieces(b, func(p []byte, q int) error { return issue(o.s.win, p, o.rank, off+q) })
	return nil, o.s.issuedRMA(o.rank, wait, err)
}

func (o *overMPI) putS(off int, b []byte, p Strided, wait bool) ([]*mpi.Request, error) {
	return o.strided(off, b, p, wait, mpi.PutTyped[byte])
}

func (o *overMPI) getS(off int, b []byte, p Strided, wait bool) ([]*mpi.Request, error) {
	return o.strided(off, b, p, wait, mpi.GetTyped[byte])
}

// strided moves a strided patch with one typed call per piece (see
// Strided.pieces).
func (o *overMPI) strided(off int, b []byte, p Strided, wait bool,
	issue func(w *mpi.Win, b []byte, lt *mpi.Datatype, rank, off int, rt *mpi.Datatype) error) ([]*mpi.Request, error) {
	if p.Bytes() == 0 {
		return nil, nil
	}
	defer o.s.turn(o.rank)()
	err := p.typedPieces(b, func(b []byte, lt *mpi.Datatype, r int, rt *mpi.Datatype) error {
		return issue(o.s.win, b, lt, o.rank, off+r, rt)
	})
	return nil, o.s.issuedRMA(o.rank, wait, err)
}

func (o *overMPI) putV(b []byte, vecs []IOVec, wait bool) ([]*mpi.Request, error) {
	return o.vector(b, vecs, wait, mpi.Put[byte])
}

func (o *overMPI) getV(b []byte, vecs []IOVec, wait bool) ([]*mpi.Request, error) {
	return o.vector(b, vecs, wait, mpi.Get[byte])
}

// vector moves each piece of an I/O vector with contiguous calls.
func (o *overMPI) vector(b []byte, vecs []IOVec, wait bool, issue func(w *mpi.Win, b []byte, rank, disp int) error) ([]*mpi.Request, error) {
	defer o.s.turn(o.rank)()
	var err error
all:
	for _, v := range vecs {
		for i := range v.Local {
			piece, at := b[v.Local[i]:v.Local[i]+v.Bytes], v.Remote[i]
			if err = pieces(piece, func(p []byte, q int) error { return issue(o.s.win, p, o.rank, at+q) }); err != nil {
				break all
			}
		}
	}
	return nil, o.s.issuedRMA(o.rank, wait, err)
}

func (o *overMPI) fence() error { return o.s.win.Flush(o.rank) }

func (o *overMPI) started(op string, _ []*mpi.Request, err error) (*Handle, error) {
	return o.s.startedRMA(op, o.rank, err)
}

// acc issues MPI accumulates in pieces, completed by one local flush with
// wait, else left to the handle, as move does.
func (o *overMPI) acc(off int, src []byte, k accKind, scale [2]int64, wait bool) ([]*mpi.Request, error) {
	defer o.s.turn(o.rank)()
	return nil, o.s.issuedRMA(o.rank, wait, k.accMPI(o.s.win, o.rank, off, src, scale))
}

func (o *overMPI) accS(off int, src []byte, p Strided, k accKind, scale [2]int64) error {
	defer o.s.turn(o.rank)()
	return o.s.issuedRMA(o.rank, true, k.accMPIS(o.s.win, o.rank, off, src, p, scale))
}

func (o *overMPI) accV(src []byte, vecs []IOVec, k accKind, scale [2]int64) error {
	defer o.s.turn(o.rank)()
	var err error
all:
	for _, v := range vecs {
		if v.Bytes == 0 {
			continue
		}
		for i := range v.Local {
			if err = k.accMPI(o.s.win, o.rank, v.Remote[i], src[v.Local[i]:v.Local[i]+v.Bytes], scale); err != nil {
				break all
			}
		}
	}
	return o.s.issuedRMA(o.rank, true, err)
}

func (o *overMPI) rmw(off, kind, size int, v, expect int64) (int64, error) {
	defer o.s.turn(o.rank)()
	if size == 4 {
		old, err := rmwMPI(o.s.win, o.rank, off, kind, int32(v), int32(expect))
		return int64(old), err
	}
	return rmwMPI(o.s.win, o.rank, off, kind, v, expect)
}

// rmwMPI applies a read-modify-write of kind through MPI.
func rmwMPI[T RmwElem](w *mpi.Win, rank, off, kind int, v, expect T) (T, error) {
	switch kind {
	case rmwFetchAdd:
		return mpi.FetchAndOp(w, v, rank, off, mpi.Sum)
	case rmwSwap:
		return mpi.FetchAndOp(w, v, rank, off, mpi.Replace)
	}
	return mpi.CompareAndSwap(w, v, expect, rank, off)
}
