package armci

import (
	"sync"

	"github.com/goga-hpc/goga/mpi"
)

// Mutexes are ARMCI's distributed mutexes (ARMCI_Create_mutexes): each rank
// hosts its own number of them, and any rank can lock mutex m on rank r.
//
// A process is one participant, whatever its goroutines do: its goroutines
// that want one mutex queue for it locally first, like sync.Mutex, and only
// the one at the head takes part in the distributed algorithm, which is one
// of two (mutexAlgorithm):
//   - Where the runtime reaches other nodes through active messages, the
//     host's server keeps each mutex's holder and its queue of waiters
//     (mutex_am.go): a lock is one round trip, an unlock one message.
//   - Elsewhere (one node, or other nodes through MPI RMA), the mutexes live
//     in an RMA window, with ARMCI-MPI's queueing algorithm (mutex_rma.go).
type Mutexes struct {
	alg    mutexAlgorithm
	counts []int // mutexes hosted by each rank

	// local holds, per (mutex, host), this process's queue for it; the map
	// and the fields of its entries other than turn are guarded by the
	// runtime's mu.
	local map[[2]int]*localMutex
	// closing is set while DestroyMutexes agrees to free them: a Lock then
	// is refused instead of reaching a window about to go.
	closing bool
}

// mutexAlgorithm takes and releases mutexes for this process, one goroutine
// per mutex at a time (Mutexes.local sees to that).
type mutexAlgorithm interface {
	lock(mutex, host int) error
	unlock(mutex, host int) error
	free() error
	// inOrder reports whether the host applies this process's transfers
	// and its unlock in the order they were sent, so that Release needs
	// no fence to the host.
	inOrder() bool
}

// localMutex is one mutex as this process sees it.
type localMutex struct {
	// turn is held from the moment a goroutine's Lock may go ahead until the
	// process releases the mutex (by any goroutine, as sync.Mutex allows).
	turn  sync.Mutex
	users int  // goroutines in Lock, waiting or taking, plus the holder
	held  bool // the process holds the mutex
}

// handoffTag is the tag of the message that hands mutex on host to a waiter,
// among size processes: one tag per mutex, so a hand-off can never be taken
// for another, and at most one goroutine of a process waits for it at a time.
func handoffTag(mutex, host, size int) int { return 1 + mutex*size + host }

// CreateMutexes creates n mutexes on this rank (n may differ between ranks);
// it is collective. A runtime has one set of mutexes at a time.
func (rt *Runtime) CreateMutexes(n int) error {
	if err := rt.valid("CreateMutexes"); err != nil {
		return err
	}
	counts := make([]int, rt.size)
	if err := mpi.Allgather(rt.comm, []int{n}, counts); err != nil {
		return err
	}
	for r, c := range counts {
		if c < 0 {
			return argErr("CreateMutexes", "n", "rank %d asked for %d mutexes", r, c)
		}
	}
	rt.mu.Lock()
	exists := rt.mutexes != nil
	rt.mu.Unlock()
	if exists {
		return argErr("CreateMutexes", "n", "mutexes already exist; DestroyMutexes first")
	}
	var alg mutexAlgorithm
	var err error
	if rt.am != nil {
		alg, err = newAMMutexes(rt, n)
	} else {
		alg, err = newRMAMutexes(rt, n)
	}
	if err != nil {
		return err
	}
	// No process may ask for a mutex before its host has it.
	if err := rt.comm.Barrier(); err != nil {
		return err
	}
	rt.mu.Lock()
	rt.mutexes = &Mutexes{alg: alg, counts: counts, local: map[[2]int]*localMutex{}}
	rt.mu.Unlock()
	return nil
}

// DestroyMutexes frees the mutexes; it is collective. If any process holds a
// mutex or is taking one, every process gets an error and the mutexes stay.
func (rt *Runtime) DestroyMutexes() error {
	m, err := rt.mutexesFor("DestroyMutexes", -1, -1)
	if err != nil {
		return err
	}
	busy := int64(0)
	rt.mu.Lock()
	for _, l := range m.local {
		if l.users > 0 {
			busy = int64(rt.rank) + 1
		}
	}
	m.closing = busy == 0
	rt.mu.Unlock()
	v := []int64{busy}
	if err := rt.AllMax(v); err != nil || v[0] > 0 {
		rt.mu.Lock()
		m.closing = false
		rt.mu.Unlock()
		if err != nil {
			return err
		}
		return argErr("DestroyMutexes", "mutex", "rank %d holds a mutex or is taking one", v[0]-1)
	}
	if err := m.alg.free(); err != nil {
		return err
	}
	rt.mu.Lock()
	rt.mutexes = nil
	rt.mu.Unlock()
	return nil
}

