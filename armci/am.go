package armci

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/goga-hpc/goga/cgo"
	"github.com/goga-hpc/goga/mpi"
)

// Active messages: the path to parts on other nodes where MPI RMA needs the
// target's help anyway (osc ucx over TCP). Every process runs a server
// goroutine on a private duplicate of the runtime's communicator; an
// operation on a part it does not map is a two-sided request to the part's
// owner, whose server applies it to its own memory and answers where there
// is something to answer (gets, read-modify-write, fences). Accumulates and
// read-modify-write are applied with the processor's atomics and the part's
// accumulate lock, the same as a process on the owner's node does through
// shared memory, so that both stay atomic against each other.
//
// Ordering: the server handles requests one at a time, in the order each
// source sent them (MPI does not let messages from one sender on one tag
// overtake each other, and a process's goroutines take turns per target), so
// a fence is a request whose answer says that everything sent before it is
// done.

// Message tags on the active-message communicator.
const (
	amTagRequest = 1 // requests, to the server
	amTagData    = 2 // a large payload, after its request
	amTagReply0  = 3 // first of the reply tags (one per request in flight)
	amTagReplyN  = 32767
)

// Operations.
const (
	amPut = iota + 1
	amGet
	amAcc
	amRmw
	amFence
	amStop
	amLock
	amUnlock
)

// amInline is the largest payload carried in the request message itself;
// larger ones follow as a message of their own, received in place.
const amInline = 16 << 10

// Shapes of the remote side of a transfer: one block, a strided patch, or a
// list of blocks. The payload is always packed, in block order.
const (
	shapeContig = iota
	shapeStrided
	shapeList
)

// amServer serves the requests aimed at this process.
type amServer struct {
	comm  *mpi.Comm
	commH cgo.Comm // comm's C handle
	rank  int

	mu    sync.RWMutex
	parts map[int64]amPart // by id
	next  int64

	tag atomic.Int64 // reply tags, cycled
	// turns are the runtime's (Segment.turn), by target's rank in the
	// runtime: one goroutine at a time sends requests to a process, so
	// that an operation's messages (a header, then its data) reach the
	// server together and a fence knows which requests went before it.
	turns []sync.Mutex
	// sent counts, per target, the requests that change its memory (puts
	// and accumulates) sent so far, in the target's turn; fenced is the
	// count a fence has seen done there.
	sent, fenced []atomic.Uint64
	// written lists, in no order, the targets that may have puts or
	// accumulates a fence has not seen done, so that AllFence visits those
	// instead of reading every target's counters (am_fence.go); listed[to]
	// says whether to is in it. Both change under writtenMu; listed is
	// read without it on the send path.
	writtenMu sync.Mutex
	written   []int
	listed    []atomic.Bool

	// serving is held by the thread handling a request (serveOne); it
	// guards rbuf, which receives requests, and scratch, which holds
	// payloads and packed replies, reused: a fresh buffer of some hundred
	// KiB per request cost a page fault per page on a virtual machine.
	serving  sync.Mutex
	rbuf     []byte
	scratch  []byte
	stopping atomic.Bool
	// served is when a request was last served, by any thread (Unix ns):
	// the server's idle time, which paces its polls, counts from it.
	served atomic.Int64
	// waiters counts this process's threads in wait, which serve requests
	// themselves while they wait: the server then yields to them.
	waiters atomic.Int32

	// hosted are the mutexes this process hosts, while a set exists whose
	// lock and unlock are requests (mutex_am.go).
	hosted atomic.Pointer[amHosted]

	// bell wakes this server and the others (doorbell.go); nil where the
	// processes have none.
	bell *doorbell

	done chan struct{}
}

// amPart is a part this process owns, as the server reaches it.
type amPart struct {
	mem  []byte
	lock *uint32
}

