package h5

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/goga-hpc/goga/cgo/hdf5"
)

// attrValue is v as the binding takes it: its kind, its elements (-1 for
// a scalar; a string's bytes) and where they are.
func attrValue(v any) (code, n int, p unsafe.Pointer, ok bool) {
	switch x := v.(type) {
	case string:
		return hdf5.String, len(x), unsafe.Pointer(unsafe.StringData(x)), true
	case int:
		return scalar(hdf5.Int64, int64(x))
	case int32:
		return scalar(hdf5.Int32, x)
	case int64:
		return scalar(hdf5.Int64, x)
	case float32:
		return scalar(hdf5.Float32, x)
	case float64:
		return scalar(hdf5.Float64, x)
	case complex64:
		return scalar(hdf5.Complex64, x)
	case complex128:
		return scalar(hdf5.Complex128, x)
	case []int:
		y := make([]int64, len(x))
		for i, e := range x {
			y[i] = int64(e)
		}
		return vector(hdf5.Int64, y)
	case []int32:
		return vector(hdf5.Int32, x)
	case []int64:
		return vector(hdf5.Int64, x)
	case []float32:
		return vector(hdf5.Float32, x)
	case []float64:
		return vector(hdf5.Float64, x)
	case []complex64:
		return vector(hdf5.Complex64, x)
	case []complex128:
		return vector(hdf5.Complex128, x)
	}
	return 0, 0, nil, false
}

func scalar[E any](code int, v E) (int, int, unsafe.Pointer, bool) {
	return code, -1, unsafe.Pointer(&v), true
}

func vector[E any](code int, v []E) (int, int, unsafe.Pointer, bool) {
	return code, len(v), unsafe.Pointer(unsafe.SliceData(v)), true
}

// object is path as HDF5 names the object: "/" for the file's root group.
func object(path string) string {
	if strings.Trim(path, "/") == "" {
		return "/"
	}
	return path
}

// SetAttr sets the attribute name of the dataset or group path ("" or "/"
// for the file's root group) to v, replacing one of that name: a string
// (stored as a variable-length UTF-8 string, as h5py stores str), a
// number of an element type or int (stored as int64), or a slice of them
// (a one-dimensional attribute). It is collective.
func (f *File) SetAttr(path, name string, v any) error {
	const op = "SetAttr"
	obj := object(path)
	code, n, p, ok := attrValue(v)
	err := f.valid(op, obj, true)
	switch {
	case err != nil:
	case !ok:
		err = errorf(op, f.name, obj, nil, "attribute %q: value of type %T; strings, numbers and slices of numbers are allowed", name, v)
	case name == "":
		err = errorf(op, f.name, obj, nil, "an attribute needs a name")
	}
	if err == nil {
		err = f.exists(op, obj)
	}
	if err = agree(f.comm, op, f.name, obj, err, op, obj, name, fmt.Sprintf("%T %v", v, v)); err != nil {
		return err
	}
	_, err = locked(func() (struct{}, error) { return struct{}{}, hdf5.AttrWrite(f.id, obj, name, code, n, p) })
	if err != nil {
		err = hdf5Error(op, f.name, obj, err)
	}
	return f.fail(agree(f.comm, op, f.name, obj, err))
}

// exists checks, on one process, that the object path is in f.
func (f *File) exists(op, path string) error {
	if path == "/" {
		return nil
	}
	kind, err := locked(func() (int, error) { return hdf5.Exists(f.id, path) })
	switch {
	case err != nil:
		return hdf5Error(op, f.name, path, err)
	case kind == hdf5.None:
		return errorf(op, f.name, path, ErrNotFound, "no object %s in the file", path)
	}
	return nil
}

// Attr reads the attribute name of the dataset or group path ("" or "/"
// for the root group): a string (of any HDF5 string kind), a value of an
// element type (int32, int64, float32, float64, complex64, complex128) for
// a scalar attribute, or a slice of one for an array attribute (flattened).
// A missing attribute is ErrNotFound, one of another type ErrMismatch. It
// is collective.
func (f *File) Attr(path, name string) (any, error) {
	const op = "Attr"
	obj := object(path)
	err := f.valid(op, obj, false)
	if err == nil {
		err = f.exists(op, obj)
	}
	if err = agree(f.comm, op, f.name, obj, err, op, obj, name); err != nil {
		return nil, err
	}
	a, err := locked(func() (hdf5.Attr, error) { return hdf5.AttrRead(f.id, obj, name) })
	switch {
	case err != nil:
		err = hdf5Error(op, f.name, obj, err)
	case !a.Found:
		err = errorf(op, f.name, obj, ErrNotFound, "no attribute %q", name)
	case a.Code == 0:
		err = errorf(op, f.name, obj, ErrMismatch, "attribute %q holds %s", name, a.Type)
	}
	if err = agree(f.comm, op, f.name, obj, err); err != nil {
		return nil, err
	}
	return attrOf(a), nil
}

// attrOf is the Go value of a, read.
func attrOf(a hdf5.Attr) any {
	switch a.Code {
	case hdf5.String:
		return string(a.Data)
	case hdf5.Int32:
		return valueOf[int32](a)
	case hdf5.Int64:
		return valueOf[int64](a)
	case hdf5.Float32:
		return valueOf[float32](a)
	case hdf5.Float64:
		return valueOf[float64](a)
	case hdf5.Complex64:
		return valueOf[complex64](a)
	}
	return valueOf[complex128](a)
}

// valueOf is a's elements as E: a scalar, or a slice for an array.
func valueOf[E any](a hdf5.Attr) any {
	v := make([]E, max(a.N, 1))
	if len(a.Data) > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(a.Data)), a.Data)
	}
	if a.N == 0 {
		return v[:0]
	}
	if a.N < 0 {
		return v[0]
	}
	return v
}

// CreateGroup makes the group path and the groups on its way, as folders
// for datasets and attributes; a path that exists is ErrExists. (Write and
// CreateDataset make the groups on a dataset's way themselves.) It is
// collective.
func (f *File) CreateGroup(path string) error {
	const op = "CreateGroup"
	err := f.valid(op, path, true)
	if err == nil {
		err = checkPath(op, f.name, path)
	}
	if err == nil {
		var kind int
		if kind, err = locked(func() (int, error) { return hdf5.Exists(f.id, path) }); err != nil {
			err = hdf5Error(op, f.name, path, err)
		} else if kind != hdf5.None {
			err = errorf(op, f.name, path, ErrExists, "%s exists already", path)
		}
	}
	if err = agree(f.comm, op, f.name, path, err, op, path); err != nil {
		return err
	}
	_, err = locked(func() (struct{}, error) { return struct{}{}, hdf5.GroupCreate(f.id, path) })
	if err != nil {
		err = hdf5Error(op, f.name, path, err)
	}
	return f.fail(agree(f.comm, op, f.name, path, err))
}
