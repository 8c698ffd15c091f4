package armci

import (
	"github.com/goga-hpc/goga/mpi"
)

// Handle is a non-blocking operation in flight (armci_hdl_t). Wait or Test
// completes it; until then the Go buffers it uses must not be touched (they
// stay pinned, or over MPI RMA held by the window until its flush). Over shared memory the operation is done when it is issued and its
// handle is complete at once.
//
// Over MPI RMA, a handle is completed by a local flush of its target
// (MPI_Win_flush_local) rather than by MPI request objects: Open MPI 4.1's
// osc ucx gives MPI_Rget and MPI_Rput their requests through an extra atomic
// operation, and a clean-clone CI run once hung in MPI_Waitall on such a
// request while its target sat in a collective. A flush waits for every
// operation this process issued to the target, so one Wait completes the
// handles issued before it, and the others' Waits then return at once.
type Handle struct {
	rt   *Runtime
	op   string
	reqs []*mpi.Request
	// seg, rank and seq, for an operation issued through seg's RMA window:
	// it is complete once a local flush of rank has followed the seq-th
	// operation issued there.
	seg  *Segment
	rank int
	seq  uint64
	done bool
}

// completed is the handle of an operation that finished when it was issued.
func completed(op string) *Handle { return &Handle{op: op, done: true} }

func (rt *Runtime) track(h *Handle) *Handle {
	h.rt = rt
	rt.mu.Lock()
	rt.pending[h] = struct{}{}
	rt.mu.Unlock()
	return h
}

// Wait blocks until the operation is complete: a put's or accumulate's buffer
// may be reused, a get's buffer holds the data (ARMCI_Wait).
func (h *Handle) Wait() error {
	if h == nil {
		return stateErr("Wait", "handle", ErrNil)
	}
	if h.done {
		return nil
	}
	var err error
	switch {
	case h.seg != nil:
		err = h.seg.completeRMA(h.rank, h.seq)
	case h.rt != nil && h.rt.am != nil:
		err = h.rt.am.wait(h.reqs...)
	default:
		_, err = mpi.Waitall(h.reqs...)
	}
	if err != nil {
		return err
	}
	h.finish()
	return nil
}

// Test reports whether the operation is complete, without blocking
// (ARMCI_Test); over MPI RMA, where MPI has no test of a flush, it
// completes the operation with one (which waits for the transfer, not for
// other processes).
func (h *Handle) Test() (bool, error) {
	if h == nil {
		return false, stateErr("Test", "handle", ErrNil)
	}
	if h.done {
		return true, nil
	}
	if h.seg != nil {
		if err := h.seg.completeRMA(h.rank, h.seq); err != nil {
			return false, err
		}
		h.finish()
		return true, nil
	}
	for _, r := range h.reqs {
		ok, _, err := r.Test()
		if err != nil || !ok {
			return false, err
		}
	}
	h.finish()
	return true, nil
}

func (h *Handle) finish() {
	h.done = true
	h.reqs = nil
	if h.rt != nil {
		h.rt.mu.Lock()
		delete(h.rt.pending, h)
		h.rt.mu.Unlock()
	}
}

// WaitAll completes every non-blocking operation this process has in flight
// (ARMCI_WaitAll).
func (rt *Runtime) WaitAll() error {
	if err := rt.valid("WaitAll"); err != nil {
		return err
	}
	rt.mu.Lock()
	hs := make([]*Handle, 0, len(rt.pending))
	for h := range rt.pending {
		hs = append(hs, h)
	}
	rt.mu.Unlock()
	for _, h := range hs {
		if err := h.Wait(); err != nil {
			return err
		}
	}
	return nil
}

// startedReqs wraps an operation that a transport issued without waiting
// and that its requests complete, where no requests means it completed as
// it was issued.
func (s *Segment) startedReqs(op string, reqs []*mpi.Request, err error) (*Handle, error) {
	if err != nil {
		// Complete what was issued before the failure: its buffers are pinned.
		mpi.Waitall(reqs...)
		return nil, err
	}
	if len(reqs) == 0 {
		return completed(op), nil
	}
	return s.rt.track(&Handle{op: op, reqs: reqs}), nil
}

// startedRMA wraps an operation issued to rank through the RMA window
// (issuedRMA has counted it).
func (s *Segment) startedRMA(op string, rank int, err error) (*Handle, error) {
	end := s.turn(rank)
	seq := s.issued[rank]
	end()
	if err != nil {
		// Complete what was issued before the failure.
		s.completeRMA(rank, seq)
		return nil, err
	}
	return s.rt.track(&Handle{op: op, seg: s, rank: rank, seq: seq}), nil
}

// issuedRMA ends issuing operations to rank through the RMA window, err
// being the first failure: with wait, it completes them with a local flush;
// else it counts them for their handle. The caller holds turn(rank).
func (s *Segment) issuedRMA(rank int, wait bool, err error) error {
	s.issued[rank]++
	if !wait || err != nil {
		return err
	}
	return s.flushLocal(rank)
}

