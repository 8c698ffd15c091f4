package armci

import "github.com/goga-hpc/goga/mpi"

// viaAM reaches a part through its owner's server.
type viaAM struct {
	s    *Segment
	rank int   // in the segment
	to   int   // the owner's rank in the runtime
	id   int64 // the part's id there
}

// header encodes a request for op on the given shape of n bytes; flags and
// scale are op-specific, reply is the reply tag (0: none), and follows says
// that the payload comes as a message of its own.
func (v *viaAM) header(op int, sh amShape, n int, inline []byte, flags int64, scale [2]int64, reply int, follows bool) []byte {
	w := sh.words()
	h := make([]int64, hRest, hRest+2+len(w))
	h[hOp], h[hID], h[hReply], h[hBytes], h[hFlags], h[hOff], h[hShape] = int64(op), v.id, int64(reply), int64(n), flags, int64(sh.off), w[0]
	if follows {
		h[hFlags] |= flagFollows
	}
	h = append(h, scale[0], scale[1])
	h = append(h, w[1:]...)
	if op == amPut || op == amAcc {
		v.s.rt.am.wrote(v.to)
	}
	return encode(h, inline)
}

// request sends a request for op with the given shape and payload (put and
// acc; nil for the others). Payloads larger than amInline follow as a
// message of their own; without wait, that message is left in flight and
// its request returned.
func (v *viaAM) request(op int, sh amShape, n int, payload []byte, flags int64, scale [2]int64, reply int, wait bool) (*mpi.Request, error) {
	a := v.s.rt.am
	follows := payload != nil && n > amInline
	inline := payload
	if follows {
		inline = nil
	}
	if err := a.post(v.header(op, sh, n, inline, flags, scale, reply, follows), v.to); err != nil {
		return nil, err
	}
	if !follows {
		return nil, nil
	}
	r, err := mpi.Isend(a.comm, payload, v.to, amTagData)
	if err != nil || !wait {
		return r, err
	}
	return nil, a.wait(r)
}

// call sends a request and waits for its reply into into.
func (v *viaAM) call(op int, sh amShape, n int, flags int64, scale [2]int64, into []byte) error {
	r, err := v.start(op, sh, n, flags, scale, into, nil)
	if err != nil {
		return err
	}
	return v.s.rt.am.wait(r)
}

// start sends a request whose reply arrives in into (in the places lt
// selects, if not nil), and returns the receive of that reply.
func (v *viaAM) start(op int, sh amShape, n int, flags int64, scale [2]int64, into []byte, lt *mpi.Datatype) (*mpi.Request, error) {
	a := v.s.rt.am
	tag := a.replyTag()
	if _, err := v.request(op, sh, n, nil, flags, scale, tag, true); err != nil {
		return nil, err
	}
	if lt != nil {
		return mpi.IrecvTyped(a.comm, into, lt, v.to, tag)
	}
	return mpi.Irecv(a.comm, into, v.to, tag)
}

func (v *viaAM) put(off int, b []byte, wait bool) ([]*mpi.Request, error) {
	defer v.turn()()
	var reqs []*mpi.Request
	err := inPieces(len(b), func(o, n int) error {
		r, err := v.request(amPut, amShape{off: off + o}, n, b[o:o+n], 0, [2]int64{}, 0, wait)
		if r != nil {
			reqs = append(reqs, r)
		}
		return err
	})
	return reqs, err
}

func (v *viaAM) get(off int, b []byte, wait bool) ([]*mpi.Request, error) {
	defer v.turn()()
	var reqs []*mpi.Request
	err := inPieces(len(b), func(o, n int) error {
		r, err := v.start(amGet, amShape{off: off + o}, n, 0, [2]int64{}, b[o:o+n], nil)
		if err == nil {
			reqs = append(reqs, r)
		}
		return err
	})
	return v.s.rt.am.settle(reqs, err, wait)
}

// putS sends a strided patch: packed into the request when small, else
// straight from b through a datatype after it.
func (v *viaAM) putS(off int, b []byte, p Strided, wait bool) ([]*mpi.Request, error) {
	if p.Bytes() == 0 {
		return nil, nil
	}
	defer v.turn()()
	a := v.s.rt.am
	var reqs []*mpi.Request
	err := p.pieces(func(q Strided, l, r int) error {
		sh := stridedShape(off+r, &q)
		if q.Bytes() <= amInline {
			_, err := v.request(amPut, sh, q.Bytes(), packStrided(b[l:], q), 0, [2]int64{}, 0, true)
			return err
		}
		lt, err := mpi.TypeStrided[byte](q.Count, q.LocalStride)
		if err != nil {
			return err
		}
		defer lt.Free() // MPI keeps it until the send completes
		if err := a.post(v.header(amPut, sh, q.Bytes(), nil, 0, [2]int64{}, 0, true), v.to); err != nil {
			return err
		}
		req, err := mpi.IsendTyped(a.comm, b[l:], lt, v.to, amTagData)
		if err == nil {
			reqs = append(reqs, req)
		}
		return err
	})
	return v.s.rt.am.settle(reqs, err, wait)
}

