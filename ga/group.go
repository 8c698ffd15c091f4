package ga

import (
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/ga/internal/linalg"
	"github.com/goga-hpc/goga/mpi"
)

// group is GA on one group of processes: the runtime over the group's
// communicator and everything GA keeps per group. Every array holds the group
// it lives on and its methods use that group, never the package's default;
// the package functions (Sync, Nodeid, Brdcst, ...) use the default group,
// which Init makes the group of every process. Processor groups add groups
// and change the default; nothing else needs to know.
type group struct {
	rt   *armci.Runtime
	rank int     // this process's rank in the group, fixed for the group's life
	pg   *Pgroup // the group's handle, which knows its processes
	// node: the group of one node's processes, made for mirrored arrays
	// when GA runs on several nodes.
	node bool
	// nodes: the group of this group's processes on this node, made for
	// the copies of its read_only arrays (see perNode); the world group
	// uses the mirrored arrays' instead.
	nodes *group

	mu      sync.Mutex // guards what follows, up to la
	live    bool       // false once GA is terminated
	arrays  map[int]destroyer
	nextID  int // array numbers agree between a group's processes
	fence   fenceState
	mask    maskState
	stats   counters
	mutexes int // number of GA mutexes, or -1 for none

	// la is what the linear algebra keeps on the group until Terminate:
	// BLACS grids, scratch, the solvers' block size, DiagReuse's factor.
	la *linalg.Env
	// strided backs the single-owner strided transfers (see fastStrided).
	strided sync.Pool
	// The agreement text of the last Gop and the last Brdcst (see
	// messageArgs).
	lastGop, lastBrdcst atomic.Pointer[keptMessage]
}

type destroyer interface{ Destroy() error }

// newGroup is GA on rt's processes, whose ranks in the world group are
// members (by rank in rt).
func newGroup(rt *armci.Runtime, members []int) *group {
	g := &group{
		rt:      rt,
		rank:    rt.Rank(),
		live:    true,
		arrays:  map[int]destroyer{},
		mask:    maskState{begin: true, end: true},
		mutexes: -1,
		la:      linalg.NewEnv(rt.Comm(), rt.Rank(), rt.Size()),
		strided: sync.Pool{New: func() any { return new(stridedBuf) }},
		stats:   newCounters(),
	}
	g.pg = &Pgroup{g: g, members: members}
	return g
}

// proc is what GA keeps once per process.
var proc struct {
	mu    sync.Mutex
	world *group // every GA process; nil when GA is not running
	def   *group // the group the package functions use
	// groups are the groups this process is in, the world first, in the
	// order they were made (the same on every process of any two of them,
	// since each was made collectively). Replaced, never changed in place.
	groups  []*group
	mirror  *Pgroup // PgroupGetMirror's handle
	ownsMPI bool
	limit   int // bytes of array data allowed per process; < 0: no limit
	used    int // bytes of array data allocated on this process
	maxUsed int // the most used has been since Init
	cluster cluster
}

// current returns the default group, or an error naming op if GA is not
// running.
func current(op string) (*group, error) { return groupAt(op, &proc.def) }

// worldGroup returns the group of every GA process, for a call that is
// collective over all of them, or an error naming op if GA is not running.
func worldGroup(op string) (*group, error) { return groupAt(op, &proc.world) }

// groupAt returns the group at (proc.def or proc.world), read under proc's
// lock, or an error naming op if GA is not running.
func groupAt(op string, at **group) (*group, error) {
	proc.mu.Lock()
	g := *at
	proc.mu.Unlock()
	if g == nil {
		return nil, stateErr(op, "", ErrNotInitialized)
	}
	return g, nil
}

// groupOf returns the group of a, or the default one for a nil array (which
// the call refuses, but only after agreeing with the others on it).
func groupOf[T Elem](op string, a *Array[T]) (*group, error) {
	if a == nil {
		return current(op)
	}
	return a.g.running(op)
}

// running returns g if GA is still running on it.
func (g *group) running(op string) (*group, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.live {
		return nil, stateErr(op, "", ErrNotInitialized)
	}
	return g, nil
}

func (g *group) comm() *mpi.Comm { return g.rt.Comm() }
func (g *group) size() int       { return g.rt.Size() }

// register records a new array and returns its number.
func (g *group) register(a destroyer) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.nextID++
	g.arrays[g.nextID] = a
	g.stats.created++
	return g.nextID
}

func (g *group) unregister(id int) {
	g.mu.Lock()
	delete(g.arrays, id)
	g.stats.destroyed++
	g.mu.Unlock()
}

// end destroys the group's arrays and grids and frees its scratch: GA's
// termination on the group. It is collective over the group.
func (g *group) end() error {
	g.mu.Lock()
	ids := slices.Sorted(maps.Keys(g.arrays))
	g.mu.Unlock()
	for _, id := range ids { // the same order on every process
		g.mu.Lock()
		a := g.arrays[id]
		g.mu.Unlock()
		if err := a.Destroy(); err != nil {
			return err
		}
	}
	if err := g.la.Exit(); err != nil {
		return err
	}
	g.mu.Lock()
	g.live = false
	g.mu.Unlock()
	return nil
}
