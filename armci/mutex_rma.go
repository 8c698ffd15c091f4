package armci

import (
	"sync"

	"github.com/goga-hpc/goga/mpi"
)

// rmaMutexes follow the queueing algorithm of ARMCI-MPI (Latham, Ross and
// Thakur): the host keeps, per mutex, one byte per rank saying who wants it.
// Locking sets my byte and reads the others in one exclusive RMA epoch; if
// anyone else's is set, I wait in a receive for the holder's hand-off
// message. Unlocking clears my byte, reads the others, and hands the mutex to
// the next waiter after me in rank order, so waiters are served in turn and
// never poll the network.
type rmaMutexes struct {
	rt   *Runtime
	win  *mpi.Win
	comm *mpi.Comm // hand-off messages

	// epoch serializes this process's exclusive epochs on the window: two
	// goroutines locking the same target of one window at once is erroneous
	// in MPI (MPI_ERR_RMA_SYNC in Open MPI), and Open MPI's osc ucx keeps
	// its epoch state per window, unguarded between threads, so that two
	// goroutines locking different targets at once failed too (Lock or Put
	// refused with MPI_ERR_RMA_SYNC, in some 1 run of 10 to 40 of
	// ga's TestMutexGoroutinesTCP).
	epoch sync.Mutex
}

// newRMAMutexes makes the window of n mutexes hosted here; it is collective.
func newRMAMutexes(rt *Runtime, n int) (*rmaMutexes, error) {
	comm, err := rt.comm.Dup()
	if err != nil {
		return nil, err
	}
	win, err := mpi.WinAllocate(rt.comm, n*rt.size, 1)
	if err != nil {
		comm.Free()
		return nil, err
	}
	clear(win.Bytes())
	// Where the runtime's segments are RMA too (over a network component, or
	// with shared memory switched off), lock and unlock need the host's
	// progress like any transfer: a host computing outside MPI would stall
	// every waiter.
	if !rt.shm || !rt.single {
		rt.startProgress()
	}
	return &rmaMutexes{rt: rt, win: win, comm: comm}, nil
}

func (m *rmaMutexes) free() error {
	if err := m.win.Free(); err != nil {
		return err
	}
	return m.comm.Free()
}

// exchange sets my byte of mutex on host to v and returns everyone's bytes, in
// one exclusive epoch.
func (m *rmaMutexes) exchange(mutex, host int, v byte) ([]byte, error) {
	rt := m.rt
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

// handoffRecv receives a lock's hand-off (a variable: tests make it fail).
var handoffRecv = mpi.Recv[byte]

func (m *rmaMutexes) lock(mutex, host int) error {
	all, err := m.exchange(mutex, host, 1)
	if err != nil {
		return err
	}
	for r, b := range all {
		if b != 0 && r != m.rt.rank {
			// Someone holds it or waits before me: wait for the hand-off.
			// Where that fails, my byte is cleared, so that no unlock hands
			// the mutex to a process that no longer waits for it.
			_, err := handoffRecv(m.comm, []byte{}, mpi.AnySource, handoffTag(mutex, host, m.rt.size))
			if err != nil {
				m.exchange(mutex, host, 0)
			}
			return err
		}
	}
	return nil
}

func (m *rmaMutexes) inOrder() bool { return false }

func (m *rmaMutexes) unlock(mutex, host int) error {
	all, err := m.exchange(mutex, host, 0)
	if err != nil {
		return err
	}
	rt := m.rt
	for i := 1; i < rt.size; i++ {
		next := (rt.rank + i) % rt.size
		if all[next] != 0 {
			return mpi.Send(m.comm, []byte{}, next, handoffTag(mutex, host, rt.size))
		}
	}
	return nil
}
