package armci_test

import (
	"testing"
	"time"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/mpitest"
)

const (
	sleep = 2 * time.Second         // how long the target stays out of MPI
	limit = 1500 * time.Millisecond // how long the origins' operations may take
)

// whileAsleep has rank 0 sleep without calling MPI while every other rank runs
// origin; origin must be done well before the target wakes.
func whileAsleep(t *testing.T, me int, what string, origin func()) {
	t.Helper()
	if me == 0 {
		start := time.Now()
		time.Sleep(sleep)
		t.Logf("%s: target slept %v", what, time.Since(start).Round(time.Millisecond))
		return
	}
	start := time.Now()
	origin()
	elapsed := time.Since(start)
	t.Logf("%s: %v", what, elapsed.Round(time.Millisecond))
	if elapsed > limit {
		t.Errorf("%s on a target that does not call MPI took %v (> %v): not one-sided", what, elapsed, limit)
	}
}

// TestOneSided: rank 0 sleeps for 2 s without calling MPI while the other
// ranks put with fence, get, accumulate, draw a ticket and take a mutex on it,
// on a runtime of each data path in turn. All of it must finish well before
// the target wakes, over shared memory and over TCP (where the runtime's
// progress goroutine has to answer for the sleeping target).
func TestOneSided(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		const ops, block = 10, 4096
		me, n := 0, 0

		// A runtime with mutexes and no segment: the mutexes need the
		// target's progress just the same (its RMA window's, or across
		// nodes its active-message server's). Over TCP it is tested alone,
		// as any other runtime's progress goroutine or server would make
		// progress for it too.
		bare := mode{name: "mutexes-only"}.init(t)
		must(t, bare.CreateMutexes(1))
		me, n = bare.Rank(), bare.Size()
		lockThrice := func() {
			for range 3 {
				must(t, bare.Lock(0, 0))
				must(t, bare.Unlock(0, 0))
			}
		}
		if mpitest.OverNetwork() {
			must(t, bare.Barrier())
			whileAsleep(t, me, "mutexes-only runtime: 3 locks", lockThrice)
			must(t, bare.Finalize())
		}

		type run struct {
			mode mode
			rt   *armci.Runtime
			s    *armci.Segment
		}
		var runs []run
		for _, m := range modes() {
			rt := m.init(t)
			must(t, rt.CreateMutexes(1))
			s := malloc(t, rt, n*ops*block+16)
			clear(s.Local())
			runs = append(runs, run{m, rt, s})
		}
		cOff := n * ops * block
		data := func(r, i int) []int64 {
			v := make([]int64, block/8)
			for j := range v {
				v[j] = int64(r<<40 | i<<20 | j)
			}
			return v
		}
		for _, r := range runs {
			must(t, r.rt.Barrier())
		}
		whileAsleep(t, me, "puts with fence, get, acc, fetch-add, lock on every path", func() {
			for _, r := range runs {
				rt, s := r.rt, r.s
				for i := range ops {
					must(t, armci.Put(s, 0, (me*ops+i)*block, data(me, i)))
					must(t, rt.Fence(0))
				}
				back := make([]int64, block/8)
				must(t, armci.Get(s, 0, me*ops*block, back))
				if back[1] != data(me, 0)[1] || back[block/8-1] != data(me, 0)[block/8-1] {
					t.Errorf("%s: Get from the sleeping target: %#x..%#x", r.mode.name, back[0], back[block/8-1])
				}
				must(t, armci.Acc(s, 0, cOff, []float64{float64(me)}, 2))
				if _, err := armci.FetchAdd(s, 0, cOff+8, int64(1)); err != nil {
					fatalf(t, "FetchAdd: %v", err)
				}
				must(t, rt.Lock(0, 0))
				must(t, rt.Unlock(0, 0))
				must(t, rt.Fence(0))
			}
			if !mpitest.OverNetwork() {
				lockThrice()
			}
		})
		if !mpitest.OverNetwork() {
			must(t, bare.Finalize())
		}
		for _, r := range runs {
			must(t, r.rt.Barrier())
			if me == 0 {
				got := viewAs[int64](r.s.Local())
				for o := 1; o < n; o++ {
					for i := range ops {
						d := data(o, i)
						x := (o*ops + i) * block / 8
						if got[x] != d[0] || got[x+block/8-1] != d[block/8-1] {
							t.Errorf("%s: block %d of rank %d: %#x..%#x, want %#x..%#x", r.mode.name, i, o, got[x], got[x+block/8-1], d[0], d[block/8-1])
						}
					}
				}
				if acc, want := viewAs[float64](r.s.Local()[cOff:])[0], float64(n*(n-1)); acc != want {
					t.Errorf("%s: accumulated %v, want %v", r.mode.name, acc, want)
				}
				if c := got[cOff/8+1]; c != int64(n-1) {
					t.Errorf("%s: counter %d, want %d", r.mode.name, c, n-1)
				}
			}
			must(t, r.rt.Finalize())
		}
	}, mpitest.Ranks(2, 3), bothTransports)
}