func startAM(c *mpi.Comm, turns []sync.Mutex, j *job) (*amServer, error) {
	dup, err := c.Dup()
	if err != nil {
		return nil, err
	}
	bell, err := openDoorbells(dup, j)
	if err != nil {
		dup.Free()
		return nil, err
	}
	n := dup.Size()
	a := &amServer{comm: dup, commH: cgo.Comm(dup.Handle()), rank: dup.Rank(), parts: map[int64]amPart{}, turns: turns,
		sent: make([]atomic.Uint64, n), fenced: make([]atomic.Uint64, n), listed: make([]atomic.Bool, n), bell: bell, done: make(chan struct{})}
	backgroundStarted()
	go a.serve()
	return a, nil
}

// stop ends the server; no process may send it requests any more.
func (a *amServer) stop() {
	h := make([]int64, hRest+2)
	h[hOp] = amStop
	a.post(encode(h, nil), a.rank)
	<-a.done
	backgroundStopped()
	a.bell.close()
	a.comm.Free()
}

// post sends the request b to the server of rank to, and rings its
// doorbell after a pause.
func (a *amServer) post(b []byte, to int) error {
	if err := mpi.Send(a.comm, b, to, amTagRequest); err != nil {
		return err
	}
	a.bell.sent(to)
	return nil
}

func (a *amServer) register(mem []byte, lock *uint32) int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.next++
	a.parts[a.next] = amPart{mem: mem, lock: lock}
	return a.next
}

func (a *amServer) unregister(id int64) {
	a.mu.Lock()
	delete(a.parts, id)
	a.mu.Unlock()
}

func (a *amServer) part(id int64) amPart {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.parts[id]
}

// replyTag returns a tag no other request of this process in flight uses,
// as long as fewer than amTagReplyN - amTagReply0 (32764, from the 32767
// every MPI allows) are in flight: ga bounds its batches of non-blocking
// gets far below that.
func (a *amServer) replyTag() int {
	return amTagReply0 + int(a.tag.Add(1)%int64(amTagReplyN-amTagReply0))
}

// The server polls without pause for amHot after the last request that
// any thread of this process served, then sleeps between polls, a growing
// share of the idle time up to amSleep: in one system call while the sleeps
// are short, and from amParkFrom on parked in Go's scheduler (time.Sleep),
// which gives up the thread and its P for the sleep. Its polls yield the
// core in between only where that costs nothing (amServer.yielding);
// elsewhere it polls without yielding for amSpin, then sleeps.
//
// Measured between two simulated nodes, 1 + 1 ranks each bound to a core
// and MPI not yielding when idle (Open MPI's default where it does not
// oversubscribe the cores, as on a cluster; the test tier's own jobs make
// it yield), against the server that always yielded for amHot: 8-byte gets
// from a process waiting in ga.Sync took 37-60 µs against 3259-3411 (a
// scheduler tick each: the yield left the core to the thread spinning in
// MPI_Allreduce), ReadInc 0.04-0.05 Mop/s against 0.0006, consecutive gets
// from a process computing outside MPI 16-56 µs against 1.8-3.8 ms, and
// 93-301 µs (medians) against 1.0-3.7 ms when 0.1-3 ms apart. Spinning
// while a thread of this process waits, or in the server's own transfers
// (await), took the core from the thread that completes them: a ghost
// update 4x slower, 8 MiB puts and gets 0.3-0.5x. Where MPI yields when
// idle, the server polls as before.
//
// Measured between two simulated nodes (1 + 1 ranks on two cores):
//   - With every sleep a system call, MPI collectives took 9-13 µs (ga.Sync,
//     MPI_Barrier and MPI_Allreduce alike) against 5.5-6.2 parked (GA C's
//     ga.Sync: 5.0-5.5). Why is not measured; a thread asleep in a system
//     call keeps its P until sysmon takes it.
//   - Waking every 1 ms to poll slowed both processes' local passes (ga.Dot,
//     ElemMultiply, SelectElem, a plain loop over slices) by 1.2-1.6x, with
//     seven times the context switches and a third more CPU time; every
//     2 ms, by up to 1.3x; every 5 ms and more, not measurably. Without
//     doorbells (doorbell.go), a request to a process that computes
//     outside MPI after 40 ms without requests may thus wait up to
//     amSleep; with them, the server parks up to amSleepRung and the
//     request wakes it.
//   - Counted from the server's own requests only, its idle time grew while
//     the main thread served requests in its waits (a ghost update's), and a
//     process that went on into a blocking collective left its peers' last
//     requests to a sleeping server: update_ghosts took 133-206 µs; counted
//     from any thread's, 77-80 (GA C's: 82).
const (
	amHot      = 200 * time.Microsecond
	amSpin     = 60 * time.Microsecond
	amNap      = 20 * time.Microsecond
	amParkFrom = 200 * time.Microsecond
	amSleep    = 5 * time.Millisecond
)

