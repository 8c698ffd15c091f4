package mpi

import (
	"unsafe"

	"runtime"

	"github.com/goga-hpc/goga/cgo"
)

// Status describes a received or probed message.
type Status struct {
	Source int // the sender's rank
	Tag    int // the message's tag
	// Count is the message's length in elements of the receiving call's type
	// (for Probe, of the type it was instantiated with).
	Count int
	// Cancelled says that Cancel took the operation back before it matched
	// (MPI_Test_cancelled): nothing was received.
	Cancelled bool
}

func status(s cgo.Status, elemSize int) Status {
	n := s.Bytes
	if n > 0 && elemSize > 0 {
		n /= elemSize
	}
	return Status{Source: s.Source, Tag: s.Tag, Count: n, Cancelled: s.Cancelled}
}

func checkTag(op, arg string, tag int, allowAny bool) error {
	if tag < 0 && !(allowAny && tag == AnyTag) {
		return argErr(op, arg, "tag %d is negative", tag)
	}
	// MPI takes a C int: a larger tag would be truncated (2^32 would become 0).
	if tag > maxCount {
		return argErr(op, arg, "tag %d exceeds MPI's limit of %d", tag, maxCount)
	}
	return nil
}

// Send is MPI_Send of the whole of buf to dest.
func Send[T Elem](c *Comm, buf []T, dest, tag int) error {
	return send(c, "Send", buf, dest, tag, cgo.Send)
}

// Ssend is MPI_Ssend: Send that returns only once the receive has started.
func Ssend[T Elem](c *Comm, buf []T, dest, tag int) error {
	return send(c, "Ssend", buf, dest, tag, cgo.Ssend)
}

func send[T Elem](c *Comm, op string, buf []T, dest, tag int, f func(p unsafe.Pointer, n int, t cgo.Datatype, d, tag int, c cgo.Comm) int) error {
	if err := c.valid(op); err != nil {
		return err
	}
	if err := c.checkRank(op, "dest", dest, false); err != nil {
		return err
	}
	if err := checkTag(op, "tag", tag, false); err != nil {
		return err
	}
	if err := checkCount(op, "buf", len(buf)); err != nil {
		return err
	}
	return check(op, f(ptr(buf), len(buf), info[T]().dt, dest, tag, c.h))
}

// Recv is MPI_Recv into buf, which must be long enough for the message. src may
// be AnySource and tag AnyTag.
func Recv[T Elem](c *Comm, buf []T, src, tag int) (Status, error) {
	if err := c.valid("Recv"); err != nil {
		return Status{}, err
	}
	if err := c.checkRank("Recv", "src", src, true); err != nil {
		return Status{}, err
	}
	if err := checkTag("Recv", "tag", tag, true); err != nil {
		return Status{}, err
	}
	if err := checkCount("Recv", "buf", len(buf)); err != nil {
		return Status{}, err
	}
	e := info[T]()
	var st cgo.Status
	rc := cgo.Recv(ptr(buf), len(buf), e.dt, src, tag, c.h, &st)
	return status(st, e.size), check("Recv", rc)
}

// Sendrecv is MPI_Sendrecv: it sends send to dest and receives into recv from
// src in one call, so that rings and shifts cannot deadlock.
func Sendrecv[T Elem](c *Comm, send []T, dest, sendTag int, recv []T, src, recvTag int) (Status, error) {
	const op = "Sendrecv"
	if err := c.valid(op); err != nil {
		return Status{}, err
	}
	if err := c.checkRank(op, "dest", dest, false); err != nil {
		return Status{}, err
	}
	if err := c.checkRank(op, "src", src, true); err != nil {
		return Status{}, err
	}
	if err := checkTag(op, "sendTag", sendTag, false); err != nil {
		return Status{}, err
	}
	if err := checkTag(op, "recvTag", recvTag, true); err != nil {
		return Status{}, err
	}
	if err := checkCount(op, "send", len(send)); err != nil {
		return Status{}, err
	}
	if err := checkCount(op, "recv", len(recv)); err != nil {
		return Status{}, err
	}
	e := info[T]()
	var st cgo.Status
	rc := cgo.Sendrecv(ptr(send), len(send), e.dt, dest, sendTag, ptr(recv), len(recv), e.dt, src, recvTag, c.h, &st)
	return status(st, e.size), check(op, rc)
}

// Probe is MPI_Probe: it waits for a matching message and returns its status,
// with Count in elements of T.
func Probe[T Elem](c *Comm, src, tag int) (Status, error) {
	if err := c.valid("Probe"); err != nil {
		return Status{}, err
	}
	if err := c.checkRank("Probe", "src", src, true); err != nil {
		return Status{}, err
	}
	if err := checkTag("Probe", "tag", tag, true); err != nil {
		return Status{}, err
	}
	var st cgo.Status
	rc := cgo.Probe(src, tag, c.h, &st)
	return status(st, info[T]().size), check("Probe", rc)
}

