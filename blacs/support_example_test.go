package blacs_test

import (
	"fmt"
	"log"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/mpi"
)

// The guide's App. E: three increasing rings for the multiring broadcast,
// which the grid keeps until they are set again.
func ExampleGrid_Set() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	me, n, err := blacs.Pinfo()
	if err != nil {
		log.Fatal(err)
	}
	g, err := blacs.GridInit(mpi.World(), blacs.RowMajor, 1, n)
	if err != nil {
		log.Fatal(err)
	}
	defer g.Exit()
	if err := g.Set(blacs.BroadcastRings, 3); err != nil {
		log.Fatal(err)
	}
	x := []float64{0, 0}
	if me == 0 {
		x = []float64{2.5, -1}
		err = blacs.Gebs2d(g, blacs.Row, "M", 2, 1, x, 2)
	} else {
		err = blacs.Gebr2d(g, blacs.Row, "M", 2, 1, x, 2, 0, 0)
	}
	if err != nil {
		log.Fatal(err)
	}
	rings, _ := g.Get(blacs.BroadcastRings)
	if me == 0 {
		fmt.Println(rings, x, g.Set(blacs.BroadcastRings, 0))
	}
	// Output:
	// 3 [2.5 -1] blacs: Set: BroadcastRings: 0 rings; want a non-zero count (below 0: decreasing rings)
}
