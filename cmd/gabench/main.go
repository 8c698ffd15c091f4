// Command gabench measures goga's ga package with the patterns and metric
// names of bench/ref/gabench.c, the GA C library's reference, so that
// bench/ref/compare.sh can put the two side by side (make bench):
//
//	./mpirun.sh -np 2 bin/gabench
//
// It prints one TSV line per figure (metric, size, value, unit) from rank 0,
// which drives all one-sided traffic into rank 1's block. Figures gabench.c
// does not print are limits measured in the same run (names with _limit_),
// goga-only variants, and on one node armci's own small transfers and
// fetch-and-add (armci_*, limits.go), for ga's cost per call. With the
// argument -extra it times, alone, what gabench.c does not (extra.go); with
// -collectives, what bench/ref/gacollbench.c does (collectives.go); with
// -sparse, the sparse matrix's figures, and with -sparse-limit, their
// limits in one process without MPI (sparse.go, make bench-sparse).
package main

import (
	"fmt"
	"math"
	"os"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/mpi"
	"github.com/goga-hpc/goga/scalapack"
)

func main() {
	if sparseLimit() {
		if err := sparseLimits(); err != nil {
			fmt.Fprintln(os.Stderr, "gabench:", err)
			os.Exit(1)
		}
		return
	}
	if os.Getenv(blasLimitEnv) != "" {
		blasLimit()
		return
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gabench:", err)
		mpi.Abort(1)
	}
	if me == 0 && !extra() && !collectives() && !sparse() {
		if err := dgemmLimit(); err != nil {
			fmt.Fprintln(os.Stderr, "gabench:", err)
			os.Exit(1)
		}
	}
}

var me, ranks int

func emit(metric string, size int, v float64, unit string) {
	if me == 0 {
		fmt.Printf("%s\t%d\t%.4g\t%s\n", metric, size, v, unit)
	}
}

// itersFor makes each figure take roughly 0.2 s of transfer.
func itersFor(bytes int) int { return min(max(200000000/(bytes+20000), 5), 20000) }

var ops = []string{"put", "get", "acc"}

// timed runs op it times on a (rank 0 only) and reports latency and bandwidth.
func timed(a *ga.Array[float64], name string, bytes, it int, lo, hi []int, buf []float64, ld []int) error {
	for op := range ops {
		if err := ga.Sync(); err != nil {
			return err
		}
		if me == 0 {
			t := mpi.Wtime()
			for range it {
				var err error
				switch ops[op] {
				case "put":
					err = a.Put(lo, hi, buf, ld)
				case "get":
					err = a.Get(lo, hi, buf, ld)
				default:
					err = a.Acc(lo, hi, buf, ld, 1)
				}
				if err != nil {
					return err
				}
			}
			t = mpi.Wtime() - t
			emit(ops[op]+"_"+name+"_us", bytes, t/float64(it)*1e6, "us")
			emit(ops[op]+"_"+name+"_MBps", bytes, float64(bytes)*float64(it)/t/1e6, "MB/s")
			if name == "contig" && bytes == 8 {
				if err := side.small(ops[op], it, buf); err != nil {
					return err
				}
			}
		}
		if err := ga.Sync(); err != nil {
			return err
		}
	}
	return nil
}

