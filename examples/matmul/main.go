// Command matmul multiplies two matrices read from Matrix Market files, as
// global arrays, and solves a system with the product: C = A·B by Gemm,
// then A·X = C by Solve, which must give back X = B.
//
//	go build -o bin/matmul ./examples/matmul
//	./mpirun.sh -np 4 bin/matmul -a testdata/nonsym6.mtx -b examples/matmul/testdata/b6x3.mtx
//	./mpirun.sh -np 4 bin/matmul -a testdata/spd5.mtx -b testdata/spd5.mtx
//
// Both operations go to ScaLAPACK; the program prints how long each took,
// checks C against a product computed on one process from the files, and X
// against B, and exits non-zero if either is wrong.
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/program"
	"github.com/goga-hpc/goga/mpi"
)

var (
	aFile = flag.String("a", "testdata/nonsym6.mtx", "Matrix Market file of A (square, to be solved with)")
	bFile = flag.String("b", "examples/matmul/testdata/b6x3.mtx", "Matrix Market file of B")
)

func main() {
	flag.Parse()
	program.Main("matmul", 1, func() error { return run(os.Stdout) })
}

func run(out io.Writer) error {
	if err := ga.Init(); err != nil {
		return err
	}
	defer ga.Terminate()
	// Process 0 reads each file and puts it in; every process gets the
	// same error if a file is wrong.
	a, err := ga.LoadMatrixMarket("A", *aFile)
	if err != nil {
		return err
	}
	defer a.Destroy()
	b, err := ga.LoadMatrixMarket("B", *bFile)
	if err != nil {
		return err
	}
	defer b.Destroy()
	n, k, m := a.Dims()[0], a.Dims()[1], b.Dims()[1]
	if n != k || b.Dims()[0] != k {
		return fmt.Errorf("A is %v and B %v: want A square and B with as many rows", a.Dims(), b.Dims())
	}
	c, err := ga.Create[float64]("C", []int{n, m}, nil)
	if err != nil {
		return err
	}
	defer c.Destroy()

	t := mpi.Wtime()
	if err := ga.Gemm(ga.NoTrans, ga.NoTrans, n, m, k, 1, a, b, 0, c); err != nil {
		return err
	}
	product := mpi.Wtime() - t
	x, err := c.Duplicate("X")
	if err != nil {
		return err
	}
	defer x.Destroy()
	if err := ga.Copy(c, x); err != nil {
		return err
	}
	t = mpi.Wtime()
	if err := ga.Solve(a, x); err != nil { // X = A⁻¹·C, in place of C's copy
		return err
	}
	solve := mpi.Wtime() - t

	var verdict error
	if ga.Nodeid() == 0 {
		fmt.Fprintf(out, "C = A·B: %d × %d times %d × %d on %d processes in %.3f ms\n", n, k, k, m, ga.Nnodes(), product*1e3)
		fmt.Fprintf(out, "A·X = C: solved for %d right-hand sides in %.3f ms\n", m, solve*1e3)
		verdict = check(out, c, x)
	}
	if err := ga.Sync(); err != nil {
		return err
	}
	return verdict
}

// check compares C with the product of the files' matrices and X with B,
// read from the files on this process alone.
func check(out io.Writer, c, x *ga.Array[float64]) error {
	_, k, av, err := readFile(*aFile)
	if err != nil {
		return err
	}
	_, m, bv, err := readFile(*bFile)
	if err != nil {
		return err
	}
	n := c.Dims()[0]
	got := make([]float64, n*m)
	if err := c.Get([]int{0, 0}, []int{n - 1, m - 1}, got, nil); err != nil {
		return err
	}
	// Entries are compared relative to the sizes of the terms summed.
	var cerr float64
	for i := range n {
		for j := range m {
			want, scale := 0.0, 0.0
			for l := range k {
				want += av[i*k+l] * bv[l*m+j]
				scale += math.Abs(av[i*k+l] * bv[l*m+j])
			}
			cerr = max(cerr, math.Abs(got[i*m+j]-want)/max(scale, math.SmallestNonzeroFloat64))
		}
	}
	if err := x.Get([]int{0, 0}, []int{n - 1, m - 1}, got, nil); err != nil {
		return err
	}
	var xerr, bmax float64
	for i, v := range bv {
		xerr, bmax = max(xerr, math.Abs(got[i]-v)), max(bmax, math.Abs(v))
	}
	xerr /= max(bmax, math.SmallestNonzeroFloat64)
	fmt.Fprintf(out, "largest relative error: C %.2e, X against B %.2e\n", cerr, xerr)
	if cerr > 1e-14 || xerr > 1e-10 {
		return fmt.Errorf("wrong answer: C's relative error %.2e, X's %.2e", cerr, xerr)
	}
	return nil
}

func readFile(path string) (rows, cols int, data []float64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, nil, err
	}
	defer f.Close()
	return ga.ReadMatrixMarket(f)
}
