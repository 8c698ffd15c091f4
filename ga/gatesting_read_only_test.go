package ga_test

import (
	"math/rand/v2"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestGATestingReadOnly ports global/testing/read_only.c of GlobalArrays/ga
// (commit dd40347): an int32 array whose element (i, j) is i·y+j, written
// by each process into its own block through Access, is read in random
// patches, first with the property "read_only" set, then after
// UnsetProperty. Patches grow from 1 × 1 by doubling the smaller side
// (1 × 1, 2 × 1, 2 × 2, ...) until the first side would reach the array's;
// each size is read MAX_LOOP = 20 times per process, and every element
// read must be i·y+j. The original's statistics arrays (time, transfers and
// elements per process, accumulated with NGA_Acc and summed with
// GA_Dgop/Igop/Lgop) are kept and checked: per size, 20·np transfers of
// 20·np·ix·iy elements in all.
//
// The array is 512 × 512 where the original's is 4096 × 4096 (largest
// patch 256 × 256 instead of 2048 × 2048) to keep the test short. It runs
// on the machine's one node, and with the processes on simulated nodes of
// two at np 3 and 4, where the read_only array is copied to each node and
// gets read the copies.
func TestGATestingReadOnly(t *testing.T) {
	t.Run("one node", func(t *testing.T) { mpitest.Run(t, func(t *testing.T) { readOnlyBody(t, false) }) })
	t.Run("nodes of two", func(t *testing.T) {
		mpitest.Run(t, func(t *testing.T) { readOnlyBody(t, true) }, mpitest.Ranks(3, 4))
	})
}

func readOnlyBody(t *testing.T, nodesOfTwo bool) {
	const (
		x, y    = 512, 512
		maxLoop = 20
	)
	if nodesOfTwo {
		defer ga.SimulateNodes(func(r, _ int) int { return r / 2 })()
	}
	must(t, ga.Init())
	defer endGA(t)
	me, nproc := ga.Nodeid(), ga.Nnodes()
	dims := []int{x, y}

	src, err := ga.Create[int32]("source", dims, nil)
	must(t, err)
	defer destroy(t, src)
	times, err := ga.Create[float64]("times", []int{nproc}, []int{1})
	must(t, err)
	defer destroy(t, times)
	ntimes, err := ga.Create[int32]("ntimes", []int{nproc}, []int{1})
	must(t, err)
	defer destroy(t, ntimes)
	nelems, err := ga.Create[int64]("nelems", []int{nproc}, []int{1})
	must(t, err)
	defer destroy(t, nelems)
	must(t, src.Zero())

	// Fill the array with unique values, each process its own block.
	lo, hi, _ := src.Distribution(me)
	p, ld, err := src.Access(lo, hi)
	must(t, err)
	for i := lo[0]; i <= hi[0]; i++ {
		for j := lo[1]; j <= hi[1]; j++ {
			p[(i-lo[0])*ld[0]+(j-lo[1])] = int32(i*y + j)
		}
	}
	must(t, src.ReleaseUpdate(lo, hi))
	must(t, ga.Sync())

	rng := rand.New(rand.NewPCG(46, uint64(me)))
	// readAll reads random patches of every size and checks them and the
	// statistics; it reports whether every element read was right here.
	readAll := func(mode string) bool {
		ok := true
		for ix, iy := 1, 1; ; {
			must(t, times.Zero())
			must(t, ntimes.Zero())
			must(t, nelems.Zero())
			size := []int{ix, iy}
			for range maxLoop {
				plo, phi := make([]int, 2), make([]int, 2)
				for d := range 2 {
					plo[d] = rng.IntN(dims[d] - size[d])
					phi[d] = plo[d] + size[d] - 1
				}
				n := (phi[0] - plo[0] + 1) * (phi[1] - plo[1] + 1)
				buf := make([]int32, n)
				t0 := mpi.Wtime()
				must(t, src.Get(plo, phi, buf, []int{phi[1] - plo[1] + 1}))
				dt := mpi.Wtime() - t0
				own := []int{me}
				must(t, times.Acc(own, own, []float64{dt}, nil, 1))
				must(t, ntimes.Acc(own, own, []int32{1}, nil, 1))
				must(t, nelems.Acc(own, own, []int64{int64(n)}, nil, 1))
				for i := plo[0]; i <= phi[0]; i++ {
					for j := plo[1]; j <= phi[1]; j++ {
						if v := buf[(i-plo[0])*(phi[1]-plo[1]+1)+(j-plo[1])]; v != int32(i*y+j) {
							if ok {
								t.Errorf("%s: process %d read (%d, %d) = %d, want %d", mode, me, i, j, v, i*y+j)
							}
							ok = false
						}
					}
				}
			}
			must(t, ga.Sync())
			readOnlyStats(t, mode, times, ntimes, nelems, size, maxLoop)
			// nextBlock: double the smaller side, the first on a tie.
			if ix > iy {
				iy *= 2
			} else {
				ix *= 2
			}
			if ix >= dims[0] || iy > dims[1] {
				return ok
			}
		}
	}

	// The array is ready for reading: make it read_only.
	must(t, src.SetProperty("read_only"))
	if want := nodesOfTwo; ga.NodeCopied(src) != want {
		t.Errorf("read_only on %d nodes: node copy made = %v, want %v", ga.ClusterNnodes(), ga.NodeCopied(src), want)
	}
	trueEverywhere(t, "read-only array", readAll("read_only"))

	must(t, src.UnsetProperty())
	if ga.NodeCopied(src) {
		t.Errorf("after UnsetProperty the node copy is still there")
	}
	trueEverywhere(t, "regular array", readAll("regular"))
}

// readOnlyStats is read_only.c's printTimes: each process reads its own
// entries of the statistics arrays, and the sums over all processes are
// the transfers and elements of the round; it checks them (20·np
// transfers, 20·np·ix·iy elements) and logs the bandwidth.
func readOnlyStats(t *testing.T, mode string, times *ga.Array[float64], ntimes *ga.Array[int32], nelems *ga.Array[int64], size []int, loops int) {
	me, nproc := ga.Nodeid(), ga.Nnodes()
	own := []int{me}
	tm, nt, ne := make([]float64, 1), make([]int32, 1), make([]int64, 1)
	must(t, times.Get(own, own, tm, nil))
	must(t, ntimes.Get(own, own, nt, nil))
	must(t, nelems.Get(own, own, ne, nil))
	must(t, ga.Gop(tm, ga.OpSum))
	must(t, ga.Gop(nt, ga.OpSum))
	must(t, ga.Gop(ne, ga.OpSum))
	if want := int32(loops * nproc); nt[0] != want {
		t.Errorf("%s, %v patches: %d transfers in all, want %d", mode, size, nt[0], want)
	}
	if want := int64(loops * nproc * size[0] * size[1]); ne[0] != want {
		t.Errorf("%s, %v patches: %d elements in all, want %d", mode, size, ne[0], want)
	}
	if me == 0 && tm[0] > 0 {
		t.Logf("%s: %10d bytes %5d × %-5d %4d transfers %12.3f MB/s", mode, 4*size[0]*size[1], size[0], size[1], nt[0], float64(4*ne[0])/tm[0]/1e6)
	}
}

// trueEverywhere is read_only.c's check that ok holds on every process
// (an Igop of the flags).
func trueEverywhere(t *testing.T, what string, ok bool) {
	flag := []int32{0}
	if ok {
		flag[0] = 1
	}
	must(t, ga.Gop(flag, ga.OpSum))
	if int(flag[0]) != ga.Nnodes() {
		t.Errorf("%s test FAILED: right on %d of %d processes", what, flag[0], ga.Nnodes())
	}
}
