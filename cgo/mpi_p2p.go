package cgo

/*
#include "shim.h"

// noescape and nocallback: see mpi.go.
#cgo noescape goga_send
#cgo nocallback goga_send
#cgo noescape goga_recv
#cgo nocallback goga_recv
#cgo noescape goga_sendrecv
#cgo nocallback goga_sendrecv
*/
import "C"

import "unsafe"

// Send is MPI_Send.
func Send(buf unsafe.Pointer, count int, t Datatype, dest, tag int, c Comm) int {
	return int(C.goga_send(buf, ci(count), h(uintptr(t)), ci(dest), ci(tag), h(uintptr(c))))
}

// Ssend is MPI_Ssend.
func Ssend(buf unsafe.Pointer, count int, t Datatype, dest, tag int, c Comm) int {
	return int(C.goga_ssend(buf, ci(count), h(uintptr(t)), ci(dest), ci(tag), h(uintptr(c))))
}

// Recv is MPI_Recv.
func Recv(buf unsafe.Pointer, count int, t Datatype, src, tag int, c Comm, st *Status) int {
	var cs C.goga_status
	rc := int(C.goga_recv(buf, ci(count), h(uintptr(t)), ci(src), ci(tag), h(uintptr(c)), &cs))
	st.set(&cs)
	return rc
}

// Sendrecv is MPI_Sendrecv.
func Sendrecv(sbuf unsafe.Pointer, scount int, stype Datatype, dest, stag int,
	rbuf unsafe.Pointer, rcount int, rtype Datatype, src, rtag int, c Comm, st *Status) int {
	var cs C.goga_status
	rc := int(C.goga_sendrecv(sbuf, ci(scount), h(uintptr(stype)), ci(dest), ci(stag),
		rbuf, ci(rcount), h(uintptr(rtype)), ci(src), ci(rtag), h(uintptr(c)), &cs))
	st.set(&cs)
	return rc
}

// Isend is MPI_Isend. The caller pins buf until the request completes.
func Isend(buf unsafe.Pointer, count int, t Datatype, dest, tag int, c Comm) (Request, int) {
	var r C.goga_h
	rc := C.goga_isend(buf, ci(count), h(uintptr(t)), ci(dest), ci(tag), h(uintptr(c)), &r)
	return Request(r), int(rc)
}

// Irecv is MPI_Irecv. The caller pins buf until the request completes.
func Irecv(buf unsafe.Pointer, count int, t Datatype, src, tag int, c Comm) (Request, int) {
	var r C.goga_h
	rc := C.goga_irecv(buf, ci(count), h(uintptr(t)), ci(src), ci(tag), h(uintptr(c)), &r)
	return Request(r), int(rc)
}

// Probe is MPI_Probe.
func Probe(src, tag int, c Comm, st *Status) int {
	var cs C.goga_status
	rc := int(C.goga_probe(ci(src), ci(tag), h(uintptr(c)), &cs))
	st.set(&cs)
	return rc
}

// Iprobe is MPI_Iprobe.
func Iprobe(src, tag int, c Comm, st *Status) (bool, int) {
	p := C.goga_iprobe(ci(src), ci(tag), h(uintptr(c)))
	if p.flag != 0 {
		st.set(&p.st)
	}
	return p.flag != 0, int(p.rc)
}

// Wait is MPI_Wait; it updates the request handle.
func Wait(r *Request, st *Status) int {
	var cs C.goga_status
	ch := C.goga_h(*r)
	rc := int(C.goga_wait(&ch, &cs))
	*r = Request(ch)
	st.set(&cs)
	return rc
}

// Cancel is MPI_Cancel; the request still has to be completed (Wait, Test).
func Cancel(r Request) int { return int(C.goga_cancel(C.goga_h(r))) }

// Test is MPI_Test; it updates the request handle.
func Test(r *Request, st *Status) (bool, int) {
	p := C.goga_test(C.goga_h(*r))
	*r = Request(p.req)
	if p.flag != 0 {
		st.set(&p.st)
	}
	return p.flag != 0, int(p.rc)
}