// Iprobe is MPI_Iprobe: Probe that does not wait. ok tells whether a message
// is there.
func Iprobe[T Elem](c *Comm, src, tag int) (ok bool, st Status, err error) {
	if err := c.valid("Iprobe"); err != nil {
		return false, Status{}, err
	}
	if err := c.checkRank("Iprobe", "src", src, true); err != nil {
		return false, Status{}, err
	}
	if err := checkTag("Iprobe", "tag", tag, true); err != nil {
		return false, Status{}, err
	}
	var cs cgo.Status
	ok, rc := cgo.Iprobe(src, tag, c.h, &cs)
	if ok {
		st = status(cs, info[T]().size)
	}
	return ok, st, check("Iprobe", rc)
}

// Request is a non-blocking operation in flight. The Go memory it uses stays
// pinned until Wait or Test reports it complete.
type Request struct {
	h        cgo.Request
	op       string
	elemSize int
	pin      runtime.Pinner
	done     bool
	st       Status
}

func newRequest[T any](op string, buf []T, elemSize int) *Request {
	r := &Request{op: op, elemSize: elemSize}
	if len(buf) > 0 {
		r.pin.Pin(&buf[0])
	}
	return r
}

func (r *Request) finish(st cgo.Status) {
	r.done = true
	r.st = status(st, r.elemSize)
	r.pin.Unpin()
}

// Wait is MPI_Wait: it blocks until the operation completes and returns its
// status (meaningful for receives). Waiting on a completed request returns its
// status again.
func (r *Request) Wait() (Status, error) {
	if r == nil {
		return Status{}, stateErr("Wait", "request", ErrNil)
	}
	if r.done {
		return r.st, nil
	}
	if err := running("Wait"); err != nil {
		return Status{}, err
	}
	var st cgo.Status
	if err := check(r.op+" Wait", cgo.Wait(&r.h, &st)); err != nil {
		return Status{}, err
	}
	r.finish(st)
	return r.st, nil
}

// Cancel is MPI_Cancel: it asks MPI to take back a pending operation, a
// receive nothing has matched yet, say. The request must still be completed
// with Wait or Test, whose Status says whether it was cancelled or had
// completed first. Open MPI cancels receives only; a send completes as it
// would have.
func (r *Request) Cancel() error {
	if r == nil {
		return stateErr("Cancel", "request", ErrNil)
	}
	if r.done {
		return nil
	}
	if err := running("Cancel"); err != nil {
		return err
	}
	return check(r.op+" Cancel", cgo.Cancel(r.h))
}

// Test is MPI_Test: it reports whether the operation has completed, without
// blocking.
func (r *Request) Test() (bool, Status, error) {
	if r == nil {
		return false, Status{}, stateErr("Test", "request", ErrNil)
	}
	if r.done {
		return true, r.st, nil
	}
	if err := running("Test"); err != nil {
		return false, Status{}, err
	}
	var st cgo.Status
	ok, rc := cgo.Test(&r.h, &st)
	if rc != cgo.Success {
		// The name is put together only here: on every poll it cost an
		// allocation.
		return false, Status{}, check(r.op+" Test", rc)
	}
	pace()
	if ok {
		r.finish(st)
	}
	return ok, r.st, nil
}

// pending returns the handles of requests that are not done, with their index.
func pending(op string, reqs []*Request) ([]cgo.Request, []int, error) {
	if err := running(op); err != nil {
		return nil, nil, err
	}
	hs := make([]cgo.Request, 0, len(reqs))
	idx := make([]int, 0, len(reqs))
	for i, r := range reqs {
		if r == nil {
			return nil, nil, argErr(op, "reqs", "reqs[%d] is nil", i)
		}
		if !r.done {
			hs = append(hs, r.h)
			idx = append(idx, i)
		}
	}
	return hs, idx, nil
}

// Waitall is MPI_Waitall: it waits for every request and returns their statuses
// in order.
func Waitall(reqs ...*Request) ([]Status, error) {
	hs, idx, err := pending("Waitall", reqs)
	if err != nil {
		return nil, err
	}
	sts := make([]cgo.Status, len(hs))
	if err := check("Waitall", cgo.Waitall(hs, sts)); err != nil {
		return nil, err
	}
	for k, i := range idx {
		reqs[i].h = hs[k]
		reqs[i].finish(sts[k])
	}
	out := make([]Status, len(reqs))
	for i, r := range reqs {
		out[i] = r.st
	}
	return out, nil
}

