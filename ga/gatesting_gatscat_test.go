package ga_test

import (
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingGatscat ports global/testing/gatscat.c of GlobalArrays/ga
// (commit dd40347) on its own data: a 100 × 100 int32 array, whose N² elements
// are dealt round robin over the processes (process me takes the numbers
// me, me+nproc, ...; the per-process counts must add up to N², summed with
// Gop as with GA_Igop). Each process scatters its numbers c to the
// subscript (c mod N, c div N), so that element (i, j) holds j·N+i, and
// checks its own block in place (Access); gathers them back into a zeroed
// buffer and checks each; scatter-accumulates them (alpha 1) and checks
// 2·(j·N+i); then sets aside scratch for exactly its count with
// AllocGatscatBuf, as the original does with NGA_Alloc_gatscat_buf,
// scatter-accumulates once more and checks 3·(j·N+i), and frees it. The
// subscripts are C order and 0-based, as in the original. The original
// checks each block only up to hi-1 in both dimensions (its loops stop
// before hi); this checks the whole block. On 1-4 processes over shared
// memory.
func TestGATestingGatscat(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		me, nproc := ga.Nodeid(), ga.Nnodes()
		a, values, subs := dealtScatter(t)
		defer destroy(t, a)

		must(t, a.Scatter(values, subs))
		must(t, ga.Sync())
		checkDealt(t, a, "Scatter", 1)

		clear(values)
		must(t, ga.Sync())
		must(t, a.Gather(values, subs))
		for k := range values {
			if want := int32(me + k*nproc); values[k] != want {
				t.Errorf("Gather: value %d = %d, want %d", k, values[k], want)
				break
			}
		}
		must(t, ga.Sync())

		must(t, a.ScatterAcc(values, subs, 1))
		must(t, ga.Sync())
		checkDealt(t, a, "ScatterAcc", 2)

		must(t, ga.AllocGatscatBuf(len(values)))
		must(t, ga.Sync())
		must(t, a.ScatterAcc(values, subs, 1))
		must(t, ga.Sync())
		checkDealt(t, a, "ScatterAcc with AllocGatscatBuf", 3)
		must(t, ga.FreeGatscatBuf())
	})
}

// dealtN is the order of the matrix of gatscat.c and mtest.c.
const dealtN = 100

// dealtScatter is the set-up gatscat.c and mtest.c share: a dealtN ×
// dealtN int32 array, and this process's share of the numbers 0 to
// dealtN²-1 dealt round robin (process me takes me, me+nproc, ...), each
// with its subscript (c mod N, c div N). The shares' sizes must add up to
// N², summed with Gop as with GA_Igop.
func dealtScatter(t *testing.T) (a *ga.Array[int32], values []int32, subs [][]int) {
	const n = dealtN
	me, nproc := ga.Nodeid(), ga.Nnodes()
	a, err := ga.Create[int32]("A", []int{n, n}, nil)
	must(t, err)
	size := n * n
	sizeMe := size / nproc
	if me < size%nproc {
		sizeMe++
	}
	sum := []int64{int64(sizeMe)}
	must(t, ga.Gop(sum, ga.OpSum))
	if sum[0] != int64(size) {
		fatalf(t, "sizes add up to %d, want %d", sum[0], size)
	}
	values = make([]int32, sizeMe)
	subs = make([][]int, sizeMe)
	for k, c := 0, me; k < sizeMe; k, c = k+1, c+nproc {
		values[k] = int32(c)
		subs[k] = []int{c % n, c / n}
	}
	return a, values, subs
}

// checkDealt checks this process's block of a, in place: element (i, j)
// must be mult·(j·N+i), over the whole block, hi included.
func checkDealt(t *testing.T, a *ga.Array[int32], what string, mult int32) {
	lo, hi, ok := a.Distribution(ga.Nodeid())
	if !ok {
		return
	}
	data, ld, err := a.Access(lo, hi)
	must(t, err)
	bad := 0
	for i := lo[0]; i <= hi[0]; i++ {
		for j := lo[1]; j <= hi[1]; j++ {
			got, want := data[(i-lo[0])*ld[0]+j-lo[1]], mult*int32(j*dealtN+i)
			if got != want && bad < 5 {
				t.Errorf("%s: element (%d, %d) = %d, want %d", what, i, j, got, want)
				bad++
			}
		}
	}
	must(t, a.Release(lo, hi))
}