// Exchange posts a receive of up to len(recv) bytes from peer (none if recv
// is nil), sends send to peer (nothing if nil; zero bytes if empty), both
// with tag on c, and then tests the receive as ExchangeWait does. recv must
// be C memory: the receive may still be pending when Exchange returns.
func Exchange(send, recv []byte, peer, tag int, c, probe Comm, probeTag, spins int) Exchanged {
	sp, sn := sized(send)
	rp, rn := sized(recv)
	return exchanged(C.goga_exchange(sp, sn, rp, rn, ci(peer), ci(tag), h(uintptr(c)),
		h(uintptr(probe)), ci(probeTag), ci(spins)))
}

// Exchanged is where an exchange stands: RC is MPI's return code, Done
// whether the receive completed (then Count is the bytes it received), and
// Req the receive while it is pending. It comes back from C by value: out
// parameters would each cost an allocation per crossing.
type Exchanged struct {
	Req       Request
	Done      bool
	Count, RC int
}

func exchanged(x C.goga_exchanged) Exchanged {
	return Exchanged{Req: Request(x.req), Done: x.done != 0, Count: int(x.count), RC: int(x.rc)}
}

// sized is b's address and length, or a length of -1 where b is nil.
func sized(b []byte) (unsafe.Pointer, C.int) {
	if b == nil {
		return nil, -1
	}
	return unsafe.Pointer(unsafe.SliceData(b)), ci(len(b))
}

// ExchangeWait tests the receive req up to spins times, and stops early when
// a message of probeTag waits on probe.
func ExchangeWait(req Request, probe Comm, probeTag, spins int) Exchanged {
	return exchanged(C.goga_exchange_wait(h(uintptr(req)), h(uintptr(probe)), ci(probeTag), ci(spins)))
}

// Waitall is MPI_Waitall; it updates the request handles.
func Waitall(reqs []Request, st []Status) int {
	if len(reqs) == 0 {
		return Success
	}
	ch := make([]C.goga_h, len(reqs))
	for i, r := range reqs {
		ch[i] = C.goga_h(r)
	}
	cs := make([]C.goga_status, len(reqs))
	rc := int(C.goga_waitall(ci(len(ch)), &ch[0], &cs[0]))
	for i := range reqs {
		reqs[i] = Request(ch[i])
		st[i].set(&cs[i])
	}
	return rc
}

// Waitany is MPI_Waitany; it updates the request handles. index is Undefined
// when no request was active.
func Waitany(reqs []Request, st *Status) (index int, rc int) {
	if len(reqs) == 0 {
		return Undefined, Success
	}
	ch := make([]C.goga_h, len(reqs))
	for i, r := range reqs {
		ch[i] = C.goga_h(r)
	}
	var cs C.goga_status
	var idx C.int
	rc = int(C.goga_waitany(ci(len(ch)), &ch[0], &idx, &cs))
	for i := range reqs {
		reqs[i] = Request(ch[i])
	}
	if idx != C.MPI_UNDEFINED {
		st.set(&cs)
	}
	return int(idx), rc
}

// Message is a matched message from Mprobe or Improbe (MPI_Message).
type Message uintptr

// Mprobe is MPI_Mprobe.
func Mprobe(src, tag int, c Comm, st *Status) (Message, int) {
	var cs C.goga_status
	var m C.goga_h
	rc := int(C.goga_mprobe(ci(src), ci(tag), h(uintptr(c)), &m, &cs))
	st.set(&cs)
	return Message(m), rc
}

// Improbe is MPI_Improbe.
func Improbe(src, tag int, c Comm, st *Status) (bool, Message, int) {
	var cs C.goga_status
	var m C.goga_h
	var f C.int
	rc := int(C.goga_improbe(ci(src), ci(tag), h(uintptr(c)), &f, &m, &cs))
	if f != 0 {
		st.set(&cs)
	}
	return f != 0, Message(m), rc
}

// Mrecv is MPI_Mrecv; it updates the message handle.
func Mrecv(buf unsafe.Pointer, count int, t Datatype, m *Message, st *Status) int {
	var cs C.goga_status
	ch := C.goga_h(*m)
	rc := int(C.goga_mrecv(buf, ci(count), h(uintptr(t)), &ch, &cs))
	*m = Message(ch)
	st.set(&cs)
	return rc
}
