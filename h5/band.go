package h5

import (
	"fmt"
	"os"
	"slices"
	"syscall"
	"unsafe"

	"github.com/goga-hpc/goga/cgo/hdf5"
	"github.com/goga-hpc/goga/ga"
)

// move writes (write) or reads the patch [glo, ghi] of g to or from the
// box of the same shape at dlo of the dataset ds of dims fdims,
// collectively: process k of n moves the rows [k·B/n, (k+1)·B/n) of the
// box's B along its first dimension, taken from g by Get (from whichever
// processes own them) or put into g once every process has read its rows,
// so that a failed read leaves g unchanged. Each band of whole rows of a
// contiguous dataset is one run of the file.
func move[T ga.Elem](op string, f *File, path string, ds hdf5.ID, fdims []int, g *ga.Array[T], glo, ghi, dlo []int, write bool) error {
	code, _ := typeCode[T]()
	c := f.comm
	shape := make([]int, len(glo))
	for k := range shape {
		shape[k] = ghi[k] - glo[k] + 1
	}
	a, b := shape[0]*c.Rank()/c.Size(), shape[0]*(c.Rank()+1)/c.Size()
	count := slices.Clone(shape)
	count[0] = b - a
	start, lo, hi := slices.Clone(dlo), slices.Clone(glo), slices.Clone(ghi)
	start[0] += a
	lo[0], hi[0] = glo[0]+a, glo[0]+b-1
	if write {
		return writeBand(op, f, path, ds, fdims, g, lo, hi, start, count, shape[0])
	}
	buf := make([]T, volume(count))
	err := steps(ds, false, code, shape[0], c.Size(), start, count, buf)
	if err != nil {
		err = hdf5Error(op, f.name, path, err)
	}
	if err = agree(c, op, f.name, path, err); err != nil {
		return err
	}
	if len(buf) > 0 {
		err = g.Put(lo, hi, buf, nil)
	}
	if serr := g.Pgroup().Sync(); err == nil && serr != nil {
		err = serr
	}
	if err != nil {
		err = errorf(op, f.name, path, err, "putting rows %d to %d of %q: %v", lo[0], hi[0], g.Name(), err)
	}
	return agree(c, op, f.name, path, err)
}

func volume(count []int) int {
	n := 1
	for _, e := range count {
		n *= e
	}
	return n
}

// writeBand writes this process's band, the patch [lo, hi] of g, to the
// box of count elements at start of ds (a box of rows rows in all). Where the box spans whole rows of
// a dataset that lies in the file as one run in memory's layout
// (hdf5.DatasetOffset), each process writes its band, one run of the
// file, with positioned writes of its own (rowsDirect), and HDF5 writes
// only the metadata; otherwise the band goes through HDF5's collective
// H5Dwrite (steps).
func writeBand[T ga.Elem](op string, f *File, path string, ds hdf5.ID, fdims []int, g *ga.Array[T], lo, hi, start, count []int, rows int) error {
	code, _ := typeCode[T]()
	c := f.comm
	// Others' puts to g before this call are complete.
	err := g.Pgroup().Sync()
	if err != nil {
		err = errorf(op, f.name, path, err, "syncing %q: %v", g.Name(), err)
	}
	at := -1
	if err == nil && slices.Equal(count[1:], fdims[1:]) {
		if at, err = locked(func() (int, error) { return hdf5.DatasetOffset(ds, code) }); err != nil {
			err = hdf5Error(op, f.name, path, err)
		}
	}
	if err = agree(c, op, f.name, path, err); err != nil {
		return err
	}
	if at >= 0 {
		at += start[0] * volume(count[1:]) * int(unsafe.Sizeof(*new(T)))
		return agree(c, op, f.name, path, rowsDirect(op, f, path, g, lo, hi, at))
	}
	buf := make([]T, volume(count))
	if len(buf) > 0 {
		if err = g.Get(lo, hi, buf, nil); err != nil {
			err = errorf(op, f.name, path, err, "getting rows %d to %d of %q: %v", lo[0], hi[0], g.Name(), err)
		}
	}
	if err = agree(c, op, f.name, path, err); err != nil {
		return err
	}
	if err = steps(ds, true, code, rows, c.Size(), start, count, buf); err != nil {
		err = hdf5Error(op, f.name, path, err)
	}
	if err = agree(c, op, f.name, path, err); err == nil {
		f.writeBehind()
	}
	return err
}

