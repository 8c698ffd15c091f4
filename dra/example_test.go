package dra_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/goga-hpc/goga/dra"
	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/mpi"
)

// Examples run as written on any number of processes (in a directory they
// all see); under go test they run on one.

// A matrix goes to disk and its transposed corner comes back.
func ExampleWriteSection() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	if err := ga.Init(); err != nil {
		log.Fatal(err)
	}
	defer ga.Terminate()
	if err := dra.Init(dra.Limits{}); err != nil {
		log.Fatal(err)
	}
	defer dra.Terminate()
	dir, err := os.MkdirTemp("", "dra-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "m.dra")

	a, err := ga.Create[float64]("A", []int{3, 4}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer a.Destroy()
	if ga.Nodeid() == 0 {
		a.Put([]int{0, 0}, []int{2, 3}, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, nil)
	}
	ga.Sync()
	// A 6 × 6 disk array; A goes into rows 1..3, columns 2..5.
	d, err := dra.Create[float64]([]int{6, 6}, "M", file, dra.ModeWrite, []int{2, 2})
	if err != nil {
		log.Fatal(err)
	}
	r, err := dra.WriteSection(false, a, []int{0, 0}, []int{2, 3}, d, []int{1, 2}, []int{3, 5})
	if err != nil {
		log.Fatal(err)
	}
	if err := r.Wait(); err != nil {
		log.Fatal(err)
	}
	if err := d.Close(); err != nil {
		log.Fatal(err)
	}

	d, err = dra.Open[float64](file, dra.ModeRead)
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	typ, dims, name, _ := d.Inquire()
	b, err := ga.Create[float64]("B", []int{2, 2}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer b.Destroy()
	// Rows 1..2, columns 4..5 of the disk array, transposed.
	r, err = dra.ReadSection(true, b, []int{0, 0}, []int{1, 1}, d, []int{1, 4}, []int{2, 5})
	if err != nil {
		log.Fatal(err)
	}
	if err := r.Wait(); err != nil {
		log.Fatal(err)
	}
	got := make([]float64, 4)
	if err := b.Get([]int{0, 0}, []int{1, 1}, got, nil); err != nil {
		log.Fatal(err)
	}
	if ga.Nodeid() == 0 {
		fmt.Println(name, typ, dims)
		fmt.Println(got[:2])
		fmt.Println(got[2:])
	}
	// Output:
	// M float64 [6 6]
	// [3 7]
	// [4 8]
}

// A global array saved for NumPy: numpy.load("a.npy") reads it.
func ExampleSaveNpy() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	if err := ga.Init(); err != nil {
		log.Fatal(err)
	}
	defer ga.Terminate()
	dir, err := os.MkdirTemp("", "npy-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "a.npy")
	a, err := ga.Create[int32]("A", []int{2, 3}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer a.Destroy()
	if err := a.Fill(7); err != nil {
		log.Fatal(err)
	}
	if err := dra.SaveNpy(a, file); err != nil {
		log.Fatal(err)
	}
	b, err := dra.LoadNpy[int32]("B", file)
	if err != nil {
		log.Fatal(err)
	}
	defer b.Destroy()
	head, err := os.ReadFile(file)
	if err != nil {
		log.Fatal(err)
	}
	if ga.Nodeid() == 0 {
		fmt.Printf("%q\n", head[10:60])
		fmt.Println(b.Dims(), len(head))
	}
	// Output:
	// "{'descr': '<i4', 'fortran_order': False, 'shape': "
	// [2 3] 152
}
