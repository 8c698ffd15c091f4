package armci

import (
	"sync/atomic"
	"unsafe"

	"github.com/goga-hpc/goga/mpi"
)

// transport is how this process reaches one rank's part of a segment. Each
// segment chooses one per rank when it is allocated (Segment.to): the rank's
// part mapped into this process (mapped), the segment's MPI window
// (overMPI), or the owner's active-message server (viaAM, am.go). The
// operations below take byte offsets and byte buffers already checked
// against the part and the buffer; with wait they complete locally before
// returning (nil requests), without it they may return requests still in
// flight, whose buffers stay pinned until they complete.
//
// Accumulate and read-modify-write are not here: they must stay atomic
// against each other whichever process issues them, so a segment uses one
// mechanism for them on every target (Segment.cpu).
type transport interface {
	put(off int, b []byte, wait bool) ([]*mpi.Request, error)
	get(off int, b []byte, wait bool) ([]*mpi.Request, error)
	putS(off int, b []byte, p Strided, wait bool) ([]*mpi.Request, error)
	getS(off int, b []byte, p Strided, wait bool) ([]*mpi.Request, error)
	putV(b []byte, vecs []IOVec, wait bool) ([]*mpi.Request, error)
	getV(b []byte, vecs []IOVec, wait bool) ([]*mpi.Request, error)
	// fence completes this process's operations at the target.
	fence() error
}

// mapped reaches a part that this process maps (a shared-memory window on
// its node): every transfer is a memory copy, complete when it returns.
type mapped struct {
	part []byte
	word *atomic.Uint32 // the runtime's word for memory fences
	// entered is nil for this process's own part, whose pages Malloc
	// populated; large writes into a peer's part enter its pages first.
	entered *entered
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
