package armci

import (
	"fmt"
	"slices"
	"sync/atomic"
	"syscall"
	"unsafe"

	"github.com/goga-hpc/goga/mpi"
)

// Segment is memory allocated collectively (ARMCI_Malloc): every rank of its
// communicator exposes its own part, of its own size, and any rank can move data
// into and out of any part by (rank, byte offset).
//
// Each process reaches each part through a transport chosen when the segment
// is allocated (transport.go). Where all ranks share a node (and shared memory
// is not switched off), the parts live in one shared-memory window and every
// rank maps every part: put and get are memory copies with no MPI call,
// accumulate holds a lock word at the target, and read-modify-write uses the
// processor's atomics. Otherwise the parts are an MPI-3 window kept in one
// lock_all epoch, and every transfer is an MPI RMA call.
type Segment struct {
	rt    *Runtime
	comm  *mpi.Comm
	win   *mpi.Win // the shared-memory window where every part is mapped, else the RMA window
	rank  int
	sizes []int
	seq   uint64 // creation order, for rank-independent iteration

	// toSeg[r] is the segment rank of the runtime's rank r, or -1 where that
	// process is not in the segment's communicator; nil when they coincide.
	toSeg []int

	// to[r] is how this process reaches rank r's part, at[r] how it
	// accumulates into it and reads-modifies-writes it (transport.go).
	to []transport
	at []atomics
	// near[r] is rank r's part where this process maps it, else nil: the
	// mapped transport of to[r] (and of at[r] where its lock is set), for
	// the operations that inline it.
	near []*mapped

	// allMapped: every part is mapped (near[r].part is rank r's data).
	allMapped bool

	// Accumulate and read-modify-write must use one mechanism on every
	// target to stay atomic against each other. cpu: the processor's, on
	// every part with a lock (mapped ones), through the owner's server on
	// the rest (where every part is mapped, or parts off this node are
	// reached by active messages). Otherwise MPI's, through win, on every
	// target, mapped or not. Malloc chooses at by it.
	cpu bool
	// rma: win is an RMA window in a lock_all epoch.
	rma bool
	// issued and flushed count, per target rank, the operations issued
	// through the RMA window and those a local flush has completed (see
	// Handle); guarded by turn(rank).
	issued, flushed []uint64
	// amID: this process's part's id at its active-message server, or 0.
	amID int64

	// node: the parts of this node's ranks, where the segment spans nodes and
	// maps them (win is then an RMA window over their memory).
	node *nodeParts

	freed bool
}

// header is the room in front of each shared-memory part for its accumulate
// lock, a cache line so that the lock never shares one with data.
const header = 64

var segmentSeq atomic.Uint64

func sortSegments(s []*Segment) {
	slices.SortFunc(s, func(a, b *Segment) int { return int(a.seq) - int(b.seq) })
}

// Malloc allocates a segment over the runtime's communicator, with size bytes
// on this rank (sizes may differ between ranks; zero is fine). It is collective.
func (rt *Runtime) Malloc(size int) (*Segment, error) {
	if err := rt.valid("Malloc"); err != nil {
		return nil, err
	}
	return rt.malloc("Malloc", rt.comm, size)
}

// MallocGroup allocates a segment over c, a communicator of some of the
// runtime's processes (ARMCI_Malloc_group); it is collective over c, and ranks
// in transfers on the segment are ranks in c.
func (rt *Runtime) MallocGroup(c *mpi.Comm, size int) (*Segment, error) {
	if err := rt.valid("MallocGroup"); err != nil {
		return nil, err
	}
	if c == nil {
		return nil, stateErr("MallocGroup", "comm", ErrNil)
	}
	toSeg, err := rt.translate(c)
	if err != nil {
		return nil, err
	}
	s, err := rt.malloc("MallocGroup", c, size)
	if err != nil {
		return nil, err
	}
	s.toSeg = toSeg
	return s, nil
}