// getS asks for a strided patch, which the owner sends packed and MPI
// places into b through a datatype.
func (v *viaAM) getS(off int, b []byte, p Strided, wait bool) ([]*mpi.Request, error) {
	if p.Bytes() == 0 {
		return nil, nil
	}
	defer v.turn()()
	var reqs []*mpi.Request
	err := p.pieces(func(q Strided, l, r int) error {
		lt, err := mpi.TypeStrided[byte](q.Count, q.LocalStride)
		if err != nil {
			return err
		}
		defer lt.Free() // MPI keeps it until the receive completes
		req, err := v.start(amGet, stridedShape(off+r, &q), q.Bytes(), 0, [2]int64{}, b[l:], lt)
		if err == nil {
			reqs = append(reqs, req)
		}
		return err
	})
	return v.s.rt.am.settle(reqs, err, wait)
}

func (v *viaAM) putV(b []byte, vecs []IOVec, wait bool) ([]*mpi.Request, error) {
	defer v.turn()()
	return nil, lists(vecs, func(local, remote []int, size int) error {
		_, err := v.request(amPut, amShape{size: size, list: remote}, len(local)*size, packList(b, local, size), 0, [2]int64{}, 0, true)
		return err
	})
}

func (v *viaAM) getV(b []byte, vecs []IOVec, wait bool) ([]*mpi.Request, error) {
	defer v.turn()()
	return nil, lists(vecs, func(local, remote []int, size int) error {
		packed := make([]byte, len(local)*size)
		if err := v.call(amGet, amShape{size: size, list: remote}, len(packed), 0, [2]int64{}, packed); err != nil {
			return err
		}
		for i, l := range local {
			copy(b[l:l+size], packed[i*size:])
		}
		return nil
	})
}

// turn waits for this process's turn to send requests to the process of rank
// to in the runtime, and returns the function that ends it.
func (a *amServer) turn(to int) func() { return takeTurn(&a.turns[to]) }

// turn is v's owner's turn (amServer.turn), taken by every operation on v
// for its whole issue and completion, as Segment.turn is on the other paths.
func (v *viaAM) turn() func() { return v.s.rt.am.turn(v.to) }

// started wraps what an operation left in flight (payloads that follow
// their requests, replies to come); none: it is complete.
func (v *viaAM) started(op string, reqs []*mpi.Request, err error) (*Handle, error) {
	return v.s.startedReqs(op, reqs, err)
}

// acc sends accumulates of packed elements, each piece complete at this
// process when it returns (the owner applies them in order, as puts).
func (v *viaAM) acc(off int, src []byte, k accKind, scale [2]int64, _ bool) ([]*mpi.Request, error) {
	defer v.turn()()
	return nil, inPieces(len(src), func(o, n int) error {
		return v.accShape(amShape{off: off + o}, src[o:o+n], k, scale)
	})
}

func (v *viaAM) accS(off int, src []byte, p Strided, k accKind, scale [2]int64) error {
	defer v.turn()()
	return p.pieces(func(q Strided, l, r int) error {
		return v.accShape(stridedShape(off+r, &q), packStrided(src[l:], q), k, scale)
	})
}

func (v *viaAM) accV(src []byte, vecs []IOVec, k accKind, scale [2]int64) error {
	defer v.turn()()
	return lists(vecs, func(l, r []int, size int) error {
		return v.accShape(amShape{size: size, list: r}, packList(src, l, size), k, scale)
	})
}

// accShape sends an accumulate of the packed elements b into the shape.
func (v *viaAM) accShape(sh amShape, b []byte, k accKind, scale [2]int64) error {
	_, err := v.request(amAcc, sh, len(b), b, int64(k.code())<<8, scale, 0, true)
	return err
}

// rmw performs a read-modify-write at the owner.
func (v *viaAM) rmw(off, kind, size int, val, expect int64) (int64, error) {
	defer v.turn()()
	out := []int64{0}
	flags := int64(size)<<8 | int64(kind)<<16
	err := v.call(amRmw, amShape{off: off}, 0, flags, [2]int64{val, expect}, bytesOf(out))
	return out[0], err
}
