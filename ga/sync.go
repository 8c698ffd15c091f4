package ga

import (
	"errors"
	"sync/atomic"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/percpu"
)

// fenceState tracks GA_Init_fence: while active, the ranks this process has
// sent data to, so that Fence can wait for exactly those.
type fenceState struct {
	depth   atomic.Int32 // changed under the group's lock, read without it
	targets map[int]bool // under the group's lock
}

// maskState is GA_Mask_sync: whether the next collective operation
// synchronizes at its start and at its end.
type maskState struct{ begin, end bool }

// note counts one call of an operation that moves bytes to or from rank's
// block in one piece, for PrintStats, and records its target for Fence.
func (a *Array[T]) note(rank int, k opKind, bytes int) stamp { return a.g.tally(rank, k, 1, bytes) }

// countCall counts one call of an operation, however many blocks it touches
// (GA_Print_stats reports calls, not pieces).
func (a *Array[T]) countCall(k opKind) { a.g.stats.ops.Add(int(k)*perKind+callsOf, 1) }

// notePiece counts the bytes one piece of an operation moves to or from rank's
// block, and records rank as a target for Fence.
func (a *Array[T]) notePiece(rank int, k opKind, bytes int) stamp {
	return a.g.tally(rank, k, 0, bytes)
}

// tally counts calls and bytes to or from rank's block, with no call but the
// runtime's pin and unpin (an 8-byte Put is a few of them; one more call
// between pin and unpin cost it a nanosecond in 17). Only an InitFence in
// progress takes the group's lock. With the profile on, it counts there
// too, and returns when the operation began if it is to be timed (see took).
func (g *group) tally(rank int, k opKind, calls, bytes int) stamp {
	if p := prof.Load(); p != nil {
		return g.profTally(p, rank, k, calls, bytes)
	}
	i, to := g.counters(rank, k)
	if s := g.stats.ops.Pin(); s != nil {
		s[i] += int64(calls)
		s[to] += int64(bytes)
		percpu.Unpin()
	} else {
		percpu.Unpin()
		g.spill(i, to, calls, bytes)
	}
	g.noteTarget(rank)
	return 0
}

// counters returns the indices of the calls and the bytes counters of an
// operation of kind k on rank's block.
func (g *group) counters(rank int, k opKind) (calls, bytes int) {
	i := int(k) * perKind
	if rank == g.rank {
		return i + callsOf, i + localBytesOf
	}
	return i + callsOf, i + remoteBytesOf
}

// spill is tally's adds where Pin gave no slot.
func (g *group) spill(i, to, calls, bytes int) {
	g.stats.ops.Spill(i, int64(calls))
	g.stats.ops.Spill(to, int64(bytes))
}

// noteTarget records rank as a target of the InitFence in progress, if any.
func (g *group) noteTarget(rank int) {
	if g.fence.depth.Load() > 0 {
		g.fenceTarget(rank)
	}
}

// fenceTarget records rank as a target of the InitFence in progress.
func (g *group) fenceTarget(rank int) {
	g.mu.Lock()
	if g.fence.depth.Load() > 0 {
		g.fence.targets[rank] = true
	}
	g.mu.Unlock()
}

// Sync is GA_Sync: a barrier of the default group's processes (every GA
// process unless a processor group is the default) after which every GA
// operation that any of them issued before it is complete. It ends any
// InitFence in progress.
func Sync() error {
	g, err := current("Sync")
	if err != nil {
		return err
	}
	return syncGroup(g, "Sync")
}

// syncGroup is Sync on g's processes; op is the call's name.
func syncGroup(g *group, op string) error {
	if p := prof.Load(); p != nil {
		defer p.leave(p.enter(), "Sync")
	}
	if unchecked.Load() {
		if err := fenceOthers(g); err != nil {
			return err
		}
		g.endFence()
		return g.rt.Barrier()
	}
	// A Sync agrees like any collective call, so that processes that reach
	// different collective calls (a Sync here, a Zero there) meet in the
	// same reduction and all get an error, instead of passing each other.
	return agree(g, true, op, "", nil, syncArgs)
}

// endFence ends g's InitFence, as a Sync does.
func (g *group) endFence() {
	g.mu.Lock()
	g.fence.depth.Store(0)
	g.fence.targets = nil
	g.mu.Unlock()
}

// syncArgs are Sync's arguments: none, but the name, which a process that
// reached another collective call would not pass.
var syncArgs = newArgs("Sync")

