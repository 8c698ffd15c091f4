package ga_test

import (
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestMutexGoroutines: mutexes taken by many goroutines of every process at
// once, over shared memory on both data paths. A hang fails through the
// launcher's timeout.
func TestMutexGoroutines(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) { eachMode(t, testMutexGoroutines) },
		mpitest.Ranks(1, 4), mpitest.Timeout(90*time.Second))
}

// TestMutexGoroutinesTCP is TestMutexGoroutines with one-sided traffic over
// TCP (osc ucx), where every lock needs the host's progress.
func TestMutexGoroutinesTCP(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) { eachMode(t, testMutexGoroutines) },
		mpitest.Transports(mpitest.TCP), mpitest.Ranks(4), mpitest.Timeout(90*time.Second))
}

// testMutexGoroutines: G goroutines per process each increment, K times,
// element g of a counter array under mutex g (its own: goroutines of one
// process never compete for it, the processes do) and element G under
// mutex G (everybody's), with Get, +1, Put between Lock and Unlock. The
// counters must end exact, and no two goroutines of a process may ever be
// inside one mutex together.
func testMutexGoroutines(t *testing.T) {
	if mpi.Provided() != mpi.ThreadMultiple {
		t.Skipf("MPI provides %v, not MPI_THREAD_MULTIPLE", mpi.Provided())
	}
	const G = 8
	K := 100
	if mpitest.OverNetwork() {
		K = 25
	}
	n := ga.Nnodes()
	a, err := ga.Create[int64]("guarded", []int{G + 1}, nil)
	must(t, err)
	defer destroy(t, a)
	must(t, a.Zero())
	must(t, ga.CreateMutexes(G+1))
	var inside [G + 1]atomic.Int32
	inc := func(m int) error {
		if err := ga.Lock(m); err != nil {
			return err
		}
		if k := inside[m].Add(1); k != 1 {
			return fmt.Errorf("mutex %d: %d goroutines of this process inside at once", m, k)
		}
		at := []int{m}
		v := []int64{0}
		if err := a.Get(at, at, v, nil); err != nil {
			return err
		}
		v[0]++
		if err := a.Put(at, at, v, nil); err != nil {
			return err
		}
		inside[m].Add(-1)
		return ga.Unlock(m)
	}
	errs := make(chan error, G)
	for g := range G {
		go func() {
			var err error
			for range K {
				if err = inc(g); err != nil {
					break
				}
				if err = inc(G); err != nil {
					break
				}
			}
			errs <- err
		}()
	}
	for range G {
		must(t, <-errs)
	}
	must(t, ga.Sync())
	got := getAll(t, a)
	for g := range G {
		if got[g] != int64(n*K) {
			t.Errorf("counter %d (its own mutex in each of %d goroutines) = %d, want %d", g, G, got[g], n*K)
		}
	}
	if got[G] != int64(n*G*K) {
		t.Errorf("counter %d (one mutex for all %d goroutines of %d processes) = %d, want %d", G, G, n, got[G], n*G*K)
	}
	must(t, ga.DestroyMutexes())
}

// TestMutexCollectives: the collective mutex calls fail on every process
// alike, and change nothing, when one process holds a mutex (DestroyMutexes)
// or asks for another number of them (CreateMutexes).
func TestMutexCollectives(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		testMutexCollectives(t)
	}, mpitest.Timeout(60*time.Second))
}

