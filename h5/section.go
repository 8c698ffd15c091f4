package h5

import (
	"fmt"
	"slices"

	"github.com/goga-hpc/goga/cgo/hdf5"
	"github.com/goga-hpc/goga/ga"
)

// WriteSection writes the patch [glo, ghi] of g into the hyperslab [dlo,
// dhi] of the dataset path (0-based, inclusive, C order, as in package ga
// and dra's sections), transposed when trans is set. The patch's shape
// must be the hyperslab's (reversed when trans is set), extents of 1
// aside; the dataset must hold T (else ErrMismatch). It is collective.
func WriteSection[T ga.Elem](trans bool, g *ga.Array[T], glo, ghi []int, f *File, path string, dlo, dhi []int) error {
	const op = "WriteSection"
	ds, dims, err := section(op, true, trans, g, glo, ghi, f, path, dlo, dhi)
	if err != nil {
		return err
	}
	defer closeDataset(ds)
	if direct(trans, glo, ghi, dlo, dhi) {
		return f.fail(move(op, f, path, ds, dims, g, glo, ghi, dlo, true))
	}
	s, err := scratch[T](op, f, path, dlo, dhi)
	if err != nil {
		return err
	}
	err = ga.CopyPatch(transFlag(trans), g, glo, ghi, s, make([]int, len(dlo)), lastOf(s.Dims()))
	if err != nil {
		err = errorf(op, f.name, path, err, "%v", err)
	}
	if err = agree(f.comm, op, f.name, path, err); err == nil {
		err = f.fail(move(op, f, path, ds, dims, s, make([]int, len(dlo)), lastOf(s.Dims()), dlo, true))
	}
	return destroy(op, f, path, s, err)
}

// ReadSection reads the hyperslab [dlo, dhi] of the dataset path into the
// patch [glo, ghi] of g, transposed when trans is set, as WriteSection
// writes it. g changes only if the read succeeds on every process. It is
// collective.
func ReadSection[T ga.Elem](trans bool, g *ga.Array[T], glo, ghi []int, f *File, path string, dlo, dhi []int) error {
	const op = "ReadSection"
	ds, dims, err := section(op, false, trans, g, glo, ghi, f, path, dlo, dhi)
	if err != nil {
		return err
	}
	defer closeDataset(ds)
	if direct(trans, glo, ghi, dlo, dhi) {
		return move(op, f, path, ds, dims, g, glo, ghi, dlo, false)
	}
	s, err := scratch[T](op, f, path, dlo, dhi)
	if err != nil {
		return err
	}
	err = move(op, f, path, ds, dims, s, make([]int, len(dlo)), lastOf(s.Dims()), dlo, false)
	if err == nil {
		err = ga.CopyPatch(transFlag(trans), s, make([]int, len(dlo)), lastOf(s.Dims()), g, glo, ghi)
		if err != nil {
			err = errorf(op, f.name, path, err, "%v", err)
		}
		err = agree(f.comm, op, f.name, path, err)
	}
	return destroy(op, f, path, s, err)
}

// section checks a section transfer, on every process, and opens its
// dataset; it returns the dataset and its dims.
func section[T ga.Elem](op string, write, trans bool, g *ga.Array[T], glo, ghi []int, f *File, path string, dlo, dhi []int) (hdf5.ID, []int, error) {
	check := sameGroup(op, f, path, g)
	if check == nil {
		check = inside(op, f.name, path, fmt.Sprintf("patch of %q", g.Name()), g.Dims(), glo, ghi)
	}
	ds, dims, err := open[T](op, f, path, write, check, trans, glo, ghi, dlo, dhi)
	if err != nil {
		return -1, nil, err
	}
	err = inside(op, f.name, path, "hyperslab", dims, dlo, dhi)
	if err == nil {
		gs, hs := shape(glo, ghi), shape(dlo, dhi)
		if trans {
			slices.Reverse(gs)
		}
		if !slices.Equal(gs, hs) {
			err = errorf(op, f.name, path, ErrMismatch, "patch lo %v hi %v and hyperslab lo %v hi %v differ in shape (trans %v)", glo, ghi, dlo, dhi, trans)
		}
	}
	if err = agree(f.comm, op, f.name, path, err); err != nil {
		closeDataset(ds)
		return -1, nil, err
	}
	return ds, dims, nil
}

// inside checks that [lo, hi] is a box of an array of dims.
func inside(op, file, path, what string, dims, lo, hi []int) error {
	if len(lo) != len(dims) || len(hi) != len(dims) {
		return errorf(op, file, path, ErrMismatch, "%s lo %v hi %v for dims %v", what, lo, hi, dims)
	}
	for k := range dims {
		if lo[k] < 0 || lo[k] > hi[k] || hi[k] >= dims[k] {
			return errorf(op, file, path, ErrMismatch, "%s lo %v hi %v is not inside dims %v", what, lo, hi, dims)
		}
	}
	return nil
}

// shape is the extents of [lo, hi] without the extents of 1.
func shape(lo, hi []int) []int {
	var s []int
	for k := range lo {
		if n := hi[k] - lo[k] + 1; n != 1 {
			s = append(s, n)
		}
	}
	return s
}

// direct says whether a patch moves straight to or from its hyperslab:
// the same extents in every dimension, not transposed. Otherwise it goes
// through a scratch array of the hyperslab's shape and ga.CopyPatch.
func direct(trans bool, glo, ghi, dlo, dhi []int) bool {
	if trans || len(glo) != len(dlo) {
		return false
	}
	for k := range glo {
		if ghi[k]-glo[k] != dhi[k]-dlo[k] {
			return false
		}
	}
	return true
}

// scratch makes a global array of the shape of the hyperslab [dlo, dhi],
// on every process.
func scratch[T ga.Elem](op string, f *File, path string, dlo, dhi []int) (*ga.Array[T], error) {
	dims := make([]int, len(dlo))
	for k := range dims {
		dims[k] = dhi[k] - dlo[k] + 1
	}
	s, err := ga.CreateConfig[T]("h5 section of "+path, dims, nil, f.pg)
	if err != nil {
		return nil, errorf(op, f.name, path, err, "scratch array of dims %v: %v", dims, err)
	}
	return s, nil
}

// destroy destroys the scratch array s and returns err, or Destroy's error.
func destroy[T ga.Elem](op string, f *File, path string, s *ga.Array[T], err error) error {
	if derr := s.Destroy(); err == nil && derr != nil {
		err = errorf(op, f.name, path, derr, "%v", derr)
	}
	return err
}

func transFlag(trans bool) ga.TransOp {
	if trans {
		return ga.Trans
	}
	return ga.NoTrans
}
