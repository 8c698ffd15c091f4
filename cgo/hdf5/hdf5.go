// Package hdf5 binds parallel HDF5 (the C library built on MPI) for package
// h5, its one caller. It is a package of its own, beside cgo rather than in
// it, so that only programs that write HDF5 link libhdf5 and the tens of
// libraries it loads (about 20 ms at every start here). Like cgo it checks
// nothing and is not an API: every function makes the HDF5 calls of one
// step on the C side (shim.h), in one cgo crossing, and returns, on
// failure, the failing call and HDF5's error stack as a message; HDF5
// prints nothing (Init silences it). Identifiers (hid_t) cross as int64.
//
// The library is built without thread safety: the caller makes one call
// at a time in the process.
//
// Build flags come from pkg-config: hdf5-openmpi by default, hdf5-mpich
// with the build tag "mpich".
package hdf5

/*
#include "shim.h"
*/
import "C"

import (
	"errors"
	"unsafe"
)

// Element types and attribute kinds (package h5's numbering).
const (
	Int32      = C.GOGA_H5_INT32
	Int64      = C.GOGA_H5_INT64
	Float32    = C.GOGA_H5_FLOAT32
	Float64    = C.GOGA_H5_FLOAT64
	Complex64  = C.GOGA_H5_COMPLEX64
	Complex128 = C.GOGA_H5_COMPLEX128
	String     = C.GOGA_H5_STRING
	MaxDim     = C.GOGA_H5_MAXDIM
)

// ID is an HDF5 identifier (hid_t).
type ID int64

type msgBuf [C.GOGA_H5_MSG]C.char

func (m *msgBuf) err() error { return errors.New(C.GoString(&m[0])) }

// Init opens the library, silences its error printing and makes the
// complex types.
func Init() error {
	var m msgBuf
	if C.goga_h5_init(&m[0]) < 0 {
		return m.err()
	}
	return nil
}

// FileOpen creates (truncating) or opens name with the MPI-IO driver on the
// communicator comm (an MPI_Comm as mpi.Comm.Handle gives it); rw opens
// for writing.
func FileOpen(name string, comm uintptr, create, rw bool) (ID, error) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var m msgBuf
	f := C.goga_h5_file_open(cs, C.uintptr_t(comm), cbool(create), cbool(rw), &m[0])
	if f < 0 {
		return -1, m.err()
	}
	return ID(f), nil
}

// FileCheck opens name alone with the POSIX driver and closes it: ok is
// false where name is not an HDF5 file; err is HDF5's complaint (a
// truncated file, a damaged superblock).
func FileCheck(name string) (ok bool, err error) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var m msgBuf
	switch C.goga_h5_file_check(cs, &m[0]) {
	case 1:
		return false, nil
	case 0:
		return true, nil
	}
	return true, m.err()
}

// FileClose is H5Fclose.
func FileClose(f ID) error {
	var m msgBuf
	if C.goga_h5_file_close(C.hid_t(f), &m[0]) < 0 {
		return m.err()
	}
	return nil
}

// Size is how long the file is or will be once written, in bytes: the
// larger of its end of file and its end of allocated space
// (H5Fget_filesize).
func Size(f ID) (int, error) {
	var m msgBuf
	n := C.goga_h5_size(C.hid_t(f), &m[0])
	if n < 0 {
		return 0, m.err()
	}
	return int(n), nil
}

// Object kinds Exists tells.
const (
	None    = 0
	Dataset = 1
	Group   = 2
	Other   = 3
)

// Exists tells what path names in f: None, Dataset, Group or Other.
func Exists(f ID, path string) (int, error) {
	cs := C.CString(path)
	defer C.free(unsafe.Pointer(cs))
	var m msgBuf
	k := C.goga_h5_exists(C.hid_t(f), cs, &m[0])
	if k < 0 {
		return 0, m.err()
	}
	return int(k), nil
}

// GroupCreate makes the group path, and the groups on its way.
func GroupCreate(f ID, path string) error {
	cs := C.CString(path)
	defer C.free(unsafe.Pointer(cs))
	var m msgBuf
	if C.goga_h5_group_create(C.hid_t(f), cs, &m[0]) < 0 {
		return m.err()
	}
	return nil
}

// DatasetCreate makes the dataset path of element type code and dims, and
// the groups on its way, chunked by chunk (nil: contiguous), zeros written
// into it where zero is set (else its elements are undefined until
// written); it returns the open dataset.
func DatasetCreate(f ID, path string, code int, dims, chunk []int, zero bool) (ID, error) {
	cs := C.CString(path)
	defer C.free(unsafe.Pointer(cs))
	d, c := longs(dims), longs(chunk)
	if chunk == nil {
		c = make([]C.longlong, len(dims))
	}
	var m msgBuf
	ds := C.goga_h5_dataset_create(C.hid_t(f), cs, C.int(code), C.int(len(dims)), &d[0], &c[0], cbool(zero), &m[0])
	if ds < 0 {
		return -1, m.err()
	}
	return ID(ds), nil
}

