package mpi_test

// Point-to-point operations of package mpi, and the argument checks of both
// point-to-point and collective calls. Helpers (pcMust, pcEq, pcV, ...) are in
// collective_test.go.

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// pcPoll calls done until it reports true, and ends the job if that takes
// longer than 20 s.
func pcPoll(t *testing.T, what string, done func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !done() {
		if time.Now().After(deadline) {
			fatalf(t, "%s: still not complete after 20 s", what)
		}
		runtime.Gosched()
	}
}

// pcGrowStack uses about n KiB of stack.
//
//go:noinline
func pcGrowStack(n int) int {
	var pad [1024]byte
	pad[n%1024] = byte(n)
	if n == 0 {
		return int(pad[0])
	}
	return pcGrowStack(n-1) + int(pad[n%1024])
}

// testSendRecvFor sends T messages: rank 0 to every other rank and back, and
// every rank to itself.
func testSendRecvFor[T mpi.Elem](t *testing.T, c *mpi.Comm) {
	n, r := c.Size(), c.Rank()
	v := pcV[T]
	sent := v(pcSentinel)
	// msg is the message of length k from rank s: 10s + i.
	msg := func(s, k int) []T {
		m := make([]T, k)
		for i := range m {
			m[i] = v(10*s + i)
		}
		return m
	}
	if r == 0 {
		for d := 1; d < n; d++ {
			pcMust(t, "Send", mpi.Send(c, msg(0, d+1), d, 10+d))
		}
		for d := 1; d < n; d++ {
			buf := pcFill(8, sent)
			st, err := mpi.Recv(c, buf, d, 20+d)
			pcMust(t, "Recv", err)
			pcStatus(t, fmt.Sprintf("Recv from %d", d), st, mpi.Status{Source: d, Tag: 20 + d, Count: d + 2})
			pcEq(t, fmt.Sprintf("Recv from %d", d), buf, append(msg(d, d+2), pcFill(8-(d+2), sent)...))
		}
	} else {
		// A receive buffer longer than the message: Count is the message's.
		buf := pcFill(8, sent)
		st, err := mpi.Recv(c, buf, 0, 10+r)
		pcMust(t, "Recv", err)
		pcStatus(t, "Recv from 0", st, mpi.Status{Source: 0, Tag: 10 + r, Count: r + 1})
		pcEq(t, "Recv from 0", buf, append(msg(0, r+1), pcFill(8-(r+1), sent)...))
		pcMust(t, "Send", mpi.Send(c, msg(r, r+2), 0, 20+r))
	}
	// To self: Isend, then a blocking Recv, then Wait.
	req, err := mpi.Isend(c, msg(r, 3), r, 5)
	pcMust(t, "Isend to self", err)
	buf := make([]T, 3)
	st, err := mpi.Recv(c, buf, r, 5)
	pcMust(t, "Recv from self", err)
	pcStatus(t, "Recv from self", st, mpi.Status{Source: r, Tag: 5, Count: 3})
	pcEq(t, "Recv from self", buf, msg(r, 3))
	_, err = req.Wait()
	pcMust(t, "Wait", err)
}

func TestPointToPoint(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		w := mpi.World()
		n := w.Size()

		pcTypes(t, w, pcInstances(
			testSendRecvFor[int8], testSendRecvFor[int16], testSendRecvFor[int32],
			testSendRecvFor[int64], testSendRecvFor[int], testSendRecvFor[uint8],
			testSendRecvFor[uint16], testSendRecvFor[uint32], testSendRecvFor[uint64],
			testSendRecvFor[uint], testSendRecvFor[float32], testSendRecvFor[float64],
			testSendRecvFor[complex64], testSendRecvFor[complex128],
			testSendRecvFor[pcCelsius], testSendRecvFor[pcFlags],
		))

		t.Run("AnySourceAnyTag", testP2PAnySourceAnyTag)
		t.Run("SpecificSourceAnyTag", testP2PSpecificSourceAnyTag)
		t.Run("Ssend", testP2PSsend)
		t.Run("SendrecvRing", testP2PSendrecvRing)
		t.Run("SendrecvShift", testP2PSendrecvShift)
		t.Run("PingPong", testP2PPingPong)
		t.Run("TestPolling", testP2PTestPolling)
		t.Run("Cancel", testP2PCancel)
		t.Run("Waitall", testP2PWaitall)
		t.Run("Waitany", testP2PWaitany)
		t.Run("WaitanyIndex", testP2PWaitanyIndex)
		t.Run("StackBuffers", testP2PStackBuffers)
		t.Run("Probe", testP2PProbe)
		t.Run("Iprobe", testP2PIprobe)
		t.Run("ProcNull", testP2PProcNull)
		t.Run("Empty", testP2PEmpty)
		t.Run("Truncated", testP2PTruncated)
		t.Run("LargeTag", testP2PLargeTag)

		// Everyone still in step.
		got := []int{0}
		pcMust(t, "Allreduce", mpi.Allreduce(w, []int{1}, got, mpi.Sum))
		pcEq(t, "final Allreduce", got, []int{n})
	})
}

func testP2PAnySourceAnyTag(t *testing.T) {
	w := mpi.World()
	n, r := w.Size(), w.Rank()
	// Ranks 1..n-1 send to 0: r+1 values with tag 30+r, which rank 0
	// takes with AnySource and AnyTag. After a barrier they send tags 41
	// and then 40, and rank 0 takes them by tag alone, tag 40 first,
	// overtaking the send order.
	if r != 0 {
		data := []int64{int64(100 * r), int64(100*r + 1), int64(100*r + 2), int64(100*r + 3)}
		pcMust(t, "Send", mpi.Send(w, data[:r+1], 0, 30+r))
		pcMust(t, "Barrier", w.Barrier())
		reqs := make([]*mpi.Request, 2)
		var err error
		reqs[0], err = mpi.Isend(w, []int64{int64(41*r + 1)}, 0, 41)
		pcMust(t, "Isend", err)
		reqs[1], err = mpi.Isend(w, []int64{int64(40*r + 1)}, 0, 40)
		pcMust(t, "Isend", err)
		_, err = mpi.Waitall(reqs...)
		pcMust(t, "Waitall", err)
		return
	}
	seen := map[int]bool{}
	for k := 1; k < n; k++ {
		buf := pcFill(6, int64(-1))
		st, err := mpi.Recv(w, buf, mpi.AnySource, mpi.AnyTag)
		pcMust(t, "Recv any", err)
		s := st.Source
		if s < 1 || s >= n || seen[s] {
			fatalf(t, "Recv any: unexpected or repeated source %d (status %+v)", s, st)
		}
		seen[s] = true
		pcStatus(t, "Recv any", st, mpi.Status{Source: s, Tag: 30 + s, Count: s + 1})
		want := pcFill(6, int64(-1))
		for i := 0; i <= s; i++ {
			want[i] = int64(100*s + i)
		}
		pcEq(t, "Recv any", buf, want)
	}
	pcMust(t, "Barrier", w.Barrier())
	for _, tag := range []int{40, 41} {
		seen := map[int]bool{}
		for k := 1; k < n; k++ {
			buf := []int64{0}
			st, err := mpi.Recv(w, buf, mpi.AnySource, tag)
			pcMust(t, "Recv by tag", err)
			s := st.Source
			if s < 1 || s >= n || seen[s] {
				fatalf(t, "Recv tag %d: unexpected or repeated source %d", tag, s)
			}
			seen[s] = true
			pcStatus(t, fmt.Sprintf("Recv tag %d", tag), st, mpi.Status{Source: s, Tag: tag, Count: 1})
			pcEq(t, fmt.Sprintf("Recv tag %d", tag), buf, []int64{int64(tag*s + 1)})
		}
	}
}

