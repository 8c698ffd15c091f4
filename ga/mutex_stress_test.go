package ga_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestMutexQueuedGoroutine: every process locks mutex 0, starts a goroutine
// that locks it too (and so waits for its own process), unlocks it from the
// first goroutine, and waits for the second; 40 times. A hand-over lost
// between the goroutines hangs the job (the launcher's timeout fails it).
func TestMutexQueuedGoroutine(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		if mpi.Provided() != mpi.ThreadMultiple {
			t.Skipf("MPI provides %v, not MPI_THREAD_MULTIPLE", mpi.Provided())
		}
		must(t, ga.Init())
		defer endGA(t)
		must(t, ga.CreateMutexes(2))
		for range 40 {
			must(t, ga.Lock(0))
			done := make(chan error)
			go func() { done <- ga.Lock(0) }()
			time.Sleep(2 * time.Millisecond)
			must(t, ga.Unlock(0))
			must(t, <-done)
			must(t, ga.Unlock(0))
		}
		must(t, ga.Sync())
		must(t, ga.DestroyMutexes())
	}, mpitest.Ranks(3, 4), mpitest.Transports(mpitest.SharedMemory, mpitest.TCP), mpitest.Timeout(60*time.Second))
}

// TestMutexStress: G goroutines per process take M mutexes K times each,
// incrementing the mutex's counter in a global array under it; every other
// time the goroutine that locked leaves the unlock to a new goroutine and
// goes on to its next Lock, which may queue behind its own process while
// that goroutine unlocks. No two goroutines of a process may be inside one
// mutex together, and the counters must end exact.
func TestMutexStress(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		if mpi.Provided() != mpi.ThreadMultiple {
			t.Skipf("MPI provides %v, not MPI_THREAD_MULTIPLE", mpi.Provided())
		}
		must(t, ga.Init())
		defer endGA(t)
		const G, M = 6, 3
		K := 60
		n := ga.Nnodes()
		a, err := ga.Create[int64]("counters", []int{M}, nil)
		must(t, err)
		defer destroy(t, a)
		must(t, a.Zero())
		must(t, ga.CreateMutexes(M))
		var inside [M]atomic.Int32
		errs := make(chan error, G)
		unlocks := make(chan error, G*K)
		var unlockers sync.WaitGroup
		for g := range G {
			go func() {
				var err error
				defer func() { errs <- err }()
				for k := range K {
					m := (g + k) % M
					if err = ga.Lock(m); err != nil {
						return
					}
					if c := inside[m].Add(1); c != 1 {
						err = fmt.Errorf("mutex %d: %d goroutines of this process inside at once", m, c)
						return
					}
					at := []int{m}
					v := []int64{0}
					if err = a.Get(at, at, v, nil); err != nil {
						return
					}
					v[0]++
					if err = a.Put(at, at, v, nil); err != nil {
						return
					}
					inside[m].Add(-1)
					if k%2 == 0 {
						unlockers.Go(func() {
							time.Sleep(time.Duration(k%3) * 100 * time.Microsecond)
							unlocks <- ga.Unlock(m)
						})
						continue
					}
					if err = ga.Unlock(m); err != nil {
						return
					}
				}
			}()
		}
		for range G {
			must(t, <-errs)
		}
		unlockers.Wait()
		close(unlocks)
		for err := range unlocks {
			must(t, err)
		}
		must(t, ga.Sync())
		got := getAll(t, a)
		for m := range M {
			want := 0
			for g := range G {
				for k := range K {
					if (g+k)%M == m {
						want++
					}
				}
			}
			if got[m] != int64(n*want) {
				t.Errorf("counter %d = %d, want %d", m, got[m], n*want)
			}
		}
		must(t, ga.DestroyMutexes())
	}, mpitest.Ranks(3, 4), mpitest.Transports(mpitest.SharedMemory, mpitest.TCP), mpitest.Timeout(60*time.Second))
}
