package ga_test

import (
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/layout"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingTiledIrregTest ports global/testing/tiled_irreg_test.c of
// GlobalArrays/ga (commit dd40347): a 128 × 128 × 128 int32 array with a
// tiled irregular distribution (SetTiledIrregProcGrid). Along dimension d
// the tiles' widths cycle through 10, 11, 12, starting at 10+d (12 tiles
// along each dimension, the last cut short), and the process grid is the original's grid_factor
// of np over the three extents ([1 1 1], [2 1 1], [3 1 1], [2 2 1]). Tile
// i (Distribution(i) gives its patch) is handled by process i-1 mod np,
// and the value of element (i, j, k) is k + 128·j + 128²·i. Each process
// puts its tiles, then gets the whole array and checks it; gets its tiles
// and checks them; accumulates its tiles once more with scale 1 and gets
// them, which must then hold twice the value.
//
// The grid and tiles are in C order, as GA C's NGA_Set_tiled_irreg_proc_grid
// takes them too (it reverses them itself), so nothing is translated.
func TestGATestingTiledIrregTest(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		const (
			dim      = 128
			minBlock = 10
		)
		me, nproc := ga.Nodeid(), ga.Nnodes()
		dims := []int{dim, dim, dim}

		starts := make([][]int, 3)
		for d := range 3 {
			for inc, off := d, 0; off < dim; inc, off = (inc+1)%3, off+minBlock+inc {
				starts[d] = append(starts[d], off)
			}
		}
		nblocks := []int{len(starts[0]), len(starts[1]), len(starts[2])}
		if nblocks[0] != 12 || nblocks[1] != 12 || nblocks[2] != 12 {
			t.Errorf("tiles along each dimension: %v, want [12 12 12]", nblocks)
		}
		x, y, z := gridFactor(nproc, dim, dim, dim)
		grid := []int{x, y, z}
		if want := [][]int{{1, 1, 1}, {2, 1, 1}, {3, 1, 1}, {2, 2, 1}}; nproc <= 4 && !slices.Equal(grid, want[nproc-1]) {
			t.Errorf("grid_factor(%d) = %v, want %v", nproc, grid, want[nproc-1])
		}

		a, err := ga.New[int32](dims...).SetTiledIrregProcGrid(starts, grid).Allocate()
		must(t, err)
		defer destroy(t, a)
		must(t, a.Zero())
		total := layout.Product(nblocks)
		if a.TotalBlocks() != total {
			t.Errorf("TotalBlocks() = %d, want %d", a.TotalBlocks(), total)
		}

		value := func(i, j, k int) int32 { return int32(k + dim*j + dim*dim*i) }
		// tiles calls f with the patch and a buffer of each tile of this process.
		tiles := func(f func(lo, hi []int, buf []int32)) {
			for ib := (me + 1) % nproc; ib < total; ib += nproc {
				lo, hi, ok := a.Distribution(ib)
				if !ok {
					fatalf(t, "Distribution(%d) of %d tiles: none", ib, total)
				}
				f(lo, hi, make([]int32, layout.Volume(lo, hi)))
			}
		}
		fill := func(lo, hi []int, buf []int32, scale int32) {
			n := 0
			for i := lo[0]; i <= hi[0]; i++ {
				for j := lo[1]; j <= hi[1]; j++ {
					for k := lo[2]; k <= hi[2]; k++ {
						buf[n] = scale * value(i, j, k)
						n++
					}
				}
			}
		}
		// check reports the first wrong element of buf, the patch [lo, hi].
		check := func(what string, lo, hi []int, buf []int32, scale int32) bool {
			n := 0
			for i := lo[0]; i <= hi[0]; i++ {
				for j := lo[1]; j <= hi[1]; j++ {
					for k := lo[2]; k <= hi[2]; k++ {
						if want := scale * value(i, j, k); buf[n] != want {
							t.Errorf("process %d checking %s: (%d, %d, %d) = %d, want %d", me, what, i, j, k, buf[n], want)
							return false
						}
						n++
					}
				}
			}
			return true
		}

		// PUT on individual tiles, then the whole array read back.
		tiles(func(lo, hi []int, buf []int32) {
			fill(lo, hi, buf, 1)
			must(t, a.Put(lo, hi, buf, nil))
		})
		must(t, ga.Sync())
		all := make([]int32, dim*dim*dim)
		lo, hi := []int{0, 0, 0}, []int{dim - 1, dim - 1, dim - 1}
		must(t, a.Get(lo, hi, all, []int{dim, dim}))
		check("PUT", lo, hi, all, 1)
		must(t, ga.Sync())

		// GET on individual tiles; the first wrong element is reported.
		ok := true
		tiles(func(lo, hi []int, buf []int32) {
			must(t, a.Get(lo, hi, buf, nil))
			if ok {
				ok = check("GET", lo, hi, buf, 1)
			}
		})
		must(t, ga.Sync())

		// ACC on individual tiles: each now holds twice its value.
		tiles(func(lo, hi []int, buf []int32) {
			fill(lo, hi, buf, 1)
			must(t, a.Acc(lo, hi, buf, nil, 1))
		})
		must(t, ga.Sync())
		ok = true
		tiles(func(lo, hi []int, buf []int32) {
			must(t, a.Get(lo, hi, buf, nil))
			if ok {
				ok = check("ACC", lo, hi, buf, 2)
			}
		})
		must(t, ga.Sync())
	})
}

// gridFactor is tiled_irreg_test.c's grid_factor: it factors p into primes
// and hands them out, largest first, each to the dimension with the most
// extent left per process (the first on a tie), to make a process grid
// idx × idy × idz of about even blocks. It factors p completely; the
// original drops a prime factor above √p+1 (10 = 2 · 5 gives it 2 × 1 × 1),
// which no np up to 4 meets.
func gridFactor(p, xdim, ydim, zdim int) (idx, idy, idz int) {
	var fac []int
	for q, r := 2, p; r > 1; {
		switch {
		case r%q == 0:
			fac = append(fac, q)
			r /= q
		case q*q > r:
			fac = append(fac, r)
			r = 1
		default:
			q++
		}
	}
	if len(fac) == 0 {
		fac = []int{p}
	}
	idx, idy, idz = 1, 1, 1
	for i := len(fac) - 1; i >= 0; i-- {
		ix, iy, iz := xdim/idx, ydim/idy, zdim/idz
		switch {
		case ix >= iy && ix >= iz && ix > 1:
			idx *= fac[i]
		case iy >= ix && iy >= iz && iy > 1:
			idy *= fac[i]
		case iz >= ix && iz >= iy && iz > 1:
			idz *= fac[i]
		}
	}
	return idx, idy, idz
}
