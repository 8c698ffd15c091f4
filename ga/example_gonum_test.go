package ga_test

import (
	"fmt"
	"log"

	"gonum.org/v1/gonum/mat"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/mpi"
)

// A process works on its own block with gonum, in place; a patch comes back
// as a gonum matrix, and a product of patches is MatmulPatch.
func ExampleLocalDense() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	if err := ga.Init(); err != nil {
		log.Fatal(err)
	}
	defer ga.Terminate()
	a, err := ga.Create[float64]("A", []int{4, 4}, nil)
	if err != nil {
		log.Fatal(err)
	}
	// New arrays are not initialized, as in GA: zero them, then each
	// process sets its block to the identity's entries there.
	if err := a.Zero(); err != nil {
		log.Fatal(err)
	}
	if m, lo, ok, err := ga.LocalDense(a); err != nil {
		log.Fatal(err)
	} else if ok {
		r, c := m.Dims()
		for i := range r {
			for j := range c {
				if lo[0]+i == lo[1]+j {
					m.Set(i, j, 1)
				}
			}
		}
	}
	if err := ga.Sync(); err != nil {
		log.Fatal(err)
	}
	// C's top-left 2 × 2 = 3·A[1:3, 1:3]·A[1:3, 1:3].
	c, err := ga.Create[float64]("C", []int{4, 4}, nil)
	if err != nil {
		log.Fatal(err)
	}
	if err := c.Zero(); err != nil {
		log.Fatal(err)
	}
	lo, hi := []int{1, 1}, []int{2, 2}
	if err := ga.MatmulPatch(ga.NoTrans, ga.NoTrans, 3.0, a, lo, hi, a, lo, hi, 0.0, c, []int{0, 0}, []int{1, 1}); err != nil {
		log.Fatal(err)
	}
	p, err := ga.GetDense(c, []int{0, 0}, []int{1, 2})
	if err != nil {
		log.Fatal(err)
	}
	if ga.Nodeid() == 0 {
		fmt.Println(mat.Formatted(p))
	}
	// Output:
	// ⎡3  0  0⎤
	// ⎣0  3  0⎦
}