// translate maps the runtime's ranks to ranks in c (-1 where a process is not
// in c): Fence takes runtime ranks, a group segment's window wants its own.
func (rt *Runtime) translate(c *mpi.Comm) ([]int, error) {
	rg, err := rt.comm.Group()
	if err != nil {
		return nil, err
	}
	defer rg.Free()
	cg, err := c.Group()
	if err != nil {
		return nil, err
	}
	defer cg.Free()
	ranks := make([]int, rt.size)
	for i := range ranks {
		ranks[i] = i
	}
	out, err := rg.TranslateRanks(ranks, cg)
	if err != nil {
		return nil, err
	}
	for i, r := range out {
		if r < 0 || r >= c.Size() {
			out[i] = -1
		}
	}
	return out, nil
}

// malloc allocates a segment over c, a communicator of the runtime's
// processes; it is collective over c. Where shared memory may be used, the
// parts of each node's ranks are mapped by each other: all of them when c
// is on one node (mapAll), else those of each node, the rest reached through
// an RMA window (mapNodes).
func (rt *Runtime) malloc(op string, c *mpi.Comm, size int) (*Segment, error) {
	sizes := make([]int, c.Size())
	if err := mpi.Allgather(c, []int{size}, sizes); err != nil {
		return nil, err
	}
	for r, n := range sizes {
		if n < 0 {
			return nil, argErr(op, "size", "negative on rank %d (%d)", r, n)
		}
	}
	var node *nodeParts
	single := c == rt.comm && rt.single
	if rt.shm && !single {
		var err error
		if node, single, err = rt.nodeParts(c); err != nil {
			return nil, err
		}
	}
	// Every rank must learn of a size that cannot exist, or the others would
	// wait in the window's creation: agree first.
	var mapped []int // the sizes of the parts in this node's shared memory
	switch {
	case rt.shm && single:
		mapped = sizes
	case node != nil:
		for _, r := range node.ranks {
			mapped = append(mapped, sizes[r])
		}
	}
	cause := room(sizes[c.Rank()], mapped)
	verdict := 0
	if cause != nil {
		verdict = c.Rank() + 1
	}
	// The same agreement settles which retired window to revive, if any:
	// the one every process proposes.
	revive := -1
	if rt.shm && single {
		revive = rt.retired.revivable(c, sizes)
	}
	all := []int{0, 0, 0}
	if err := mpi.Allreduce(c, []int{verdict, revive, -revive}, all, mpi.Max); err != nil {
		node.free()
		return nil, err
	}
	if all[0] > 0 {
		node.free()
		if cause == nil {
			cause = fmt.Errorf("%w on rank %d", ErrNoRoom, all[0]-1)
		}
		return nil, &Error{Op: op, Arg: "size", Msg: cause.Error(), Err: ErrNoRoom}
	}
	s := &Segment{rt: rt, comm: c, rank: c.Rank(), seq: segmentSeq.Add(1), allMapped: rt.shm && single, sizes: sizes}
	if all[1] != -all[2] {
		revive = -1
	}
	if err := s.open(size, node, revive); err != nil {
		return nil, err
	}
	adviseHuge(s.Local())
	populate(s.Local())
	rt.mu.Lock()
	rt.segments[s] = struct{}{}
	rt.mu.Unlock()
	return s, nil
}

// open lays out this process's part of size bytes and chooses how every
// part is reached (malloc, which has made node, and agreed on revive); it
// is collective.
func (s *Segment) open(size int, node *nodeParts, revive int) error {
	s.cpu = s.allMapped || s.rt.am != nil
	var err error
	switch {
	case s.allMapped:
		err = s.mapAll(size, revive)
	case node != nil:
		err = s.mapNodes(node, size)
	case s.rt.am != nil:
		err = s.openOwn(size)
	default:
		err = s.openRMA(size)
	}
	if err == nil && !s.allMapped && s.rt.am != nil {
		err = s.reachByAM()
	}
	return err
}

// nodeParts are the ranks of a segment's communicator on this process's
// node, whose parts this process maps.
type nodeParts struct {
	comm  *mpi.Comm
	ranks []int    // their ranks in the segment's communicator, by rank in comm
	win   *mpi.Win // their shared-memory window, once allocated
}