// serverPace is how often the server reschedules itself (serve).
const serverPace = 2 * time.Millisecond

// serve handles requests until it is stopped. It polls, so that the
// process's own MPI calls are never blocked behind it, and backs off to
// sleeping when no request has come for a while: a server spinning beside
// computing processes would take their cores.
//
// Its sleeps are system calls, during which Go's scheduler counts it as
// running, so it reschedules itself every serverPace: a goroutine that runs
// 10 ms without being rescheduled loses its P at every sysmon tick that
// finds it in a system call or cgo call, and another thread is woken each
// time (package mpi's pace). It is not locked to a thread, which would
// make each of those reschedulings a hand-over between threads. Across two
// simulated nodes, against a server that was locked and never rescheduled:
// ga.Sync 6.2-6.8 µs against 8.1-11.9, a ghost update 123-187 µs against
// 131-415, 8-byte gets 15 µs against 24.
func (a *amServer) serve() {
	defer close(a.done)
	a.served.Store(time.Now().UnixNano())
	paced := time.Now()
	for !a.stopping.Load() {
		if time.Since(paced) > serverPace {
			runtime.Gosched()
			paced = time.Now()
		}
		if a.serveOne() {
			continue
		}
		idle := time.Duration(time.Now().UnixNano() - a.served.Load())
		longest := amSleep
		if a.bell != nil {
			longest = amSleepRung
		}
		switch d := min(idle/8, longest); {
		case idle < amHot && a.yielding():
			yieldThread()
		case idle < amSpin:
			// The next request of a peer that gets or adds in a loop comes
			// one round trip after the last answer: poll on for it.
		case d < amParkFrom:
			sleepThread(d)
		case a.bell == nil:
			time.Sleep(d)
		case a.bell.wait(d):
			// A request is on its way, or here: awake, as after serving,
			// and polling without a yield until it is found (amHot at
			// most). MPI often sees it only after some polls (Open MPI
			// reads its TCP sockets once every so many), and a yield
			// beside a computing thread gives it the core until the
			// scheduler's next tick: across the two simulated nodes, 4 ms
			// more on a get from a process computing outside MPI.
			a.served.Store(time.Now().UnixNano())
			for t := time.Now(); time.Since(t) < amHot && !a.serveOne(); {
			}
		}
	}
}

// serveOne handles one request aimed at this process, if one is there and
// no other thread is handling one, and reports whether it did. Besides the
// server goroutine, a thread waiting for a reply calls it (wait): where two
// processes wait for each other's replies, each answers the other's request
// itself instead of waiting for its server thread to get a core.
func (a *amServer) serveOne() bool {
	if !a.serving.TryLock() {
		return false
	}
	defer a.serving.Unlock()
	ok, st, err := mpi.Iprobe[byte](a.comm, mpi.AnySource, amTagRequest)
	if err != nil || !ok {
		return false
	}
	if cap(a.rbuf) < st.Count {
		a.rbuf = make([]byte, st.Count)
	}
	if _, err := mpi.Recv(a.comm, a.rbuf[:st.Count], st.Source, amTagRequest); err != nil {
		return false
	}
	a.served.Store(time.Now().UnixNano())
	h, payload := decode(a.rbuf[:st.Count])
	if h[hOp] == amStop {
		a.stopping.Store(true)
		return true
	}
	a.handle(st.Source, h, payload)
	// Idle time counts from the end of the handling too: a large put's
	// data or a large get's reply takes milliseconds, and counted from the
	// request's arrival alone, the server slept a share of that after each
	// one while the next request waited.
	a.served.Store(time.Now().UnixNano())
	return true
}

