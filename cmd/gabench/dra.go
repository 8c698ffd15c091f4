package main

import (
	"os"
	"path/filepath"
	"syscall"

	"github.com/goga-hpc/goga/dra"
	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/mpi"
)

// draBench times a 2048 × 2048 float64 array (32 MiB) written into a disk
// array and read back by every process (Create, Write, Wait, Close with
// its fsync; Open, Read, Wait, Close), and as its limit dd-style
// sequential I/O of as many bytes by process 0 alone (1 MiB writes then
// fsync; 1 MiB reads), in a directory under os.TempDir. Before every read
// the file's pages are dropped from the page cache with posix_fadvise
// DONTNEED (the file was synced, so they are clean and go), so reads come
// from the device. Each figure is the best of 3.
func draBench() error {
	const n, reps = 2048, 3
	const bytes = n * n * 8
	var dir []byte
	if me == 0 {
		d, err := os.MkdirTemp("", "gabench-dra")
		if err != nil {
			return err
		}
		dir = []byte(d)
	}
	size := []int64{int64(len(dir))}
	if err := ga.Brdcst(size, 0); err != nil {
		return err
	}
	if me != 0 {
		dir = make([]byte, size[0])
	}
	if err := ga.Brdcst(dir, 0); err != nil {
		return err
	}
	defer func() {
		if me == 0 {
			os.RemoveAll(string(dir))
		}
	}()
	if err := dra.Init(dra.Limits{}); err != nil {
		return err
	}
	defer dra.Terminate()
	a, err := ga.Create[float64]("dra", []int{n, n}, nil)
	if err != nil {
		return err
	}
	defer a.Destroy()
	if err := a.Fill(1.5); err != nil {
		return err
	}
	file := filepath.Join(string(dir), "a.dra")
	// move opens a disk array, moves a to or from it and closes it.
	move := func(open func() (*dra.Array[float64], error), start func(*ga.Array[float64], *dra.Array[float64]) (*dra.Request[float64], error)) func() error {
		return func() error {
			d, err := open()
			if err != nil {
				return err
			}
			r, err := start(a, d)
			if err == nil {
				err = r.Wait()
			}
			if err != nil {
				d.Close()
				return err
			}
			return d.Close()
		}
	}
	write := move(func() (*dra.Array[float64], error) {
		return dra.Create[float64]([]int{n, n}, "a", file, dra.ModeWrite, nil)
	}, dra.Write[float64])
	read := move(func() (*dra.Array[float64], error) { return dra.Open[float64](file, dra.ModeRead) }, dra.Read[float64])
	drop := func(name string) error {
		if me != 0 {
			return nil
		}
		return dropPages(name)
	}
	tw, tr, err := bestOf(reps, write, func() error { return drop(file) }, read)
	if err != nil {
		return err
	}
	emit("dra_write_MBps", n, bytes/tw/1e6, "MB/s")
	emit("dra_read_MBps", n, bytes/tr/1e6, "MB/s")
	if err := h5Bench(a, string(dir)); err != nil {
		return err
	}

	// The limit: one process, sequential.
	if me == 0 {
		seq := filepath.Join(string(dir), "dd")
		buf := make([]byte, 1<<20)
		for i := range buf {
			buf[i] = byte(i)
		}
		ddWrite := func() error {
			f, err := os.Create(seq)
			if err != nil {
				return err
			}
			for range bytes / len(buf) {
				if _, err := f.Write(buf); err != nil {
					f.Close()
					return err
				}
			}
			if err := f.Sync(); err != nil {
				f.Close()
				return err
			}
			return f.Close()
		}
		ddRead := func() error {
			f, err := os.Open(seq)
			if err != nil {
				return err
			}
			for range bytes / len(buf) {
				if _, err := f.Read(buf); err != nil {
					f.Close()
					return err
				}
			}
			return f.Close()
		}
		tw, tr, err := bestOf(reps, ddWrite, func() error { return dropPages(seq) }, ddRead)
		if err != nil {
			return err
		}
		emit("dra_write_dd_limit_MBps", n, bytes/tw/1e6, "MB/s")
		emit("dra_read_dd_limit_MBps", n, bytes/tr/1e6, "MB/s")
	}
	if err := ga.Sync(); err != nil {
		return err
	}
	return overlapBench(a, file)
}

