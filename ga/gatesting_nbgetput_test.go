package ga_test

import (
	"fmt"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingNbgetput ports global/testing/nbgetput.c of GlobalArrays/ga
// (commit dd40347), a timing program that checks nothing, and adds the
// checks. Three int32 vectors A, B and C; process 0, for m = 1, 2, 4, …
// below n/nproc, goes over the other processes in windows of two: for
// each, it reads A's and B's block with NbGet into buffers at the block's
// start plus m and waits on both, then writes C's block with NbPut from
// one buffer, the blocks packed one after the other, and waits; then it
// does the same with the blocking Get and Put. This checks that every
// block read holds A's and B's values (i+1 and -(i+1) at index i) and that
// after each phase C's blocks hold the buffer's values, with process 0's
// own block untouched. Changes from the original: n is 2^20, not 2^29
// (2 GiB per vector); the one-second sleeps that stand for computation are
// left out, and so are the timings; the read buffers are n + n/nproc long,
// where the original's n are overrun by the shift of m (GA C aborts there
// with "double free or corruption" at n = 4096 on 2 processes); the 1-D
// calls' ld (set to m, and 0) means nothing and is left out. On 1-4
// processes over shared memory (on 1 process nothing moves, as in the
// original).
func TestGATestingNbgetput(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		const n, window = 1 << 20, 2
		me, nproc := ga.Nodeid(), ga.Nnodes()
		vector := func(name string) *ga.Array[int32] {
			a, err := ga.Create[int32](name, []int{n}, nil)
			must(t, err)
			return a
		}
		a, b, c := vector("A"), vector("B"), vector("C")
		defer destroy(t, c)
		defer destroy(t, b)
		defer destroy(t, a)
		putAll(t, a, pattern([]int{n}, func(i int) int32 { return int32(i + 1) }))
		putAll(t, b, pattern([]int{n}, func(i int) int32 { return int32(-i - 1) }))
		must(t, c.Zero())
		valC := func(k int) int32 { return int32(3*k + 7) }
		bufC := pattern([]int{n}, valC)
		nn := n / nproc

		// phase runs the original's loops for every m, with non-blocking
		// or blocking calls, and checks what process 0 read.
		phase := func(nb bool) {
			if me != 0 {
				return
			}
			bufA, bufB := make([]int32, n+nn), make([]int32, n+nn)
			for m := 1; m < nn; m *= 2 {
				clear(bufA)
				clear(bufB)
				ptrC := 0
				for i := 0; i < nproc; i += window {
					for j := i; j < min(nproc, i+window); j++ {
						if j == me {
							continue
						}
						lo, hi, _ := a.Distribution(j)
						if nb {
							ha, err := a.NbGet(lo, hi, bufA[lo[0]+m:], nil)
							must(t, err)
							hb, err := b.NbGet(lo, hi, bufB[lo[0]+m:], nil)
							must(t, err)
							must(t, ha.Wait())
							must(t, hb.Wait())
						} else {
							must(t, a.Get(lo, hi, bufA[lo[0]+m:], nil))
							must(t, b.Get(lo, hi, bufB[lo[0]+m:], nil))
						}
					}
					for j := i; j < min(nproc, i+window); j++ {
						if j == me {
							continue
						}
						lo, hi, _ := c.Distribution(j)
						size := hi[0] - lo[0] + 1
						if nb {
							h, err := c.NbPut(lo, hi, bufC[ptrC:ptrC+size], nil)
							must(t, err)
							must(t, h.Wait())
						} else {
							must(t, c.Put(lo, hi, bufC[ptrC:ptrC+size], nil))
						}
						ptrC += size
					}
				}
				for j := 1; j < nproc; j++ {
					lo, hi, _ := a.Distribution(j)
					what := fmt.Sprintf("nb=%v m=%d block of %d", nb, m, j)
					for i := lo[0]; i <= hi[0]; i++ {
						if bufA[i+m] != int32(i+1) || bufB[i+m] != int32(-i-1) {
							t.Errorf("%s: element %d read as %d and %d, want %d and %d", what, i, bufA[i+m], bufB[i+m], i+1, -i-1)
							break
						}
					}
				}
			}
		}

		phase(true)
		must(t, ga.Sync())
		checkPacked(t, "C after NbPut", c, valC)
		must(t, ga.Sync())
		must(t, c.Zero())
		phase(false)
		must(t, ga.Sync())
		checkPacked(t, "C after Put", c, valC)
		must(t, ga.Sync())
	})
}