// rowsDirect writes the patch [lo, hi] of g, whole rows of a dataset, to
// the partial file at byte at, in steps of about stepBytes: it gets each
// step from g, writes it with a positioned write of its own descriptor of
// the file and starts its writeback (sync_file_range WRITE), so that the
// device works while the processor gets the next step and Close's fsync
// finds little left to do, as dra writes. HDF5's MPI-IO driver shares the
// file through the kernel's page cache; it makes no collective call.
func rowsDirect[T ga.Elem](op string, f *File, path string, g *ga.Array[T], lo, hi []int, at int) error {
	if hi[0] < lo[0] {
		return nil
	}
	out, err := os.OpenFile(f.tmp, os.O_WRONLY, 0)
	if err != nil {
		return errorf(op, f.name, path, err, "%v", err)
	}
	es := int(unsafe.Sizeof(*new(T)))
	per := 1 // elements of a row along the first dimension
	for k := 1; k < len(lo); k++ {
		per *= hi[k] - lo[k] + 1
	}
	rows := hi[0] - lo[0] + 1
	step := max(stepBytes/(per*es), 1)
	buf := make([]T, min(step, rows)*per)
	slo, shi := slices.Clone(lo), slices.Clone(hi)
	for r := 0; r < rows && err == nil; r += step {
		n := min(step, rows-r)
		slo[0], shi[0] = lo[0]+r, lo[0]+r+n-1
		b := buf[:n*per]
		if err = g.Get(slo, shi, b, nil); err != nil {
			err = fmt.Errorf("getting rows %d to %d of %q: %w", slo[0], shi[0], g.Name(), err)
			break
		}
		raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(b))), len(b)*es)
		off := int64(at + r*per*es)
		if _, err = out.WriteAt(raw, off); err != nil {
			err = fmt.Errorf("writing %d bytes at %d of %s: %w", len(raw), off, f.tmp, err)
			break
		}
		const write = 2 // SYNC_FILE_RANGE_WRITE
		syscall.SyncFileRange(int(out.Fd()), off, int64(len(raw)), write)
	}
	if cerr := out.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return errorf(op, f.name, path, err, "%v", err)
	}
	return nil
}

// stepBytes is about the most bytes a process moves in one collective call.
const stepBytes = 1 << 20

// steps moves a process's band (count at start, in buf) in collective
// calls of about stepBytes each, of whole rows: as many on every process,
// those whose rows run out moving none. One call of a whole band of 16
// MiB was a single pwrite under Open MPI's OMPIO that took 36 ms (doc.go).
func steps[T ga.Elem](ds hdf5.ID, write bool, code, rows, np int, start, count []int, buf []T) error {
	per := 1 // elements of a row, alike on every process
	for _, e := range count[1:] {
		per *= e
	}
	var z T
	step := max(stepBytes/(per*int(unsafe.Sizeof(z))), 1)
	most := (rows + np - 1) / np
	lib.Lock()
	defer lib.Unlock()
	for r := 0; r < most; r += step {
		st, ct := slices.Clone(start), slices.Clone(count)
		st[0] += r
		ct[0] = max(min(step, count[0]-r), 0)
		var p unsafe.Pointer
		if ct[0] > 0 {
			p = unsafe.Pointer(&buf[r*per])
		}
		if err := hdf5.DatasetIO(ds, write, code, st, ct, p); err != nil {
			return err
		}
	}
	return nil
}
