package ga_test

import (
	"strconv"
	"sync"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestAllocGatscatBuf checks AllocGatscatBuf and FreeGatscatBuf: refused
// before Init, for n ≤ 0 and twice in a row, FreeGatscatBuf without scratch
// refused, each error naming the call and the value, with nothing
// allocated or freed by a refused call; local (only some processes
// allocate, each its own n, with no hang); with the scratch, Gather, Scatter
// and ScatterAcc of up to n elements give the right values and, where the
// ranks share memory, allocate nothing; a larger call and goroutines
// gathering at once still give the right values. On 1-4 processes over
// shared memory.
func TestAllocGatscatBuf(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		wantErr(t, "AllocGatscatBuf before Init", ga.AllocGatscatBuf(4), "AllocGatscatBuf", "", ga.ErrNotInitialized)
		must(t, ga.Init())
		defer endGA(t)
		me, nproc := ga.Nodeid(), ga.Nnodes()

		wantErr(t, "FreeGatscatBuf without scratch", ga.FreeGatscatBuf(), "FreeGatscatBuf", "", nil, "no scratch")
		for _, bad := range []int{0, -3} {
			wantErr(t, "AllocGatscatBuf(bad)", ga.AllocGatscatBuf(bad), "AllocGatscatBuf", "", nil, "n = "+strconv.Itoa(bad))
		}
		// The refusals left nothing allocated.
		wantErr(t, "FreeGatscatBuf after refusals", ga.FreeGatscatBuf(), "FreeGatscatBuf", "", nil)

		// Local: the odd ranks alone allocate and free, and nobody waits.
		if me%2 == 1 {
			must(t, ga.AllocGatscatBuf(me))
			must(t, ga.FreeGatscatBuf())
		}

		const rows, cols = 13, 7
		a, err := ga.Create[float64]("gs", []int{rows, cols}, nil)
		must(t, err)
		defer destroy(t, a)
		// Rank r's k-th element is at C-order position at(k, r): its
		// elements lie on every rank, walked backwards from an offset of
		// its own, some twice.
		at := func(k, r int) int { return rows*cols - 1 - (k*nproc+r)%(rows*cols) }
		n := 40 + me
		subs := make([][]int, n)
		v := make([]float64, n)
		for k := range subs {
			subs[k] = []int{at(k, me) / cols, at(k, me) % cols}
		}
		must(t, ga.AllocGatscatBuf(n))
		wantErr(t, "AllocGatscatBuf twice", ga.AllocGatscatBuf(n+1), "AllocGatscatBuf", "", nil, "already allocated", strconv.Itoa(n))

		// Rank 0 scatters every element's C-order position, the rest
		// gather; then everyone accumulates 1000·(rank+1) to its own
		// elements, one rank after the other, and gathers them back.
		all := make([][]int, rows*cols)
		pos := make([]float64, rows*cols)
		for k := range all {
			all[k] = []int{k / cols, k % cols}
			pos[k] = float64(k)
		}
		must(t, a.Zero())
		if me == 0 {
			// More elements than rank 0's scratch: a call of its own.
			must(t, a.Scatter(pos, all))
		}
		must(t, ga.Sync())
		must(t, a.Gather(v, subs))
		for k, s := range subs {
			if want := float64(s[0]*cols + s[1]); v[k] != want {
				t.Errorf("Gather: element %v = %v, want %v", s, v[k], want)
			}
		}
		got := make([]float64, rows*cols)
		must(t, a.Gather(got, all)) // larger than the scratch
		sameElems(t, "Gather of the whole array", got, pos)
		must(t, ga.Sync())
		ones := make([]float64, n)
		for k := range ones {
			ones[k] = 1
		}
		for r := range nproc {
			if r == me {
				must(t, a.ScatterAcc(ones, subs, float64(1000*(me+1))))
			}
			must(t, ga.Sync())
		}
		want := make([]float64, rows*cols)
		copy(want, pos)
		for r := range nproc {
			for k := range 40 + r {
				want[at(k, r)] += float64(1000 * (r + 1))
			}
		}
		must(t, a.Gather(got, all))
		sameElems(t, "after ScatterAcc", got, want)

		// Goroutines gathering at once: one holds the scratch, the others
		// take their own.
		var wg sync.WaitGroup
		errs := make([]error, 4)
		outs := make([][]float64, 4)
		for g := range outs {
			outs[g] = make([]float64, n)
			wg.Go(func() {
				for range 50 {
					if err := a.Gather(outs[g], subs); err != nil {
						errs[g] = err
						return
					}
				}
			})
		}
		wg.Wait()
		for g := range outs {
			must(t, errs[g])
			for k, s := range subs {
				if outs[g][k] != want[s[0]*cols+s[1]] {
					t.Errorf("goroutine %d: element %v = %v, want %v", g, s, outs[g][k], want[s[0]*cols+s[1]])
					break
				}
			}
		}
		must(t, ga.Sync())

		// Where the ranks share memory, a call within the scratch allocates
		// nothing: the sort into owners uses the scratch, and the moves
		// are copies. Scatter puts back what Gather read, changing nothing.
		if mpitest.SharedWindows() && ga.ClusterNnodes() == 1 {
			for _, c := range []struct {
				what string
				f    func()
			}{
				{"Gather", func() { must(t, a.Gather(v, subs)) }},
				{"Scatter", func() { must(t, a.Scatter(v, subs)) }},
				{"ScatterAcc", func() { must(t, a.ScatterAcc(v, subs, 0)) }},
			} {
				if allocs := testing.AllocsPerRun(20, c.f); allocs != 0 {
					t.Errorf("%s of %d elements with scratch for %d: %v allocations per call, want 0", c.what, n, n, allocs)
				}
			}
		}
		must(t, ga.Sync())
		must(t, a.Gather(got, all))
		sameElems(t, "after the calls that changed nothing", got, want)

		must(t, ga.FreeGatscatBuf())
		wantErr(t, "FreeGatscatBuf twice", ga.FreeGatscatBuf(), "FreeGatscatBuf", "", nil)
		// Without scratch the calls still work; and it can be set aside again.
		must(t, a.Gather(v, subs))
		must(t, ga.AllocGatscatBuf(1))
		must(t, a.Gather(v, subs))
		must(t, ga.FreeGatscatBuf())
		for k, s := range subs {
			if v[k] != want[s[0]*cols+s[1]] {
				t.Errorf("Gather after FreeGatscatBuf: element %v = %v, want %v", s, v[k], want[s[0]*cols+s[1]])
				break
			}
		}
		must(t, ga.Sync())
	})
}