// nodeParts splits c by node; it is collective over c. It returns nil and
// true when c is on one node. The runtime's own communicator was split at
// Init: a copy of that split costs a duplicate of the node's communicator,
// a collective of the node's ranks only.
func (rt *Runtime) nodeParts(c *mpi.Comm) (*nodeParts, bool, error) {
	if c == rt.comm && rt.node != nil {
		comm, err := rt.node.comm.Dup()
		if err != nil {
			return nil, false, err
		}
		return &nodeParts{comm: comm, ranks: rt.node.ranks}, false, nil
	}
	comm, single, err := rt.splitNodes(c)
	if err != nil || single {
		if comm != nil {
			comm.Free()
		}
		return nil, single, err
	}
	n, err := gatherNodeRanks(comm, c)
	return n, false, err
}

// gatherNodeRanks makes the nodeParts of node, the communicator of c's
// ranks on this process's node, which it takes over; it is collective over
// node.
func gatherNodeRanks(node, c *mpi.Comm) (*nodeParts, error) {
	n := &nodeParts{comm: node, ranks: make([]int, node.Size())}
	if err := mpi.Allgather(node, []int{c.Rank()}, n.ranks); err != nil {
		node.Free()
		return nil, err
	}
	return n, nil
}

// free frees what n holds (nothing if n is nil).
func (n *nodeParts) free() {
	if n == nil {
		return
	}
	if n.win != nil {
		n.win.Free()
	}
	n.comm.Free()
}

// partAlign is where every part starts: on a page boundary. A part that
// started 80 bytes into a page (the lock's cache line after the 16 bytes of
// the allocator's own header) received 8 MiB transfers across the two
// simulated nodes at 3.4-3.8 GB/s where page-aligned memory, of the window
// or the Go heap, received them at 4.6-5.7 in the same runs (Open MPI's TCP
// receive copying into it, at each of 5 rounds).
const partAlign = 4096

// partSize is the room a part of size bytes takes in a window: its lock, the
// padding up to the page boundary where the part starts (partIn), and whole
// cache lines, so that every part (and its lock) is aligned for any element
// type wherever the room begins.
func partSize(size int) int { return header + partAlign + (size+header-1)/header*header }

// partIn lays out a part of size bytes in mem, a room of partSize(size)
// bytes: the part from the first page boundary at least header bytes into
// mem, its accumulate lock in the cache line before it. It returns the
// part's offset in mem. Every process that maps mem finds the same offset,
// since a mapping keeps the offset within a page.
func partIn(mem []byte, size int) (lock *uint32, part []byte, off int) {
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(mem))) + header
	off = header + int(-addr&(partAlign-1))
	return (*uint32)(unsafe.Pointer(&mem[off-header])), mem[off : off+size], off
}

// mapAll makes the segment one shared-memory window whose parts every rank
// maps: a new one, or the retired window that every rank agreed to revive
// (revive, counted from the oldest on the communicator; -1: none). It is
// collective.
func (s *Segment) mapAll(size, revive int) error {
	var w *mpi.Win
	var err error
	if revive >= 0 {
		w, err = s.rt.retired.revive(s.comm, revive)
	} else {
		w, err = mpi.WinAllocateShared(s.comm, partSize(size), 1)
	}
	if err != nil {
		return err
	}
	n := s.comm.Size()
	s.reachers(n)
	for r := range n {
		mem, err := mpi.SharedQuery[byte](w, r)
		if err != nil {
			w.Free()
			return err
		}
		lock, part, _ := partIn(mem, s.sizes[r])
		s.mapPart(r, part, lock)
	}
	*s.near[s.rank].lock = 0
	if revive >= 0 {
		// The removed pages read as zeros; the bytes that share a page
		// with the window's other memory kept the old segment's.
		local := s.near[s.rank].part
		if in := innerPages(local); in != nil {
			head := int(uintptr(unsafe.Pointer(unsafe.SliceData(in))) - uintptr(unsafe.Pointer(unsafe.SliceData(local))))
			clear(local[:head])
			clear(local[head+len(in):])
		} else {
			clear(local)
		}
	}
	if err := s.comm.Barrier(); err != nil {
		w.Free()
		return err
	}
	s.win = w
	return nil
}

