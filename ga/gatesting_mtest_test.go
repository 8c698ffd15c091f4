package ga_test

import (
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingMtest ports global/testing/mtest.c of GlobalArrays/ga
// (commit dd40347): Scatter fills a 100 × 100 int32 matrix, each process
// sending every nproc-th of the 10 000 values from its rank on (value k to
// row k mod 100, column k div 100), after the original has checked, with
// an integer sum, that the processes' counts add up to 10 000. After Sync,
// each process reads its block in place: element [i][j] must be 100j + i.
// The original's loops stop before each block's last row and column
// (i < hi[0], j < hi[1]) and print a mismatch without failing; this port
// checks every element of the block, inclusive of hi, and fails on a
// mismatch.
func TestGATestingMtest(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		const n = 100
		me, nproc := ga.Nodeid(), ga.Nnodes()
		a, err := ga.Create[int32]("A", []int{n, n}, nil)
		must(t, err)
		defer destroy(t, a)

		size := n * n
		sizeMe := size / nproc
		if me < size%nproc {
			sizeMe++
		}
		sum := []int64{int64(sizeMe)}
		must(t, ga.Gop(sum, "+"))
		if sum[0] != int64(size) {
			fatalf(t, "the processes' counts add up to %d, want %d", sum[0], size)
		}

		values := make([]int32, sizeMe)
		subs := make([][]int, sizeMe)
		k := me
		for i := range values {
			values[i] = int32(k)
			subs[i] = []int{k % n, k / n}
			k = (k + nproc) % size
		}
		must(t, a.Scatter(values, subs))
		must(t, ga.Sync())

		data, lo, hi, ld, ok, err := a.AccessLocal()
		must(t, err)
		if ok {
			eachSub(lo, hi, func(sub []int) {
				if got, want := data[bufPos(lo, hi, ld, sub)], int32(sub[1]*n+sub[0]); got != want {
					t.Errorf("A[%d][%d] = %d, want %d", sub[0], sub[1], got, want)
				}
			})
			must(t, a.Release(lo, hi))
		}
	})
}