func run() error {
	if err := ga.Init(); err != nil {
		return err
	}
	defer ga.Terminate()
	me = ga.Nodeid()
	np := ga.Nnodes()
	ranks = np
	if np < 2 {
		return fmt.Errorf("run with 2 or more ranks")
	}
	if extra() {
		return extraBench()
	}
	if collectives() {
		return collectivesBench()
	}
	if sparse() {
		return sparseBench()
	}

	var err error
	if side, err = openArmciSide(); err != nil {
		return err
	}
	// 1-D contiguous: each rank owns n doubles; rank 0 targets rank 1.
	const n = 1 << 20
	g1, err := ga.Create[float64]("contig", []int{n * np}, []int{n})
	if err != nil {
		return err
	}
	if err := g1.Fill(0); err != nil {
		return err
	}
	buf := make([]float64, n)
	for i := range buf {
		buf[i] = float64(i)
	}
	// The C benchmark runs every size of one op before the next op; so do we.
	sizes := []int{1, 8, 64, 512, 4096, 32768, 262144, 1048576}
	for op := range ops {
		for _, s := range sizes {
			saved := ops
			ops = []string{saved[op]}
			err := timed1(g1, op, s, buf)
			ops = saved
			if err != nil {
				return err
			}
		}
	}
	// The same gets from the array made read_only: across nodes they read
	// the node's copy; on one node there is none, and they are the gets
	// above.
	if err := g1.SetProperty("read_only"); err != nil {
		return err
	}
	saved := ops
	ops = []string{"get"}
	for _, s := range []int{1, 4096} {
		if err := timed(g1, "read_only", s*8, itersFor(s*8), []int{n}, []int{n + s - 1}, buf, nil); err != nil {
			return err
		}
	}
	ops = saved
	if err := g1.UnsetProperty(); err != nil {
		return err
	}
	// And with read_cache: across nodes the first get copies rank 1's block
	// into rank 0's node's cache and the repeats read it there; the gets of
	// get_contig at the same sizes are the same repeats without it. On one
	// node there is no cache.
	if err := g1.SetProperty("read_cache"); err != nil {
		return err
	}
	ops = []string{"get"}
	for _, s := range []int{1, 4096} {
		if err := timed(g1, "read_cache", s*8, itersFor(s*8), []int{n}, []int{n + s - 1}, buf, nil); err != nil {
			return err
		}
	}
	ops = saved
	if err := g1.UnsetProperty(); err != nil {
		return err
	}
	if err := g1.Destroy(); err != nil {
		return err
	}

	// 2-D strided: a k×k patch inside rank 1's block of a B × B·np array.
	const b = 1024
	g2, err := ga.Create[float64]("strided", []int{b, b * np}, []int{b, b})
	if err != nil {
		return err
	}
	if err := g2.Fill(0); err != nil {
		return err
	}
	for op := range ops {
		for _, k := range []int{4, 16, 64, 256, 1024} {
			saved := ops
			ops = []string{saved[op]}
			err := timed(g2, "2d", k*k*8, itersFor(k*k*8), []int{0, b}, []int{k - 1, b + k - 1}, buf, []int{k})
			ops = saved
			if err != nil {
				return err
			}
		}
	}
	if err := g2.Destroy(); err != nil {
		return err
	}

	// read_inc: every rank increments one counter owned by the last rank.
	gc, err := counter()
	if err != nil {
		return err
	}
	sub := []int{np - 1}
	const ri = 20000
	if err := ga.Sync(); err != nil {
		return err
	}
	t := mpi.Wtime()
	for range ri {
		if _, err := gc.ReadInc(sub, 1); err != nil {
			return err
		}
	}
	if err := ga.Sync(); err != nil {
		return err
	}
	t = mpi.Wtime() - t
	emit("read_inc_aggregate_Mops", np, float64(ri*np)/t/1e6, "Mop/s")
	if err := settleCounter(gc, sub, int64(ri*np), "read_inc total"); err != nil {
		return err
	}

	const si = 2000
	if err := ga.Sync(); err != nil {
		return err
	}
	t = mpi.Wtime()
	for range si {
		if err := ga.Sync(); err != nil {
			return err
		}
	}
	t = mpi.Wtime() - t
	emit("sync_us", np, t/si*1e6, "us")

	// dgemm, then the linear solve of a diagonally dominant system, A = 1 +
	// n·I, B = ones, on n × n arrays with the default distribution, in
	// gabench.c's order (the product reads A first, in both programs).
	for _, n := range []int{1000, 2000} {
		a, err := ga.Create[float64]("A", []int{n, n}, nil)
		if err != nil {
			return err
		}
		b, err := a.Duplicate("B")
		if err != nil {
			return err
		}
		c, err := a.Duplicate("C")
		if err != nil {
			return err
		}
		if err := a.Fill(1); err != nil {
			return err
		}
		if err := b.Fill(1); err != nil {
			return err
		}
		if err := ga.Sync(); err != nil {
			return err
		}
		t := mpi.Wtime()
		if err := ga.Gemm(ga.NoTrans, ga.NoTrans, n, n, n, 1, a, b, 0, c); err != nil {
			return err
		}
		if err := ga.Sync(); err != nil {
			return err
		}
		emit("dgemm_GFlops", n, 2*float64(n)*float64(n)*float64(n)/(mpi.Wtime()-t)/1e9, "GF/s")
		if err := b.Destroy(); err != nil {
			return err
		}
		if err := c.Destroy(); err != nil {
			return err
		}
		if data, lo, hi, ld, ok, err := a.AccessLocal(); err != nil {
			return err
		} else if ok {
			for i := lo[0]; i <= hi[0]; i++ {
				if i >= lo[1] && i <= hi[1] {
					data[(i-lo[0])*ld[0]+(i-lo[1])] += float64(n)
				}
			}
		}
		rhs, err := ga.Create[float64]("rhs", []int{n, 1}, nil)
		if err != nil {
			return err
		}
		if err := rhs.Fill(1); err != nil {
			return err
		}
		if err := ga.Sync(); err != nil {
			return err
		}
		t = mpi.Wtime()
		if err := ga.LuSolve(ga.NoTrans, a, rhs); err != nil {
			return err
		}
		if err := ga.Sync(); err != nil {
			return err
		}
		emit("lu_solve_s", n, mpi.Wtime()-t, "s")
		x := []float64{0}
		if err := rhs.Get([]int{0, 0}, []int{0, 0}, x, nil); err != nil {
			return err
		}
		if want := 1 / float64(2*n); math.Abs(x[0]-want) > 1e-9 {
			return fmt.Errorf("lu_solve n=%d: x[0] = %g, want %g", n, x[0], want)
		}
		if err := a.Destroy(); err != nil {
			return err
		}
		if err := rhs.Destroy(); err != nil {
			return err
		}
		if err := directSolve(n); err != nil {
			return err
		}
		if err := inPlaceSolve(n); err != nil {
			return err
		}
	}
	if err := side.fetchAdd(); err != nil {
		return err
	}
	if err := memcpyLimit(); err != nil {
		return err
	}
	if err := ghostUpdate(); err != nil {
		return err
	}
	if err := collectiveMath(); err != nil {
		return err
	}
	if err := draBench(); err != nil {
		return err
	}
	return diagStd()
}

