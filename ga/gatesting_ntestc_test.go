package ga_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingNtestc ports global/testing/ntestc.c of GlobalArrays/ga
// (commit dd40347) with its data: a float64 array of 10 × 20 × 30 × 40 with
// the default distribution. Inquire must give its type and dims, and
// PrintDistribution a line per process with its block. From LocateRegion of
// the whole array (LocateNnodes must count the same pieces) the program
// rebuilds the distribution (the block starts per dimension; GA's block
// counts and map), which must be the one GA C prints, makes B with
// CreateIrreg from it, and CompareDistr must find A and B alike (the
// original only prints the verdict). Each process
// sets its block of A, in place (Access), to its rank; then the first
// nproc/2+1 processes each Get ten random rows along the last dimension
// (rand seeded with the rank, as the original) and every element must equal
// Locate of its subscript. Indices are C order and 0-based, as the
// original's (BASE 0). The original draws the rows from all but the last
// index of each dimension and checks all but the last element of each (it
// reuses adims, by then the largest hi, as the extents); this draws from
// and checks the whole extents. On 1-4 processes over shared memory.
func TestGATestingNtestc(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		const ndim, n = 4, 10
		me, nproc := ga.Nodeid(), ga.Nnodes()
		dims := make([]int, ndim)
		for i := range dims {
			dims[i] = n * (i + 1)
		}
		a, err := ga.Create[float64]("array A", dims, nil)
		must(t, err)
		defer destroy(t, a)

		typ, adims := a.Inquire()
		if typ != "float64" || !slices.Equal(adims, dims) {
			t.Errorf("Inquire = %q, %v; want float64, %v", typ, adims, dims)
		}
		var out strings.Builder
		must(t, a.FprintDistribution(&out))
		if me == 0 {
			for p := range nproc {
				lo, hi, own := a.Distribution(p)
				if line := fmt.Sprintf("process %d: lo %v hi %v", p, lo, hi); own && !strings.Contains(out.String(), line) {
					t.Errorf("PrintDistribution %q has no line %q", out.String(), line)
				}
			}
		}
		must(t, ga.Sync())

		lo, hi := fullPatch(dims)
		regions, err := a.LocateRegion(lo, hi)
		must(t, err)
		nn, err := a.LocateNnodes(lo, hi)
		must(t, err)
		if len(regions) < 1 || nn != len(regions) {
			t.Errorf("LocateNnodes = %d, LocateRegion found %d pieces; want the same, at least 1", nn, len(regions))
		}
		// The original's reconstruction: along each dimension, a block
		// starts wherever a region ends past the last end seen.
		starts := make([][]int, ndim)
		for d := range ndim {
			end := -1
			for _, r := range regions {
				if r.Hi[d] > end {
					starts[d] = append(starts[d], r.Lo[d])
					end = r.Hi[d]
				}
			}
		}
		// GA C's map on 1-4 processes, as ntestc prints it.
		gaC := map[int][][]int{
			1: {{0}, {0}, {0}, {0}},
			2: {{0}, {0}, {0}, {0, 20}},
			3: {{0}, {0}, {0, 10, 20}, {0}},
			4: {{0}, {0}, {0, 15}, {0, 20}},
		}
		if want, ok := gaC[nproc]; ok && !slices.EqualFunc(starts, want, slices.Equal) {
			t.Errorf("block starts %v, GA C's %v", starts, want)
		}
		b, err := ga.CreateIrreg[float64]("array B", dims, starts)
		must(t, err)
		defer destroy(t, b)
		if !ga.CompareDistr(a, b) {
			t.Errorf("CompareDistr: B, made from the starts %v, is distributed unlike A", starts)
		}

		if lo, hi, own := a.Distribution(me); own {
			data, ld, err := a.Access(lo, hi)
			must(t, err)
			eachSub(lo, hi, func(sub []int) {
				p := 0
				for d := range sub {
					if d > 0 {
						p *= ld[d-1]
					}
					p += sub[d] - lo[d]
				}
				data[p] = float64(me)
			})
			must(t, a.ReleaseUpdate(lo, hi))
		}
		must(t, ga.Sync())

		if me <= nproc/2 {
			rng := rand.New(rand.NewPCG(uint64(me), 0))
			buf := make([]float64, dims[ndim-1])
			for range n {
				lo, hi := make([]int, ndim), make([]int, ndim)
				for d := range ndim - 1 {
					lo[d] = rng.IntN(dims[d])
					hi[d] = lo[d]
				}
				hi[ndim-1] = dims[ndim-1] - 1
				must(t, a.Get(lo, hi, buf, nil))
				sub := slices.Clone(lo)
				for i := range buf {
					sub[ndim-1] = i
					p, err := a.Locate(sub)
					must(t, err)
					if float64(p) != buf[i] {
						t.Errorf("element %v = %v, want its owner %d", sub, buf[i], p)
						break
					}
				}
			}
		}
		must(t, ga.Sync())
	})
}
