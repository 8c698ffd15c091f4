package armci

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goga-hpc/goga/cgo"
	"github.com/goga-hpc/goga/mpi"
)

// Runtime is ARMCI on one communicator: the processes that allocate segments
// together and move data between them.
type Runtime struct {
	comm   *mpi.Comm // a private duplicate of the user's communicator
	rank   int
	size   int
	shm    bool        // may map peers' segments through shared memory
	single bool        // every rank of comm shares one node
	nodeOf func() int  // this process's node number, for tests; nil: the real node
	bar    *shmBarrier // Barrier in shared memory, where the ranks share a node
	// node is the split of comm by node that segments over comm start
	// from (nodeParts), kept where the ranks span nodes and map their
	// node's parts: splitting anew took two collectives across nodes per
	// Malloc.
	node *nodeParts

	// remote is how parts on other nodes are reached; am serves the
	// requests aimed at this process where that is active messages.
	remote Remote
	am     *amServer
	// exchanges: the agreements across nodes exchange records point to
	// point while serving requests, where a blocking MPI_Allreduce would
	// spin beside the server (exchange.go); exchangeAlways asks for it
	// even where MPI yields when idle (tests).
	exchanges      bool
	exchangeAlways bool
	// links carry the exchanges where every process has its own (link.go).
	links *links
	// commH is comm's C handle; xrecv, C memory guarded by xmu, receives
	// the exchanges' records (exchange.go).
	commH cgo.Comm
	xmu   sync.Mutex
	xrecv []byte

	rmaSegments atomic.Int32  // live segments on the MPI path
	fenceWord   atomic.Uint32 // a location for memory fences

	// turns[r] lets one goroutine of this process at a time operate over MPI
	// on rank r's memory (see Segment.turn).
	turns []sync.Mutex

	retired retirement // freed segments' windows, kept inaccessible (guard.go)

	mu       sync.Mutex
	segments map[*Segment]struct{}
	pending  map[*Handle]struct{}
	mutexes  *Mutexes
	done     bool

	progressStop chan struct{}
	progressDone chan struct{}
	progressComm *mpi.Comm
}

// Option changes how Init sets the runtime up.
type Option func(*Runtime)

// WithoutSharedMemory makes every transfer go through MPI RMA, even between
// ranks that share a node (as over a network). The environment variable
// GOGA_ARMCI_SHM=0 does the same.
func WithoutSharedMemory() Option { return func(rt *Runtime) { rt.shm = false } }

// Remote is how a runtime whose ranks span nodes reaches the parts it does
// not map.
type Remote int

const (
	// RemoteAuto chooses at Init: MPI RMA where the machine has RDMA devices
	// (entries in /sys/class/infiniband), whose RMA the network does in
	// hardware; active messages otherwise. GOGA_ARMCI_REMOTE=am or rma in
	// the environment overrides it.
	RemoteAuto Remote = iota
	// RemoteAM: two-sided requests served by the owner's server goroutine
	// (am.go), as GA's ComEx MPI progress port does.
	RemoteAM
	// RemoteRMA: MPI-3 RMA on the segment's window.
	RemoteRMA
)

func (r Remote) String() string {
	switch r {
	case RemoteAM:
		return "am"
	case RemoteRMA:
		return "rma"
	}
	return "auto"
}

// WithRemote sets how parts on other nodes are reached (see Remote).
func WithRemote(r Remote) Option { return func(rt *Runtime) { rt.remote = r } }

// Init starts ARMCI on c (the world or any sub-communicator); it is collective
// over c. MPI must be initialized.
func Init(c *mpi.Comm, opts ...Option) (*Runtime, error) {
	if c == nil {
		return nil, stateErr("Init", "comm", ErrNil)
	}
	dup, err := c.Dup()
	if err != nil {
		return nil, err
	}
	rt := &Runtime{
		comm:     dup,
		commH:    cgo.Comm(dup.Handle()),
		rank:     dup.Rank(),
		size:     dup.Size(),
		shm:      os.Getenv("GOGA_ARMCI_SHM") != "0",
		segments: map[*Segment]struct{}{},
		pending:  map[*Handle]struct{}{},
		turns:    make([]sync.Mutex, dup.Size()),
	}
	for _, o := range opts {
		o(rt)
	}
	if err := rt.setUp(); err != nil {
		dup.Free()
		return nil, err
	}
	return rt, nil
}

// setUp learns whether the ranks share one node and whether MPI makes
// shared-memory windows among the ranks of a node; it is collective.
func (rt *Runtime) setUp() error {
	node, single, err := rt.splitNodes(rt.comm)
	if err != nil {
		return err
	}
	kept := false
	defer func() {
		if !kept {
			node.Free()
		}
	}()
	rt.single = single
	if single {
		rt.remote = RemoteAuto
	} else if err := rt.chooseRemote(); err != nil {
		return err
	}
	if !rt.shm {
		return nil
	}
	if rt.shm, err = sharedWindows(node, rt.comm); err != nil || !rt.shm {
		return err
	}
	if !single {
		kept = true
		rt.node, err = gatherNodeRanks(node, rt.comm)
		return err
	}
	rt.bar, err = newShmBarrier(rt.comm)
	return err
}

