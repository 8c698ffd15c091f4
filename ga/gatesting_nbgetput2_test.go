package ga_test

import (
	"fmt"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingNbgetput2 ports global/testing/nbgetput2.c of
// GlobalArrays/ga (commit dd40347), a timing program that checks nothing,
// and adds the checks. For N = 8, 16, …, 1024 it makes three N × N int32
// arrays A, B and C; process 0 goes over the other processes in windows of
// two: for each it starts NbGets of A's and B's block into their places in
// N × N buffers (ld N) and an NbPut of C's block from one buffer, the
// blocks packed one after the other (ld the block's width), then waits on
// the window's handles; then it does the same with the blocking Get and
// Put. This checks that every block read holds A's and B's values
// (±(i·N+j+1) at (i, j)) and that after each phase C's blocks hold the
// buffer's values, with process 0's own block untouched. Changes from the
// original: N stops at 1024, not 16384 (1 GiB per array); the timings are
// left out; and each call gets its intended ld (the original sets ld = N
// once per window, so after the first process of a window its NbGets use
// the previous NbPut's ld, and the blocks land in the wrong places, which
// it does not check). On 1-4 processes over shared memory (on 1 process
// nothing moves, as in the original).
func TestGATestingNbgetput2(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		const window = 2
		me, nproc := ga.Nodeid(), ga.Nnodes()
		for n := 8; n <= 1024; n *= 2 {
			nbgetput2(t, n, window, me, nproc)
		}
	})
}

func nbgetput2(t *testing.T, n, window, me, nproc int) {
	dims := []int{n, n}
	array := func(name string) *ga.Array[int32] {
		a, err := ga.Create[int32](name, dims, nil)
		must(t, err)
		return a
	}
	a, b, c := array("A"), array("B"), array("C")
	defer destroy(t, c)
	defer destroy(t, b)
	defer destroy(t, a)
	putAll(t, a, pattern(dims, func(k int) int32 { return int32(k + 1) }))
	putAll(t, b, pattern(dims, func(k int) int32 { return int32(-k - 1) }))
	must(t, c.Zero())
	valC := func(k int) int32 { return int32(5*k + 3) }
	bufC := pattern(dims, valC)

	phase := func(nb bool) {
		if me != 0 {
			return
		}
		bufA, bufB := make([]int32, n*n), make([]int32, n*n)
		ptrC := 0
		for i := 0; i < nproc; i += window {
			var hs []*ga.Handle
			for j := i; j < min(nproc, i+window); j++ {
				if j == me {
					continue
				}
				lo, hi, _ := a.Distribution(j)
				at := lo[1] + n*lo[0]
				isize, jsize := hi[0]-lo[0]+1, hi[1]-lo[1]+1
				pc := bufC[ptrC : ptrC+isize*jsize]
				if nb {
					ha, err := a.NbGet(lo, hi, bufA[at:], []int{n})
					must(t, err)
					hb, err := b.NbGet(lo, hi, bufB[at:], []int{n})
					must(t, err)
					hc, err := c.NbPut(lo, hi, pc, []int{jsize})
					must(t, err)
					hs = append(hs, ha, hb, hc)
				} else {
					must(t, a.Get(lo, hi, bufA[at:], []int{n}))
					must(t, b.Get(lo, hi, bufB[at:], []int{n}))
					must(t, c.Put(lo, hi, pc, []int{jsize}))
				}
				ptrC += isize * jsize
			}
			for _, h := range hs {
				must(t, h.Wait())
			}
		}
		for j := 1; j < nproc; j++ {
			lo, hi, _ := a.Distribution(j)
			what := fmt.Sprintf("N=%d nb=%v block of %d", n, nb, j)
			eachSub(lo, hi, func(s []int) {
				k := s[0]*n + s[1]
				if bufA[k] != int32(k+1) || bufB[k] != int32(-k-1) {
					t.Errorf("%s: element %v read as %d and %d, want %d and %d", what, s, bufA[k], bufB[k], k+1, -k-1)
				}
			})
		}
	}

	phase(true)
	must(t, ga.Sync())
	checkPacked(t, fmt.Sprintf("N=%d: C after NbPut", n), c, valC)
	must(t, ga.Sync())
	must(t, c.Zero())
	phase(false)
	must(t, ga.Sync())
	checkPacked(t, fmt.Sprintf("N=%d: C after Put", n), c, valC)
	must(t, ga.Sync())
}