func testP2PSpecificSourceAnyTag(t *testing.T) {
	w := mpi.World()
	n, r := w.Size(), w.Rank()
	right, left := (r+1)%n, (r-1+n)%n
	req, err := mpi.Isend(w, []uint16{uint16(r), 7}, right, 1000+r)
	pcMust(t, "Isend", err)
	buf := []uint16{0, 0, 0}
	st, err := mpi.Recv(w, buf, left, mpi.AnyTag)
	pcMust(t, "Recv", err)
	pcStatus(t, "Recv from left, any tag", st, mpi.Status{Source: left, Tag: 1000 + left, Count: 2})
	pcEq(t, "Recv from left, any tag", buf, []uint16{uint16(left), 7, 0})
	_, err = req.Wait()
	pcMust(t, "Wait", err)
}

func testP2PSsend(t *testing.T) {
	w := mpi.World()
	n, r := w.Size(), w.Rank()
	// Pairs (0,1), (2,3): the even rank's Ssend cannot return before
	// the odd rank, which waits 60 ms, has posted its receive.
	partner := r ^ 1
	pcMust(t, "Barrier", w.Barrier())
	switch {
	case partner >= n:
		pcMust(t, "Ssend to ProcNull", mpi.Ssend(w, []float64{1}, mpi.ProcNull, 0))
	case r%2 == 0:
		start := time.Now()
		pcMust(t, "Ssend", mpi.Ssend(w, []float64{float64(r) + 0.5, -1}, partner, 3))
		if d := time.Since(start); d < 30*time.Millisecond {
			t.Errorf("Ssend returned after %v, before the receiver (asleep 60 ms) posted its receive", d)
		}
		buf := []float64{0, 0}
		st, err := mpi.Recv(w, buf, partner, 4)
		pcMust(t, "Recv", err)
		pcStatus(t, "Recv after Ssend", st, mpi.Status{Source: partner, Tag: 4, Count: 2})
		pcEq(t, "Recv after Ssend", buf, []float64{float64(partner) + 0.25, 2})
	default:
		time.Sleep(60 * time.Millisecond)
		buf := []float64{0, 0}
		st, err := mpi.Recv(w, buf, partner, 3)
		pcMust(t, "Recv", err)
		pcStatus(t, "Recv of Ssend", st, mpi.Status{Source: partner, Tag: 3, Count: 2})
		pcEq(t, "Recv of Ssend", buf, []float64{float64(partner) + 0.5, -1})
		pcMust(t, "Ssend back", mpi.Ssend(w, []float64{float64(r) + 0.25, 2}, partner, 4))
	}
}

func testP2PSendrecvRing(t *testing.T) {
	w := mpi.World()
	n, r := w.Size(), w.Rank()
	right, left := (r+1)%n, (r-1+n)%n
	// Every rank sends to the right and receives from the left.
	send := []complex128{complex(float64(r), 1), complex(0, float64(r*r))}
	recv := pcFill(3, complex128(complex(-1, -1)))
	st, err := mpi.Sendrecv(w, send, right, 7+r, recv, left, mpi.AnyTag)
	pcMust(t, "Sendrecv", err)
	pcStatus(t, "Sendrecv ring", st, mpi.Status{Source: left, Tag: 7 + left, Count: 2})
	pcEq(t, "Sendrecv ring", recv, []complex128{complex(float64(left), 1), complex(0, float64(left*left)), complex(-1, -1)})
	// Pass a token n times around the ring: it comes back with the sum
	// of all ranks added.
	tok := []int{0}
	for k := 0; k < n; k++ {
		out := []int{tok[0] + r}
		_, err := mpi.Sendrecv(w, out, right, 8, tok, left, 8)
		pcMust(t, "Sendrecv token", err)
	}
	// After k hops the token at rank r holds the sum of the k ranks before
	// r; after n hops, every rank once: n(n-1)/2.
	pcEq(t, "token after n hops", tok, []int{n * (n - 1) / 2})
}

func testP2PSendrecvShift(t *testing.T) {
	w := mpi.World()
	n, r := w.Size(), w.Rank()
	// A non-periodic shift: the ends talk to ProcNull.
	dest, src := r+1, r-1
	if dest == n {
		dest = mpi.ProcNull
	}
	if src < 0 {
		src = mpi.ProcNull
	}
	recv := []int32{-5, -5}
	st, err := mpi.Sendrecv(w, []int32{int32(r), int32(3 * r)}, dest, 9, recv, src, 9)
	pcMust(t, "Sendrecv shift", err)
	if src == mpi.ProcNull {
		pcStatus(t, "Sendrecv from ProcNull", st, mpi.Status{Source: mpi.ProcNull, Tag: mpi.AnyTag, Count: 0})
		pcEq(t, "Sendrecv from ProcNull leaves recv", recv, []int32{-5, -5})
	} else {
		pcStatus(t, "Sendrecv shift", st, mpi.Status{Source: src, Tag: 9, Count: 2})
		pcEq(t, "Sendrecv shift", recv, []int32{int32(src), int32(3 * src)})
	}
}

func testP2PPingPong(t *testing.T) {
	w := mpi.World()
	n, r := w.Size(), w.Rank()
	// Pairs (0,1), (2,3) bounce a counter with Isend, Irecv and Wait;
	// a rank without a partner plays against itself.
	const rounds = 20
	partner := r ^ 1
	if partner >= n {
		partner = r
	}
	in := []int64{-1}
	for j := 0; j < rounds; j++ {
		if partner == r {
			rq, err := mpi.Irecv(w, in, r, j)
			pcMust(t, "Irecv", err)
			sq, err := mpi.Isend(w, []int64{int64(3 * j)}, r, j)
			pcMust(t, "Isend", err)
			st, err := rq.Wait()
			pcMust(t, "Wait", err)
			pcStatus(t, "self ping", st, mpi.Status{Source: r, Tag: j, Count: 1})
			_, err = sq.Wait()
			pcMust(t, "Wait", err)
			pcEq(t, "self ping", in, []int64{int64(3 * j)})
			continue
		}
		if r%2 == 0 {
			// The initiator sends 2j and gets 2j+1 back.
			sq, err := mpi.Isend(w, []int64{int64(2 * j)}, partner, j)
			pcMust(t, "Isend", err)
			rq, err := mpi.Irecv(w, in, partner, j)
			pcMust(t, "Irecv", err)
			st, err := rq.Wait()
			pcMust(t, "Wait recv", err)
			_, err = sq.Wait()
			pcMust(t, "Wait send", err)
			pcStatus(t, "pong", st, mpi.Status{Source: partner, Tag: j, Count: 1})
			pcEq(t, fmt.Sprintf("pong %d", j), in, []int64{int64(2*j + 1)})
		} else {
			rq, err := mpi.Irecv(w, in, partner, j)
			pcMust(t, "Irecv", err)
			st, err := rq.Wait()
			pcMust(t, "Wait recv", err)
			pcStatus(t, "ping", st, mpi.Status{Source: partner, Tag: j, Count: 1})
			pcEq(t, fmt.Sprintf("ping %d", j), in, []int64{int64(2 * j)})
			sq, err := mpi.Isend(w, []int64{in[0] + 1}, partner, j)
			pcMust(t, "Isend", err)
			_, err = sq.Wait()
			pcMust(t, "Wait send", err)
		}
	}
}

