package armci

import (
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
type Mutexes struct {
	win    *mpi.Win
	comm   *mpi.Comm // hand-off messages
	counts []int     // mutexes hosted by each rank

	// held are the mutexes (mutex, host) this process holds or is taking,
	// guarded by the runtime's mu. The algorithm keeps one byte per process,
	// so a process must not lock what it holds (it would wait for itself, or
	// two of its goroutines would both get in) nor unlock what it does not
	// (it would hand the mutex to a waiter while the holder is inside).
	held map[[2]int]bool
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
	rt.mutexes = &Mutexes{win: win, comm: comm, counts: counts, held: map[[2]int]bool{}}
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

// DestroyMutexes frees the mutexes; it is collective, and none may be held.
func (rt *Runtime) DestroyMutexes() error {
	m, err := rt.mutexesFor("DestroyMutexes", -1, -1)
	if err != nil {
		return err
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

// Lock takes mutex on rank, waiting while another process holds it (ARMCI_Lock).
func (rt *Runtime) Lock(mutex, rank int) error {
	m, err := rt.mutexesFor("Lock", mutex, rank)
	if err != nil {
		return err
	}
	key := [2]int{mutex, rank}
	rt.mu.Lock()
	if m.held[key] {
		rt.mu.Unlock()
		return argErr("Lock", "mutex", "mutex %d on rank %d is already held (or being taken) by this process", mutex, rank)
	}
	m.held[key] = true
	rt.mu.Unlock()
	if err := rt.lock(m, mutex, rank); err != nil {
		rt.mu.Lock()
		delete(m.held, key)
		rt.mu.Unlock()
		return err
	}
	return nil
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

// Unlock releases mutex on rank and hands it to the next waiter (ARMCI_Unlock).
func (rt *Runtime) Unlock(mutex, rank int) error {
	m, err := rt.mutexesFor("Unlock", mutex, rank)
	if err != nil {
		return err
	}
	key := [2]int{mutex, rank}
	rt.mu.Lock()
	if !m.held[key] {
		rt.mu.Unlock()
		return argErr("Unlock", "mutex", "mutex %d on rank %d is not held by this process", mutex, rank)
	}
	delete(m.held, key)
	rt.mu.Unlock()
	all, err := rt.exchange(m, mutex, rank, 0)
	if err != nil {
		rt.mu.Lock()
		m.held[key] = true
		rt.mu.Unlock()
		return err
	}
	for i := 1; i < rt.size; i++ {
		next := (rt.rank + i) % rt.size
		if all[next] != 0 {
			return mpi.Send(m.comm, []byte{}, next, rt.handoffTag(mutex, rank))
		}
	}
	return nil
}
