package armci_test

import (
	"errors"
	"testing"
	"time"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestMutexFailedHandoff: a lock whose wait for the hand-off fails (rank 1
// queues behind rank 0 on rank 0's mutex, and the wait is made to fail)
// returns the error and leaves nothing behind: no flag that the next unlock
// hands the mutex to (the RMA algorithm), no place in the host's queue and
// no posted receive (active messages). Every rank then takes the mutex in
// turn, which hangs if the failed lock's waiter is still queued, and rank 1
// locks again behind a holder that writes before it unlocks, which sees an
// early entry on a stale hand-off. On every data path, and where ranks on
// two simulated nodes keep the mutexes by active messages or in an RMA
// window.
func TestMutexFailedHandoff(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		eachMode(t, testMutexFailedHandoff)
		if mpitest.OverNetwork() {
			return // osc ucx over TCP makes no shared-memory windows
		}
		for _, remote := range []armci.Remote{armci.RemoteAM, armci.RemoteRMA} {
			t.Run("nodes-"+remote.String(), func(t *testing.T) {
				rt, err := armci.Init(mpi.World(), armci.WithNodes(pairs), armci.WithRemote(remote))
				must(t, err)
				testMutexFailedHandoff(t, rt)
				must(t, rt.Finalize())
			})
		}
	}, mpitest.Ranks(2, 3, 4), bothTransports, mpitest.Timeout(90*time.Second))
}

func testMutexFailedHandoff(t *testing.T, rt *armci.Runtime) {
	me, n := rt.Rank(), rt.Size()
	must(t, rt.CreateMutexes(1))
	s := malloc(t, rt, 8)
	clear(s.Local())
	must(t, rt.Barrier())
	if me == 0 {
		must(t, rt.Lock(0, 0))
	}
	must(t, rt.Barrier())
	if me == 1 {
		restore := armci.FailHandoffs()
		err := rt.Lock(0, 0)
		restore()
		if !errors.Is(err, armci.ErrHandoff) {
			fatalf(t, "Lock with the hand-off's wait failing: err = %v, want %v", err, armci.ErrHandoff)
		}
		if rt.Holds(0, 0) {
			fatalf(t, "Holds(0, 0) after the failed Lock")
		}
	}
	must(t, rt.Barrier())
	if me == 0 {
		must(t, rt.Unlock(0, 0))
	}
	for r := range n {
		must(t, rt.Barrier())
		if me == r {
			must(t, rt.Lock(0, 0))
			must(t, rt.Unlock(0, 0))
		}
	}
	must(t, rt.Barrier())
	if me == 0 {
		must(t, rt.Lock(0, 0))
	}
	must(t, rt.Barrier())
	switch me {
	case 0:
		time.Sleep(200 * time.Millisecond) // rank 1 queues meanwhile
		must(t, armci.Put(s, 0, 0, []int64{7}))
		must(t, rt.Release(0, 0))
	case 1:
		must(t, rt.Lock(0, 0))
		got := []int64{0}
		must(t, armci.Get(s, 0, 0, got))
		must(t, rt.Unlock(0, 0))
		if got[0] != 7 {
			t.Errorf("rank 1 entered with %d written by the holder, want 7: it took a stale hand-off", got[0])
		}
	}
	must(t, rt.Barrier())
	must(t, s.Free())
	must(t, rt.DestroyMutexes())
}
