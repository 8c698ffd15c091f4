package mpi_test

import (
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"

	"github.com/goga-hpc/goga/mpi"
)

func ExampleSendrecv() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	w := mpi.World()
	// A ring: each rank sends its rank to the next and hears from the one
	// before (on one rank, itself).
	n, me := w.Size(), w.Rank()
	got := []int{-1}
	st, err := mpi.Sendrecv(w, []int{me}, (me+1)%n, 7, got, (me+n-1)%n, 7)
	if err != nil {
		log.Fatal(err)
	}
	if me == 0 {
		fmt.Printf("rank 0 heard %d from rank %d (tag %d)\n", got[0], st.Source, st.Tag)
	}
	// Output: rank 0 heard 0 from rank 0 (tag 7)
}

func ExampleBcast() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	w := mpi.World()
	// Rank 0's values reach every rank.
	buf := make([]float64, 3)
	if w.Rank() == 0 {
		copy(buf, []float64{1.5, 2.5, 3.5})
	}
	if err := mpi.Bcast(w, buf, 0); err != nil {
		log.Fatal(err)
	}
	fmt.Println(buf)
	// Output: [1.5 2.5 3.5]
}

func ExampleFileOpen() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	w := mpi.World()
	// Every rank writes two int64s at its own place in one shared file,
	// collectively, and reads back its neighbour's. The file goes away at
	// Close.
	name := filepath.Join(os.TempDir(), "goga-example-fileopen")
	f, err := mpi.FileOpen(w, name, mpi.ModeCreate|mpi.ModeRdwr|mpi.ModeDeleteOnClose, nil)
	if err != nil {
		log.Fatal(err)
	}
	n, me := w.Size(), w.Rank()
	if _, err := mpi.WriteAtAll(f, me*16, []int64{int64(10 * me), int64(10*me + 1)}); err != nil {
		log.Fatal(err)
	}
	// MPI's rule for reading what another rank wrote: sync, barrier, sync.
	if err := f.Sync(); err != nil {
		log.Fatal(err)
	}
	if err := w.Barrier(); err != nil {
		log.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		log.Fatal(err)
	}
	next := (me + 1) % n
	got := make([]int64, 2)
	if _, err := mpi.ReadAtAll(f, next*16, got); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
	if me == 0 {
		fmt.Printf("rank 0 read %v, written by rank %d\n", got, next)
	}
	// Output: rank 0 read [0 1], written by rank 0
}

func ExampleNewOp() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	w := mpi.World()
	// The largest magnitude with its sign: an operator MPI does not have.
	absMax, err := mpi.NewOp(func(in, inout []float64) {
		for i, v := range in {
			if math.Abs(v) > math.Abs(inout[i]) {
				inout[i] = v
			}
		}
	}, true)
	if err != nil {
		log.Fatal(err)
	}
	defer absMax.Free()
	x := []float64{-3 * float64(w.Rank()+1)}
	if err := mpi.Allreduce(w, nil, x, absMax); err != nil {
		log.Fatal(err)
	}
	if w.Rank() == 0 {
		fmt.Println("largest magnitude:", x[0])
	}
	// Output: largest magnitude: -3
}