// flushLocal completes at this process every operation it issued to rank
// through the RMA window, and every local flush of it goes through here, so
// that handles it has completed return at once. The caller holds turn(rank).
func (s *Segment) flushLocal(rank int) error {
	if err := s.win.FlushLocal(rank); err != nil {
		return err
	}
	s.flushed[rank] = s.issued[rank]
	return nil
}

// completeRMA completes the operations issued to rank through the RMA
// window up to the seq-th, with a local flush unless one has followed it.
func (s *Segment) completeRMA(rank int, seq uint64) error {
	defer s.turn(rank)()
	if s.flushed[rank] >= seq {
		return nil
	}
	return s.flushLocal(rank)
}

// NbPut is Put that returns at once (ARMCI_NbPut).
func NbPut[T mpi.Elem](s *Segment, rank, off int, src []T) (*Handle, error) {
	b := bytesOf(src)
	if err := s.check("NbPut", rank, off, len(b)); err != nil {
		return nil, err
	}
	reqs, err := s.to[rank].put(off, b, false)
	return s.to[rank].started("NbPut", reqs, err)
}

// NbGet is Get that returns at once (ARMCI_NbGet).
func NbGet[T mpi.Elem](s *Segment, rank, off int, dst []T) (*Handle, error) {
	b := bytesOf(dst)
	if err := s.check("NbGet", rank, off, len(b)); err != nil {
		return nil, err
	}
	reqs, err := s.to[rank].get(off, b, false)
	return s.to[rank].started("NbGet", reqs, err)
}

// NbAcc is Acc that returns at once (ARMCI_NbAcc).
func NbAcc[T AccElem](s *Segment, rank, off int, src []T, scale T) (*Handle, error) {
	if err := s.checkAcc("NbAcc", rank, off, len(src)*sizeOf[T](), sizeOf[T]()); err != nil {
		return nil, err
	}
	if len(src) == 0 {
		return completed("NbAcc"), nil
	}
	reqs, err := s.at[rank].acc(off, bytesOf(src), kindOf[T]{}, scaleWords(scale), false)
	return s.at[rank].started("NbAcc", reqs, err)
}

// NbPutS is PutS that returns at once (ARMCI_NbPutS).
func NbPutS[T mpi.Elem](s *Segment, rank, off int, local []T, p Strided) (*Handle, error) {
	b := bytesOf(local)
	if err := s.checkStrided("NbPutS", rank, off, p, len(b), 1); err != nil {
		return nil, err
	}
	reqs, err := s.to[rank].putS(off, b, p, false)
	return s.to[rank].started("NbPutS", reqs, err)
}

// NbGetS is GetS that returns at once (ARMCI_NbGetS).
func NbGetS[T mpi.Elem](s *Segment, rank, off int, local []T, p Strided) (*Handle, error) {
	b := bytesOf(local)
	if err := s.checkStrided("NbGetS", rank, off, p, len(b), 1); err != nil {
		return nil, err
	}
	reqs, err := s.to[rank].getS(off, b, p, false)
	return s.to[rank].started("NbGetS", reqs, err)
}

// NbAccS is AccS that returns at once (ARMCI_NbAccS). Over MPI the patch is
// packed first, so local may be reused when it returns.
func NbAccS[T AccElem](s *Segment, rank, off int, local []T, p Strided, scale T) (*Handle, error) {
	if err := AccS(s, rank, off, local, p, scale); err != nil {
		return nil, renamed("NbAccS", err)
	}
	return completed("NbAccS"), nil
}

// NbPutV is PutV that returns at once (ARMCI_NbPutV).
func NbPutV[T mpi.Elem](s *Segment, rank int, local []T, vecs []IOVec) (*Handle, error) {
	b := bytesOf(local)
	if err := s.checkVector("NbPutV", rank, vecs, len(b), 1); err != nil {
		return nil, err
	}
	reqs, err := s.to[rank].putV(b, vecs, false)
	return s.to[rank].started("NbPutV", reqs, err)
}

// NbGetV is GetV that returns at once (ARMCI_NbGetV).
func NbGetV[T mpi.Elem](s *Segment, rank int, local []T, vecs []IOVec) (*Handle, error) {
	b := bytesOf(local)
	if err := s.checkVector("NbGetV", rank, vecs, len(b), 1); err != nil {
		return nil, err
	}
	reqs, err := s.to[rank].getV(b, vecs, false)
	return s.to[rank].started("NbGetV", reqs, err)
}

// NbAccV is AccV that returns at once (ARMCI_NbAccV).
func NbAccV[T AccElem](s *Segment, rank int, local []T, vecs []IOVec, scale T) (*Handle, error) {
	if err := AccV(s, rank, local, vecs, scale); err != nil {
		return nil, renamed("NbAccV", err)
	}
	return completed("NbAccV"), nil
}
