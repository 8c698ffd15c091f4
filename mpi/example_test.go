package mpi_test

import (
	"fmt"
	"log"

	"github.com/goga-hpc/goga/mpi"
)

// Examples run as written on any number of ranks; under `go test` they run on
// one. A program ends with mpi.Finalize().

func ExampleAllreduce() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	w := mpi.World()
	// Every rank contributes rank+1; every rank gets n(n+1)/2.
	sum := []int{0}
	if err := mpi.Allreduce(w, []int{w.Rank() + 1}, sum, mpi.Sum); err != nil {
		log.Fatal(err)
	}
	if w.Rank() == 0 {
		fmt.Println("sum:", sum[0])
	}
	// Output: sum: 1
}

func ExampleComm_Split() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	w := mpi.World()
	// Even and odd ranks form two communicators.
	half, err := w.Split(w.Rank()%2, w.Rank())
	if err != nil {
		log.Fatal(err)
	}
	defer half.Free()
	if w.Rank() == 0 {
		fmt.Printf("world rank 0 is rank %d of %d in its half\n", half.Rank(), half.Size())
	}
	// Output: world rank 0 is rank 0 of 1 in its half
}

func ExampleWinAllocate() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	w := mpi.World()
	// Each rank exposes four float64s; every rank adds to rank 0's window.
	win, err := mpi.WinAllocate(w, 4*8, 8)
	if err != nil {
		log.Fatal(err)
	}
	defer win.Free()
	// A new window's memory is undefined, as MPI_Alloc_mem's: zero it
	// before anyone adds to it.
	loc, err := mpi.Local[float64](win)
	if err != nil {
		log.Fatal(err)
	}
	clear(loc)
	if err := w.Barrier(); err != nil {
		log.Fatal(err)
	}
	if err := win.LockAll(0); err != nil {
		log.Fatal(err)
	}
	if err := mpi.Accumulate(win, []float64{1, 2, 3, 4}, 0, 0, mpi.Sum); err != nil {
		log.Fatal(err)
	}
	if err := win.Flush(0); err != nil {
		log.Fatal(err)
	}
	if err := w.Barrier(); err != nil {
		log.Fatal(err)
	}
	got := make([]float64, 4)
	if err := mpi.Get(win, got, 0, 0); err != nil {
		log.Fatal(err)
	}
	if err := win.Flush(0); err != nil {
		log.Fatal(err)
	}
	if err := win.UnlockAll(); err != nil {
		log.Fatal(err)
	}
	if w.Rank() == 0 {
		fmt.Println(got)
	}
	// Output: [1 2 3 4]
}
