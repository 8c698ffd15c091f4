package ga_test

import (
	"fmt"
	"log"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/mpi"
)

// Examples run as written on any number of processes; under go test they run
// on one. They start MPI themselves, as a program that also uses MPI directly
// would: ga.Init then adopts it, and ga.Terminate leaves it running.

func ExampleCreate() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	if err := ga.Init(); err != nil {
		log.Fatal(err)
	}
	defer ga.Terminate()
	a, err := ga.Create[float64]("A", []int{4, 6}, nil)
	if err != nil {
		log.Fatal(err)
	}
	if err := a.Fill(2); err != nil {
		log.Fatal(err)
	}
	// Put a 2×3 patch, then read back a row that crosses it.
	if err := a.Put([]int{1, 1}, []int{2, 3}, []float64{1, 2, 3, 4, 5, 6}, nil); err != nil {
		log.Fatal(err)
	}
	row := make([]float64, 6)
	if err := a.Get([]int{2, 0}, []int{2, 5}, row, nil); err != nil {
		log.Fatal(err)
	}
	if ga.Nodeid() == 0 {
		fmt.Println(row)
	}
	// Output: [2 4 5 6 2 2]
}

func ExampleArray_ReadInc() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	if err := ga.Init(); err != nil {
		log.Fatal(err)
	}
	defer ga.Terminate()
	// A shared task counter: every ReadInc returns a different ticket.
	c, err := ga.Create[int64]("counter", []int{1}, nil)
	if err != nil {
		log.Fatal(err)
	}
	if err := c.Zero(); err != nil {
		log.Fatal(err)
	}
	var tickets []int64
	for range 3 {
		t, err := c.ReadInc([]int{0}, 1)
		if err != nil {
			log.Fatal(err)
		}
		tickets = append(tickets, t)
	}
	if ga.Nodeid() == 0 {
		fmt.Println(tickets)
	}
	// Output: [0 1 2]
}
