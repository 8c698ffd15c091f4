package blacs_test

import (
	"fmt"
	"log"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/mpi"
)

// The examples run as written on any number of processes; under go test
// they run on one.

// row starts MPI and puts all n processes in one row: n columns, numbered
// row-major.
func row() *blacs.Grid {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	g, err := blacs.GridInit(mpi.World(), blacs.RowMajor, 1, mpi.World().Size())
	if err != nil {
		log.Fatal(err)
	}
	return g
}

func ExampleGridInit() {
	g := row()
	defer g.Exit()
	rows, cols, myrow, mycol := g.Info()
	last, err := g.Pnum(0, cols-1)
	if err != nil {
		log.Fatal(err)
	}
	if mpi.World().Rank() == 0 {
		fmt.Printf("grid %d × %d, process 0 at (%d, %d), the last column is process %d\n", rows, cols, myrow, mycol, last)
	}
	// Output: grid 1 × 1, process 0 at (0, 0), the last column is process 0
}

func ExampleGsum2d() {
	g := row()
	defer g.Exit()
	n := mpi.World().Size()
	// Each process contributes a 2 × 1 column; row -1 and column -1 leave
	// the sum on every process of the scope (here the whole grid).
	a := []float64{1, float64(mpi.World().Rank())}
	if err := blacs.Gsum2d(g, blacs.All, " ", 2, 1, a, 2, -1, -1); err != nil {
		log.Fatal(err)
	}
	if mpi.World().Rank() == 0 {
		fmt.Println(a, "=", n, "and", n*(n-1)/2)
	}
	// Output: [1 0] = 1 and 0
}