// chooseRemote settles how parts on other nodes are reached and starts the
// active-message server if that is the way; it is collective. The ranks
// agree on the choice (RMA if any asks for it), and on refusing an unknown
// one, named by WithRemote or GOGA_ARMCI_REMOTE on any rank.
func (rt *Runtime) chooseRemote() error {
	want, bad := rt.remote, ""
	if want == RemoteAuto {
		switch env := os.Getenv("GOGA_ARMCI_REMOTE"); env {
		case "am":
			want = RemoteAM
		case "rma":
			want = RemoteRMA
		case "":
			want = RemoteAM
			if d, err := os.ReadDir("/sys/class/infiniband"); err == nil && len(d) > 0 {
				want = RemoteRMA
			}
		default:
			bad = fmt.Sprintf("GOGA_ARMCI_REMOTE=%q; want am or rma", env)
		}
	} else if want != RemoteAM && want != RemoteRMA {
		bad = fmt.Sprintf("WithRemote(%d); want RemoteAuto, RemoteAM or RemoteRMA", int(want))
	}
	refused := 0
	if bad != "" {
		refused = rt.rank + 1
	}
	// The ranks also agree on how their agreements run (exchanges): MPI
	// may yield on some nodes and not on others (Open MPI yields where it
	// oversubscribes a node's cores).
	yields := 0
	if mpiYields && !rt.exchangeAlways {
		yields = 1
	}
	all := []int{0, 0, 0}
	if err := mpi.Allreduce(rt.comm, []int{int(want), refused, yields}, all, mpi.Max); err != nil {
		return err
	}
	if all[1] > 0 {
		if bad == "" {
			bad = fmt.Sprintf("rank %d asked for an unknown way", all[1]-1)
		}
		return argErr("Init", "remote", "%s", bad)
	}
	rt.remote = Remote(all[0])
	if rt.remote != RemoteAM {
		return nil
	}
	// One identity serves the doorbells and the links.
	j, err := newJob(rt.comm)
	if err != nil {
		return err
	}
	if rt.am, err = startAM(rt.comm, rt.turns, j); err != nil {
		return err
	}
	if rt.exchanges = all[2] == 0; rt.exchanges {
		rt.links, err = openLinks(rt.comm, j)
	}
	return err
}

// sharedWindows reports whether MPI makes shared-memory windows on node (a
// communicator of the ranks of one node) on every node of c; it is
// collective over c. Not every one-sided component does: Open MPI's osc ucx
// (the network path, selected with --mca osc ucx) refuses
// MPI_Win_allocate_shared even on one node, and every Malloc would then
// fail. The runtime falls back to RMA windows there. Component selection
// depends only on the job's MCA parameters, so the ranks agree; the
// Allreduce makes sure of it.
func sharedWindows(node, c *mpi.Comm) (bool, error) {
	w, err := mpi.WinAllocateShared(node, header, 1)
	ok := 0
	if err == nil {
		ok = 1
	}
	all := []int{0}
	if err := mpi.Allreduce(c, []int{ok}, all, mpi.Min); err != nil {
		return false, err
	}
	if all[0] == 1 {
		return true, w.Free()
	}
	// If some rank did get a window (which the MPI standard does not allow),
	// it cannot be freed without the others: leave it.
	return false, nil
}

// splitNodes returns the communicator of the ranks of c on this process's
// node, and whether that is all of c; it is collective over c.
func (rt *Runtime) splitNodes(c *mpi.Comm) (*mpi.Comm, bool, error) {
	var node *mpi.Comm
	var err error
	if rt.nodeOf != nil {
		node, err = c.Split(rt.nodeOf(), c.Rank())
	} else {
		node, err = c.SplitType(mpi.SplitShared, c.Rank())
	}
	if err != nil {
		return nil, false, err
	}
	all := []int{0}
	if err := mpi.Allreduce(c, []int{node.Size()}, all, mpi.Min); err != nil {
		node.Free()
		return nil, false, err
	}
	return node, all[0] == c.Size(), nil
}

// Comm returns the runtime's communicator (a duplicate of the one given to Init).
func (rt *Runtime) Comm() *mpi.Comm { return rt.comm }

// Rank returns this process's rank in the runtime's communicator.
func (rt *Runtime) Rank() int { return rt.rank }

// Size returns the number of processes.
func (rt *Runtime) Size() int { return rt.size }

// SharedMemory reports whether the parts of segments on this process's node
// are mapped directly (every part, where all ranks share one node).
func (rt *Runtime) SharedMemory() bool { return rt.shm }

// SingleNode reports whether every rank of the runtime shares one node.
func (rt *Runtime) SingleNode() bool { return rt.single }

// Remote reports how parts on other nodes are reached: RemoteAM or
// RemoteRMA, or RemoteAuto where every rank shares one node.
func (rt *Runtime) Remote() Remote { return rt.remote }