// Info is what DatasetOpen tells of a dataset.
type Info struct {
	Code  int    // element type, 0 for another
	Type  string // the type, described
	Dims  []int
	Chunk []int // nil when contiguous
}

// DatasetOpen opens the dataset path and tells its type and shape.
func DatasetOpen(f ID, path string) (ID, Info, error) {
	cs := C.CString(path)
	defer C.free(unsafe.Pointer(cs))
	var (
		m           msgBuf
		desc        [64]C.char
		code, ndim  C.int
		dims, chunk [MaxDim]C.longlong
	)
	ds := C.goga_h5_dataset_open(C.hid_t(f), cs, &code, &desc[0], &ndim, &dims[0], &chunk[0], &m[0])
	if ds < 0 {
		return -1, Info{}, m.err()
	}
	in := Info{Code: int(code), Type: C.GoString(&desc[0]), Dims: make([]int, ndim)}
	for k := range in.Dims {
		in.Dims[k] = int(dims[k])
	}
	if ndim > 0 && chunk[0] > 0 {
		in.Chunk = make([]int, ndim)
		for k := range in.Chunk {
			in.Chunk[k] = int(chunk[k])
		}
	}
	return ID(ds), in, nil
}

// DatasetClose is H5Dclose.
func DatasetClose(ds ID) error {
	var m msgBuf
	if C.goga_h5_dataset_close(C.hid_t(ds), &m[0]) < 0 {
		return m.err()
	}
	return nil
}

// DatasetOffset is the byte offset in the file at which the elements of
// ds lie as one run in memory's layout of element type code (C order), so
// that a process may write them with its own positioned writes: a
// contiguous dataset, allocated (parallel HDF5 allocates at creation), of
// code's little-endian type on a little-endian host. It is -1 for any
// other dataset.
func DatasetOffset(ds ID, code int) (int, error) {
	var m msgBuf
	off := C.goga_h5_dataset_offset(C.hid_t(ds), C.int(code), &m[0])
	switch {
	case off == -1:
		return -1, m.err()
	case off < 0:
		return -1, nil
	}
	return int(off), nil
}

// DatasetIO writes (write) or reads the box of count elements at start of
// ds from or to buf, packed in C order, of element type code: collective
// over the file's processes, each with its own box (a count of zeros for
// none; buf may then be nil).
func DatasetIO(ds ID, write bool, code int, start, count []int, buf unsafe.Pointer) error {
	s, n := longs(start), longs(count)
	var m msgBuf
	if C.goga_h5_dataset_io(C.hid_t(ds), cbool(write), C.int(code), C.int(len(start)), &s[0], &n[0], buf, &m[0]) < 0 {
		return m.err()
	}
	return nil
}

// AttrWrite sets the attribute name of the object path, replacing one of
// that name: n elements of type code at buf (a scalar where n < 0), or,
// for code String, a variable-length UTF-8 string of n bytes.
func AttrWrite(f ID, path, name string, code, n int, buf unsafe.Pointer) error {
	cp, cn := C.CString(path), C.CString(name)
	defer C.free(unsafe.Pointer(cp))
	defer C.free(unsafe.Pointer(cn))
	var m msgBuf
	if C.goga_h5_attr_write(C.hid_t(f), cp, cn, C.int(code), C.longlong(n), buf, &m[0]) < 0 {
		return m.err()
	}
	return nil
}

// Attr is an attribute as AttrRead finds it.
type Attr struct {
	Found bool
	Code  int    // element type, String, or 0 for another
	Type  string // the type, described
	N     int    // elements (bytes of a string); -1 for a scalar
	Data  []byte // the value, in memory's layout
}

// AttrRead reads the attribute name of the object path.
func AttrRead(f ID, path, name string) (Attr, error) {
	cp, cn := C.CString(path), C.CString(name)
	defer C.free(unsafe.Pointer(cp))
	defer C.free(unsafe.Pointer(cn))
	var (
		m           msgBuf
		desc        [64]C.char
		found, code C.int
		n           C.longlong
		out         unsafe.Pointer
	)
	if C.goga_h5_attr_read(C.hid_t(f), cp, cn, &found, &code, &desc[0], &n, &out, &m[0]) < 0 {
		return Attr{}, m.err()
	}
	defer C.free(out)
	a := Attr{Found: found != 0, Code: int(code), Type: C.GoString(&desc[0]), N: int(n)}
	if out != nil {
		a.Data = C.GoBytes(out, C.int(attrBytes(a)))
	}
	return a, nil
}

// attrBytes is the size of a's value.
func attrBytes(a Attr) int {
	if a.Code == String {
		return a.N
	}
	n := max(a.N, 1)
	switch a.Code {
	case Int32, Float32:
		return 4 * n
	case Int64, Float64, Complex64:
		return 8 * n
	case Complex128:
		return 16 * n
	}
	return 0
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// longs is s as C long longs, with one element at least (so that &x[0]
// is valid).
func longs(s []int) []C.longlong {
	out := make([]C.longlong, max(len(s), 1))
	for k, v := range s {
		out[k] = C.longlong(v)
	}
	return out
}
