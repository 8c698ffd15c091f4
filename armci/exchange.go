package armci

import (
	"unsafe"

	"github.com/goga-hpc/goga/cgo"
	"github.com/goga-hpc/goga/internal/agreement"
	"github.com/goga-hpc/goga/mpi"
)

// Across nodes, a blocking MPI_Allreduce spins inside MPI. Where MPI does
// not yield when idle (Open MPI's default where each rank has a core, as on
// a cluster), that thread and the active-message server share the
// process's core, each losing it to the other until the scheduler's tick:
// a peer's requests to a process waiting in ga.Sync then waited up to 8 ms.
// There the agreement's record is combined by point-to-point messages
// instead, which the waiting thread completes while serving those
// requests itself (amServer.serveWhile). Across the two simulated nodes,
// 1 + 1 ranks bound, against the blocking MPI_Allreduce (3 alternations):
// 8-byte gets from a process in ga.Sync 17 µs on average against 39 (none over
// 1 ms against 20 in 5000), gets of 256 KiB 84 µs against 162, ga.Sync
// itself 12.8 µs against 13.4; 8-byte puts to it 6.0 µs against 3.9 (the
// waiting thread serves them more slowly than a server that never yields).
// An MPI_Iallreduce of the record served the same way made ga.Sync 18.6 µs
// (and cannot take the record's Go operator: a nonblocking reduction could
// call back into Go from any later MPI call).

// tagExchange is the tag of the exchanges' messages on the runtime's
// communicator, which carries no other point-to-point traffic.
const tagExchange = 1

// exchangeSpins bounds the tests of one crossing into C while an exchange
// waits (cgo.ExchangeWait), so that the waiting thread comes back to Go,
// and yields its core, now and then even where no request arrives.
const exchangeSpins = 64

// exchange sends send's words up to agreement.Len (if send is not nil) to peer and
// receives recv (if not nil) from it, serving requests aimed at this
// process while it waits (a runtime exchanges only where it has an
// active-message server). One crossing into C posts the receive, sends, and
// tests the receive until it completes or a request waits to be served:
// across the two simulated nodes a barrier of exchanges took 10.0 µs with
// Irecv, Send and tests through package mpi, their crossings and the
// receive's request object, against 8.9 (3 alternations; MPI_Barrier
// 8.3). The receive lands in C memory (rt.xrecv), as it may still be
// pending when the crossing returns. The send is blocking: a record is far
// below every MPI's eager limit, so it returns once the bytes are on their
// way. The peer posts its receive before its send, as this process does, so
// a send that waited for the receive would not deadlock either. Where every
// process has links (link.go), the records go over them instead: a barrier
// of exchanges took 7.3 µs against 11.0.
func (rt *Runtime) exchange(send, recv *agreement.Record, peer int) error {
	rt.xmu.Lock()
	defer rt.xmu.Unlock()
	var out, in []byte
	if send != nil {
		out = unsafe.Slice((*byte)(unsafe.Pointer(send)), 8*agreement.Len(send))
	}
	if rt.links != nil {
		return rt.links.exchange(rt.am, out, recv, peer)
	}
	if recv != nil {
		if rt.xrecv == nil {
			p, rc := cgo.AllocMem(agreement.RecWords * 8)
			if err := mpi.Check("Alloc_mem", rc); err != nil {
				return err
			}
			rt.xrecv = unsafe.Slice((*byte)(p), agreement.RecWords*8)
		}
		in = rt.xrecv
	}
	x := cgo.Exchange(out, in, peer, tagExchange, rt.commH, rt.am.commH, amTagRequest, exchangeSpins)
	err := mpi.Check("exchange", x.RC)
	if err == nil && !x.Done {
		// Tests go on in C between the requests served here.
		err = rt.am.serveWhile(func() (bool, error) {
			x = cgo.ExchangeWait(x.Req, rt.am.commH, amTagRequest, exchangeSpins)
			return x.Done, mpi.Check("exchange", x.RC)
		})
	}
	if err != nil {
		return err
	}
	if recv != nil {
		agreement.Received(recv, in[:x.Count])
	}
	return nil
}

// freeExchange frees the exchanges' receive buffer.
func (rt *Runtime) freeExchange() {
	if rt.xrecv != nil {
		cgo.FreeMem(unsafe.Pointer(unsafe.SliceData(rt.xrecv)))
		rt.xrecv = nil
	}
}
