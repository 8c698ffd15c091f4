package armci

import (
	"sync"

	"github.com/goga-hpc/goga/mpi"
)

// Mutexes are ARMCI's distributed mutexes (ARMCI_Create_mutexes): each rank
// hosts its own number of them, and any rank can lock mutex m on rank r.
//
// They follow the queueing algorithm of ARMCI-MPI (Latham, Ross and Thakur):
// the host keeps, per mutex, one byte per rank saying who wants it. Locking sets
// my byte and reads the others in one exclusive RMA epoch; if anyone else's is
// set, I wait in a receive for the holder's hand-off message. Unlocking clears
// my byte, reads the others, and hands the mutex to the next waiter after me in
// rank order, so waiters are served in turn and never poll the network.
//
// A process is one participant of that algorithm, whatever its goroutines do:
// its goroutines that want one mutex queue for it locally first, like
// sync.Mutex, and only the one at the head takes part in the distributed
// algorithm.
type Mutexes struct {
	win    *mpi.Win
	comm   *mpi.Comm // hand-off messages
	counts []int     // mutexes hosted by each rank

	// epoch serializes this process's exclusive epochs on the window: two
	// goroutines locking the same target of one window at once is erroneous
	// in MPI (MPI_ERR_RMA_SYNC in Open MPI), and Open MPI's osc ucx keeps
	// its epoch state per window, unguarded between threads, so that two
	// goroutines locking different targets at once failed too (Lock or Put
	// refused with MPI_ERR_RMA_SYNC, in some 1 run of 10 to 40 of
	// ga's TestMutexGoroutinesTCP).
	epoch sync.Mutex

	// local holds, per (mutex, host), this process's queue for it; the map
	// and the fields of its entries other than turn are guarded by the
	// runtime's mu.
	local map[[2]int]*localMutex
	// closing is set while DestroyMutexes agrees to free them: a Lock then
	// is refused instead of reaching a window about to go.
	closing bool
}

// localMutex is one mutex as this process sees it.
type localMutex struct {
	// turn is held from the moment a goroutine's Lock may go ahead until the
	// process releases the mutex (by any goroutine, as sync.Mutex allows).
	turn  sync.Mutex
	users int  // goroutines in Lock, waiting or taking, plus the holder
	held  bool // the process holds the mutex
}

// handoffTag is the tag of the message that hands mutex on host to a waiter:
// one tag per mutex, so a hand-off can never be taken for another.
func (rt *Runtime) handoffTag(mutex, host int) int { return 1 + mutex*rt.size + host }

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
	comm, err := rt.comm.Dup()
	if err != nil {
		return err
	}
	win, err := mpi.WinAllocate(rt.comm, n*rt.size, 1)
	if err != nil {
		comm.Free()
		return err
	}
	clear(win.Bytes())
	if err := rt.comm.Barrier(); err != nil {
		return err
	}
	rt.mu.Lock()
	rt.mutexes = &Mutexes{win: win, comm: comm, counts: counts,
		local: map[[2]int]*localMutex{}}
	rt.mu.Unlock()
	// The mutexes live in an RMA window on every path. Where the runtime's
	// segments are RMA too (off one node, over a network component, or with
	// shared memory switched off), lock and unlock need the host's progress
	// like any transfer: a host computing outside MPI would stall every waiter.
	if !rt.shm || !rt.single {
		rt.startProgress()
	}
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
	if err := m.win.Free(); err != nil {
		return err
	}
	if err := m.comm.Free(); err != nil {
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

// exchange sets my byte of mutex on host to v and returns everyone's bytes, in
// one exclusive epoch.
func (rt *Runtime) exchange(m *Mutexes, mutex, host int, v byte) ([]byte, error) {
	base := mutex * rt.size
	all := make([]byte, rt.size)
	m.epoch.Lock()
	defer m.epoch.Unlock()
	if err := m.win.Lock(mpi.LockExclusive, host, 0); err != nil {
		return nil, err
	}
	err := mpi.Put(m.win, []byte{v}, host, base+rt.rank)
	if err == nil && rt.rank > 0 {
		err = mpi.Get(m.win, all[:rt.rank], host, base)
	}
	if err == nil && rt.rank < rt.size-1 {
		err = mpi.Get(m.win, all[rt.rank+1:], host, base+rt.rank+1)
	}
	if uerr := m.win.Unlock(host); err == nil {
		err = uerr
	}
	all[rt.rank] = v
	return all, err
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
	err = rt.lock(m, mutex, rank)
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

func (rt *Runtime) lock(m *Mutexes, mutex, rank int) error {
	all, err := rt.exchange(m, mutex, rank, 1)
	if err != nil {
		return err
	}
	for r, b := range all {
		if b != 0 && r != rt.rank {
			// Someone holds it or waits before me: wait for the hand-off.
			_, err := mpi.Recv(m.comm, []byte{}, mpi.AnySource, rt.handoffTag(mutex, rank))
			return err
		}
	}
	return nil
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
func (rt *Runtime) Unlock(mutex, rank int) error {
	m, err := rt.mutexesFor("Unlock", mutex, rank)
	if err != nil {
		return err
	}
	key := [2]int{mutex, rank}
	rt.mu.Lock()
	l := m.local[key]
	if l == nil || !l.held {
		rt.mu.Unlock()
		return argErr("Unlock", "mutex", "mutex %d on rank %d is not held by this process", mutex, rank)
	}
	l.held = false
	rt.mu.Unlock()
	all, err := rt.exchange(m, mutex, rank, 0)
	if err != nil {
		rt.mu.Lock()
		l.held = true
		rt.mu.Unlock()
		return err
	}
	for i := 1; i < rt.size; i++ {
		next := (rt.rank + i) % rt.size
		if all[next] != 0 {
			err = mpi.Send(m.comm, []byte{}, next, rt.handoffTag(mutex, rank))
			break
		}
	}
	rt.mu.Lock()
	l.users--
	rt.mu.Unlock()
	l.turn.Unlock()
	return err
}