// mapNodes makes the segment a shared-memory window on each node, whose
// parts the node's ranks map, and an RMA window over those windows' memory
// through which every other part is reached; it is collective. Accumulate
// and read-modify-write go through the RMA window on every target, mapped
// ones included: MPI's accumulates from other nodes are atomic only against
// other MPI accumulates.
func (s *Segment) mapNodes(node *nodeParts, size int) error {
	var err error
	if node.win, err = mpi.WinAllocateShared(node.comm, partSize(size), 1); err != nil {
		node.free()
		return err
	}
	s.reachers(s.comm.Size())
	var own int // this rank's part's offset in its room, for the RMA window
	for nr, r := range node.ranks {
		mem, err := mpi.SharedQuery[byte](node.win, nr)
		if err != nil {
			node.free()
			return err
		}
		lock, part, off := partIn(mem, s.sizes[r])
		s.mapPart(r, part, lock)
		if r == s.rank {
			own = off
		}
	}
	s.node = node
	if s.cpu {
		// The other parts are reached by active messages (reachByAM, whose
		// Allgather also orders every lock's reset before its first use).
		*s.near[s.rank].lock = 0
		return nil
	}
	if s.win, err = mpi.WinCreateShared(s.comm, node.win, own, 1); err != nil {
		node.free()
		return err
	}
	if err := s.win.LockAll(mpi.ModeNocheck); err != nil {
		s.win.Free()
		node.free()
		return err
	}
	for r := range s.to {
		if s.to[r] == nil {
			s.overMPI(r)
		}
	}
	s.rma = true
	s.issued, s.flushed = make([]uint64, s.comm.Size()), make([]uint64, s.comm.Size())
	s.rt.startProgress()
	s.rt.rmaSegments.Add(1)
	return nil
}

// openOwn gives this process a part of its own, with its accumulate lock in
// front, for a segment whose other parts are reached by active messages
// (reachByAM); it is collective. The window holds the memory, as for the
// other paths (guard.go retires it at Free).
func (s *Segment) openOwn(size int) error {
	w, err := mpi.WinAllocate(s.comm, partSize(size), 1)
	if err != nil {
		return err
	}
	s.win = w
	s.reachers(s.comm.Size())
	lock, part, _ := partIn(w.Bytes(), size)
	*lock = 0
	s.mapPart(s.rank, part, lock)
	return nil
}

// reachers makes the tables of how this process reaches each of n parts.
func (s *Segment) reachers(n int) {
	s.to, s.at, s.near = make([]transport, n), make([]atomics, n), make([]*mapped, n)
}

// mapPart reaches rank's part, which this process maps at part, by the
// mapped transport, and through its accumulate lock lock by the
// processor's atomics where the segment's are those (cpu), else by MPI's.
func (s *Segment) mapPart(rank int, part []byte, lock *uint32) {
	m := &mapped{part: part, word: &s.rt.fenceWord}
	if rank != s.rank {
		m.entered = newEntered(m.part)
	}
	s.to[rank], s.near[rank] = m, m
	if s.cpu {
		m.lock = lock
		s.at[rank] = m
		return
	}
	s.at[rank] = &overMPI{s: s, rank: rank}
}

// overMPI reaches rank's part through the RMA window, for transfers and
// atomics alike.
func (s *Segment) overMPI(rank int) {
	o := &overMPI{s: s, rank: rank}
	s.to[rank], s.at[rank] = o, o
}

// reachByAM registers this process's part with its active-message server
// and reaches every part it does not map through their owners' servers; it
// is collective.
func (s *Segment) reachByAM() error {
	s.amID = s.rt.am.register(s.near[s.rank].part, s.near[s.rank].lock)
	all := make([]int64, 2*s.comm.Size())
	if err := mpi.Allgather(s.comm, []int64{int64(s.rt.rank), s.amID}, all); err != nil {
		s.rt.am.unregister(s.amID)
		return err
	}
	for r := range s.to {
		if s.to[r] == nil {
			v := &viaAM{s: s, rank: r, to: int(all[2*r]), id: all[2*r+1]}
			s.to[r], s.at[r] = v, v
		}
	}
	return nil
}

// openRMA makes the segment an MPI window in a lock_all epoch, every part
// reached through it; it is collective.
func (s *Segment) openRMA(size int) error {
	w, err := mpi.WinAllocate(s.comm, size, 1)
	if err != nil {
		return err
	}
	if err := w.LockAll(mpi.ModeNocheck); err != nil {
		w.Free()
		return err
	}
	s.win = w
	s.rma = true
	s.issued, s.flushed = make([]uint64, s.comm.Size()), make([]uint64, s.comm.Size())
	s.to, s.at, s.near = make([]transport, s.comm.Size()), make([]atomics, s.comm.Size()), make([]*mapped, s.comm.Size())
	for r := range s.to {
		s.overMPI(r)
	}
	s.rt.startProgress()
	s.rt.rmaSegments.Add(1)
	return nil
}