func (rt *Runtime) mutexesFor(op string, mutex, rank int) (*Mutexes, error) {
	if err := rt.valid(op); err != nil {
		return nil, err
	}
	rt.mu.Lock()
	m := rt.mutexes
	rt.mu.Unlock()
	if m == nil {
		return nil, argErr(op, "mutex", "no mutexes; call CreateMutexes first")
	}
	if rank == -1 && mutex == -1 {
		return m, nil
	}
	if rank < 0 || rank >= rt.size {
		return nil, argErr(op, "rank", "%d out of range [0, %d)", rank, rt.size)
	}
	if mutex < 0 || mutex >= m.counts[rank] {
		return nil, argErr(op, "mutex", "%d out of range: rank %d hosts %d mutexes", mutex, rank, m.counts[rank])
	}
	return m, nil
}

// Lock takes mutex on rank, waiting while another process, or another
// goroutine of this one, holds it (ARMCI_Lock). As with sync.Mutex, a
// goroutine that locks what its process holds waits for it to be unlocked:
// locking it again from the goroutine that holds it never returns.
func (rt *Runtime) Lock(mutex, rank int) error {
	m, err := rt.mutexesFor("Lock", mutex, rank)
	if err != nil {
		return err
	}
	key := [2]int{mutex, rank}
	rt.mu.Lock()
	if m.closing {
		rt.mu.Unlock()
		return argErr("Lock", "mutex", "the mutexes are being destroyed")
	}
	l := m.local[key]
	if l == nil {
		l = &localMutex{}
		m.local[key] = l
	}
	l.users++
	rt.mu.Unlock()
	l.turn.Lock()
	err = m.alg.lock(mutex, rank)
	rt.mu.Lock()
	if err != nil {
		l.users--
	} else {
		l.held = true
	}
	rt.mu.Unlock()
	if err != nil {
		l.turn.Unlock()
	}
	return err
}

// Holds reports whether this process holds mutex on rank.
func (rt *Runtime) Holds(mutex, rank int) bool {
	if rt.valid("Holds") != nil {
		return false
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.mutexes == nil {
		return false
	}
	l := rt.mutexes.local[[2]int{mutex, rank}]
	return l != nil && l.held
}

// Unlock releases mutex on rank (ARMCI_Unlock): to a goroutine of this process
// waiting in Lock, or else to the next process that waits. Any goroutine of the
// process may unlock what the process holds.
func (rt *Runtime) Unlock(mutex, rank int) error { return rt.unlock("Unlock", mutex, rank, false) }

// Release is AllFence then Unlock, GA_Unlock's order: what the critical
// section wrote is complete at its targets before the next holder can have
// the mutex. It costs less where the mutex's host keeps it by active
// messages: the host applies this process's requests in the order they were
// sent, so that those to the host itself need no fence before the unlock
// that follows them (for a counter on the host updated under its mutex
// across nodes, one round trip of three).
func (rt *Runtime) Release(mutex, rank int) error { return rt.unlock("Release", mutex, rank, true) }

func (rt *Runtime) unlock(op string, mutex, rank int, fence bool) error {
	m, err := rt.mutexesFor(op, mutex, rank)
	if err != nil {
		return err
	}
	notHeld := func() error {
		return argErr(op, "mutex", "mutex %d on rank %d is not held by this process", mutex, rank)
	}
	if fence {
		if !rt.Holds(mutex, rank) {
			return notHeld() // before fencing for nothing
		}
		skip := -1
		if m.alg.inOrder() {
			skip = rank
		}
		if err := rt.fenceAllBut(skip); err != nil {
			return err
		}
	}
	rt.mu.Lock()
	l := m.local[[2]int{mutex, rank}]
	if l == nil || !l.held {
		rt.mu.Unlock()
		return notHeld()
	}
	l.held = false
	rt.mu.Unlock()
	if err := m.alg.unlock(mutex, rank); err != nil {
		rt.mu.Lock()
		l.held = true
		rt.mu.Unlock()
		return err
	}
	rt.mu.Lock()
	l.users--
	rt.mu.Unlock()
	l.turn.Unlock()
	return nil
}
