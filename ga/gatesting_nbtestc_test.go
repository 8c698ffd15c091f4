package ga_test

import (
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingNbtestc ports global/testing/nbtestc.c of GlobalArrays/ga
// (commit dd40347) with its data: a 128 × 128 int32 array whose element
// (i, j) should hold j + 128·i. Process 0 fills it with one NbPut per
// process's block, each from a buffer of its own, and polls the handles
// with Test until all are done; then, after Zero, with one NbPut of the
// whole array, polled; then, after Zero, with 1024 NbPuts of 4 × 4 blocks,
// all outstanding at once, polled. After each, every process checks its
// block in place (Access) and the verdicts are multiplied together with
// Gop, as with GA_Igop. Last, process 0 reads every process's block with
// NbGet into its place in one 128 × 128 buffer (ld 128), polls, and checks
// the buffer. Indices are C order and 0-based, as in the original. On 1-4
// processes over shared memory.
func TestGATestingNbtestc(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		const n, blk = 128, 4
		me, nproc := ga.Nodeid(), ga.Nnodes()
		a, err := ga.Create[int32]("A", []int{n, n}, nil)
		must(t, err)
		defer destroy(t, a)
		val := func(i, j int) int32 { return int32(j + n*i) }

		// poll tests the handles until every one is done, dropping the
		// done ones, as the original does.
		poll := func(hs []*ga.Handle) {
			for len(hs) > 0 {
				left := hs[:0]
				for _, h := range hs {
					done, err := h.Test()
					must(t, err)
					if !done {
						left = append(left, h)
					}
				}
				hs = left
			}
		}
		// check checks this process's block in place and agrees on the
		// verdict over all processes.
		check := func(what string) {
			ok := int32(1)
			if lo, hi, own := a.Distribution(me); own {
				data, ld, err := a.Access(lo, hi)
				must(t, err)
				for i := lo[0]; i <= hi[0]; i++ {
					for j := lo[1]; j <= hi[1]; j++ {
						if got := data[(i-lo[0])*ld[0]+j-lo[1]]; got != val(i, j) && ok == 1 {
							t.Errorf("%s: element (%d, %d) = %d, want %d", what, i, j, got, val(i, j))
							ok = 0
						}
					}
				}
				must(t, a.Release(lo, hi))
			}
			all := []int32{ok}
			must(t, ga.Gop(all, ga.OpProd))
			if all[0] != 1 && ok == 1 {
				t.Errorf("%s: another process found a wrong element", what)
			}
		}

		if me == 0 {
			buf := make([]int32, n*n)
			var hs []*ga.Handle
			off := 0
			for p := range nproc {
				lo, hi, own := a.Distribution(p)
				if !own {
					continue
				}
				isize, jsize := hi[0]-lo[0]+1, hi[1]-lo[1]+1
				piece := buf[off : off+isize*jsize]
				for i := range isize {
					for j := range jsize {
						piece[j+jsize*i] = val(i+lo[0], j+lo[1])
					}
				}
				h, err := a.NbPut(lo, hi, piece, []int{jsize})
				must(t, err)
				hs = append(hs, h)
				off += isize * jsize
			}
			poll(hs)
		}
		must(t, ga.Sync())
		check("NbPut per block")

		// One put to every process.
		must(t, ga.Sync())
		must(t, a.Zero())
		if me == 0 {
			buf := make([]int32, n*n)
			for i := range n {
				for j := range n {
					buf[j+n*i] = val(i, j)
				}
			}
			h, err := a.NbPut([]int{0, 0}, []int{n - 1, n - 1}, buf, []int{n})
			must(t, err)
			poll([]*ga.Handle{h})
		}
		must(t, ga.Sync())
		check("NbPut of the whole array")

		// Many handles outstanding at once.
		must(t, ga.Sync())
		must(t, a.Zero())
		if me == 0 {
			nb := n / blk
			buf := make([]int32, n*n)
			hs := make([]*ga.Handle, 0, nb*nb)
			for k := range nb * nb {
				idx, jdx := k%nb, k/nb
				lo := []int{idx * blk, jdx * blk}
				hi := []int{(idx+1)*blk - 1, (jdx+1)*blk - 1}
				piece := buf[k*blk*blk : (k+1)*blk*blk]
				for i := range blk {
					for j := range blk {
						piece[j+blk*i] = val(i+lo[0], j+lo[1])
					}
				}
				h, err := a.NbPut(lo, hi, piece, []int{blk})
				must(t, err)
				hs = append(hs, h)
			}
			poll(hs)
		}
		must(t, ga.Sync())
		check("1024 NbPuts outstanding")

		// Every block to process 0 with NbGet, into its place.
		if me == 0 {
			buf := make([]int32, n*n)
			var hs []*ga.Handle
			for p := range nproc {
				lo, hi, own := a.Distribution(p)
				if !own {
					continue
				}
				h, err := a.NbGet(lo, hi, buf[lo[1]+n*lo[0]:], []int{n})
				must(t, err)
				hs = append(hs, h)
			}
			poll(hs)
			sameElems(t, "NbGet into one buffer", buf, pattern([]int{n, n}, func(lin int) int32 { return val(lin/n, lin%n) }))
		}
		must(t, ga.Sync())
	})
}
