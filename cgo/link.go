package cgo

/*
#include "link.h"

#cgo noescape goga_link_exchange
#cgo nocallback goga_link_exchange
#cgo noescape goga_link_wait
#cgo nocallback goga_link_wait
*/
import "C"

import "unsafe"

// LinkFrame is the most bytes a frame over a link holds, its 4-byte length
// included: a record sent is at most LinkFrame - 4 bytes. LinkBuf is the
// size of a link's receive buffer.
const (
	LinkFrame = C.GOGA_LINK_FRAME
	LinkBuf   = C.GOGA_LINK_BUF
)

// LinkRx is what a link's receive buffer holds, kept from call to call with
// the buffer: the frame returned last stays at its start until the next.
type LinkRx struct{ c C.goga_link_rx }

// Linked is where a link call stands: Done whether the peer's frame is in
// (then Count is its record's bytes, at the buffer's bytes 4 on), RC
// MPI's return code of the probe, Err the errno of a failed send or receive
// (-1 where the peer closed the link).
type Linked struct {
	Done           bool
	Count, RC, Err int
}

func linked(x C.goga_linked) Linked {
	return Linked{Done: x.done != 0, Count: int(x.count), RC: int(x.rc), Err: int(x.err)}
}

// LinkExchange sends send as one frame over the connected socket fd
// (nothing if send is nil), then, unless buf is nil, receives the peer's
// frame into buf (LinkBuf bytes) as LinkWait does.
func LinkExchange(fd int, send, buf []byte, rx *LinkRx, probe Comm, probeTag, spins int) Linked {
	sp, sn := sized(send)
	var fp *C.char
	if buf != nil {
		fp = (*C.char)(unsafe.Pointer(unsafe.SliceData(buf[:LinkBuf])))
	}
	return linked(C.goga_link_exchange(C.int(fd), (*C.char)(sp), sn, fp, &rx.c, h(uintptr(probe)), ci(probeTag), ci(spins)))
}

// LinkWait goes on receiving a frame into buf without blocking, up to
// spins times, and stops early when a message of probeTag waits on probe.
func LinkWait(fd int, buf []byte, rx *LinkRx, probe Comm, probeTag, spins int) Linked {
	fp := (*C.char)(unsafe.Pointer(unsafe.SliceData(buf[:LinkBuf])))
	return linked(C.goga_link_wait(C.int(fd), fp, &rx.c, h(uintptr(probe)), ci(probeTag), ci(spins)))
}
