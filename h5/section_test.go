package h5_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/h5"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestSections writes patches of a global array into hyperslabs of a
// chunked dataset (straight, transposed, and a row into a column) and reads
// them back, into a file that is then read whole: every element lands
// where the patch syntax says, and the rest of the dataset stays zero.
func TestSections(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		dir := start(t)
		defer stop(t)
		const rows, cols = 10, 12
		name := filepath.Join(dir, "s.h5")
		g := newArray[complex128](t, "g", []int{rows, cols}) // g(i, j) = val(i·cols + j)
		defer mpitest.Cleanup(t, g.Destroy)
		gv := func(i, j int) complex128 { return val[complex128](i*cols + j) }
		f, err := h5.Create(name)
		must(t, err)
		must(t, h5.CreateDataset[complex128](f, "s/d", []int{rows, cols}, &h5.Options{Chunk: []int{4, 5}}))
		must(t, h5.WriteSection(false, g, []int{2, 3}, []int{5, 8}, f, "s/d", []int{0, 0}, []int{3, 5}))
		must(t, h5.WriteSection(true, g, []int{0, 0}, []int{2, 4}, f, "s/d", []int{5, 7}, []int{9, 9}))
		must(t, h5.WriteSection(false, g, []int{4, 1}, []int{4, 10}, f, "s/d", []int{0, 11}, []int{9, 11}))
		want := make([]complex128, rows*cols)
		for i := range 4 {
			for j := range 6 {
				want[i*cols+j] = gv(i+2, j+3)
			}
		}
		for i := range 5 {
			for j := range 3 {
				want[(i+5)*cols+j+7] = gv(j, i)
			}
		}
		for i := range 10 {
			want[i*cols+11] = gv(4, i+1)
		}

		// Read back: the transposed block into a patch of h, the column into
		// a row of h.
		h, err := ga.Create[complex128]("h", []int{rows, cols}, nil)
		must(t, err)
		defer mpitest.Cleanup(t, h.Destroy)
		must(t, h.Zero()) // Create leaves the elements undefined
		must(t, h5.ReadSection(true, h, []int{0, 0}, []int{2, 4}, f, "s/d", []int{5, 7}, []int{9, 9}))
		must(t, h5.ReadSection(false, h, []int{6, 2}, []int{6, 11}, f, "s/d", []int{0, 11}, []int{9, 11}))
		must(t, h5.ReadSection(false, h, []int{7, 0}, []int{9, 1}, f, "s/d", []int{1, 4}, []int{3, 5}))
		got := whole(t, h)
		for i := range rows {
			for j := range cols {
				var w complex128
				switch {
				case i <= 2 && j <= 4:
					w = gv(i, j)
				case i == 6 && j >= 2:
					w = gv(4, j-1)
				case i >= 7 && j <= 1:
					w = gv(i-7+1+2, j+4+3)
				}
				if got[i*cols+j] != w {
					t.Errorf("ReadSection: h(%d, %d) = %v, want %v", i, j, got[i*cols+j], w)
				}
			}
		}
		must(t, f.Close())

		f, err = h5.Open(name, h5.ModeRead)
		must(t, err)
		d, err := h5.Load[complex128](f, "s/d", "d")
		must(t, err)
		defer mpitest.Cleanup(t, d.Destroy)
		for i, v := range whole(t, d) {
			if v != want[i] {
				t.Errorf("dataset (%d, %d) = %v, want %v", i/cols, i%cols, v, want[i])
			}
		}
		must(t, f.Close())

		// ModeReadWrite: row 4 of g into row 4 of the dataset, and an
		// attribute, on a copy that Close publishes.
		f, err = h5.Open(name, h5.ModeReadWrite)
		must(t, err)
		must(t, h5.WriteSection(false, g, []int{4, 0}, []int{4, cols - 1}, f, "s/d", []int{4, 0}, []int{4, cols - 1}))
		must(t, f.SetAttr("s", "edited", int64(1)))
		must(t, f.Close())
		for j := range cols {
			want[4*cols+j] = gv(4, j)
		}
		f, err = h5.Open(name, h5.ModeRead)
		must(t, err)
		must(t, h5.Read(f, "s/d", d))
		for i, v := range whole(t, d) {
			if v != want[i] {
				t.Errorf("after ModeReadWrite: dataset (%d, %d) = %v, want %v", i/cols, i%cols, v, want[i])
			}
		}
		if v, err := f.Attr("s", "edited"); err != nil || v != int64(1) {
			t.Errorf("after ModeReadWrite: attribute edited %v (%v), want 1", v, err)
		}
		must(t, f.Close())
		if _, err := os.Stat(name + ".partial"); !os.IsNotExist(err) {
			t.Errorf("after ModeReadWrite: %s.partial exists (%v)", name, err)
		}
	})
}

// TestSteps moves bands of several collective calls each (5.6 MB, rows of
// 5600 bytes), unequal on 3 processes, to and from a contiguous and a
// chunked dataset.
func TestSteps(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		dir := start(t)
		defer stop(t)
		name := filepath.Join(dir, "big.h5")
		g := newArray[float64](t, "big", []int{1001, 700})
		defer mpitest.Cleanup(t, g.Destroy)
		f, err := h5.Create(name)
		must(t, err)
		must(t, h5.Write(f, "contiguous", g, nil))
		must(t, h5.Write(f, "chunked", g, &h5.Options{Chunk: []int{100, 128}}))
		must(t, f.Close())
		f, err = h5.Open(name, h5.ModeRead)
		must(t, err)
		for _, path := range []string{"contiguous", "chunked"} {
			d, err := h5.Load[float64](f, path, path)
			must(t, err)
			wantVal(t, "Load "+path, whole(t, d))
			must(t, d.Destroy())
		}
		must(t, f.Close())
	})
}
