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
	return ga.Sync()
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