// overlapBench times a write of a into a disk array at file started, then
// computation, then Wait, against the two alone: the write from its start
// to its Wait (the best of 3), and a computation of as many iterations of
// a kernel as take as long on process 0, which every process then runs.
// dra_overlap is the time of both together over the longer alone: 1 when
// the write hides entirely behind the computation, 2 when nothing
// overlaps (the write's I/O in the call, as DRA over blocking MPI-IO
// does). Close, with its fsync, is outside the times.
func overlapBench(a *ga.Array[float64], file string) error {
	n := a.Dims()[0]
	d, err := dra.Create[float64](a.Dims(), "a", file, dra.ModeWrite, nil)
	if err != nil {
		return err
	}
	defer d.Close()
	write := func(during func()) (float64, error) {
		if err := ga.Sync(); err != nil {
			return 0, err
		}
		t := mpi.Wtime()
		r, err := dra.Write(a, d)
		if err != nil {
			return 0, err
		}
		during()
		err = r.Wait()
		return mpi.Wtime() - t, err
	}
	tw := 1e9
	for range 3 {
		t, err := write(func() {})
		if err != nil {
			return err
		}
		tw = min(tw, t)
	}
	// Iterations of the kernel that take tw on process 0.
	iters := []int64{0}
	if me == 0 {
		t := mpi.Wtime()
		for mpi.Wtime()-t < tw {
			computeKernel()
			iters[0]++
		}
	}
	if err := ga.Brdcst(iters, 0); err != nil {
		return err
	}
	compute := func() {
		for range iters[0] {
			computeKernel()
		}
	}
	if err := ga.Sync(); err != nil {
		return err
	}
	t := mpi.Wtime()
	compute()
	tc := mpi.Wtime() - t
	tb, err := write(compute)
	if err != nil {
		return err
	}
	emit("dra_overlap", n, tb/max(tw, tc), "x")
	return nil
}

// kernelData is what computeKernel works on: 32 KiB, in the cache.
var kernelData = make([]float64, 4096)

// computeKernel is a step of computation that touches no memory beyond
// the cache: a pass of multiply-adds over kernelData.
func computeKernel() {
	for i := range kernelData {
		kernelData[i] = kernelData[i]*0.999 + 1e-3
	}
}

// bestOf runs write, drop, read reps times and returns the shortest times
// of write and read; all processes time the same calls between syncs
// (process 0's own calls are the dd limit, which ga.Sync does not reach).
func bestOf(reps int, write, drop, read func() error) (tw, tr float64, err error) {
	tw, tr = 1e9, 1e9
	timeOne := func(f func() error) (float64, error) {
		t := mpi.Wtime()
		err := f()
		return mpi.Wtime() - t, err
	}
	for range reps {
		t, err := timeOne(write)
		if err != nil {
			return 0, 0, err
		}
		tw = min(tw, t)
		if err := drop(); err != nil {
			return 0, 0, err
		}
		t, err = timeOne(read)
		if err != nil {
			return 0, 0, err
		}
		tr = min(tr, t)
	}
	return tw, tr, nil
}

// dropPages drops name's pages from the page cache (posix_fadvise
// POSIX_FADV_DONTNEED on the whole file).
func dropPages(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	const dontNeed = 4 // POSIX_FADV_DONTNEED
	if _, _, e := syscall.Syscall6(syscall.SYS_FADVISE64, f.Fd(), 0, 0, dontNeed, 0, 0); e != 0 {
		return e
	}
	return nil
}
