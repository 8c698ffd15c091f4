package ga_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingLock ports global/testing/lock.c of GlobalArrays/ga (commit
// dd40347): a 30-element float64 array made step by step (New, Name,
// Chunk(-1), Pgroup(PgroupGetWorld()), Allocate) and zeroed; 17 mutexes;
// process 0 holds mutex 0 while it puts 7.0 into elements 0-9 between
// InitFence and Fence; the array is printed (collective, so the put is
// complete everywhere); then process 1 holds mutex 0 while it gets
// elements 0-9 between InitFence and Fence, and must read 7.0 in each, as
// GA C's run shows. The print, which the original only shows, is checked
// too: elements 0-9 are 7 and 10-29 are 0. At np = 1 there is no process 1,
// and process 0 makes the same get under the mutex instead.
func TestGATestingLock(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		me, nproc := ga.Nodeid(), ga.Nnodes()
		const num = 10

		a, err := ga.New[float64](30).Name("test array A").Chunk(-1).Pgroup(ga.PgroupGetWorld()).Allocate()
		must(t, err)
		defer destroy(t, a)
		must(t, a.Zero())
		must(t, ga.Sync())

		p1, p2 := make([]float64, num), make([]float64, num)
		for i := range num {
			p1[i], p2[i] = 7, 3
		}
		must(t, ga.CreateMutexes(17))
		lo, hi := []int{0}, []int{num - 1}

		if me == 0 {
			must(t, ga.Lock(0))
			must(t, ga.InitFence())
			must(t, a.Put(lo, hi, p1, nil))
			must(t, ga.Fence())
			must(t, ga.Unlock(0))
		}
		var out bytes.Buffer
		must(t, a.Fprint(&out))
		if me == 0 {
			want := strings.Repeat(" 7", num) + strings.Repeat(" 0", 30-num)
			if !strings.Contains(out.String(), "]:"+want+"\n") {
				t.Errorf("Print wrote\n%s\nwant a row%s", out.String(), want)
			}
		}
		if me == 1 || nproc == 1 {
			must(t, ga.Lock(0))
			must(t, ga.InitFence())
			must(t, a.Get(lo, hi, p2, nil))
			must(t, ga.Fence())
			must(t, ga.Unlock(0))
			for i, v := range p2 {
				if v != 7 {
					t.Errorf("process %d: p2[%d] = %v, want 7", me, i, v)
				}
			}
		}
		must(t, ga.DestroyMutexes())
	})
}
