package ga

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/goga-hpc/goga/internal/layout"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestQuick checks quick against the general path's own placement: for
// random patches, leading dimensions and buffer sizes on every kind of
// distribution, quick takes exactly the calls that are valid, single-owner,
// contiguous and packed, and places them where locate does.
func TestQuick(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		if err := Init(); err != nil {
			mpitest.Fatalf(t, "Init: %v", err)
		}
		defer Terminate()
		n := Nnodes()
		kinds := []struct {
			name string
			b    *Builder[float64]
		}{
			{"regular1d", New[float64](37)},
			{"regular2d", New[float64](9, 14)},
			{"regular3d", New[float64](5, 6, 7)},
			{"irregular", New[float64](10, 8).Irregular([]int{0, 6}[:min(2, n)], []int{0, 5}[:min(2, max(1, n/2))])},
			{"ghosts", New[float64](11, 9).Ghosts(2, 1)},
			{"blockcyclic", New[float64](13, 10).BlockCyclic(4, 3)},
			{"scalapack", New[float64](13, 10).BlockCyclicGrid([]int{4, 3}, []int{1, n})},
			{"tiled", New[float64](13, 10).SetTiledProcGrid([]int{4, 3}, []int{n, 1})},
			{"restricted", New[float64](12, 7).SetRestricted(n - 1)},
		}
		rng := rand.New(rand.NewPCG(7, uint64(Nodeid())))
		for _, k := range kinds {
			a, err := k.b.Name(k.name).Allocate()
			if err != nil {
				mpitest.Fatalf(t, "%s: %v", k.name, err)
			}
			if a.corners == nil {
				t.Errorf("%s: no corner table", k.name)
			}
			took := 0
			for range 3000 {
				nd := len(a.dims)
				lo, hi := make([]int, nd), make([]int, nd)
				for d, e := range a.dims {
					// Mostly inside, sometimes past either end or reversed.
					lo[d], hi[d] = rng.IntN(e+2)-1, rng.IntN(e+2)-1
					if rng.IntN(4) > 0 && lo[d] > hi[d] {
						lo[d], hi[d] = hi[d], lo[d]
					}
				}
				var ld []int
				switch rng.IntN(3) {
				case 1:
					ld = make([]int, nd-1)
					for d := range ld {
						ld[d] = hi[d+1] - lo[d+1] + 1
					}
				case 2:
					ld = make([]int, nd-1)
					for d := range ld {
						ld[d] = hi[d+1] - lo[d+1] + 1 + rng.IntN(2)
					}
				}
				bufLen := rng.IntN(200)
				rank, off, need, ok := a.quick(lo, hi, ld, bufLen)
				want, wrank, woff, wneed := a.quickByGeneralPath(lo, hi, ld, bufLen)
				if ok != want || ok && (rank != wrank || off != woff || need != wneed) {
					t.Fatalf("%s lo %v hi %v ld %v buffer %d: quick = %d, %d, %d, %v; general path: %d, %d, %d, %v",
						k.name, lo, hi, ld, bufLen, rank, off, need, ok, wrank, woff, wneed, want)
				}
				if ok {
					took++
				}
			}
			if took == 0 {
				t.Errorf("%s: quick took none of the patches", k.name)
			}
			must(t, a.Destroy())
		}
	})
}

// quickByGeneralPath is what quick must answer, from the transfer checks
// and the layout's own walk and placement (layout.Map's Owners and Place),
// not from the corners that quick and the other paths share.
func (a *Array[T]) quickByGeneralPath(lo, hi, ld []int, n int) (ok bool, rank, off, need int) {
	var b layout.Buffer
	if a.transfer("Put", lo, hi, ld, n, &b) != nil || !packed(lo, hi, ld) {
		return false, 0, 0, 0
	}
	blocks, blk := 0, 0
	a.m.Owners(lo, hi, func(i int, _, _ []int) bool {
		blocks, blk = blocks+1, i
		return true
	})
	if blocks != 1 {
		return false, 0, 0, 0
	}
	ext := make([]int, len(lo))
	rank, off = a.m.Place(a.m.BlockCoords(blk), lo, ext)
	spanning := false
	for d := range lo {
		if spanning && (hi[d]-lo[d]+1 != ext[d] || b.Pitch[d-1] != b.Pitch[d]*ext[d]) {
			return false, 0, 0, 0
		}
		spanning = spanning || hi[d] > lo[d]
	}
	return true, rank, off, b.Need
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		mpitest.Fatalf(t, "unexpected error: %v", err)
	}
}

// TestQuickGoroutines has goroutines of every process put and get single
// elements all over one array at once, so that the block quick keeps as the
// last one found changes under them; each element has one writer (its row
// picks the process, its column the goroutine), which must read back what
// it put.
func TestQuickGoroutines(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		if err := Init(); err != nil {
			mpitest.Fatalf(t, "Init: %v", err)
		}
		defer Terminate()
		np, me := Nnodes(), Nodeid()
		const rows, cols, workers = 24, 16, 8
		a, err := Create[int64]("quick", []int{rows, cols}, []int{1, 1})
		must(t, err)
		must(t, a.Zero())
		var wg sync.WaitGroup
		errs := make(chan error, workers)
		for w := range workers {
			wg.Go(func() {
				rng := rand.New(rand.NewPCG(uint64(me), uint64(w)))
				for k := range 3000 {
					i := rng.IntN(rows/np)*np + me
					j := rng.IntN(cols/workers)*workers + w
					sub := []int{i, j}
					v := int64(me<<40 | w<<32 | k)
					var got [1]int64
					if err := a.Put(sub, sub, []int64{v}, nil); err != nil {
						errs <- err
						return
					}
					if err := a.Get(sub, sub, got[:], nil); err != nil {
						errs <- err
						return
					}
					if got[0] != v {
						errs <- fmt.Errorf("goroutine %d: element %v holds %d after a put of %d", w, sub, got[0], v)
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		must(t, Sync())
		must(t, a.Destroy())
	})
}
