package scalapack_test

import (
	"fmt"
	"log"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/mpi"
	"github.com/goga-hpc/goga/scalapack"
)

// The examples run as written on any number of processes (the grid takes
// them all, in one row); under go test they run on one.

// grid starts MPI and puts every process in a 1 × n BLACS grid.
func grid() *blacs.Grid {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	g, err := blacs.GridInit(mpi.World(), blacs.RowMajor, 1, mpi.World().Size())
	if err != nil {
		log.Fatal(err)
	}
	return g
}

// matrix is an m × n block-cyclic matrix in 2 × 2 blocks with entries f(i, j).
func matrix(g *blacs.Grid, m, n int, f func(i, j int) float64) *scalapack.Matrix[float64] {
	a, err := scalapack.NewMatrix[float64](g, m, n, 2, 2)
	if err != nil {
		log.Fatal(err)
	}
	a.Fill(f)
	return a
}

// printRows prints a gathered column-major m × n matrix row by row.
func printRows(data []float64, m, n int) {
	for i := range m {
		row := make([]float64, n)
		for j := range n {
			row[j] = data[i+j*m]
		}
		fmt.Println(row)
	}
}

func ExampleGesv() {
	g := grid()
	defer g.Exit()
	// A = [4 1 0; 1 3 1; 0 1 2] and b = A·[1 2 3] = [6 10 8].
	aij := [][]float64{{4, 1, 0}, {1, 3, 1}, {0, 1, 2}}
	a := matrix(g, 3, 3, func(i, j int) float64 { return aij[i][j] })
	b := matrix(g, 3, 1, func(i, _ int) float64 { return []float64{6, 10, 8}[i] })
	if err := scalapack.Gesv(a, b); err != nil { // b becomes x
		log.Fatal(err)
	}
	x, err := b.Gather()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%.6f\n", x)
	// Output: [1.000000 2.000000 3.000000]
}

func ExamplePosv() {
	g := grid()
	defer g.Exit()
	// The (2, -1) matrix of order 4 is positive definite; A·ones = [1 0 0 1].
	a := matrix(g, 4, 4, func(i, j int) float64 {
		switch i - j {
		case 0:
			return 2
		case 1, -1:
			return -1
		}
		return 0
	})
	b := matrix(g, 4, 1, func(i, _ int) float64 { return []float64{1, 0, 0, 1}[i] })
	if err := scalapack.Posv(scalapack.Lower, a, b); err != nil {
		log.Fatal(err)
	}
	x, err := b.Gather()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%.6f\n", x)

	// A matrix that is not positive definite is a typed error.
	c := matrix(g, 2, 2, func(i, j int) float64 { return [][]float64{{1, 2}, {2, 1}}[i][j] })
	d := matrix(g, 2, 1, func(int, int) float64 { return 1 })
	fmt.Println(scalapack.Posv(scalapack.Lower, c, d))
	// Output:
	// [1.000000 1.000000 1.000000 1.000000]
	// scalapack: Posv: the matrix is not positive definite (leading minor of order 2)
}

func ExampleGemm() {
	g := grid()
	defer g.Exit()
	// C = Aᵀ·B for A = [1 2; 3 4; 5 6] and B = [1 0; 0 1; 1 1].
	a := matrix(g, 3, 2, func(i, j int) float64 { return float64(2*i + j + 1) })
	b := matrix(g, 3, 2, func(i, j int) float64 { return [][]float64{{1, 0}, {0, 1}, {1, 1}}[i][j] })
	c := matrix(g, 2, 2, func(int, int) float64 { return 0 })
	if err := scalapack.Gemm(scalapack.Transpose, scalapack.NoTrans, 1, a, b, 0, c); err != nil {
		log.Fatal(err)
	}
	data, err := c.Gather()
	if err != nil {
		log.Fatal(err)
	}
	printRows(data, 2, 2)
	// Output:
	// [6 8]
	// [8 10]
}

func ExampleNumroc() {
	// How many of 10 rows, in blocks of 3, each of 3 process rows holds:
	// blocks 0 and 3 (4 rows: the last block has 1), block 1, block 2.
	var rows []int
	for p := range 3 {
		rows = append(rows, scalapack.Numroc(10, 3, p, 0, 3))
	}
	fmt.Println(rows)
	// Where global row 7 lives: process row 2, its local row 1.
	fmt.Println(scalapack.GlobalToProc(7, 3, 0, 3), scalapack.GlobalToLocal(7, 3, 3))
	// Output:
	// [4 3 3]
	// 2 1
}
