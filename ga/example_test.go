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

func ExampleBuilder_BlockCyclicGrid() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	if err := ga.Init(); err != nil {
		log.Fatal(err)
	}
	defer ga.Terminate()
	// A 4×4 system in 2×2 blocks dealt over an Nnodes × 1 grid: ScaLAPACK's
	// layout, which LuSolve works on in place.
	grid := []int{ga.Nnodes(), 1}
	a, err := ga.New[float64](4, 4).Name("A").BlockCyclicGrid([]int{2, 2}, grid).Allocate()
	if err != nil {
		log.Fatal(err)
	}
	b, err := ga.New[float64](4, 1).Name("b").BlockCyclicGrid([]int{2, 1}, grid).Allocate()
	if err != nil {
		log.Fatal(err)
	}
	// Each process writes A = 4·I + 1 into the blocks it owns.
	if err := a.Fill(1); err != nil {
		log.Fatal(err)
	}
	for _, i := range a.LocalBlocks() {
		lo, hi, _ := a.Distribution(i)
		data, ld, err := a.AccessBlock(i)
		if err != nil {
			log.Fatal(err)
		}
		for k := max(lo[0], lo[1]); k <= min(hi[0], hi[1]); k++ {
			data[(k-lo[0])*ld[0]+k-lo[1]] += 4
		}
	}
	if err := b.Fill(8); err != nil {
		log.Fatal(err)
	}
	if err := ga.LuSolve(ga.NoTrans, a, b); err != nil {
		log.Fatal(err)
	}
	x := make([]float64, 4)
	if err := b.Get([]int{0, 0}, []int{3, 0}, x, nil); err != nil {
		log.Fatal(err)
	}
	if ga.Nodeid() == 0 {
		fmt.Printf("%d blocks, x = %.6f\n", a.TotalBlocks(), x)
	}
	// Output: 4 blocks, x = [1.000000 1.000000 1.000000 1.000000]
}
