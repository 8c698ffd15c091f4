package armci_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestMutexHandover: many goroutines per rank take each rank's two mutexes
// at once, and hand the unlock of half their critical sections to another
// goroutine while they queue for the same mutex again; on every data path,
// over shared memory, TCP, and (in the two-node pass) both ways of
// reaching the other node. An occupancy count must never see two holders,
// and the counters must end exact.
func TestMutexHandover(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		if mpi.Provided() != mpi.ThreadMultiple {
			t.Skipf("MPI provides %v, not MPI_THREAD_MULTIPLE", mpi.Provided())
		}
		eachMode(t, testMutexHandover)
	}, mpitest.Ranks(3, 4), bothTransports, mpitest.Timeout(90*time.Second))
}

func testMutexHandover(t *testing.T, rt *armci.Runtime) {
	me, n := rt.Rank(), rt.Size()
	const G, M = 6, 2 // goroutines per rank, mutexes per host
	K := 60
	if mpitest.OverNetwork() {
		K = 12
	}
	must(t, rt.CreateMutexes(M))
	// On each rank: M counters, then M occupancy counts.
	s := malloc(t, rt, 16*M)
	clear(s.Local())
	must(t, rt.Barrier())
	// Pairs of passes take the same mutex: the second queues behind the
	// first's unlock, handed to another goroutine.
	choose := func(r, g, k int) (h, m int) { return (r + g + k/2) % n, (g + k/(2*n)) % M }
	errs := make(chan error, G)
	var unlockers sync.WaitGroup
	unlockErrs := make(chan error, G*K)
	for g := range G {
		go func() {
			errs <- func() error {
				for k := range K {
					h, m := choose(me, g, k)
					if err := rt.Lock(m, h); err != nil {
						return err
					}
					occ, err := armci.FetchAdd(s, h, 8*M+8*m, int64(1))
					if err != nil {
						return err
					}
					if occ != 0 {
						return fmt.Errorf("mutex %d on rank %d: %d other holders inside", m, h, occ)
					}
					c := make([]int64, 1)
					if err := armci.Get(s, h, 8*m, c); err != nil {
						return err
					}
					c[0]++
					if err := armci.Put(s, h, 8*m, c); err != nil {
						return err
					}
					if _, err := armci.FetchAdd(s, h, 8*M+8*m, int64(-1)); err != nil {
						return err
					}
					if k%2 == 1 {
						if err := rt.Release(m, h); err != nil {
							return err
						}
						continue
					}
					// Another goroutine unlocks, after a moment in which
					// this one may queue for the mutex its process holds.
					unlockers.Go(func() {
						time.Sleep(time.Duration(k%3) * 50 * time.Microsecond)
						unlockErrs <- rt.Release(m, h)
					})
				}
				return nil
			}()
		}()
	}
	for range G {
		must(t, <-errs)
	}
	unlockers.Wait()
	close(unlockErrs)
	for err := range unlockErrs {
		must(t, err)
	}
	must(t, rt.Barrier())
	want := make([]int64, M)
	for r := range n {
		for g := range G {
			for k := range K {
				if h, m := choose(r, g, k); h == me {
					want[m]++
				}
			}
		}
	}
	got := viewAs[int64](s.Local())
	if !slices.Equal(got[:M], want) {
		t.Errorf("counters %v, want %v", got[:M], want)
	}
	if !slices.Equal(got[M:], make([]int64, M)) {
		t.Errorf("occupancy counts %v at the end, want zeros", got[M:])
	}
	must(t, rt.DestroyMutexes())
	must(t, s.Free())
}
