package main

import (
	"path/filepath"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/h5"
)

// h5Bench times a, a 2048 × 2048 float64 array, written to a dataset of a
// new HDF5 file in dir and read back, as draBench times the disk array
// (Create, Write, Close with its fsync and check; Open, Read, Close; the
// file's pages dropped before every read; best of 3): the figures to hold
// against dra_write_MBps and dra_read_MBps of the same run.
func h5Bench(a *ga.Array[float64], dir string) error {
	const reps = 3
	n := a.Dims()[0]
	bytes := float64(n * n * 8)
	file := filepath.Join(dir, "a.h5")
	write := func() error {
		f, err := h5.Create(file)
		if err != nil {
			return err
		}
		if err := h5.Write(f, "a", a, nil); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	read := func() error {
		f, err := h5.Open(file, h5.ModeRead)
		if err != nil {
			return err
		}
		if err := h5.Read(f, "a", a); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	drop := func() error {
		if me != 0 {
			return nil
		}
		return dropPages(file)
	}
	tw, tr, err := bestOf(reps, write, drop, read)
	if err != nil {
		return err
	}
	emit("h5_write_MBps", n, bytes/tw/1e6, "MB/s")
	emit("h5_read_MBps", n, bytes/tr/1e6, "MB/s")
	return nil
}