func testMutexCollectives(t *testing.T) {
	me, n := ga.Nodeid(), ga.Nnodes()
	const sets = 3
	a, err := ga.Create[int64]("guarded", []int{sets}, nil)
	must(t, err)
	defer destroy(t, a)
	must(t, a.Zero())
	must(t, ga.CreateMutexes(sets))
	inc := func(m int) { // counter m, under mutex m
		must(t, ga.Lock(m))
		v := []int64{0}
		must(t, a.Get([]int{m}, []int{m}, v, nil))
		v[0]++
		must(t, a.Put([]int{m}, []int{m}, v, nil))
		must(t, ga.Unlock(m))
	}
	// Each process in turn holds a mutex while every process tries to
	// destroy the set; then all go on using it.
	want := make([]int64, sets)
	for holder := range n {
		m := holder % sets
		must(t, ga.Sync()) // everyone is done with the mutexes
		if me == holder {
			must(t, ga.Lock(m))
		}
		wantErr(t, fmt.Sprintf("DestroyMutexes while process %d holds mutex %d", holder, m),
			ga.DestroyMutexes(), "DestroyMutexes", "", nil, fmt.Sprintf("rank %d", holder))
		if me == holder {
			must(t, ga.Unlock(m))
		}
		for m := range sets {
			inc(m)
			want[m] += int64(n)
		}
	}
	must(t, ga.Sync())
	if got := getAll(t, a); !slices.Equal(got, want) {
		t.Errorf("counters after refused DestroyMutexes calls = %v, want %v", got, want)
	}
	must(t, ga.DestroyMutexes())

	if n > 1 {
		// The last process asks for one mutex more: everyone is told, and no
		// set exists afterwards.
		k := 4
		if me == n-1 {
			k = 5
		}
		wantErr(t, "CreateMutexes with another n on the last process", ga.CreateMutexes(k), "CreateMutexes", "", ga.ErrMismatch)
		wantErr(t, "Lock after a refused CreateMutexes", ga.Lock(0), "Lock", "", nil, "[0, 0)")
		k = 2
		if me == 0 {
			k = -2
		}
		err := ga.CreateMutexes(k)
		wantErr(t, "CreateMutexes(-2) on process 0", err, "CreateMutexes", "", nil, "-2")
		if me != 0 && !errors.Is(err, ga.ErrPeer) {
			t.Errorf("CreateMutexes(-2) on process 0: process %d got %v, want ErrPeer", me, err)
		}
	}
	// Nothing was left behind by the refused calls: a set can be made.
	must(t, ga.CreateMutexes(sets))
	if n > 1 {
		// Processes that reach different collective calls all get an error,
		// and the set stays.
		var err error
		if me == 0 {
			err = ga.DestroyMutexes()
		} else {
			err = ga.Sync()
		}
		wantErr(t, "DestroyMutexes on process 0 while the others Sync", err, "", "", ga.ErrMismatch)
	}
	must(t, ga.Lock(sets-1))
	must(t, ga.Unlock(sets-1))
	must(t, ga.DestroyMutexes())
	wantErr(t, "DestroyMutexes with no set", ga.DestroyMutexes(), "DestroyMutexes", "", nil)
}

// TestUnlockFencesEveryGroup: a counter in an array of another group than
// the mutexes', its element on the last process (on the other node, on two
// nodes), updated under a mutex by every process in turn: the total must
// be exact, so Unlock must complete the critical section's put on that
// group's runtime too, not only on the mutexes'.
func TestUnlockFencesEveryGroup(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		n := ga.Nnodes()
		ranks := make([]int, n)
		for i := range ranks {
			ranks[i] = i
		}
		p, err := ga.PgroupCreate(ranks)
		must(t, err)
		world := ga.PgroupGetWorld()
		must(t, p.SetDefault())
		a, err := ga.Create[int64]("counter", []int{n}, []int{1})
		must(t, err)
		must(t, a.Zero())
		must(t, world.SetDefault())
		must(t, ga.CreateMutexes(1))
		const rounds = 200
		at := []int{n - 1}
		v := []int64{0}
		for range rounds {
			must(t, ga.Lock(0))
			must(t, a.Get(at, at, v, nil))
			v[0]++
			must(t, a.Put(at, at, v, nil))
			must(t, ga.Unlock(0))
		}
		must(t, ga.Sync())
		must(t, p.SetDefault())
		must(t, ga.Sync())
		must(t, a.Get(at, at, v, nil))
		if v[0] != int64(rounds*n) {
			t.Errorf("counter on another group after %d locked increments by %d processes: %d", rounds, n, v[0])
		}
		must(t, a.Destroy())
		must(t, world.SetDefault())
		must(t, ga.DestroyMutexes())
		must(t, p.Destroy())
	}, mpitest.AcrossNodes())
}
