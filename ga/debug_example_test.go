package ga_test

import (
	"fmt"
	"log"
	"os"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/mpi"
)

// Tracing shows each collective call with the arguments the processes agree
// on; a handle check after Destroy is an error, not an abort.
func ExampleSetDebug() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	if err := ga.Init(); err != nil {
		log.Fatal(err)
	}
	defer ga.Terminate()
	ga.SetDebugOutput(os.Stdout)
	ga.SetDebug(ga.Nnodes() == 1) // one line per process: keep the example's output to one
	a, err := ga.Create[float64]("A", []int{4, 6}, nil)
	if err != nil {
		log.Fatal(err)
	}
	ga.SetDebug(false)
	if err := a.Destroy(); err != nil {
		log.Fatal(err)
	}
	if ga.Nodeid() == 0 {
		fmt.Println(a.Valid(), a.CheckHandle("after the loop"))
	}
	// Output:
	// ga: process 0: Create type=float64 dims=[4 6] chunk=[] ghosts=[] restricted=[] mirrored=false device=
	// false ga: CheckHandle on "A": after the loop: array has been destroyed
}
