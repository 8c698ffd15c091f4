package h5_test

import (
	"path/filepath"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/h5"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// offset is h5.RawOffset of path.
func offset[T ga.Elem](t *testing.T, f *h5.File, path string) int {
	t.Helper()
	at, err := h5.RawOffset[T](f, path)
	must(t, err)
	return at
}

// writeAll writes a new array of T and dims holding val to path.
func writeAll[T ga.Elem](t *testing.T, f *h5.File, path string, dims []int) {
	t.Helper()
	g := newArray[T](t, path, dims)
	defer mpitest.Cleanup(t, g.Destroy)
	must(t, h5.Write(f, path, g, nil))
}

// TestDirectWrites: whole rows of a contiguous dataset of each element
// type are written by the processes themselves, at the offset HDF5 gives
// the dataset, and read back as written; a chunked dataset and a section
// of part of the rows go through HDF5; the rest of a dataset stays zero.
func TestDirectWrites(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		dir := start(t)
		defer stop(t)
		name := filepath.Join(dir, "direct.h5")
		f, err := h5.Create(name)
		must(t, err)
		writeAll[int32](t, f, "t/int32", []int{7})
		writeAll[int64](t, f, "t/int64", []int{5, 3})
		writeAll[float32](t, f, "t/float32", []int{3, 4, 5})
		writeAll[float64](t, f, "t/float64", []int{11, 2})
		writeAll[complex64](t, f, "t/complex64", []int{4, 3})
		writeAll[complex128](t, f, "t/complex128", []int{2, 2, 3})
		for _, at := range []int{offset[int32](t, f, "t/int32"), offset[int64](t, f, "t/int64"),
			offset[float32](t, f, "t/float32"), offset[float64](t, f, "t/float64"),
			offset[complex64](t, f, "t/complex64"), offset[complex128](t, f, "t/complex128")} {
			if at < 0 {
				t.Errorf("a contiguous dataset: RawOffset %d, want the processes to write it", at)
			}
		}

		const rows, cols = 9, 6
		g := newArray[float64](t, "g", []int{rows, cols}) // g(i, j) = val(i·cols + j)
		defer mpitest.Cleanup(t, g.Destroy)
		must(t, h5.CreateDataset[float64](f, "c", []int{rows, cols}, nil))
		must(t, h5.CreateDataset[float64](f, "k", []int{rows, cols}, &h5.Options{Chunk: []int{2, 3}}))
		if at := offset[float64](t, f, "k"); at != -1 {
			t.Errorf("a chunked dataset: RawOffset %d, want -1 (HDF5 writes it)", at)
		}
		want := make([]float64, rows*cols)
		for _, path := range []string{"c", "k"} {
			// Rows 2 to 5 of g into rows 3 to 6, whole rows; a block of
			// part of two rows into rows 0 and 1.
			must(t, h5.WriteSection(false, g, []int{2, 0}, []int{5, cols - 1}, f, path, []int{3, 0}, []int{6, cols - 1}))
			must(t, h5.WriteSection(false, g, []int{0, 1}, []int{1, 3}, f, path, []int{0, 2}, []int{1, 4}))
		}
		for i := range 4 {
			for j := range cols {
				want[(i+3)*cols+j] = val[float64]((i+2)*cols + j)
			}
		}
		for i := range 2 {
			for j := range 3 {
				want[i*cols+j+2] = val[float64](i*cols + j + 1)
			}
		}
		must(t, f.Close())

		f, err = h5.Open(name, h5.ModeRead)
		must(t, err)
		defer func() { must(t, f.Close()) }()
		readAll[int32](t, f, "t/int32")
		readAll[int64](t, f, "t/int64")
		readAll[float32](t, f, "t/float32")
		readAll[float64](t, f, "t/float64")
		readAll[complex64](t, f, "t/complex64")
		readAll[complex128](t, f, "t/complex128")
		for _, path := range []string{"c", "k"} {
			d, err := h5.Load[float64](f, path, path)
			must(t, err)
			for i, v := range whole(t, d) {
				if v != want[i] {
					t.Errorf("%s (%d, %d) = %v, want %v", path, i/cols, i%cols, v, want[i])
				}
			}
			must(t, d.Destroy())
		}
	})
}

// readAll loads path and checks that it holds val.
func readAll[T ga.Elem](t *testing.T, f *h5.File, path string) {
	t.Helper()
	d, err := h5.Load[T](f, path, path)
	must(t, err)
	defer mpitest.Cleanup(t, d.Destroy)
	wantVal(t, "Load "+path, whole(t, d))
}

// TestWriteBigEndian: whole rows written into a big-endian dataset that
// h5py made go through HDF5, which converts them, and into a
// little-endian one straight to the file, in ModeReadWrite.
func TestWriteBigEndian(t *testing.T) {
	py := python(t)
	mpitest.Run(t, func(t *testing.T) {
		dir := start(t)
		defer stop(t)
		name := filepath.Join(dir, "be.h5")
		const rows, cols = 5, 2
		runPython(t, py, "make.py", spec{Datasets: []dataset{
			{Path: "fields/be", Dtype: "float64", Dims: []int{rows, cols}, Order: ">"},
			{Path: "fields/le", Dtype: "float64", Dims: []int{rows, cols}},
		}}, name)
		g, err := ga.Create[float64]("g", []int{rows, cols}, nil)
		must(t, err)
		defer mpitest.Cleanup(t, g.Destroy)
		must(t, g.Fill(7.5))
		f, err := h5.Open(name, h5.ModeReadWrite)
		must(t, err)
		if at := offset[float64](t, f, "fields/be"); at != -1 {
			t.Errorf("a big-endian dataset: RawOffset %d, want -1 (HDF5 converts)", at)
		}
		if at := offset[float64](t, f, "fields/le"); at < 0 {
			t.Errorf("a little-endian contiguous dataset: RawOffset %d, want the processes to write it", at)
		}
		for _, path := range []string{"fields/be", "fields/le"} {
			must(t, h5.WriteSection(false, g, []int{0, 0}, []int{2, cols - 1}, f, path, []int{1, 0}, []int{3, cols - 1}))
		}
		must(t, f.Close())
		f, err = h5.Open(name, h5.ModeRead)
		must(t, err)
		defer func() { must(t, f.Close()) }()
		for _, path := range []string{"fields/be", "fields/le"} {
			d, err := h5.Load[float64](f, path, path)
			must(t, err)
			for i, v := range whole(t, d) {
				w := val[float64](i)
				if i/cols >= 1 && i/cols <= 3 {
					w = 7.5
				}
				if v != w {
					t.Errorf("%s (%d, %d) = %v, want %v", path, i/cols, i%cols, v, w)
				}
			}
			must(t, d.Destroy())
		}
	})
}
