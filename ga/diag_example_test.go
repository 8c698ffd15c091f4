package ga_test

import (
	"fmt"
	"log"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/mpi"
)

// The eigenpairs of a symmetric 3 × 3 array: eigenvalues 1, 2 and 4, with
// eigenvectors (rows of v) (0, 0, 1), (1, -1, 0)/√2 and (1, 1, 0)/√2, each up
// to its sign.
func ExampleDiagStd() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	if err := ga.Init(); err != nil {
		log.Fatal(err)
	}
	defer ga.Terminate()
	a, err := ga.Create[float64]("A", []int{3, 3}, nil)
	if err != nil {
		log.Fatal(err)
	}
	v, err := a.Duplicate("V")
	if err != nil {
		log.Fatal(err)
	}
	if ga.Nodeid() == 0 {
		if err := a.Put([]int{0, 0}, []int{2, 2}, []float64{3, 1, 0, 1, 3, 0, 0, 0, 1}, nil); err != nil {
			log.Fatal(err)
		}
	}
	if err := ga.Sync(); err != nil {
		log.Fatal(err)
	}
	vals, err := ga.DiagStd(a, v)
	if err != nil {
		log.Fatal(err)
	}
	row := make([]float64, 3)
	if err := v.Get([]int{2, 0}, []int{2, 2}, row, nil); err != nil {
		log.Fatal(err)
	}
	if ga.Nodeid() == 0 {
		fmt.Printf("%.4f\n%.4f\n", vals, row[0]*row[1]) // the sign cancels
	}
	// Output:
	// [1.0000 2.0000 4.0000]
	// 0.5000
}