// testP2PCancel: a receive that nothing will match is cancelled, completes
// as cancelled and leaves its buffer alone; the next receive on the same tag
// gets the message sent after it, not the cancelled one's; a completed
// request's Cancel does nothing and its status says not cancelled.
func testP2PCancel(t *testing.T) {
	w := mpi.World()
	n, r := w.Size(), w.Rank()
	right, left := (r+1)%n, (r-1+n)%n
	buf := []int32{-7, -7}
	rq, err := mpi.Irecv(w, buf, left, 91)
	pcMust(t, "Irecv", err)
	pcMust(t, "Cancel", rq.Cancel())
	st, err := rq.Wait()
	pcMust(t, "Wait", err)
	if !st.Cancelled || buf[0] != -7 || buf[1] != -7 {
		t.Errorf("cancelled receive: Cancelled = %v, buffer %v", st.Cancelled, buf)
	}
	pcMust(t, "Barrier", w.Barrier())
	rq, err = mpi.Irecv(w, buf, left, 91)
	pcMust(t, "Irecv", err)
	pcMust(t, "Send", mpi.Send(w, []int32{int32(r), 5}, right, 91))
	st, err = rq.Wait()
	pcMust(t, "Wait", err)
	if st.Cancelled || buf[0] != int32(left) || buf[1] != 5 {
		t.Errorf("receive after a cancelled one: Cancelled = %v, buffer %v, want [%d 5]", st.Cancelled, buf, left)
	}
	pcMust(t, "Cancel of a completed request", rq.Cancel())
	var nilReq *mpi.Request
	if err := nilReq.Cancel(); err == nil {
		t.Errorf("Cancel of a nil request: no error")
	}
}

func testP2PTestPolling(t *testing.T) {
	w := mpi.World()
	n, r := w.Size(), w.Rank()
	right, left := (r+1)%n, (r-1+n)%n
	// Every rank posts its receive before the barrier and sends only
	// after it, so the first Test must find nothing yet.
	buf := []float32{0, 0, 0, 0}
	rq, err := mpi.Irecv(w, buf, left, 90)
	pcMust(t, "Irecv", err)
	done, _, err := rq.Test()
	pcMust(t, "Test", err)
	if done {
		t.Errorf("Test reports a receive complete before anyone sent")
	}
	pcMust(t, "Barrier", w.Barrier())
	done, _, err = rq.Test()
	pcMust(t, "Test", err)
	if done {
		t.Errorf("Test reports a receive complete before anyone sent")
	}
	// Pollers (armci's active-message server) test thousands of times a
	// second: a test that finds nothing must not allocate.
	if allocs := testing.AllocsPerRun(50, func() { rq.Test() }); allocs != 0 {
		t.Errorf("Test of a pending receive made %v allocations, want 0", allocs)
	}
	pcMust(t, "Barrier", w.Barrier())
	sq, err := mpi.Isend(w, []float32{float32(r) + 0.5, float32(r) * 2, -1}, right, 90)
	pcMust(t, "Isend", err)
	var st mpi.Status
	pcPoll(t, "receive", func() bool {
		ok, s, err := rq.Test()
		pcMust(t, "Test", err)
		st = s
		return ok
	})
	pcPoll(t, "send", func() bool {
		ok, _, err := sq.Test()
		pcMust(t, "Test", err)
		return ok
	})
	want := mpi.Status{Source: left, Tag: 90, Count: 3}
	pcStatus(t, "Test", st, want)
	pcEq(t, "Test", buf, []float32{float32(left) + 0.5, float32(left) * 2, -1, 0})
	// A completed request keeps answering with its status.
	ok, st2, err := rq.Test()
	pcMust(t, "Test again", err)
	if !ok {
		t.Errorf("Test of a completed request reports not done")
	}
	pcStatus(t, "Test again", st2, want)
	st3, err := rq.Wait()
	pcMust(t, "Wait after Test", err)
	pcStatus(t, "Wait after Test", st3, want)
}

func testP2PWaitall(t *testing.T) {
	w := mpi.World()
	n, r := w.Size(), w.Rank()
	// K messages from every rank to every rank (itself too), message j
	// holding j+1 values. Receives are posted in tag order, sends go
	// out in reverse, and one Waitall takes receives and sends together.
	const K = 6
	bufs := make([][]int32, n*K)
	var reqs []*mpi.Request
	for s := 0; s < n; s++ {
		for j := 0; j < K; j++ {
			b := pcFill(K, int32(-1))
			bufs[s*K+j] = b
			rq, err := mpi.Irecv(w, b, s, j)
			pcMust(t, "Irecv", err)
			reqs = append(reqs, rq)
		}
	}
	val := func(s, d, j, i int) int32 { return int32(1000*s + 100*d + 10*j + i) }
	var sends []*mpi.Request
	for d := n - 1; d >= 0; d-- {
		for j := K - 1; j >= 0; j-- {
			m := make([]int32, j+1)
			for i := range m {
				m[i] = val(r, d, j, i)
			}
			sq, err := mpi.Isend(w, m, d, j)
			pcMust(t, "Isend", err)
			sends = append(sends, sq)
		}
	}
	// One receive completed before Waitall: Waitall reports it again.
	pre, err := reqs[r*K+K-1].Wait()
	pcMust(t, "Wait", err)
	pcStatus(t, "Wait before Waitall", pre, mpi.Status{Source: r, Tag: K - 1, Count: K})
	sts, err := mpi.Waitall(append(slices.Clone(reqs), sends...)...)
	pcMust(t, "Waitall", err)
	if len(sts) != len(reqs)+len(sends) {
		fatalf(t, "Waitall returned %d statuses for %d requests", len(sts), len(reqs)+len(sends))
	}
	for s := 0; s < n; s++ {
		for j := 0; j < K; j++ {
			pcStatus(t, fmt.Sprintf("Waitall status of message %d from %d", j, s), sts[s*K+j], mpi.Status{Source: s, Tag: j, Count: j + 1})
			want := pcFill(K, int32(-1))
			for i := 0; i <= j; i++ {
				want[i] = val(s, r, j, i)
			}
			pcEq(t, fmt.Sprintf("message %d from %d", j, s), bufs[s*K+j], want)
		}
	}
	// Everything is done now: Waitall again, and with no requests.
	again, err := mpi.Waitall(reqs...)
	pcMust(t, "Waitall again", err)
	pcEq(t, "Waitall again", again, sts[:len(reqs)])
	none, err := mpi.Waitall()
	pcMust(t, "Waitall()", err)
	if len(none) != 0 {
		t.Errorf("Waitall() returned %d statuses", len(none))
	}
}

