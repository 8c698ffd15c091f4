package armci

import (
	"encoding/binary"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

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

// Read-modify-write kinds.
const (
	amFetchAdd = iota
	amSwap
	amCompareSwap
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
		sent: make([]atomic.Uint64, n), fenced: make([]atomic.Uint64, n), bell: bell, done: make(chan struct{})}
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

// encode lays out a request: the number of header words, the words, then
// the inline payload.
func encode(h []int64, payload []byte) []byte {
	b := make([]byte, 8*(len(h)+1)+len(payload))
	binary.LittleEndian.PutUint64(b, uint64(len(h)))
	for i, w := range h {
		binary.LittleEndian.PutUint64(b[8*(i+1):], uint64(w))
	}
	copy(b[8*(len(h)+1):], payload)
	return b
}

func decode(b []byte) (h []int64, payload []byte) {
	n := int(binary.LittleEndian.Uint64(b))
	h = make([]int64, n)
	for i := range h {
		h[i] = int64(binary.LittleEndian.Uint64(b[8*(i+1):]))
	}
	return h, b[8*(n+1):]
}

// The header words of a request.
const (
	hOp    = iota // operation
	hID           // the part's id at the target
	hReply        // reply tag, or 0
	hBytes        // payload bytes
	hFlags        // flagFollows | element code << 8 | rmw kind << 16
	hOff          // byte offset of the remote side
	hShape        // shapeContig, shapeStrided or shapeList
	hRest         // scale (2 words), then the shape's description
)

const flagFollows = 1

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

// handle applies one request from src.
func (a *amServer) handle(src int, h []int64, payload []byte) {
	if h[hOp] == amLock || h[hOp] == amUnlock {
		a.mutexRequest(src, h)
		return
	}
	p := a.part(h[hID])
	n := int(h[hBytes])
	if h[hFlags]&flagFollows != 0 {
		if h[hOp] == amPut && h[hShape] == shapeContig && p.mem != nil {
			// Received in place.
			a.recv(p.mem[h[hOff]:int(h[hOff])+n], src, amTagData)
			return
		}
		payload = a.buffer(n)
		a.recv(payload, src, amTagData)
	}
	switch h[hOp] {
	case amPut:
		if p.mem != nil && !scatter(h, p.mem, payload) {
			walk(h, func(r, q, n int) { copyBytes(p.mem[r:r+n], payload[q:q+n]) })
		}
	case amGet:
		a.reply(src, h, p)
	case amAcc:
		if p.mem != nil {
			code := int(h[hFlags]>>8) & 0xff
			lockWord(p.lock)
			walk(h, func(r, q, n int) { accBytes[code](p.mem[r:r+n], payload[q:q+n], h[hRest:hRest+2]) })
			unlockWord(p.lock)
		}
	case amRmw:
		var old int64
		if p.mem != nil {
			old = rmwAt(unsafe.Pointer(&p.mem[h[hOff]]), int(h[hFlags]>>8)&0xff, int(h[hFlags]>>16)&0xff, h[hRest], h[hRest+1])
		}
		a.send(bytesOf([]int64{old}), src, int(h[hReply]))
	case amFence:
		a.send([]byte{}, src, int(h[hReply]))
	}
}

// reply answers a get: the bytes in place for one block, else packed.
func (a *amServer) reply(src int, h []int64, p amPart) {
	n := int(h[hBytes])
	tag := int(h[hReply])
	if p.mem == nil {
		a.send(a.buffer(n), src, tag)
		return
	}
	if h[hShape] == shapeContig {
		a.send(p.mem[h[hOff]:int(h[hOff])+n], src, tag)
		return
	}
	out := a.buffer(n)
	walk(h, func(r, q, n int) { copyBytes(out[q:q+n], p.mem[r:r+n]) })
	a.send(out, src, tag)
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

// walk calls f with the remote byte offset, packed offset and length of each
// block of a request's remote side.
func walk(h []int64, f func(remote, packed, n int)) {
	off, n := int(h[hOff]), int(h[hBytes])
	d := h[hRest+2:]
	switch h[hShape] {
	case shapeContig:
		f(off, 0, n)
	case shapeStrided:
		levels := int(d[0])
		p := Strided{Count: make([]int, levels+1), RemoteStride: make([]int, levels), LocalStride: make([]int, levels)}
		for i := range p.Count {
			p.Count[i] = int(d[1+i])
		}
		for i := range levels {
			p.RemoteStride[i] = int(d[2+levels+i])
		}
		packedStrides(p.Count, p.LocalStride)
		p.blocks(func(l, r int) { f(off+r, l, p.Count[0]) })
	case shapeList:
		size, q := int(d[0]), 0
		for _, r := range d[1:] {
			f(int(r), q, size)
			q += size
		}
	}
}

// scatter puts a packed payload into mem for the commonest strided shape,
// one level of blocks (a column of a row-major block, a ghost face),
// without walk's calls per block, and reports whether the shape was that.
// A ghost column of 2048 elements spent more time in those calls than in
// its copies.
func scatter(h []int64, mem, payload []byte) bool {
	d := h[hRest+2:]
	if h[hShape] != shapeStrided || d[0] != 1 {
		return false
	}
	off, n, count, stride := int(h[hOff]), int(d[1]), int(d[2]), int(d[3])
	for i := range count {
		copyBytes(mem[off+i*stride:off+i*stride+n], payload[i*n:(i+1)*n])
	}
	return true
}

// packedStrides fills s with the strides of count's patch packed densely.
func packedStrides(count []int, s []int) {
	n := count[0]
	for i := range s {
		s[i] = n
		n *= count[i+1]
	}
}

// amShape is the remote side of a request: one block at an offset, a strided
// patch, or a list of equal blocks.
type amShape struct {
	off     int
	strided *Strided
	size    int   // a list's block size
	list    []int // a list's remote offsets
}

// stridedShape is the remote side of a strided patch at off: one block
// where the patch is dense there (a ghost face packed by its owner, say),
// so that the owner moves it in place.
func stridedShape(off int, p *Strided) amShape {
	if !dense(p.Count, p.RemoteStride) {
		return amShape{off: off, strided: p}
	}
	return amShape{off: off}
}

// dense reports whether a patch of count with the given strides is one
// block of memory.
func dense(count, strides []int) bool {
	n := count[0]
	for i, st := range strides {
		if st != n && count[i+1] > 1 {
			return false
		}
		n *= count[i+1]
	}
	return true
}

func (sh amShape) words() []int64 {
	switch {
	case sh.strided != nil:
		p := sh.strided
		w := []int64{shapeStrided, int64(len(p.Count) - 1)}
		for _, c := range p.Count {
			w = append(w, int64(c))
		}
		for _, s := range p.RemoteStride {
			w = append(w, int64(s))
		}
		return w
	case sh.list != nil:
		w := make([]int64, 0, 2+len(sh.list))
		w = append(w, shapeList, int64(sh.size))
		for _, r := range sh.list {
			w = append(w, int64(r))
		}
		return w
	}
	return []int64{shapeContig}
}

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
		v.s.rt.am.sent[v.to].Add(1)
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

// packStrided copies the blocks of a strided patch of b into one dense buffer.
func packStrided(b []byte, p Strided) []byte {
	if dense(p.Count, p.LocalStride) {
		return b[:p.Bytes()] // packed already (a ghost face its owner packed)
	}
	q := Strided{Count: p.Count, LocalStride: p.LocalStride, RemoteStride: make([]int, len(p.LocalStride))}
	packedStrides(p.Count, q.RemoteStride)
	out, n := make([]byte, p.Bytes()), p.Count[0]
	q.blocks(func(l, k int) { copy(out[k:k+n], b[l:l+n]) })
	return out
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

// lists calls f with runs of the pieces of vecs, each run of one IOVec and
// at most maxPiece bytes (a piece larger than that alone, split), as the
// local offsets, remote offsets and size of its pieces.
func lists(vecs []IOVec, f func(local, remote []int, size int) error) error {
	for _, v := range vecs {
		if v.Bytes == 0 {
			continue
		}
		if v.Bytes > maxPiece {
			for i := range v.Local {
				err := inPieces(v.Bytes, func(o, n int) error { return f([]int{v.Local[i] + o}, []int{v.Remote[i] + o}, n) })
				if err != nil {
					return err
				}
			}
			continue
		}
		step := maxPiece / v.Bytes
		for i := 0; i < len(v.Local); i += step {
			j := min(i+step, len(v.Local))
			if err := f(v.Local[i:j], v.Remote[i:j], v.Bytes); err != nil {
				return err
			}
		}
	}
	return nil
}

func packList(b []byte, local []int, size int) []byte {
	out := make([]byte, len(local)*size)
	for i, l := range local {
		copy(out[i*size:], b[l:l+size])
	}
	return out
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

// fence asks the owner's server to answer once everything this process sent
// it before is done; nothing is asked when nothing was sent since the last
// fence.
func (v *viaAM) fence() error { return v.s.rt.am.fence(v.to) }

func (a *amServer) fence(to int) error {
	if a.fenced[to].Load() >= a.sent[to].Load() {
		return nil // nothing sent since a fence saw all done: no turn to wait for
	}
	end := a.turn(to)
	upto := a.sent[to].Load()
	if a.fenced[to].Load() >= upto {
		end()
		return nil
	}
	tag := a.replyTag()
	h := make([]int64, hRest+2)
	h[hOp], h[hReply] = amFence, int64(tag)
	err := a.post(encode(h, nil), to)
	var r *mpi.Request
	if err == nil {
		r, err = mpi.Irecv(a.comm, []byte{}, to, tag)
	}
	end()
	if err == nil {
		err = a.wait(r)
	}
	for err == nil {
		// Another goroutine's fence may have seen more done meanwhile.
		if f := a.fenced[to].Load(); f >= upto || a.fenced[to].CompareAndSwap(f, upto) {
			break
		}
	}
	return err
}

// turn waits for this process's turn to send requests to the process of rank
// to in the runtime, and returns the function that ends it.
func (a *amServer) turn(to int) func() { return takeTurn(&a.turns[to]) }

// turn is v's owner's turn (amServer.turn), taken by every operation on v
// for its whole issue and completion, as Segment.turn is on the other paths.
func (v *viaAM) turn() func() { return v.s.rt.am.turn(v.to) }

// fenceAll fences every target this process sent puts or accumulates to,
// but skip (-1: none).
func (a *amServer) fenceAll(skip int) error {
	for to := range a.sent {
		if to == skip {
			continue
		}
		if err := a.fence(to); err != nil {
			return err
		}
	}
	return nil
}

// accAM sends an accumulate of the packed elements src into the shape.
func accAM[T AccElem](v *viaAM, sh amShape, src []T, scale T) error {
	b := bytesOf(src)
	_, err := v.request(amAcc, sh, len(b), b, int64(accCode[T]())<<8, scaleWords(scale), 0, true)
	return err
}

// rmwAM performs a read-modify-write at the owner and returns the old value.
func rmwAM[T RmwElem](v *viaAM, off, kind int, val, expect T) (T, error) {
	defer v.turn()()
	out := []int64{0}
	flags := int64(sizeOf[T]())<<8 | int64(kind)<<16
	err := v.call(amRmw, amShape{off: off}, 0, flags, [2]int64{int64(val), int64(expect)}, bytesOf(out))
	return T(out[0]), err
}

// rmwAt applies a read-modify-write of a size-byte integer at p.
func rmwAt(p unsafe.Pointer, size, kind int, v, expect int64) int64 {
	if size == 4 {
		p32 := (*int32)(p)
		switch kind {
		case amFetchAdd:
			return int64(atomic.AddInt32(p32, int32(v)) - int32(v))
		case amSwap:
			return int64(atomic.SwapInt32(p32, int32(v)))
		}
		for {
			cur := atomic.LoadInt32(p32)
			if int64(cur) != expect || atomic.CompareAndSwapInt32(p32, cur, int32(v)) {
				return int64(cur)
			}
		}
	}
	p64 := (*int64)(p)
	switch kind {
	case amFetchAdd:
		return atomic.AddInt64(p64, v) - v
	case amSwap:
		return atomic.SwapInt64(p64, v)
	}
	for {
		cur := atomic.LoadInt64(p64)
		if cur != expect || atomic.CompareAndSwapInt64(p64, cur, v) {
			return cur
		}
	}
}

// Element codes of accumulates, and the server's accumulate for each.
func accCode[T AccElem]() int {
	var z T
	switch any(z).(type) {
	case int32:
		return 0
	case int64:
		return 1
	case float32:
		return 2
	case float64:
		return 3
	case complex64:
		return 4
	}
	return 5
}

var accBytes = [...]func(dst, src []byte, scale []int64){
	accOf[int32], accOf[int64], accOf[float32], accOf[float64], accOf[complex64], accOf[complex128],
}

func accOf[T AccElem](dst, src []byte, scale []int64) {
	n := len(src) / sizeOf[T]()
	var sc T
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&sc)), sizeOf[T]()), unsafe.Slice((*byte)(unsafe.Pointer(&scale[0])), 16))
	accumulate(elems[T](&dst[0], n), elems[T](&src[0], n), sc)
}

func scaleWords[T AccElem](scale T) [2]int64 {
	var w [2]int64
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 16), unsafe.Slice((*byte)(unsafe.Pointer(&scale)), sizeOf[T]()))
	return w
}

// lockWord takes an accumulate lock. Holders are short (one accumulate), so
// waiters spin briefly, then yield, then sleep: with more ranks than cores the
// holder may be descheduled, and spinning would only keep it off the core.
func lockWord(w *uint32) {
	for i := 0; !atomic.CompareAndSwapUint32(w, 0, 1); i++ {
		switch {
		case i < 64:
		case i < 128:
			runtime.Gosched()
		default:
			time.Sleep(time.Microsecond)
		}
	}
}

func unlockWord(w *uint32) { atomic.StoreUint32(w, 0) }

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