// settle ends an operation that issued reqs: on an error or without wait it
// returns them as they are (in flight), else it completes them.
func (a *amServer) settle(reqs []*mpi.Request, err error, wait bool) ([]*mpi.Request, error) {
	if err != nil || !wait {
		return reqs, err
	}
	return nil, a.wait(reqs...)
}

// wait completes reqs, requests of this process's own operations, serving
// requests aimed at this process meanwhile.
func (a *amServer) wait(reqs ...*mpi.Request) error {
	pending := slices.Clone(reqs)
	return a.serveWhile(func() (bool, error) {
		k := 0
		for _, r := range pending {
			done, _, err := r.Test()
			if err != nil {
				return false, err
			}
			if !done {
				pending[k] = r
				k++
			}
		}
		pending = pending[:k]
		return k == 0, nil
	})
}

// serveWhile calls done until it reports true or an error, serving a
// request aimed at this process (or else yielding the core) between calls.
func (a *amServer) serveWhile(done func() (bool, error)) error {
	a.waiters.Add(1)
	defer a.waiters.Add(-1)
	for {
		if ok, err := done(); ok || err != nil {
			return err
		}
		if !a.serveOne() {
			yieldThread()
		}
	}
}

// send and recv are the server's blocking transfers, made of a non-blocking
// call and tests: a thread blocked inside Open MPI (4.1, MPI_THREAD_MULTIPLE)
// while another of the process's threads was blocked there too (the
// program's, in a barrier) stalled for a scheduler tick, 4 ms, in some
// transfers of 128 KiB to 2 MiB.
func (a *amServer) send(b []byte, dest, tag int) { a.sendOn(a.comm, b, dest, tag) }

func (a *amServer) sendOn(c *mpi.Comm, b []byte, dest, tag int) {
	if r, err := mpi.Isend(c, b, dest, tag); err == nil {
		a.await(r)
	}
}

func (a *amServer) recv(b []byte, src, tag int) {
	if r, err := mpi.Irecv(a.comm, b, src, tag); err == nil {
		a.await(r)
	}
}

// await completes one of the server's own transfers. Where the server may
// not yield (yielding), it polls for amSpin, then naps between polls: a
// transfer of some hundred KiB outlasts a spin, and the thread spinning
// beside it in a blocking MPI call moves its data as well while the server
// naps, but the server got the core back from that thread only at the
// scheduler's tick when it yielded (4 ms: a 256 KiB get took 3.4 ms across
// the simulated nodes), and spinning alone halved 8 MiB transfers.
func (a *amServer) await(r *mpi.Request) {
	start := time.Now()
	for {
		if done, _, err := r.Test(); done || err != nil {
			return
		}
		switch {
		case a.yielding():
			yieldThread()
		case time.Since(start) < amSpin:
		default:
			sleepThread(amNap)
		}
	}
}

// yielding reports whether the server gives up its core between polls
// shortly after a request: where MPI itself yields when it finds nothing to
// do, so that a poll could not keep the core anyway, or while a thread of
// this process waits for answers (wait), serving requests itself in its
// turns. Otherwise a yield gives the core to whatever else runs there, a
// thread computing or one spinning in a blocking MPI call, until the
// scheduler's next tick (4 ms here), and the requests that came meanwhile
// wait for it.
func (a *amServer) yielding() bool { return mpiYields || a.waiters.Load() > 0 }

// buffer returns n bytes of the server's scratch space.
func (a *amServer) buffer(n int) []byte {
	if cap(a.scratch) < n {
		a.scratch = make([]byte, n)
	}
	return a.scratch[:n]
}

func yieldThread() { syscall.Syscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) }

// sleepThread sleeps d in one system call, with a timer slack of 1 µs: the
// kernel's default of 50 µs would round every short sleep up. The slack
// belongs to the thread, and the server runs on whichever thread Go gives
// it, so it is set before every sleep (it stays on that thread, making its
// other timers finer too).
func sleepThread(d time.Duration) {
	const prSetTimerslack = 29
	syscall.Syscall(syscall.SYS_PRCTL, prSetTimerslack, 1000, 0)
	ts := syscall.NsecToTimespec(int64(d))
	syscall.Nanosleep(&ts, nil)
}