func testP2PWaitany(t *testing.T) {
	w := mpi.World()
	n, r := w.Size(), w.Rank()
	// Receives from every rank; Waitany returns each exactly once.
	bufs := make([][]uint32, n)
	reqs := make([]*mpi.Request, n)
	for s := 0; s < n; s++ {
		bufs[s] = []uint32{0, 0}
		var err error
		reqs[s], err = mpi.Irecv(w, bufs[s], s, 50)
		pcMust(t, "Irecv", err)
	}
	sends := make([]*mpi.Request, n)
	for d := 0; d < n; d++ {
		var err error
		sends[d], err = mpi.Isend(w, []uint32{uint32(100*r + d), math.MaxUint32}, d, 50)
		pcMust(t, "Isend", err)
	}
	seen := make([]bool, n)
	for k := 0; k < n; k++ {
		i, st, err := mpi.Waitany(reqs...)
		pcMust(t, "Waitany", err)
		if i < 0 || i >= n || seen[i] {
			t.Errorf("Waitany returned index %d (seen %v)", i, seen)
			continue
		}
		seen[i] = true
		pcStatus(t, "Waitany", st, mpi.Status{Source: i, Tag: 50, Count: 2})
		pcEq(t, "Waitany", bufs[i], []uint32{uint32(100*i + r), math.MaxUint32})
	}
	i, _, err := mpi.Waitany(reqs...)
	pcMust(t, "Waitany when all done", err)
	if i != mpi.Undefined {
		t.Errorf("Waitany with every request done returned %d, want Undefined", i)
	}
	i, _, err = mpi.Waitany()
	pcMust(t, "Waitany()", err)
	if i != mpi.Undefined {
		t.Errorf("Waitany() returned %d, want Undefined", i)
	}
	_, err = mpi.Waitall(sends...)
	pcMust(t, "Waitall sends", err)
}

func testP2PWaitanyIndex(t *testing.T) {
	w := mpi.World()
	r := w.Rank()
	// Three receives from self; messages arrive for tags 61, 62, 60 in
	// that order, and Waitany must name the one that completed, also
	// once earlier requests are done.
	bufs := [][]int8{{0}, {0}, {0}}
	reqs := make([]*mpi.Request, 3)
	for k := range reqs {
		var err error
		reqs[k], err = mpi.Irecv(w, bufs[k], r, 60+k)
		pcMust(t, "Irecv", err)
	}
	for _, k := range []int{1, 2, 0} {
		sq, err := mpi.Isend(w, []int8{int8(10*k + r)}, r, 60+k)
		pcMust(t, "Isend", err)
		i, st, err := mpi.Waitany(reqs...)
		pcMust(t, "Waitany", err)
		if i != k {
			t.Errorf("Waitany returned %d, want %d (the only request that can complete)", i, k)
		}
		pcStatus(t, "Waitany", st, mpi.Status{Source: r, Tag: 60 + k, Count: 1})
		_, err = sq.Wait()
		pcMust(t, "Wait", err)
	}
	pcEq(t, "WaitanyIndex buffers", bufs[0], []int8{int8(r)})
	pcEq(t, "WaitanyIndex buffers", bufs[1], []int8{int8(10 + r)})
	pcEq(t, "WaitanyIndex buffers", bufs[2], []int8{int8(20 + r)})
}

func testP2PStackBuffers(t *testing.T) {
	w := mpi.World()
	n, r := w.Size(), w.Rank()
	right, left := (r+1)%n, (r-1+n)%n
	// Buffers that are local arrays of a fresh goroutine (each subtest
	// runs in one), with the stack grown well past its first size while
	// the operations are in flight: a buffer left on the stack would
	// move, and MPI would write to where it was.
	var in [4]int32
	rq, err := mpi.Irecv(w, in[:], left, 95)
	pcMust(t, "Irecv", err)
	pcGrowStack(256)
	out := [4]int32{int32(1000 * r), int32(1000*r + 1), int32(1000*r + 2), int32(1000*r + 3)}
	sq, err := mpi.Isend(w, out[:], right, 95)
	pcMust(t, "Isend", err)
	pcGrowStack(512)
	_, err = mpi.Waitall(rq, sq)
	pcMust(t, "Waitall", err)
	pcEq(t, "Irecv into a stack array", in[:], []int32{int32(1000 * left), int32(1000*left + 1), int32(1000*left + 2), int32(1000*left + 3)})
}

func testP2PProbe(t *testing.T) {
	w := mpi.World()
	n, r := w.Size(), w.Rank()
	right, left := (r+1)%n, (r-1+n)%n
	// Rank r sends r+1 int32 values to the right; the receiver probes
	// for the size, with Count in elements of the probe's type.
	data := make([]int32, r+1)
	for i := range data {
		data[i] = int32(1000*r + i)
	}
	sq, err := mpi.Isend(w, data, right, 70)
	pcMust(t, "Isend", err)
	st, err := mpi.Probe[int32](w, mpi.AnySource, 70)
	pcMust(t, "Probe", err)
	pcStatus(t, "Probe[int32]", st, mpi.Status{Source: left, Tag: 70, Count: left + 1})
	st, err = mpi.Probe[int8](w, left, 70)
	pcMust(t, "Probe", err)
	pcStatus(t, "Probe[int8]", st, mpi.Status{Source: left, Tag: 70, Count: 4 * (left + 1)})
	st, err = mpi.Probe[uint16](w, left, mpi.AnyTag)
	pcMust(t, "Probe", err)
	pcStatus(t, "Probe[uint16]", st, mpi.Status{Source: left, Tag: 70, Count: 2 * (left + 1)})
	buf := make([]int32, st.Count/2)
	st, err = mpi.Recv(w, buf, st.Source, st.Tag)
	pcMust(t, "Recv", err)
	pcStatus(t, "Recv after Probe", st, mpi.Status{Source: left, Tag: 70, Count: left + 1})
	want := make([]int32, left+1)
	for i := range want {
		want[i] = int32(1000*left + i)
	}
	pcEq(t, "Recv after Probe", buf, want)
	_, err = sq.Wait()
	pcMust(t, "Wait", err)
}

