// Command demo solves a dense linear system on a distributed matrix, the
// goga way: a global array A, filled where it lives, a right-hand side built
// with one-sided accumulates, and ga.LuSolve through ScaLAPACK.
//
//	make demo                                  # n = 2000 on 4 ranks
//	bin/demo -np 4 -n 2000 -nb 32              # it starts mpirun itself
//	bin/demo -np 2 -mm testdata/nonsym6.mtx    # solve A·x = A·ones for a Matrix Market A
//	bin/demo -layout regular                   # GA's default distribution, copied to ScaLAPACK
//	./mpirun.sh -np 4 bin/demo -n 1000         # or run it under mpirun
//
// By default A and b are block-cyclic arrays in ScaLAPACK's layout (nb × nb
// blocks on a near-square grid), which LuSolve solves where they lie; nb also
// sets the block size LuSolve copies other layouts into.
//
// It prints the process grid, the solve time, ScaLAPACK's scaled residual
// ||A·x − b|| / (||A||·||x||·n·eps) (below 16 is a pass), and the first
// entries of x, which should all be 1.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/program"
	"github.com/goga-hpc/goga/mpi"
)

var (
	n  = flag.Int("n", 2000, "order of the generated matrix")
	nb = flag.Int("nb", 32, "ScaLAPACK block size")
	np = flag.Int("np", 4, "number of ranks, when the demo starts mpirun itself")
	mm = flag.String("mm", "", "solve with this Matrix Market matrix instead of the generated one")

	layout = flag.String("layout", "blockcyclic", "distribution of A and b: blockcyclic (ScaLAPACK's, solved in place) or regular (GA's default, copied)")
)

func main() {
	flag.Parse()
	program.Main("demo", *np, run)
}

// entry is the generated matrix: pseudo-random in [-1, 1) from (i, j) alone,
// so every process computes its own block, whatever the distribution.
func entry(i, j int) float64 {
	h := uint64(i)*0x9E3779B97F4A7C15 ^ uint64(j)*0xC2B2AE3D27D4EB4F
	h ^= h >> 31
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 29
	return float64(h>>11)/float64(1<<53)*2 - 1
}

func run() error {
	if err := ga.Init(); err != nil {
		return err
	}
	defer ga.Terminate()
	if err := ga.SetSolverBlockSize(*nb); err != nil {
		return err
	}
	me := ga.Nodeid()

	rows := int(math.Sqrt(float64(ga.Nnodes())))
	for ga.Nnodes()%rows != 0 {
		rows--
	}
	cols := ga.Nnodes() / rows
	size := *n
	var src *ga.Array[float64]
	if *mm != "" {
		var err error
		if src, err = ga.LoadMatrixMarket("A", *mm); err != nil {
			return err
		}
		if d := src.Dims(); d[0] != d[1] {
			return fmt.Errorf("the matrix is %v; it must be square", d)
		}
		size = src.Dims()[0]
	}
	// newArray makes A or b in the chosen layout. Block-cyclic arrays use the
	// transposed grid, cols × rows: ScaLAPACK reads their storage as the
	// transpose, on a rows × cols BLACS grid.
	newArray := func(name string, width int) (*ga.Array[float64], error) {
		switch *layout {
		case "regular":
			return ga.Create[float64](name, []int{size, width}, nil)
		case "blockcyclic":
			return ga.New[float64](size, width).Name(name).
				BlockCyclicGrid([]int{*nb, min(*nb, width)}, []int{cols, rows}).Allocate()
		}
		return nil, fmt.Errorf("-layout %q: want blockcyclic or regular", *layout)
	}
	a, err := newArray("A", size)
	if err != nil {
		return err
	}
	if src != nil {
		if err := ga.Copy(src, a); err != nil {
			return err
		}
		if err := src.Destroy(); err != nil {
			return err
		}
	} else {
		// Every process fills the blocks it owns, in place.
		for _, k := range a.LocalBlocks() {
			lo, hi, _ := a.Distribution(k)
			data, ld, err := a.AccessBlock(k)
			if err != nil {
				return err
			}
			for i := lo[0]; i <= hi[0]; i++ {
				for j := lo[1]; j <= hi[1]; j++ {
					data[(i-lo[0])*ld[0]+j-lo[1]] = entry(i, j)
				}
			}
		}
		if err := ga.Sync(); err != nil {
			return err
		}
	}
	// b = A·ones: every process accumulates the row sums of its blocks.
	b, err := newArray("b", 1)
	if err != nil {
		return err
	}
	if err := b.Zero(); err != nil {
		return err
	}
	for _, k := range a.LocalBlocks() {
		lo, hi, _ := a.Distribution(k)
		data, ld, err := a.AccessBlock(k)
		if err != nil {
			return err
		}
		sums := make([]float64, hi[0]-lo[0]+1)
		for i := range sums {
			for j := range hi[1] - lo[1] + 1 {
				sums[i] += data[i*ld[0]+j]
			}
		}
		if err := b.Acc([]int{lo[0], 0}, []int{hi[0], 0}, sums, nil, 1); err != nil {
			return err
		}
	}
	if err := ga.Sync(); err != nil {
		return err
	}
	rhs := make([]float64, size)
	if err := b.Get([]int{0, 0}, []int{size - 1, 0}, rhs, nil); err != nil {
		return err
	}

	if me == 0 {
		fmt.Printf("goga demo: solving a %d × %d system on %d ranks, a %d × %d process grid, blocks of %d, %s layout\n",
			size, size, ga.Nnodes(), rows, cols, *nb, *layout)
	}
	t := mpi.Wtime()
	if err := ga.LuSolve(ga.NoTrans, a, b); err != nil {
		return err
	}
	elapsed := mpi.Wtime() - t

	if me == 0 {
		x := make([]float64, size)
		if err := b.Get([]int{0, 0}, []int{size - 1, 0}, x, nil); err != nil {
			return err
		}
		full := make([]float64, size*size)
		if err := a.Get([]int{0, 0}, []int{size - 1, size - 1}, full, nil); err != nil {
			return err
		}
		var rmax, amax, xmax float64
		for i := range size {
			row, s := 0.0, 0.0
			for j := range size {
				row += math.Abs(full[i*size+j])
				s += full[i*size+j] * x[j]
			}
			amax, xmax = max(amax, row), max(xmax, math.Abs(x[i]))
			rmax = max(rmax, math.Abs(s-rhs[i]))
		}
		res := rmax / (amax * xmax * float64(size) * 0x1p-52)
		fmt.Printf("time %.3f s\n", elapsed)
		verdict := "pass"
		if !(res < 16) {
			verdict = "FAIL"
		}
		fmt.Printf("scaled residual %.3g (%s: below 16)\n", res, verdict)
		fmt.Printf("x[0:%d] = %.12f\n", min(5, size), x[:min(5, size)])
		if verdict != "pass" {
			return fmt.Errorf("residual %g", res)
		}
	}
	return ga.Sync()
}