// Doorbells reports whether the active-message servers wake to a datagram
// from the process that sends them a request after a pause, rather than
// polling at most every few milliseconds (doorbell.go; GOGA_ARMCI_DOORBELL=0
// on any process turns them off).
func (rt *Runtime) Doorbells() bool { return rt.am != nil && rt.am.bell != nil }

func (rt *Runtime) valid(op string) error {
	if rt == nil {
		return stateErr(op, "runtime", ErrNil)
	}
	if rt.done {
		return stateErr(op, "runtime", ErrFinalized)
	}
	return nil
}

// Finalize frees every segment and mutex still allocated and ends the runtime.
// It is collective. While any process holds a mutex or is taking one, it is
// refused on every process and frees nothing.
func (rt *Runtime) Finalize() error {
	if err := rt.valid("Finalize"); err != nil {
		return err
	}
	if err := rt.WaitAll(); err != nil {
		return err
	}
	rt.mu.Lock()
	m := rt.mutexes
	rt.mu.Unlock()
	// First, as it may be refused (a mutex held): then nothing is freed.
	if m != nil {
		if err := rt.DestroyMutexes(); err != nil {
			return renamed("Finalize", err)
		}
	}
	rt.mu.Lock()
	segs := make([]*Segment, 0, len(rt.segments))
	for s := range rt.segments {
		segs = append(segs, s)
	}
	rt.mu.Unlock()
	// Free in a rank-independent order: creation order.
	sortSegments(segs)
	for _, s := range segs {
		if err := s.Free(); err != nil {
			return err
		}
	}
	if err := rt.retired.freeAll(); err != nil {
		return err
	}
	rt.stopProgress()
	if rt.am != nil {
		rt.am.stop()
	}
	if rt.links != nil {
		rt.links.close()
	}
	if rt.bar != nil {
		if err := rt.bar.free(); err != nil {
			return err
		}
	}
	rt.node.free()
	rt.freeExchange()
	rt.done = true
	return rt.comm.Free()
}

// Fence waits until every operation this process issued to rank is complete
// at rank (ARMCI_Fence).
func (rt *Runtime) Fence(rank int) error {
	if err := rt.valid("Fence"); err != nil {
		return err
	}
	if rank < 0 || rank >= rt.size {
		return argErr("Fence", "rank", "%d out of range [0, %d)", rank, rt.size)
	}
	for _, s := range rt.liveSegments() {
		if err := s.fence(rank); err != nil {
			return err
		}
	}
	return nil
}

// AllFence waits until every operation this process issued is complete at its
// target (ARMCI_AllFence).
func (rt *Runtime) AllFence() error {
	if err := rt.valid("AllFence"); err != nil {
		return err
	}
	return rt.fenceAllBut(-1)
}

// fenceAllBut is AllFence but for the active-message requests to the
// process of rank skip (-1: none), which that process applies in the order
// they were sent.
func (rt *Runtime) fenceAllBut(skip int) error {
	if rt.am != nil {
		if err := rt.am.fenceAll(skip); err != nil {
			return err
		}
	}
	if rt.rmaSegments.Load() == 0 {
		// Copies into mapped parts are complete already; a fence orders
		// them before what follows.
		rt.fenceWord.Add(1)
		return nil
	}
	for _, s := range rt.liveSegments() {
		if err := s.fence(-1); err != nil {
			return err
		}
	}
	return nil
}

// Barrier is AllFence followed by a barrier of every process (ARMCI_Barrier):
// when it returns, every operation any process issued before it is complete.
func (rt *Runtime) Barrier() error { return rt.BarrierMax(nil) }

func (rt *Runtime) liveSegments() []*Segment {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	out := make([]*Segment, 0, len(rt.segments))
	for s := range rt.segments {
		out = append(out, s)
	}
	return out
}

// startProgress runs a goroutine that enters MPI now and then, so that RMA
// operations aimed at this process complete while it computes: over transports
// that need the target's help (osc ucx over TCP), a target that never called
// MPI would stall every origin. Over shared memory it is not needed and not
// started.
func (rt *Runtime) startProgress() {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.progressStop != nil {
		return
	}
	// Any MPI call that polls drives progress for every window; a private
	// communicator of this process alone keeps the probe local (a duplicate
	// of the runtime's would be a collective call, and only some processes
	// start this goroutine when only some have a segment off their node).
	pc, err := mpi.Self().Dup()
	if err != nil {
		return
	}
	stop, done := make(chan struct{}), make(chan struct{})
	rt.progressStop, rt.progressDone = stop, done
	backgroundStarted()
	go func() {
		defer close(done)
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				mpi.Iprobe[byte](pc, mpi.AnySource, mpi.AnyTag)
			}
		}
	}()
	rt.progressComm = pc
}

func (rt *Runtime) stopProgress() {
	rt.mu.Lock()
	stop, done, pc := rt.progressStop, rt.progressDone, rt.progressComm
	rt.progressStop = nil
	rt.mu.Unlock()
	if stop == nil {
		return
	}
	close(stop)
	<-done
	backgroundStopped()
	pc.Free()
}