func testP2PIprobe(t *testing.T) {
	w := mpi.World()
	n, r := w.Size(), w.Rank()
	right, left := (r+1)%n, (r-1+n)%n
	// Tag 72 is never sent.
	ok, st, err := mpi.Iprobe[float64](w, mpi.AnySource, 72)
	pcMust(t, "Iprobe", err)
	if ok {
		t.Errorf("Iprobe found a message that nobody sent: %+v", st)
	}
	// Pollers (armci's active-message server) probe thousands of times a
	// second: a probe must not allocate.
	if allocs := testing.AllocsPerRun(50, func() { mpi.Iprobe[float64](w, mpi.AnySource, 72) }); allocs != 0 {
		t.Errorf("Iprobe made %v allocations, want 0", allocs)
	}
	data := make([]float64, 2*r+1)
	for i := range data {
		data[i] = float64(r) + float64(i)/4
	}
	sq, err := mpi.Isend(w, data, right, 71)
	pcMust(t, "Isend", err)
	pcPoll(t, "Iprobe", func() bool {
		ok, st, err = mpi.Iprobe[float64](w, left, 71)
		pcMust(t, "Iprobe", err)
		return ok
	})
	pcStatus(t, "Iprobe[float64]", st, mpi.Status{Source: left, Tag: 71, Count: 2*left + 1})
	ok, st, err = mpi.Iprobe[complex64](w, mpi.AnySource, mpi.AnyTag)
	pcMust(t, "Iprobe", err)
	if !ok {
		t.Errorf("Iprobe lost a message it found before")
	}
	pcStatus(t, "Iprobe[complex64]", st, mpi.Status{Source: left, Tag: 71, Count: 2*left + 1})
	ok, st, err = mpi.Iprobe[uint8](w, left, 71)
	pcMust(t, "Iprobe", err)
	if !ok {
		t.Errorf("Iprobe lost a message it found before")
	}
	pcStatus(t, "Iprobe[uint8]", st, mpi.Status{Source: left, Tag: 71, Count: 8 * (2*left + 1)})
	buf := make([]float64, 2*left+1)
	_, err = mpi.Recv(w, buf, left, 71)
	pcMust(t, "Recv", err)
	for i := range buf {
		if buf[i] != float64(left)+float64(i)/4 {
			t.Errorf("Recv after Iprobe: buf[%d] = %v, want %v", i, buf[i], float64(left)+float64(i)/4)
		}
	}
	_, err = sq.Wait()
	pcMust(t, "Wait", err)
}

func testP2PProcNull(t *testing.T) {
	w := mpi.World()
	null := mpi.Status{Source: mpi.ProcNull, Tag: mpi.AnyTag, Count: 0}
	pcMust(t, "Send to ProcNull", mpi.Send(w, []int{1, 2}, mpi.ProcNull, 3))
	pcMust(t, "Ssend to ProcNull", mpi.Ssend(w, []int{1, 2}, mpi.ProcNull, 3))
	buf := []int{-7, -7}
	st, err := mpi.Recv(w, buf, mpi.ProcNull, 3)
	pcMust(t, "Recv from ProcNull", err)
	pcStatus(t, "Recv from ProcNull", st, null)
	pcEq(t, "Recv from ProcNull leaves buf", buf, []int{-7, -7})
	st, err = mpi.Recv(w, buf, mpi.ProcNull, mpi.AnyTag)
	pcMust(t, "Recv from ProcNull, any tag", err)
	pcStatus(t, "Recv from ProcNull, any tag", st, null)
	sq, err := mpi.Isend(w, []int{1}, mpi.ProcNull, 4)
	pcMust(t, "Isend to ProcNull", err)
	rq, err := mpi.Irecv(w, buf, mpi.ProcNull, 4)
	pcMust(t, "Irecv from ProcNull", err)
	sts, err := mpi.Waitall(sq, rq)
	pcMust(t, "Waitall", err)
	pcStatus(t, "Irecv from ProcNull", sts[1], null)
	pcEq(t, "Irecv from ProcNull leaves buf", buf, []int{-7, -7})
	st, err = mpi.Probe[int](w, mpi.ProcNull, 4)
	pcMust(t, "Probe ProcNull", err)
	pcStatus(t, "Probe ProcNull", st, null)
	ok, st, err := mpi.Iprobe[int](w, mpi.ProcNull, mpi.AnyTag)
	pcMust(t, "Iprobe ProcNull", err)
	if !ok {
		t.Errorf("Iprobe(ProcNull) found nothing; MPI says it returns at once with a null status")
	}
	pcStatus(t, "Iprobe ProcNull", st, null)
	st, err = mpi.Sendrecv(w, []int{1}, mpi.ProcNull, 0, buf, mpi.ProcNull, 0)
	pcMust(t, "Sendrecv ProcNull", err)
	pcStatus(t, "Sendrecv ProcNull", st, null)
}

func testP2PEmpty(t *testing.T) {
	w := mpi.World()
	n, r := w.Size(), w.Rank()
	right, left := (r+1)%n, (r-1+n)%n
	// Empty messages, non-nil and nil, into empty and longer buffers.
	sq1, err := mpi.Isend(w, []float64{}, right, 11)
	pcMust(t, "Isend empty", err)
	sq2, err := mpi.Isend[float64](w, nil, right, 12)
	pcMust(t, "Isend nil", err)
	pcMust(t, "Send empty", mpi.Send(w, []complex64{}, mpi.ProcNull, 13))
	st, err := mpi.Recv(w, []float64{}, left, 11)
	pcMust(t, "Recv empty", err)
	pcStatus(t, "Recv empty", st, mpi.Status{Source: left, Tag: 11, Count: 0})
	guard := []float64{-2, -2}
	rq, err := mpi.Irecv(w, guard, left, 12)
	pcMust(t, "Irecv", err)
	st, err = rq.Wait()
	pcMust(t, "Wait", err)
	pcStatus(t, "Irecv of an empty message", st, mpi.Status{Source: left, Tag: 12, Count: 0})
	pcEq(t, "Irecv of an empty message leaves buf", guard, []float64{-2, -2})
	_, err = mpi.Waitall(sq1, sq2)
	pcMust(t, "Waitall", err)
	st, err = mpi.Sendrecv(w, []int8{}, right, 14, []int8{}, left, 14)
	pcMust(t, "Sendrecv empty", err)
	pcStatus(t, "Sendrecv empty", st, mpi.Status{Source: left, Tag: 14, Count: 0})
	// Probe of an empty message.
	sq, err := mpi.Isend(w, []int16{}, right, 15)
	pcMust(t, "Isend", err)
	st, err = mpi.Probe[int16](w, left, 15)
	pcMust(t, "Probe", err)
	pcStatus(t, "Probe of an empty message", st, mpi.Status{Source: left, Tag: 15, Count: 0})
	_, err = mpi.Recv[int16](w, nil, left, 15)
	pcMust(t, "Recv nil", err)
	_, err = sq.Wait()
	pcMust(t, "Wait", err)
}