// Waitany is MPI_Waitany: it waits for one request that is not yet complete and
// returns its index in reqs. If every request is already complete it returns
// Undefined.
func Waitany(reqs ...*Request) (int, Status, error) {
	hs, idx, err := pending("Waitany", reqs)
	if err != nil {
		return Undefined, Status{}, err
	}
	var st cgo.Status
	k, rc := cgo.Waitany(hs, &st)
	if err := check("Waitany", rc); err != nil {
		return Undefined, Status{}, err
	}
	if k == cgo.Undefined {
		return Undefined, Status{}, nil
	}
	i := idx[k]
	reqs[i].h = hs[k]
	reqs[i].finish(st)
	return i, reqs[i].st, nil
}

// Isend is MPI_Isend. buf must not change until the request completes.
func Isend[T Elem](c *Comm, buf []T, dest, tag int) (*Request, error) {
	if err := c.valid("Isend"); err != nil {
		return nil, err
	}
	if err := c.checkRank("Isend", "dest", dest, false); err != nil {
		return nil, err
	}
	if err := checkTag("Isend", "tag", tag, false); err != nil {
		return nil, err
	}
	if err := checkCount("Isend", "buf", len(buf)); err != nil {
		return nil, err
	}
	e := info[T]()
	r := newRequest("Isend", buf, e.size)
	h, rc := cgo.Isend(ptr(buf), len(buf), e.dt, dest, tag, c.h)
	if err := check("Isend", rc); err != nil {
		r.pin.Unpin()
		return nil, err
	}
	r.h = h
	return r, nil
}

// Irecv is MPI_Irecv. buf must not be read until the request completes.
func Irecv[T Elem](c *Comm, buf []T, src, tag int) (*Request, error) {
	if err := c.valid("Irecv"); err != nil {
		return nil, err
	}
	if err := c.checkRank("Irecv", "src", src, true); err != nil {
		return nil, err
	}
	if err := checkTag("Irecv", "tag", tag, true); err != nil {
		return nil, err
	}
	if err := checkCount("Irecv", "buf", len(buf)); err != nil {
		return nil, err
	}
	if src == ProcNull {
		// Complete at once, with the status the standard gives: MPICH
		// 4.0.2's Waitall leaves such a request's status zeroed (source 0,
		// tag 0), from C too.
		return &Request{op: "Irecv", done: true, st: Status{Source: ProcNull, Tag: AnyTag}}, nil
	}
	e := info[T]()
	r := newRequest("Irecv", buf, e.size)
	h, rc := cgo.Irecv(ptr(buf), len(buf), e.dt, src, tag, c.h)
	if err := check("Irecv", rc); err != nil {
		r.pin.Unpin()
		return nil, err
	}
	r.h = h
	return r, nil
}

// started finishes building a request once MPI has accepted (or refused) it.
func (r *Request) started(h cgo.Request, err error) (*Request, error) {
	if err != nil {
		r.pin.Unpin()
		return nil, err
	}
	r.h = h
	return r, nil
}

// typedP2P checks a point-to-point call that moves one element of t, a
// derived datatype over T, from or into buf.
func typedP2P[T Elem](c *Comm, op, arg string, buf []T, t *Datatype, peer, tag int, anyPeer bool) error {
	if err := c.valid(op); err != nil {
		return err
	}
	if err := c.checkRank(op, arg, peer, anyPeer); err != nil {
		return err
	}
	if err := checkTag(op, "tag", tag, anyPeer); err != nil {
		return err
	}
	if err := t.valid(op, "t"); err != nil {
		return err
	}
	if e := info[T](); t.elem.dt != e.dt {
		return argErr(op, "t", "a datatype over %s used with []%s", t.elem.name, e.name)
	}
	if t.Span() > len(buf) {
		return argErr(op, "buf", "holds %d elements, t spans %d", len(buf), t.Span())
	}
	return nil
}

// IsendTyped is MPI_Isend of the elements of buf that t selects (one element
// of the derived datatype t): a strided patch leaves without being packed
// first. buf must not change until the request completes.
func IsendTyped[T Elem](c *Comm, buf []T, t *Datatype, dest, tag int) (*Request, error) {
	if err := typedP2P(c, "IsendTyped", "dest", buf, t, dest, tag, false); err != nil {
		return nil, err
	}
	r := newRequest("IsendTyped", buf, t.elem.size)
	h, rc := cgo.Isend(ptr(buf), 1, t.h, dest, tag, c.h)
	return r.started(h, check("IsendTyped", rc))
}

// IrecvTyped is MPI_Irecv into the places of buf that t selects (one element
// of the derived datatype t): a message arrives straight into a strided
// patch. buf must not be read until the request completes.
func IrecvTyped[T Elem](c *Comm, buf []T, t *Datatype, src, tag int) (*Request, error) {
	if err := typedP2P(c, "IrecvTyped", "src", buf, t, src, tag, true); err != nil {
		return nil, err
	}
	r := newRequest("IrecvTyped", buf, t.elem.size)
	h, rc := cgo.Irecv(ptr(buf), 1, t.h, src, tag, c.h)
	return r.started(h, check("IrecvTyped", rc))
}