// Free releases the segment (ARMCI_Free); it is collective over its
// communicator. Every operation on it must be complete.
func (s *Segment) Free() error {
	if err := s.valid("Free"); err != nil {
		return err
	}
	if s.rma {
		if err := s.win.UnlockAll(); err != nil {
			return err
		}
	}
	if s.amID != 0 {
		if err := s.rt.am.fenceAll(-1); err != nil {
			return err
		}
	}
	// Nobody may still be reading this part when it is emptied: MPI_Win_free
	// would synchronize, but the window is only retired (guard.go).
	if err := s.comm.Barrier(); err != nil {
		return err
	}
	total := 0
	for _, n := range s.sizes {
		total += n
	}
	// The memory belongs to the window that is retired (guard.go); an RMA
	// window over a node's shared memory owns none and goes at once.
	keep, extra := s.win, (*mpi.Comm)(nil)
	if s.node != nil {
		if s.win != nil {
			if err := s.win.Free(); err != nil {
				return err
			}
		}
		keep, extra = s.node.win, s.node.comm
	}
	if s.amID != 0 {
		s.rt.am.unregister(s.amID)
	}
	var revivable []int // a window in one node's shared memory
	if s.allMapped {
		revivable = s.sizes
	}
	if err := s.rt.retired.retire(keep, s.comm, s.Local(), total, extra, revivable); err != nil {
		return err
	}
	s.freed = true
	s.to, s.at, s.near, s.node = nil, nil, nil, nil
	if s.rma {
		s.rt.rmaSegments.Add(-1)
	}
	s.rt.mu.Lock()
	delete(s.rt.segments, s)
	s.rt.mu.Unlock()
	return nil
}

func (s *Segment) valid(op string) error {
	if s == nil {
		return stateErr(op, "segment", ErrNil)
	}
	if s.freed {
		return stateErr(op, "segment", ErrFreed)
	}
	return s.rt.valid(op)
}

// Comm returns the communicator the segment was allocated over.
func (s *Segment) Comm() *mpi.Comm { return s.comm }

// Size returns the number of bytes rank r allocated.
func (s *Segment) Size(r int) int { return s.sizes[r] }

// SharedMemory reports whether every part of the segment is mapped directly.
func (s *Segment) SharedMemory() bool { return s.allMapped }

// Mapped reports whether this process reaches rank's part through shared
// memory (else through MPI).
func (s *Segment) Mapped(rank int) bool {
	if s == nil || s.freed || rank < 0 || rank >= len(s.near) {
		return false
	}
	return s.near[rank] != nil
}

// Local returns this rank's part as bytes, for direct reads and writes. Remote
// operations may change it at any time; synchronize (Barrier, Fence) first.
func (s *Segment) Local() []byte {
	if s == nil || s.freed {
		return nil
	}
	if s.near != nil && s.near[s.rank] != nil {
		return s.near[s.rank].part
	}
	return s.win.Bytes()
}

// LocalAs returns this rank's part as a slice of T (its size must be a whole
// number of T).
func LocalAs[T any](s *Segment) ([]T, error) {
	if err := s.valid("LocalAs"); err != nil {
		return nil, err
	}
	return as[T]("LocalAs", s.Local())
}

// PartAs returns rank's part as a slice of T where this process maps it
// (shared memory, as MPI_Win_shared_query gives it), for direct loads and
// stores; ok is false where it reaches the part through MPI, or the part is
// not a whole number of T. Synchronize as for Local.
func PartAs[T any](s *Segment, rank int) (part []T, ok bool) {
	if !s.Mapped(rank) {
		return nil, false
	}
	part, err := as[T]("PartAs", s.near[rank].part)
	return part, err == nil
}

// as views b as a slice of T.
func as[T any](op string, b []byte) ([]T, error) {
	var z T
	n := int(unsafe.Sizeof(z))
	if len(b)%n != 0 {
		return nil, argErr(op, "T", "%d bytes is not a whole number of %T", len(b), z)
	}
	if len(b) == 0 {
		return []T{}, nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/n), nil
}