func testP2PTruncated(t *testing.T) {
	w := mpi.World()
	n, r := w.Size(), w.Rank()
	right, left := (r+1)%n, (r-1+n)%n
	// A message longer than the receive buffer is an MPI error (not an
	// ArgError: only MPI knows the length), and the job carries on.
	sq, err := mpi.Isend(w, []int64{1, 2, 3, 4, 5}, right, 16)
	pcMust(t, "Isend", err)
	buf := []int64{0, 0}
	_, err = mpi.Recv(w, buf, left, 16)
	var me *mpi.Error
	if !errors.As(err, &me) {
		t.Errorf("Recv into a short buffer: got %v (%T), want *mpi.Error", err, err)
	}
	_, err = sq.Wait()
	pcMust(t, "Wait", err)
	pcMust(t, "Barrier", w.Barrier())
	// Communication still works.
	st, err := mpi.Sendrecv(w, []int64{int64(r)}, right, 17, buf, left, 17)
	pcMust(t, "Sendrecv", err)
	pcStatus(t, "Sendrecv after truncation", st, mpi.Status{Source: left, Tag: 17, Count: 1})
	pcEq(t, "Sendrecv after truncation", buf[:1], []int64{int64(left)})
}

func testP2PLargeTag(t *testing.T) {
	w := mpi.World()
	n, r := w.Size(), w.Rank()
	right, left := (r+1)%n, (r-1+n)%n
	// The largest tag MPI_TAG_UB guarantees (32767), and Open MPI's
	// 2^31-1, travel intact.
	for _, tag := range []int{32767, math.MaxInt32} {
		sq, err := mpi.Isend(w, []int{r}, right, tag)
		if err != nil {
			var ae *mpi.ArgError
			if errors.As(err, &ae) {
				t.Errorf("Isend tag %d: %v", tag, err)
			}
			continue // above this MPI's MPI_TAG_UB: an MPI error on every rank
		}
		buf := []int{-1}
		st, err := mpi.Recv(w, buf, left, tag)
		pcMust(t, "Recv", err)
		pcStatus(t, fmt.Sprintf("tag %d", tag), st, mpi.Status{Source: left, Tag: tag, Count: 1})
		pcEq(t, fmt.Sprintf("tag %d", tag), buf, []int{left})
		_, err = sq.Wait()
		pcMust(t, "Wait", err)
	}
}

// ---- bad input ----

func TestBadInput(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		w := mpi.World()
		n, r := w.Size(), w.Rank()

		t.Run("PointToPoint", testBadInputPointToPoint)
		t.Run("Collectives", testBadInputCollectives)
		t.Run("RootOnly", testBadInputRootOnly)
		t.Run("InPlaceOffRoot", testBadInputInPlaceOffRoot)

		// The job carries on, every rank in step.
		got := []int{0}
		pcMust(t, "Allreduce", mpi.Allreduce(w, []int{r + 1}, got, mpi.Sum))
		pcEq(t, "Allreduce after bad input", got, []int{n * (n + 1) / 2})
		all := make([]int, n)
		pcMust(t, "Allgather", mpi.Allgather(w, []int{r}, all))
		want := make([]int, n)
		for i := range want {
			want[i] = i
		}
		pcEq(t, "Allgather after bad input", all, want)
	})
}

func testBadInputPointToPoint(t *testing.T) {
	w := mpi.World()
	n, r := w.Size(), w.Rank()
	buf := []int{1, 2, 3}
	arg := func(what string, err error, name string) { t.Helper(); pcArgErr(t, what, err, name) }
	arg("Send dest=size", mpi.Send(w, buf, n, 0), "dest")
	arg("Send dest=-5", mpi.Send(w, buf, -5, 0), "dest")
	arg("Send dest=AnySource", mpi.Send(w, buf, mpi.AnySource, 0), "dest")
	arg("Send dest=2^32", mpi.Send(w, buf, 1<<32, 0), "dest")
	arg("Send tag=-1", mpi.Send(w, buf, r, -1), "tag")
	arg("Send tag=AnyTag", mpi.Send(w, buf, r, mpi.AnyTag), "tag")
	// A tag beyond C int would be truncated: 2^32 would go out as tag 0.
	arg("Send tag=2^32", mpi.Send(w, buf, r, 1<<32), "tag")
	arg("Send tag=2^31", mpi.Send(w, buf, r, 1<<31), "tag")
	arg("Ssend dest=size", mpi.Ssend(w, buf, n, 0), "dest")
	arg("Ssend tag=-3", mpi.Ssend(w, buf, r, -3), "tag")
	_, err := mpi.Recv(w, buf, n, 0)
	arg("Recv src=size", err, "src")
	_, err = mpi.Recv(w, buf, -7, 0)
	arg("Recv src=-7", err, "src")
	_, err = mpi.Recv(w, buf, r, -2)
	arg("Recv tag=-2", err, "tag")
	_, err = mpi.Recv(w, buf, r, 1<<32)
	arg("Recv tag=2^32", err, "tag")
	_, err = mpi.Sendrecv(w, buf, n, 0, buf, r, 0)
	arg("Sendrecv dest=size", err, "dest")
	_, err = mpi.Sendrecv(w, buf, r, 0, buf, n+3, 0)
	arg("Sendrecv src", err, "src")
	_, err = mpi.Sendrecv(w, buf, r, mpi.AnyTag, buf, r, 0)
	arg("Sendrecv sendTag=AnyTag", err, "sendTag")
	_, err = mpi.Sendrecv(w, buf, r, 0, buf, r, -4)
	arg("Sendrecv recvTag=-4", err, "recvTag")
	_, err = mpi.Isend(w, buf, n, 0)
	arg("Isend dest=size", err, "dest")
	_, err = mpi.Isend(w, buf, r, -1)
	arg("Isend tag=-1", err, "tag")
	_, err = mpi.Irecv(w, buf, n, 0)
	arg("Irecv src=size", err, "src")
	_, err = mpi.Irecv(w, buf, r, -9)
	arg("Irecv tag=-9", err, "tag")
	_, err = mpi.Probe[int](w, n, 0)
	arg("Probe src=size", err, "src")
	_, err = mpi.Probe[int](w, r, -2)
	arg("Probe tag=-2", err, "tag")
	_, _, err = mpi.Iprobe[int](w, -3, 0)
	arg("Iprobe src=-3", err, "src")
	_, _, err = mpi.Iprobe[int](w, r, -2)
	arg("Iprobe tag=-2", err, "tag")
	// Requests.
	var nilReq *mpi.Request
	_, err = nilReq.Wait()
	arg("Wait nil", err, "request")
	if !errors.Is(err, mpi.ErrNil) {
		t.Errorf("Wait on a nil request: %v does not wrap ErrNil", err)
	}
	_, _, err = nilReq.Test()
	arg("Test nil", err, "request")
	_, err = mpi.Waitall(nil)
	arg("Waitall with nil", err, "reqs")
	_, _, err = mpi.Waitany(nil)
	arg("Waitany with nil", err, "reqs")
	// A nil communicator.
	var nc *mpi.Comm
	err = mpi.Send(nc, buf, 0, 0)
	arg("Send on nil Comm", err, "comm")
	if !errors.Is(err, mpi.ErrNil) {
		t.Errorf("Send on a nil Comm: %v does not wrap ErrNil", err)
	}
	_, err = mpi.Recv(nc, buf, 0, 0)
	arg("Recv on nil Comm", err, "comm")
}

