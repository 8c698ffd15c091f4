package ga_test

import (
	"math/rand/v2"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestTiled: arrays tiled over a process grid (GA 5's tiled distributions),
// regular and irregular: blocks go to the grid's processes, each stored
// packed where AccessBlock finds it; one-sided operations, collectives with
// arrays of other layouts and a transposed CopyPatch agree with a model;
// bad grids are refused on every process. 1-4 processes, shared memory and
// TCP.
func TestTiled(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		np, me := ga.Nnodes(), ga.Nodeid()
		rng := rand.New(rand.NewPCG(51, 0))
		a := newLayout[float64](t, "tiled", []int{9, 11}, rng)
		defer destroy(t, a.a)
		if !a.a.BlockCyclic() {
			t.Errorf("a tiled array is not block-cyclic")
		}
		grid := []int{1, np}
		for i := range a.a.TotalBlocks() {
			lo, hi, _ := a.a.Distribution(i)
			want := (lo[1] / 2) % np // the block's column coordinate mod the grid
			if r := a.a.BlockOwner(i); r != want {
				t.Errorf("block %d at %v owned by %d, want %d on grid %v", i, lo, r, want, grid)
			}
			if want != me {
				continue
			}
			data, ld, err := a.a.AccessBlock(i)
			must(t, err)
			if ld[0] != hi[1]-lo[1]+1 {
				t.Errorf("block %d stored with ld %v, want it packed (%d)", i, ld, hi[1]-lo[1]+1)
			}
			for k, p := range order(a.a.Dims(), lo, hi, false) {
				if data[k] != a.model[p] {
					t.Errorf("block %d element %d = %v, want %v", i, k, data[k], a.model[p])
					break
				}
			}
		}
		must(t, ga.Sync())

		// One-sided: a patch across blocks, put by the last process.
		lo, hi := []int{1, 2}, []int{7, 9}
		patch := make([]float64, 7*8)
		for i := range patch {
			patch[i] = float64(1000 + i)
		}
		if me == np-1 {
			must(t, a.a.Put(lo, hi, patch, nil))
		}
		for k, p := range order(a.a.Dims(), lo, hi, false) {
			a.model[p] = patch[k]
		}
		must(t, ga.Sync())
		a.check(t, "Put across tiles")

		// Collectives with other layouts.
		b := newLayout[float64](t, "regular", []int{9, 11}, rng)
		defer destroy(t, b.a)
		must(t, ga.Add(2, a.a, -1, b.a, b.a))
		for i := range b.model {
			b.model[i] = 2*a.model[i] - b.model[i]
		}
		b.check(t, "Add of a tiled array into a regular one")
		got, err := ga.Dot(a.a, b.a)
		must(t, err)
		var want float64
		for i := range a.model {
			want += a.model[i] * b.model[i]
		}
		if got != want {
			t.Errorf("Dot = %v, want %v", got, want)
		}
		c, err := ga.New[float64](11, 9).Name("tiledT").SetTiledIrregProcGrid([][]int{{0, 4, 5}, {0, 3}}, []int{np, 1}).Allocate()
		must(t, err)
		defer destroy(t, c)
		must(t, ga.Transpose(a.a, c))
		tr := make([]float64, 99)
		for i := range 9 {
			for j := range 11 {
				tr[j*9+i] = a.model[i*11+j]
			}
		}
		sameElems(t, "Transpose into an irregular tiled array", getAll(t, c), tr)
		must(t, ga.Sync())

		// Misuse: a grid of the wrong size, a chunk besides.
		mem := ga.InquireMemory()
		_, err = ga.New[float64](4, 4).Name("bad").SetTiledProcGrid([]int{2, 2}, []int{np + 1, 1}).Allocate()
		wantErr(t, "a grid of one process too many", err, "Allocate", "bad", nil)
		_, err = ga.New[float64](4, 4).Name("bad").Chunk(2, 2).SetTiledProcGrid([]int{2, 2}, []int{np, 1}).Allocate()
		wantErr(t, "a chunk besides", err, "Allocate", "bad", nil)
		_, err = ga.New[float64](4, 4).Name("bad").SetTiledIrregProcGrid([][]int{{1}, {0}}, []int{np, 1}).Allocate()
		wantErr(t, "irregular starts not from 0", err, "Allocate", "bad", nil)
		if got := ga.InquireMemory(); got != mem {
			t.Errorf("memory in use went from %d to %d bytes through refused creations", mem, got)
		}
		must(t, ga.Sync())
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}