// InitFence starts tracking the operations this process issues, for Fence
// (GA_Init_fence). Pairs may nest.
func InitFence() error {
	g, err := current("InitFence")
	if err != nil {
		return err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fence.depth.Load() == 0 {
		g.fence.targets = map[int]bool{}
	}
	g.fence.depth.Add(1)
	return nil
}

// Fence waits until every operation this process issued since the matching
// InitFence is complete at its target (GA_Fence).
func Fence() error {
	g, err := current("Fence")
	if err != nil {
		return err
	}
	g.mu.Lock()
	if g.fence.depth.Load() == 0 {
		g.mu.Unlock()
		return errorf("Fence", "", "no InitFence to match")
	}
	targets := g.fence.targets
	if g.fence.depth.Add(-1) == 0 {
		g.fence.targets = nil
	}
	g.mu.Unlock()
	for r := range g.size() {
		if targets[r] {
			if err := g.rt.Fence(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// MaskSync says whether the next collective array operation synchronizes at
// its start and at its end (GA_Mask_sync); the mask applies once.
func MaskSync(begin, end bool) {
	g, err := current("MaskSync")
	if err != nil {
		return
	}
	g.mu.Lock()
	g.mask = maskState{begin: begin, end: end}
	g.mu.Unlock()
}

// CreateMutexes creates n mutexes numbered 0..n-1 (GA_Create_mutexes); it is
// collective, every process must pass the same n, and one set exists at a
// time.
func CreateMutexes(n int) error {
	g, err := current("CreateMutexes")
	if err != nil {
		return err
	}
	g.mu.Lock()
	exists := g.mutexes >= 0
	g.mu.Unlock()
	var bad error
	if n < 0 {
		bad = errorf("CreateMutexes", "", "%d mutexes", n)
	} else if exists {
		bad = errorf("CreateMutexes", "", "a set of mutexes exists already; DestroyMutexes first")
	}
	if err := agree(g, false, "CreateMutexes", "", bad, newArgs("CreateMutexes").ints("n", n)); err != nil {
		return err
	}
	// Mutex i lives on rank i mod P, as number i / P there.
	p := g.size()
	mine := n / p
	if g.rank < n%p {
		mine++
	}
	if err := g.rt.CreateMutexes(mine); err != nil {
		return err
	}
	g.mu.Lock()
	g.mutexes = n
	g.mu.Unlock()
	return nil
}

// DestroyMutexes destroys the set of mutexes (GA_Destroy_mutexes); it is
// collective. While any process holds a mutex or is taking one, every process
// gets an error and the set stays usable.
func DestroyMutexes() error {
	g, err := current("DestroyMutexes")
	if err != nil {
		return err
	}
	g.mu.Lock()
	exists := g.mutexes >= 0
	g.mu.Unlock()
	var bad error
	if !exists {
		bad = errorf("DestroyMutexes", "", "no mutexes; CreateMutexes first")
	}
	// Agree like every collective call, so that processes that reach another
	// collective call meet this one's reduction and get an error; then armci
	// agrees on whether any process holds a mutex.
	if err := agree(g, false, "DestroyMutexes", "", bad, newArgs("DestroyMutexes")); err != nil {
		return err
	}
	if err := g.rt.DestroyMutexes(); err != nil {
		var refused *armci.Error
		if errors.As(err, &refused) {
			return errorf("DestroyMutexes", "", "%s", refused.Msg)
		}
		return err
	}
	g.mu.Lock()
	g.mutexes = -1
	g.mu.Unlock()
	return nil
}

func mutexAt(op string, m int) (rt *armci.Runtime, host, index int, err error) {
	g, err := current(op)
	if err != nil {
		return nil, 0, 0, err
	}
	g.mu.Lock()
	n := g.mutexes
	g.mu.Unlock()
	rt = g.rt
	if m < 0 || m >= n {
		return nil, 0, 0, errorf(op, "", "mutex %d out of range [0, %d)", m, max(n, 0))
	}
	return rt, m % rt.Size(), m / rt.Size(), nil
}

// Lock acquires mutex m, waiting while another process, or another goroutine
// of this one, holds it (GA_Lock). As with sync.Mutex, a goroutine that locks
// what its process holds waits until it is unlocked: locking m again from the
// goroutine that holds it never returns.
func Lock(m int) error {
	rt, host, i, err := mutexAt("Lock", m)
	if err != nil {
		return err
	}
	defer waited(waitStart(), "Lock")
	return rt.Lock(i, host)
}

// Unlock releases mutex m (GA_Unlock), after completing this process's
// operations at their targets, so that the next holder sees them. Any
// goroutine of the process that holds m may unlock it.
func Unlock(m int) error {
	rt, host, i, err := mutexAt("Unlock", m)
	if err != nil {
		return err
	}
	// Refused by its GA number here (armci would name its host and index).
	if !rt.Holds(i, host) {
		return errorf("Unlock", "", "mutex %d is not held by this process", m)
	}
	// What the critical section wrote must be in place before the next holder
	// can read it, on every group's arrays: the other groups' runtimes are
	// fenced here, the mutexes' own by Release, which then unlocks.
	g, err := current("Unlock")
	if err != nil {
		return err
	}
	if err := fenceOthers(g); err != nil {
		return err
	}
	return rt.Release(i, host)
}