func testBadInputCollectives(t *testing.T) {
	w := mpi.World()
	n := w.Size()
	// Every check here fails alike on every rank, so no rank enters a
	// collective call.
	arg := func(what string, err error, name string) { t.Helper(); pcArgErr(t, what, err, name) }
	// The short buffers sit inside longer arrays so that a missing check
	// cannot write past real memory.
	short := make([]int, 8)[:2]
	send3 := []int{1, 2, 3}
	arg("Allreduce recv shorter than send", mpi.Allreduce(w, send3, short, mpi.Sum), "recv")
	arg("Scan recv short", mpi.Scan(w, send3, short, mpi.Sum), "recv")
	arg("Exscan recv short", mpi.Exscan(w, send3, short, mpi.Max), "recv")
	arg("Allreduce Max on complex128", mpi.Allreduce(w, []complex128{1}, []complex128{0}, mpi.Max), "op")
	arg("Allreduce Min on complex64", mpi.Allreduce(w, []complex64{1}, []complex64{0}, mpi.Min), "op")
	arg("Allreduce Band on float64", mpi.Allreduce(w, []float64{1}, []float64{0}, mpi.Band), "op")
	arg("Allreduce Lor on float32", mpi.Allreduce(w, []float32{1}, []float32{0}, mpi.Lor), "op")
	arg("Allreduce Bxor on complex64", mpi.Allreduce(w, []complex64{1}, []complex64{0}, mpi.Bxor), "op")
	arg("Allreduce Replace", mpi.Allreduce(w, []int{1}, []int{0}, mpi.Replace), "op")
	arg("Allreduce NoOp", mpi.Allreduce(w, []int{1}, []int{0}, mpi.NoOp), "op")
	arg("Allreduce MinLoc on int", mpi.Allreduce(w, []int{1}, []int{0}, mpi.MinLoc), "op")
	arg("Allreduce zero Op", mpi.Allreduce(w, []int{1}, []int{0}, mpi.Op{}), "op")
	arg("Scan Max on complex128", mpi.Scan(w, []complex128{1}, []complex128{0}, mpi.Max), "op")
	arg("Reduce Land on float64", mpi.Reduce(w, []float64{1}, []float64{0}, mpi.Land, 0), "op")
	arg("Reduce root=size", mpi.Reduce(w, send3, make([]int, 3), mpi.Sum, n), "root")
	arg("Reduce root=-1", mpi.Reduce(w, send3, make([]int, 3), mpi.Sum, -1), "root")
	arg("Bcast root=size", mpi.Bcast(w, send3, n), "root")
	arg("Bcast root=-1", mpi.Bcast(w, send3, -1), "root")
	arg("Gather root=-1", mpi.Gather(w, send3, make([]int, 3*n), -1), "root")
	arg("Gatherv root=size", mpi.Gatherv(w, send3, nil, nil, nil, n), "root")
	arg("Scatter root=size", mpi.Scatter(w, make([]int, 3*n), send3, n), "root")
	arg("Scatterv root=-1", mpi.Scatterv(w, nil, nil, nil, send3, -1), "root")
	arg("ReduceLoc root=size", mpi.ReduceLoc(w, []mpi.ValueIndex[float64]{{1, 0}}, make([]mpi.ValueIndex[float64], 1), mpi.MinLoc, n), "root")
	// counts with the wrong length, negative entries, bad displacements.
	arg("ReduceScatter len(counts) != size", mpi.ReduceScatter(w, make([]int, 8), make([]int, 8), make([]int, n+1), mpi.Sum), "counts")
	neg := pcFill(n, 1)
	neg[n-1] = -1
	arg("ReduceScatter negative count", mpi.ReduceScatter(w, make([]int, 8), make([]int, 8), neg, mpi.Sum), "counts")
	ones := pcFill(n, 1)
	arg("ReduceScatter send short", mpi.ReduceScatter(w, make([]int, 8)[:n-1], make([]int, 8), ones, mpi.Sum), "send")
	arg("ReduceScatter recv short", mpi.ReduceScatter(w, make([]int, n), make([]int, 8)[:0], ones, mpi.Sum), "recv")
	arg("ReduceScatter in place recv short", mpi.ReduceScatter(w, nil, make([]int, 8)[:n-1], ones, mpi.Sum), "recv")
	arg("ReduceScatter Max on complex", mpi.ReduceScatter(w, make([]complex64, n), make([]complex64, 1), ones, mpi.Max), "op")
	arg("Allgatherv len(counts) != size", mpi.Allgatherv(w, []int{1}, make([]int, 8), make([]int, n+1), nil), "recvCounts")
	arg("Allgatherv len(displs) != size", mpi.Allgatherv(w, []int{1}, make([]int, 8), ones, make([]int, n-1)), "recvDispls")
	negDispl := make([]int, n)
	negDispl[0] = -1
	arg("Allgatherv negative displacement", mpi.Allgatherv(w, []int{1}, make([]int, 8), ones, negDispl), "recvDispls")
	arg("Allgatherv negative count", mpi.Allgatherv(w, []int{1}, make([]int, 8), neg, nil), "recvCounts")
	arg("Allgatherv recv short", mpi.Allgatherv(w, []int{1}, make([]int, 8)[:n-1], ones, nil), "recv")
	arg("Allgatherv send longer than counts[rank]", mpi.Allgatherv(w, []int{1, 2}, make([]int, 8), ones, nil), "send")
	arg("Allgather recv short", mpi.Allgather(w, send3, make([]int, 3*n+3)[:3*n-1]), "recv")
	arg("Alltoall recv short", mpi.Alltoall(w, make([]int, 2*n), make([]int, 2*n)[:2*n-1]), "recv")
	if n > 1 {
		arg("Alltoall send not a multiple of size", mpi.Alltoall(w, make([]int, n+1), make([]int, 2*n)), "send")
	}
	arg("Alltoallv len(sendCounts) != size", mpi.Alltoallv(w, make([]int, 8), make([]int, n+1), nil, make([]int, 8), ones, nil), "sendCounts")
	arg("Alltoallv len(recvDispls) != size", mpi.Alltoallv(w, make([]int, 8), ones, nil, make([]int, 8), ones, make([]int, n+2)), "recvDispls")
	arg("Alltoallv send short", mpi.Alltoallv(w, make([]int, 8)[:n-1], ones, nil, make([]int, 8), ones, nil), "send")
	arg("Alltoallv recv short", mpi.Alltoallv(w, make([]int, 8), ones, nil, make([]int, 8)[:n-1], ones, nil), "recv")
	arg("AllreduceLoc Sum", mpi.AllreduceLoc(w, []mpi.ValueIndex[int32]{{1, 0}}, make([]mpi.ValueIndex[int32], 1), mpi.Sum), "op")
	arg("AllreduceLoc recv short", mpi.AllreduceLoc(w, []mpi.ValueIndex[int64]{{1, 0}, {2, 1}}, make([]mpi.ValueIndex[int64], 2)[:1], mpi.MaxLoc), "recv")
	var nc *mpi.Comm
	arg("Bcast on nil Comm", mpi.Bcast(nc, send3, 0), "comm")
	arg("Allreduce on nil Comm", mpi.Allreduce(nc, send3, send3, mpi.Sum), "comm")
	pcEq(t, "buffers untouched by refused calls", short[:cap(short)], make([]int, 8))
}

