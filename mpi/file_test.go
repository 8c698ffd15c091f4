package mpi_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestFile writes an R × C matrix of float64 collectively, each rank its band
// of rows through a subarray view, reads it back by bands of columns (so
// every rank reads what others wrote), blocking and non-blocking, and checks
// the size, the hints and the errors of a missing file.
func TestFile(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		w := mpi.World()
		me, n := w.Rank(), w.Size()
		const R, C, head = 7, 5, 16
		dir := mpitest.TempDir(t, w)
		name := filepath.Join(dir, "m.bin")
		val := func(i, j int) float64 { return float64(100*i + j + 1) }
		band := func(k, total int) (lo, cnt int) { // k's share of total
			lo = k * total / n
			return lo, (k+1)*total/n - lo
		}

		hints, err := mpi.NewInfo("cb_buffer_size", "1048576")
		must(t, err)
		f, err := mpi.FileOpen(w, name, mpi.ModeCreate|mpi.ModeWronly, hints)
		must(t, err)
		must(t, hints.Free())
		// A header of bytes at offset 0, by rank 0 alone.
		if me == 0 {
			hdr := make([]byte, head)
			copy(hdr, "matrix")
			got, err := mpi.WriteAt(f, 0, hdr)
			must(t, err)
			if got != head {
				t.Errorf("WriteAt wrote %d bytes, want %d", got, head)
			}
		}
		r0, rows := band(me, R)
		var mine []float64
		for i := r0; i < r0+rows; i++ {
			for j := range C {
				mine = append(mine, val(i, j))
			}
		}
		if rows > 0 {
			ft, err := mpi.TypeSubarray[float64]([]int{R, C}, []int{rows, C}, []int{r0, 0})
			must(t, err)
			must(t, mpi.SetView[float64](f, head, ft, nil))
			must(t, ft.Free())
		} else {
			must(t, mpi.SetView[float64](f, head, nil, nil))
		}
		got, err := mpi.WriteAtAll(f, 0, mine)
		must(t, err)
		if got != len(mine) {
			t.Errorf("WriteAtAll wrote %d elements, want %d", got, len(mine))
		}
		must(t, f.Sync())
		must(t, f.Close())
		if err := f.Close(); !errors.Is(err, mpi.ErrFreed) {
			t.Errorf("second Close: %v, want ErrFreed", err)
		}

		f, err = mpi.FileOpen(w, name, mpi.ModeRdonly, nil)
		must(t, err)
		size, err := f.Size()
		must(t, err)
		if size != head+R*C*8 {
			t.Errorf("Size %d, want %d", size, head+R*C*8)
		}
		c0, cols := band(me, C)
		want := func() []float64 {
			var v []float64
			for i := range R {
				for j := c0; j < c0+cols; j++ {
					v = append(v, val(i, j))
				}
			}
			return v
		}()
		if cols > 0 {
			ft, err := mpi.TypeSubarray[float64]([]int{R, C}, []int{R, cols}, []int{0, c0})
			must(t, err)
			must(t, mpi.SetView[float64](f, head, ft, nil))
			must(t, ft.Free())
		} else {
			must(t, mpi.SetView[float64](f, head, nil, nil))
		}
		buf := make([]float64, len(want))
		got, err = mpi.ReadAtAll(f, 0, buf)
		must(t, err)
		check := func(how string, got int, buf []float64) {
			if got != len(want) {
				t.Errorf("%s read %d elements, want %d", how, got, len(want))
			}
			for k := range want {
				if buf[k] != want[k] {
					t.Errorf("%s element %d: %v, want %v", how, k, buf[k], want[k])
					return
				}
			}
		}
		check("ReadAtAll", got, buf)
		clear(buf)
		r, err := mpi.IreadAtAll(f, 0, buf)
		must(t, err)
		st, err := r.Wait()
		must(t, err)
		check("IreadAtAll", st.Count, buf)
		must(t, f.Close())

		// Non-blocking write into a file made longer with SetSize.
		f, err = mpi.FileOpen(w, name, mpi.ModeRdwr, nil)
		must(t, err)
		must(t, f.SetSize(size+8*n))
		must(t, mpi.SetView[float64](f, size, nil, nil))
		r, err = mpi.IwriteAtAll(f, me, []float64{float64(-me)})
		must(t, err)
		st, err = r.Wait()
		must(t, err)
		if st.Count != 1 {
			t.Errorf("IwriteAtAll wrote %d elements, want 1", st.Count)
		}
		must(t, f.Close())
		raw, err := os.ReadFile(name)
		must(t, err)
		if len(raw) != size+8*n {
			t.Errorf("file of %d bytes, want %d", len(raw), size+8*n)
		}
		w.Barrier()

		// Errors: a missing file, on every rank, with MPI's class.
		_, err = mpi.FileOpen(w, filepath.Join(dir, "absent"), mpi.ModeRdonly, nil)
		var me2 *mpi.Error
		if !errors.As(err, &me2) || me2.Class != mpi.ErrClassNoSuchFile {
			t.Errorf("opening a missing file: %v, want an *mpi.Error of class ErrClassNoSuchFile", err)
		}
		if _, err := mpi.FileOpen(w, name, mpi.ModeRdonly|mpi.ModeRdwr, nil); err == nil {
			t.Errorf("mode with two access modes accepted")
		}
		if _, err := mpi.NewInfo("odd"); err == nil {
			t.Errorf("NewInfo with an odd number of strings accepted")
		}
		if me == 0 {
			must(t, mpi.FileDelete(name, nil))
		}
		w.Barrier()
		if _, err := os.Stat(name); !os.IsNotExist(err) {
			t.Errorf("after FileDelete: %v", err)
		}
	})
}
