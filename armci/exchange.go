package armci

import (
	"math"
	"unsafe"

	"github.com/goga-hpc/goga/cgo"
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

// exchangeRecords combines every process's rec in place, as the record's
// operator does in MPI_Allreduce: the same result on every process, the
// operands in rank order. It is recursive doubling: with n not a power of
// two, each of the first n - p2 pairs of ranks folds into its odd rank
// first, and that rank hands the result back at the end.
func (rt *Runtime) exchangeRecords(rec *[recWords]int64) error {
	me := rt.rank
	p2, extra := doubling(rt.size)
	in := record.pool.Get().(*[recWords]int64)
	defer record.pool.Put(in)
	vr := me - extra // my place among the p2 that double
	if me < 2*extra {
		if me%2 == 0 {
			if err := rt.exchange(rec, nil, me+1); err != nil {
				return err
			}
			return rt.exchange(nil, rec, me+1)
		}
		if err := rt.exchange(nil, in, me-1); err != nil {
			return err
		}
		mergeRecords(in[:], rec[:])
		vr = me / 2
	}
	for bit := 1; bit < p2; bit <<= 1 {
		pv := vr ^ bit
		if err := rt.exchange(rec, in, doublingPeer(pv, extra)); err != nil {
			return err
		}
		if pv < vr {
			mergeRecords(in[:], rec[:])
		} else {
			mergeRecords(rec[:], in[:])
			*rec = *in
		}
	}
	if me < 2*extra {
		return rt.exchange(rec, nil, me-1)
	}
	return nil
}

// doubling is exchangeRecords' plan for n ranks: p2 of them double, the
// largest power of two not above n, after the first 2·extra have folded in
// pairs.
func doubling(n int) (p2, extra int) {
	p2 = 1
	for p2*2 <= n {
		p2 *= 2
	}
	return p2, n - p2
}

// doublingPeer is the rank at place pv among the ranks that double.
func doublingPeer(pv, extra int) int {
	if pv < extra {
		return 2*pv + 1
	}
	return pv + extra
}

// exchangePartners lists the ranks that exchangeRecords pairs rank me of n
// with.
func exchangePartners(n, me int) []int {
	p2, extra := doubling(n)
	if me < 2*extra && me%2 == 0 {
		return []int{me + 1}
	}
	var out []int
	vr := me - extra
	if me < 2*extra {
		out, vr = append(out, me-1), me/2
	}
	for bit := 1; bit < p2; bit <<= 1 {
		out = append(out, doublingPeer(vr^bit, extra))
	}
	return out
}

// exchangeSpins bounds the tests of one crossing into C while an exchange
// waits (cgo.ExchangeWait), so that the waiting thread comes back to Go,
// and yields its core, now and then even where no request arrives.
const exchangeSpins = 64

// exchange sends send's words up to recLen (if send is not nil) to peer and
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
func (rt *Runtime) exchange(send, recv *[recWords]int64, peer int) error {
	rt.xmu.Lock()
	defer rt.xmu.Unlock()
	var out, in []byte
	if send != nil {
		out = unsafe.Slice((*byte)(unsafe.Pointer(send)), 8*recLen(send))
	}
	if rt.links != nil {
		return rt.links.exchange(rt.am, out, recv, peer)
	}
	if recv != nil {
		if rt.xrecv == nil {
			p, rc := cgo.AllocMem(recWords * 8)
			if err := mpi.Check("Alloc_mem", rc); err != nil {
				return err
			}
			rt.xrecv = unsafe.Slice((*byte)(p), recWords*8)
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
		received(recv, in[:x.Count])
	}
	return nil
}

// received makes recv the record whose words recLen sent as b.
func received(recv *[recWords]int64, b []byte) {
	copy(bytesOf(recv[:]), b)
	padRecord(recv, len(b)/8)
}

// recLen is how many of rec's words an exchange sends: a tail that combines
// as nothing stays behind, and padRecord restores it at the receiver. A
// plain barrier's record sends none; ga's agreements send their maxima and
// the header, 40 bytes instead of the whole record's 296.
func recLen(rec *[recWords]int64) int {
	switch h := rec[recHeader]; h {
	case 0:
		for _, m := range rec[:MaxReduce] {
			if m != math.MinInt64 {
				return recHeader + 1
			}
		}
		return 0
	case mixed:
		return recHeader + 1
	default:
		_, _, n := reductionOf(h)
		return recHeader + 1 + min((n+7)/8, RecordCap/8)
	}
}

// padRecord fills rec from word k on as recLen left it out: maxima that
// change no maximum and a zero header. The bytes are read only under a
// header that sent them.
func padRecord(rec *[recWords]int64, k int) {
	for i := k; i < MaxReduce; i++ {
		rec[i] = math.MinInt64
	}
	if k <= recHeader {
		rec[recHeader] = 0
	}
}

// freeExchange frees the exchanges' receive buffer.
func (rt *Runtime) freeExchange() {
	if rt.xrecv != nil {
		cgo.FreeMem(unsafe.Pointer(unsafe.SliceData(rt.xrecv)))
		rt.xrecv = nil
	}
}
