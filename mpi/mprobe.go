package mpi

import "github.com/goga-hpc/goga/cgo"

// Message is a message matched by Mprobe or Improbe: no other receive can take
// it, so a goroutine can size its buffer and then receive exactly that message
// (MPI_Mprobe and MPI_Mrecv). Receive it once with Mrecv.
type Message struct {
	h        cgo.Message
	st       Status
	bytes    int
	received bool
}

// Status returns the matched message's status, with Count in elements of the
// type Mprobe was instantiated with.
func (m *Message) Status() Status { return m.st }

// Mprobe is MPI_Mprobe: it waits for a matching message and takes it out of
// the queue for this caller alone.
func Mprobe[T Elem](c *Comm, src, tag int) (*Message, error) {
	if err := c.valid("Mprobe"); err != nil {
		return nil, err
	}
	if err := c.checkRank("Mprobe", "src", src, true); err != nil {
		return nil, err
	}
	if err := checkTag("Mprobe", "tag", tag, true); err != nil {
		return nil, err
	}
	var st cgo.Status
	h, rc := cgo.Mprobe(src, tag, c.h, &st)
	if err := check("Mprobe", rc); err != nil {
		return nil, err
	}
	return &Message{h: h, st: status(st, info[T]().size), bytes: st.Bytes}, nil
}

// Improbe is MPI_Improbe: Mprobe that does not wait; it returns nil when no
// message matches.
func Improbe[T Elem](c *Comm, src, tag int) (*Message, error) {
	if err := c.valid("Improbe"); err != nil {
		return nil, err
	}
	if err := c.checkRank("Improbe", "src", src, true); err != nil {
		return nil, err
	}
	if err := checkTag("Improbe", "tag", tag, true); err != nil {
		return nil, err
	}
	var st cgo.Status
	ok, h, rc := cgo.Improbe(src, tag, c.h, &st)
	if err := check("Improbe", rc); err != nil || !ok {
		return nil, err
	}
	return &Message{h: h, st: status(st, info[T]().size), bytes: st.Bytes}, nil
}

// Mrecv is MPI_Mrecv: it receives the matched message into buf, which must hold
// it.
func Mrecv[T Elem](m *Message, buf []T) (Status, error) {
	if err := running("Mrecv"); err != nil {
		return Status{}, err
	}
	if m == nil {
		return Status{}, stateErr("Mrecv", "m", ErrNil)
	}
	if m.received {
		return Status{}, argErr("Mrecv", "m", "message already received")
	}
	e := info[T]()
	if err := checkCount("Mrecv", "buf", len(buf)); err != nil {
		return Status{}, err
	}
	if len(buf)*e.size < m.bytes {
		return Status{}, argErr("Mrecv", "buf", "holds %d bytes, the message has %d", len(buf)*e.size, m.bytes)
	}
	var st cgo.Status
	if err := check("Mrecv", cgo.Mrecv(ptr(buf), len(buf), e.dt, &m.h, &st)); err != nil {
		return Status{}, err
	}
	m.received = true
	return status(st, e.size), nil
}
