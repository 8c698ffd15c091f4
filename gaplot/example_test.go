package gaplot_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/gaplot"
	"github.com/goga-hpc/goga/mpi"
)

func ExampleSave() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	if err := ga.Init(); err != nil {
		log.Fatal(err)
	}
	defer ga.Terminate()
	a, err := ga.New[float64](12, 20).Name("A").BlockCyclic(6, 5).Allocate()
	if err != nil {
		log.Fatal(err)
	}
	defer a.Destroy()
	if ga.Nodeid() != 0 { // one process draws; the queries are local
		return
	}
	dir, err := os.MkdirTemp("", "gaplot")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	o := gaplot.Options{PatchLo: []int{2, 3}, PatchHi: []int{8, 12}}
	if err := gaplot.Save(a, o, filepath.Join(dir, "a.svg"), filepath.Join(dir, "a.png")); err != nil {
		log.Fatal(err)
	}
	// What the picture shows: each block's rows and columns, and its owner.
	blocks, err := gaplot.Blocks(a, o)
	if err != nil {
		log.Fatal(err)
	}
	for _, b := range blocks[:3] {
		fmt.Printf("block %d: rows %d-%d, columns %d-%d, P%d\n", b.Index, b.Lo[0], b.Hi[0], b.Lo[1], b.Hi[1], b.Rank)
	}
	// Output:
	// block 0: rows 0-5, columns 0-4, P0
	// block 1: rows 0-5, columns 5-9, P0
	// block 2: rows 0-5, columns 10-14, P0
}
