package dra_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goga-hpc/goga/dra"
	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestBackground: a transfer's I/O runs between the call and Wait. With
// each process's band held back until the test lets it go, Write and Read
// return, Probe says the I/O is not done, and ga refuses, on every process,
// to destroy the global array the transfer reads or fills and to end;
// let go, the I/O completes without Wait (Probe turns true), and Wait,
// Close and a read back give the array exactly. Sections too (the
// destination of a section read is held as well).
func TestBackground(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		if mpi.Provided() != mpi.ThreadMultiple {
			t.Skipf("MPI provides %v: transfers run in the call", mpi.Provided())
		}
		dir := start(t, dra.Limits{})
		defer stop(t)
		dims := []int{64, 48}
		g, err := ga.Create[float64]("g", dims, nil)
		must(t, err)
		fill(t, g, val[float64])
		file := filepath.Join(dir, "bg.dra")
		d, err := dra.Create[float64](dims, "bg", file, dra.ModeWrite, nil)
		must(t, err)

		gate := make(chan struct{})
		undo := dra.WrapBandIO(func(io func() error) error { <-gate; return io() })
		w, err := dra.Write(g, d)
		must(t, err)
		held(t, w, g, "dra Write of "+file)
		close(gate)
		finished(t, w)
		undo()
		must(t, w.Wait())
		must(t, d.Close())

		h, err := ga.Create[float64]("h", dims, nil)
		must(t, err)
		must(t, h.Zero())
		d, err = dra.Open[float64](file, dra.ModeRead)
		must(t, err)
		gate = make(chan struct{})
		undo = dra.WrapBandIO(func(io func() error) error { <-gate; return io() })
		r, err := dra.Read(h, d)
		must(t, err)
		held(t, r, h, "dra Read of "+file)
		close(gate)
		finished(t, r)
		undo()
		must(t, r.Wait())
		if got, want := whole(t, h), whole(t, g); !slices.Equal(got, want) {
			t.Errorf("read back: %v..., want %v...", got[:4], want[:4])
		}

		// A section read holds the array it fills, which Wait writes.
		s, err := ga.Create[float64]("s", []int{10, 20}, nil)
		must(t, err)
		gate = make(chan struct{})
		undo = dra.WrapBandIO(func(io func() error) error { <-gate; return io() })
		rs, err := dra.ReadSection(false, s, []int{0, 0}, []int{9, 19}, d, []int{30, 5}, []int{39, 24})
		must(t, err)
		held(t, rs, s, "dra ReadSection of "+file)
		close(gate)
		undo()
		must(t, rs.Wait())
		got := whole(t, s)
		for i := range 10 {
			for j := range 20 {
				if want := val[float64]((30+i)*dims[1] + 5 + j); got[i*20+j] != want {
					t.Fatalf("section element [%d %d] = %v, want %v", i, j, got[i*20+j], want)
				}
			}
		}
		must(t, d.Close())
		for _, a := range []*ga.Array[float64]{g, h, s} {
			must(t, a.Destroy())
		}
	})
}

// held checks, while r's I/O is held back, that Probe says it is not done
// and that a (which r uses) cannot be destroyed, nor GA end, on any
// process, the refusal naming the transfer (why).
func held(t *testing.T, r *dra.Request[float64], a *ga.Array[float64], why string) {
	t.Helper()
	if done, err := r.Probe(); err != nil || done {
		t.Errorf("Probe before the I/O ran: %v, %v; want false", done, err)
	}
	err := a.Destroy()
	if err == nil || !strings.Contains(err.Error(), why) {
		fatalf(t, "Destroy of %q during %s: %v", a.Name(), why, err)
	}
	if !a.Valid() {
		fatalf(t, "%q destroyed after a refused Destroy", a.Name())
	}
	if err := ga.Terminate(); err == nil || !strings.Contains(err.Error(), why) {
		fatalf(t, "Terminate during %s: %v", why, err)
	}
	if !ga.Initialized() {
		fatalf(t, "GA ended after a refused Terminate")
	}
}

// finished waits, without Wait, flicking, until Probe says r's I/O is done.
func finished(t *testing.T, r *dra.Request[float64]) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(time.Millisecond) {
		dra.Flick()
		done, err := r.Probe()
		must(t, err)
		if done {
			return
		}
		if time.Now().After(deadline) {
			fatalf(t, "the I/O did not finish in 60 s without Wait")
		}
	}
}

// TestBackgroundFailure: a band's I/O that fails on one process in the
// background is an error of Wait on every process, naming the file; the
// write leaves nothing under the file's name, and a read leaves the
// global array as it was.
func TestBackgroundFailure(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		dir := start(t, dra.Limits{})
		defer stop(t)
		me, n := ga.Nodeid(), ga.Nnodes()
		dims := []int{32, 16}
		g, err := ga.Create[int64]("g", dims, nil)
		must(t, err)
		fill(t, g, val[int64])
		failed := errors.New("injected failure")
		fail := func(io func() error) error {
			if err := io(); err != nil || me != n-1 {
				return err
			}
			return failed
		}
		file := filepath.Join(dir, "fails.dra")
		d, err := dra.Create[int64](dims, "fails", file, dra.ModeWrite, nil)
		must(t, err)
		undo := dra.WrapBandIO(fail)
		w, err := dra.Write(g, d)
		must(t, err)
		err = w.Wait()
		undo()
		if err == nil || !strings.Contains(err.Error(), file) {
			fatalf(t, "Wait of a write whose I/O failed on rank %d: %v", n-1, err)
		}
		if me == n-1 && !errors.Is(err, failed) || me != n-1 && !errors.Is(err, ga.ErrPeer) {
			t.Errorf("rank %d: %v: want the injected failure on rank %d, ErrPeer elsewhere", me, err, n-1)
		}
		if err := d.Close(); err == nil {
			t.Errorf("Close after a failed write: no error")
		}
		if _, err := os.Stat(file); !os.IsNotExist(err) {
			t.Errorf("%s exists after a failed write: %v", file, err)
		}

		// A good file, then a read that fails: h stays as it was.
		d, err = dra.Create[int64](dims, "good", file, dra.ModeWrite, nil)
		must(t, err)
		w, err = dra.Write(g, d)
		must(t, err)
		must(t, w.Wait())
		must(t, d.Close())
		h, err := ga.Create[int64]("h", dims, nil)
		must(t, err)
		must(t, h.Fill(-7))
		d, err = dra.Open[int64](file, dra.ModeRead)
		must(t, err)
		undo = dra.WrapBandIO(fail)
		r, err := dra.Read(h, d)
		must(t, err)
		if err := r.Wait(); err == nil {
			t.Errorf("Wait of a read whose I/O failed: no error")
		}
		undo()
		for i, v := range whole(t, h) {
			if v != -7 {
				fatalf(t, "element %d of the array a failed read was to fill: %d, want -7 (unchanged)", i, v)
			}
		}
		must(t, d.Close())
		must(t, g.Destroy())
		must(t, h.Destroy())
	})
}