// directSolve times the same system solved by scalapack.Gesv on matrices
// built in place, with no global array and no copy: the floor LuSolve's
// copies add to.
func directSolve(n int) error {
	rows, cols := solverGrid()
	g, err := blacs.GridInit(ga.Comm(), blacs.RowMajor, rows, cols)
	if err != nil {
		return err
	}
	defer g.Exit()
	a, err := scalapack.NewMatrix[float64](g, n, n, solveBlock, solveBlock)
	if err != nil {
		return err
	}
	b, err := scalapack.NewMatrix[float64](g, n, 1, solveBlock, solveBlock)
	if err != nil {
		return err
	}
	a.Fill(func(i, j int) float64 {
		if i == j {
			return 1 + float64(n)
		}
		return 1
	})
	b.Fill(func(i, j int) float64 { return 1 })
	if err := ga.Sync(); err != nil {
		return err
	}
	t := mpi.Wtime()
	if err := scalapack.Gesv(a, b); err != nil {
		return err
	}
	if err := ga.Sync(); err != nil {
		return err
	}
	emit("scalapack_gesv_s", n, mpi.Wtime()-t, "s")
	return nil
}

// solveBlock is the block size of directSolve's and inPlaceSolve's
// matrices: ga's default for the copies LuSolve makes, so that the three
// solves of one size run the same factorization, and the first of them
// (lu_solve_s) meets ScaLAPACK's first-call costs for the other two.
const solveBlock = 32

// solverGrid is the grid directSolve uses: rows × cols, near square.
func solverGrid() (rows, cols int) {
	rows = int(math.Sqrt(float64(ga.Nnodes())))
	for ga.Nnodes()%rows != 0 {
		rows--
	}
	return rows, ga.Nnodes() / rows
}

// inPlaceSolve times LuSolve on arrays laid out as ScaLAPACK wants
// (BlockCyclicGrid), which it solves where they lie; on the grid directSolve
// uses (BLACS rows × cols is the array's cols × rows, as the array's storage
// is read as the transpose).
func inPlaceSolve(n int) error {
	rows, cols := solverGrid()
	grid := []int{cols, rows}
	a, err := ga.New[float64](n, n).Name("A").BlockCyclicGrid([]int{solveBlock, solveBlock}, grid).Allocate()
	if err != nil {
		return err
	}
	defer a.Destroy()
	if err := a.Fill(1); err != nil {
		return err
	}
	for _, i := range a.LocalBlocks() {
		lo, hi, _ := a.Distribution(i)
		data, ld, err := a.AccessBlock(i)
		if err != nil {
			return err
		}
		for k := max(lo[0], lo[1]); k <= min(hi[0], hi[1]); k++ {
			data[(k-lo[0])*ld[0]+k-lo[1]] += float64(n)
		}
	}
	rhs, err := ga.New[float64](n, 1).Name("rhs").BlockCyclicGrid([]int{solveBlock, 1}, grid).Allocate()
	if err != nil {
		return err
	}
	defer rhs.Destroy()
	if err := rhs.Fill(1); err != nil {
		return err
	}
	if err := ga.Sync(); err != nil {
		return err
	}
	t := mpi.Wtime()
	if err := ga.LuSolve(ga.NoTrans, a, rhs); err != nil {
		return err
	}
	if err := ga.Sync(); err != nil {
		return err
	}
	emit("lu_solve_inplace_s", n, mpi.Wtime()-t, "s")
	x := []float64{0}
	if err := rhs.Get([]int{n - 1, 0}, []int{n - 1, 0}, x, nil); err != nil {
		return err
	}
	if want := 1 / float64(2*n); math.Abs(x[0]-want) > 1e-9 {
		return fmt.Errorf("in-place lu_solve n=%d: x[n-1] = %g, want %g", n, x[0], want)
	}
	return nil
}

// timed1 is one contiguous figure: s doubles at the start of rank 1's block.
func timed1(g *ga.Array[float64], op, s int, buf []float64) error {
	const n = 1 << 20
	return timed(g, "contig", s*8, itersFor(s*8), []int{n}, []int{n + s - 1}, buf, nil)
}