func testBadInputRootOnly(t *testing.T) {
	self := mpi.Self()
	// Checks that only the root can make (its receive buffer, its
	// counts). On World the other ranks would go on into the call, so
	// these run on Self, where every rank is its own root.
	arg := func(what string, err error, name string) { t.Helper(); pcArgErr(t, what, err, name) }
	send3 := []int{1, 2, 3}
	arg("Gather recv too short at root", mpi.Gather(self, send3, make([]int, 8)[:2], 0), "recv")
	arg("Reduce recv too short at root", mpi.Reduce(self, send3, make([]int, 8)[:2], mpi.Sum, 0), "recv")
	arg("Gatherv len(counts) != size", mpi.Gatherv(self, send3, make([]int, 8), []int{3, 0}, nil, 0), "recvCounts")
	arg("Gatherv recv short", mpi.Gatherv(self, send3, make([]int, 8)[:2], []int{3}, nil, 0), "recv")
	arg("Gatherv send != counts[root]", mpi.Gatherv(self, send3, make([]int, 8), []int{2}, nil, 0), "send")
	arg("Scatter send too short at root", mpi.Scatter(self, make([]int, 8)[:2], make([]int, 3), 0), "send")
	arg("Scatterv len(counts) != size", mpi.Scatterv(self, make([]int, 8), []int{1, 1}, nil, make([]int, 1), 0), "sendCounts")
	arg("Scatterv send short", mpi.Scatterv(self, make([]int, 8)[:1], []int{2}, nil, make([]int, 2), 0), "send")
	arg("Scatterv recv shorter than counts[root]", mpi.Scatterv(self, make([]int, 8), []int{3}, nil, make([]int, 8)[:2], 0), "recv")
	arg("ReduceLoc recv short at root", mpi.ReduceLoc(self, []mpi.ValueIndex[float32]{{1, 0}, {2, 0}}, make([]mpi.ValueIndex[float32], 2)[:1], mpi.MinLoc, 0), "recv")
	arg("Gatherv in place recv short", mpi.Gatherv[int](self, nil, make([]int, 8)[:1], []int{2}, nil, 0), "recv")
}

func testBadInputInPlaceOffRoot(t *testing.T) {
	w := mpi.World()
	n, r := w.Size(), w.Rank()
	// A nil send (nil recv for the scatters) means "in place" only at
	// the root. Only the non-roots make these calls: they are refused
	// before any communication, and root 0 does not call at all.
	if r == 0 {
		return
	}
	arg := func(what string, err error, name string) { t.Helper(); pcArgErr(t, what, err, name) }
	arg("Reduce nil send off root", mpi.Reduce(w, nil, make([]int, 2), mpi.Sum, 0), "send")
	arg("Gather nil send off root", mpi.Gather(w, nil, make([]int, 2*n), 0), "send")
	arg("Gatherv nil send off root", mpi.Gatherv[int](w, nil, nil, nil, nil, 0), "send")
	arg("ReduceLoc nil send off root", mpi.ReduceLoc(w, nil, make([]mpi.ValueIndex[int32], 1), mpi.MaxLoc, 0), "send")
	arg("Scatter nil recv off root", mpi.Scatter[int](w, nil, nil, 0), "recv")
	arg("Scatterv nil recv off root", mpi.Scatterv[int](w, nil, nil, nil, nil, 0), "recv")
}

// TestTypedP2P: IsendTyped sends the column block of a 4 × 5 row-major
// matrix that a strided datatype selects, without packing it; the next rank
// receives it once contiguous and once, with IrecvTyped, straight into the
// same place of its own matrix. Misuse is refused before anything moves.
func TestTypedP2P(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		w := mpi.World()
		n, me := w.Size(), w.Rank()
		next, prev := (me+1)%n, (me+n-1)%n
		const rows, cols = 4, 5
		// Rows 1-3, columns 2-3: 3 blocks of 2 elements, a row (5 elements) apart.
		block, err := mpi.TypeStrided[float64]([]int{2, 3}, []int{cols * 8})
		must(t, err)
		defer block.Free()
		const at = 1*cols + 2
		mat := func(r int) []float64 {
			m := make([]float64, rows*cols)
			for i := range m {
				m[i] = float64(100*r + i)
			}
			return m
		}
		src := mat(me)
		var want []float64
		for i := 1; i < 4; i++ {
			for j := 2; j < 4; j++ {
				want = append(want, float64(100*prev+i*cols+j))
			}
		}
		flat := make([]float64, 6)
		rr, err := mpi.Irecv(w, flat, prev, 7)
		must(t, err)
		sr, err := mpi.IsendTyped(w, src[at:], block, next, 7)
		must(t, err)
		_, err = mpi.Waitall(rr, sr)
		must(t, err)
		if !slices.Equal(flat, want) {
			t.Errorf("contiguous receive of a typed send: %v, want %v", flat, want)
		}

		dst := make([]float64, rows*cols)
		for i := range dst {
			dst[i] = -1
		}
		rr, err = mpi.IrecvTyped(w, dst[at:], block, prev, 8)
		must(t, err)
		sr, err = mpi.IsendTyped(w, src[at:], block, next, 8)
		must(t, err)
		_, err = mpi.Waitall(rr, sr)
		must(t, err)
		for i := range rows {
			for j := range cols {
				w := -1.0
				if i >= 1 && j >= 2 && j < 4 {
					w = float64(100*prev + i*cols + j)
				}
				if got := dst[i*cols+j]; got != w {
					t.Errorf("typed receive: [%d, %d] = %v, want %v", i, j, got, w)
				}
			}
		}

		ints, err := mpi.TypeStrided[int32]([]int{2, 3}, []int{cols * 4})
		must(t, err)
		defer ints.Free()
		_, err = mpi.IsendTyped(w, src[at+2:], block, next, 9)
		wantArgErr(t, "IsendTyped from a buffer shorter than the datatype", err, "buf", nil)
		_, err = mpi.IrecvTyped(w, dst[at+2:], block, prev, 9)
		wantArgErr(t, "IrecvTyped into a buffer shorter than the datatype", err, "buf", nil)
		_, err = mpi.IsendTyped(w, src, ints, next, 9)
		wantArgErr(t, "IsendTyped of int32 datatype from []float64", err, "t", nil)
		_, err = mpi.IrecvTyped(w, dst, block, n, 9)
		wantArgErr(t, "IrecvTyped from a rank out of range", err, "src", nil)
	})
}