// fence completes this process's operations to rank, a rank of the runtime
// (every rank if rank < 0).
func (s *Segment) fence(rank int) error {
	if rank < 0 {
		if s.near[s.rank] != nil {
			s.rt.fenceWord.Add(1) // orders the copies into mapped parts
		}
		switch {
		case s.rma:
			return s.win.FlushAll()
		case s.amID != 0:
			return s.rt.am.fenceAll(-1)
		}
		return nil
	}
	if s.toSeg != nil {
		// A group segment: the process's rank in the group, if it is in it.
		rank = s.toSeg[rank]
	}
	if rank < 0 || rank >= len(s.sizes) {
		return nil
	}
	return s.to[rank].fence()
}

// span checks that n bytes at off lie inside rank's part.
func (s *Segment) span(op string, rank, off, n int) error {
	if rank < 0 || rank >= len(s.sizes) {
		return argErr(op, "rank", "%d out of range [0, %d)", rank, len(s.sizes))
	}
	if off < 0 || n < 0 || off > s.sizes[rank] || n > s.sizes[rank]-off {
		return argErr(op, "offset", "%d bytes at offset %d pass the end of rank %d's %d bytes", n, off, rank, s.sizes[rank])
	}
	return nil
}

// populate enters this process's own part into its page tables for writing
// now, in one call (MADV_POPULATE_WRITE, Linux 5.14), as MapIn does for
// reading peers' parts: the first collective over a new array would
// otherwise take a page fault per 4 KiB page, some 5-10 µs each on a
// virtual machine (a first Add over a 2048 × 2048 array paid 9 ms of them
// on 2 processes). It is advice: where the kernel refuses it, the pages
// fault in as they are touched.
func populate(part []byte) {
	page := uintptr(syscall.Getpagesize())
	p := uintptr(unsafe.Pointer(unsafe.SliceData(part)))
	madvise(p&^(page-1), p+uintptr(len(part)), madvPopulateWrite)
}

// adviseHuge asks the kernel for transparent huge pages (MADV_HUGEPAGE) in
// the whole 2 MiB pages of this process's part, before populate enters
// them. Where the part is private memory (MPI's allocation for a part
// reached by active messages or RMA, or a job of one process), it gets 4
// KiB pages where transparent huge pages come on request ("madvise", as
// here); GA C's arrays across the two simulated nodes have them. A
// multiply over three 16 MiB arrays ran 20-30% faster on them in one
// process, 5-10% with both ranks of a node multiplying at once.
// Shared-memory parts (tmpfs) take no such advice on this kernel
// (shmem_enabled "never"). It is advice: a kernel without huge pages
// ignores it.
func adviseHuge(part []byte) {
	const huge = 2 << 20
	p := uintptr(unsafe.Pointer(unsafe.SliceData(part)))
	madvise((p+huge-1)&^(huge-1), (p+uintptr(len(part)))&^(huge-1), madvHugepage)
}

// Advice for madvise (Linux's values).
const (
	madvHugepage      = 14
	madvPopulateWrite = 23
)

// madvise gives the kernel advice on the pages from start (page-aligned) to
// end; where it refuses, nothing changes but speed.
func madvise(start, end, advice uintptr) {
	if end > start {
		syscall.Syscall(syscall.SYS_MADVISE, start, end-start, advice)
	}
}

// MapIn enters rank's part into this process's page tables now, where this
// process maps it; elsewhere it does nothing. A process that first reads
// another's part of several MiB otherwise takes a page fault per 64 KiB
// (per 4 KiB when it writes), some 2-10 µs each on a virtual machine, which
// can cost more than the copy. It reads a word of each fault window not yet
// read (pages.go): 8 MiB in 0.35-0.5 ms here, where MADV_POPULATE_READ took
// 0.8-0.9.
func (s *Segment) MapIn(rank int) error {
	if err := s.valid("MapIn"); err != nil {
		return err
	}
	if err := s.span("MapIn", rank, 0, 0); err != nil {
		return err
	}
	if m := s.near[rank]; m != nil {
		m.entered.span(0, len(m.part))
	}
	return nil
}
