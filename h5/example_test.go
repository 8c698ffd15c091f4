package h5_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/h5"
	"github.com/goga-hpc/goga/mpi"
)

// Examples run as written on any number of processes (in a directory they
// all see); under go test they run on one.

// A field and its units go to an HDF5 file, in a group, and come back.
func ExampleWrite() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	if err := ga.Init(); err != nil {
		log.Fatal(err)
	}
	defer ga.Terminate()
	dir, err := os.MkdirTemp("", "h5-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "run.h5")

	u, err := ga.Create[float64]("u", []int{4, 6}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer u.Destroy()
	if ga.Nodeid() == 0 {
		vals := make([]float64, 24)
		for i := range vals {
			vals[i] = float64(i) / 2
		}
		u.Put([]int{0, 0}, []int{3, 5}, vals, nil)
	}
	ga.Sync()
	f, err := h5.Create(file)
	if err != nil {
		log.Fatal(err)
	}
	if err := h5.Write(f, "run1/fields/u", u, &h5.Options{Chunk: []int{2, 6}}); err != nil {
		log.Fatal(err)
	}
	if err := f.SetAttr("run1/fields/u", "units", "m/s"); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil { // run.h5 appears, complete
		log.Fatal(err)
	}

	f, err = h5.Open(file, h5.ModeRead)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	info, err := f.Inquire("run1/fields/u")
	if err != nil {
		log.Fatal(err)
	}
	units, err := f.Attr("run1/fields/u", "units")
	if err != nil {
		log.Fatal(err)
	}
	v, err := h5.Load[float64](f, "run1/fields/u", "v")
	if err != nil {
		log.Fatal(err)
	}
	defer v.Destroy()
	row := make([]float64, 6)
	if err := v.Get([]int{3, 0}, []int{3, 5}, row, nil); err != nil {
		log.Fatal(err)
	}
	if ga.Nodeid() == 0 {
		fmt.Println(info.Type, info.Dims, info.Chunk, units)
		fmt.Println(row)
	}
	// Output:
	// float64 [4 6] [2 6] m/s
	// [9 9.5 10 10.5 11 11.5]
}

// A patch of a global array goes into a hyperslab of a larger dataset,
// transposed, and comes back.
func ExampleWriteSection() {
	if _, err := mpi.Init(); err != nil {
		log.Fatal(err)
	}
	if err := ga.Init(); err != nil {
		log.Fatal(err)
	}
	defer ga.Terminate()
	dir, err := os.MkdirTemp("", "h5-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "m.h5")

	a, err := ga.Create[int32]("A", []int{2, 3}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer a.Destroy()
	if ga.Nodeid() == 0 {
		a.Put([]int{0, 0}, []int{1, 2}, []int32{1, 2, 3, 4, 5, 6}, nil)
	}
	ga.Sync()
	f, err := h5.Create(file)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	// A 5 × 5 dataset of zeros; Aᵀ goes into rows 1..3, columns 2..3.
	if err := h5.CreateDataset[int32](f, "m", []int{5, 5}, nil); err != nil {
		log.Fatal(err)
	}
	if err := h5.WriteSection(true, a, []int{0, 0}, []int{1, 2}, f, "m", []int{1, 2}, []int{3, 3}); err != nil {
		log.Fatal(err)
	}
	m, err := h5.Load[int32](f, "m", "M")
	if err != nil {
		log.Fatal(err)
	}
	defer m.Destroy()
	rows := make([]int32, 25)
	if err := m.Get([]int{0, 0}, []int{4, 4}, rows, nil); err != nil {
		log.Fatal(err)
	}
	if ga.Nodeid() == 0 {
		for i := 0; i < 25; i += 5 {
			fmt.Println(rows[i : i+5])
		}
	}
	// Output:
	// [0 0 0 0 0]
	// [0 0 1 4 0]
	// [0 0 2 5 0]
	// [0 0 3 6 0]
	// [0 0 0 0 0]
}
