package armci

import (
	"slices"

	"github.com/goga-hpc/goga/mpi"
)

// amMutexes are mutexes kept by their host's active-message server: per
// mutex, its holder and the ranks waiting for it, in the order their
// requests came. A lock is a request to the host, answered by a hand-off
// message when the mutex is the requester's, at once or when its holder
// unlocks; an unlock is a request with no answer, which the host's server
// turns into the next waiter's hand-off. Every process reaches every host
// this way, its own and its node's included, so that there is one queue per
// mutex.
//
// ARMCI-MPI's algorithm (mutex_rma.go) takes two exclusive RMA epochs per
// lock and unlock; across two simulated nodes over TCP, under osc ucx, a
// lock and unlock took 1.0-1.3 ms from ga, and GA C's 92-95 µs.
type amMutexes struct {
	rt       *Runtime
	handoffs *mpi.Comm // the hand-offs, on handoffTag's tags
}

// amHosted are the mutexes this process hosts, as its server keeps them.
// Only the thread handling a request touches holder and waiting.
type amHosted struct {
	handoffs *mpi.Comm
	size     int   // processes, for handoffTag
	holder   []int // rank, or -1
	waiting  [][]int
}

// newAMMutexes sets up this process's part of a set of mutexes, n of them
// hosted here; it is collective.
func newAMMutexes(rt *Runtime, n int) (*amMutexes, error) {
	comm, err := rt.comm.Dup()
	if err != nil {
		return nil, err
	}
	h := &amHosted{handoffs: comm, size: rt.size,
		holder: slices.Repeat([]int{-1}, n), waiting: make([][]int, n)}
	rt.am.hosted.Store(h)
	return &amMutexes{rt: rt, handoffs: comm}, nil
}

// free ends the set. No process holds or waits for a mutex of it
// (DestroyMutexes agreed on that), so no hand-off is in flight.
func (m *amMutexes) free() error {
	m.rt.am.hosted.Store(nil)
	return m.handoffs.Free()
}

func (m *amMutexes) lock(mutex, host int) error {
	// The hand-off's receive goes first, so that a request that fails to go
	// leaves nothing behind but a cancelled receive.
	r, err := mpi.Irecv(m.handoffs, []byte{}, host, handoffTag(mutex, host, m.rt.size))
	if err != nil {
		return err
	}
	if err := m.request(amLock, mutex, host); err != nil {
		if r.Cancel() == nil {
			r.Wait()
		}
		return err
	}
	// Waiting serves the requests aimed at this process, the host's own
	// lock requests among them.
	if err := handoffWait(m.rt.am, r); err != nil {
		m.abandon(r, mutex, host)
		return err
	}
	return nil
}

// handoffWait waits for a lock's hand-off (a variable: tests make it fail).
var handoffWait = (*amServer).wait

// abandon withdraws a lock whose wait for the hand-off r failed, so that
// neither the host's queue nor a receive posted here is left behind for a
// later lock: an unlock request, after the lock in the host's order, hands
// the mutex on where it had come to this process, and else takes this
// process out of the waiters with a hand-off of its own (mutexRequest);
// either way one hand-off comes, and completes r.
func (m *amMutexes) abandon(r *mpi.Request, mutex, host int) {
	if m.unlock(mutex, host) == nil {
		r.Wait()
	}
}

func (m *amMutexes) unlock(mutex, host int) error { return m.request(amUnlock, mutex, host) }

// inOrder: the host's server applies this process's requests in the order
// they were sent, its unlock after its transfers.
func (m *amMutexes) inOrder() bool { return true }

// request sends op for mutex to its host's server, in this process's turn to
// the host, which orders it after this process's earlier requests there.
func (m *amMutexes) request(op, mutex, host int) error {
	a := m.rt.am
	h := make([]int64, hRest+2)
	h[hOp], h[hOff] = int64(op), int64(mutex)
	defer a.turn(host)()
	return a.post(encode(h, nil), host)
}

// mutexRequest applies a lock or unlock request from src to a mutex hosted
// here, and hands the mutex on when that makes it someone's.
//
// An unlock from a waiter withdraws a lock that failed at its process
// (amMutexes.abandon): it leaves the queue, and the hand-off it waited for
// says so.
//
// An unlock may arrive after its set was destroyed (DestroyMutexes does not
// wait for unlocks in flight), even after a new set was made. It is then
// ignored: there is no set, or src does not hold the new set's mutex, since
// src's requests arrive in the order it sent them and it sent any lock of
// the new set after that unlock.
func (a *amServer) mutexRequest(src int, h []int64) {
	m := a.hosted.Load()
	i := int(h[hOff])
	if m == nil || i < 0 || i >= len(m.holder) {
		return
	}
	switch h[hOp] {
	case amLock:
		if m.holder[i] >= 0 {
			m.waiting[i] = append(m.waiting[i], src)
			return
		}
		m.holder[i] = src
	case amUnlock:
		if m.holder[i] != src {
			k := slices.Index(m.waiting[i], src)
			if k < 0 {
				return
			}
			m.waiting[i] = slices.Delete(m.waiting[i], k, k+1)
			a.sendOn(m.handoffs, []byte{}, src, handoffTag(i, a.rank, m.size))
			return
		}
		if len(m.waiting[i]) == 0 {
			m.holder[i] = -1
			return
		}
		m.holder[i], m.waiting[i] = m.waiting[i][0], m.waiting[i][1:]
	}
	a.sendOn(m.handoffs, []byte{}, m.holder[i], handoffTag(i, a.rank, m.size))
}
