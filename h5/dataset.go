package h5

import (
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/goga-hpc/goga/cgo/hdf5"
	"github.com/goga-hpc/goga/ga"
)

// typeCode is T's element type as the binding numbers it, and its name.
func typeCode[T ga.Elem]() (int, string) {
	var z T
	switch any(z).(type) {
	case int32:
		return hdf5.Int32, "int32"
	case int64:
		return hdf5.Int64, "int64"
	case float32:
		return hdf5.Float32, "float32"
	case float64:
		return hdf5.Float64, "float64"
	case complex64:
		return hdf5.Complex64, "complex64"
	case complex128:
		return hdf5.Complex128, "complex128"
	}
	return 0, fmt.Sprintf("%T", z)
}

// Options are a new dataset's layout.
type Options struct {
	// Chunk is the shape of the chunks the dataset is stored in, each
	// extent from 1 to the dataset's; nil stores it contiguous.
	Chunk []int
}

// Info is what Inquire tells of a dataset.
type Info struct {
	Type  string // int32, int64, float32, float64, complex64, complex128, or HDF5's type described
	Dims  []int
	Chunk []int // nil when contiguous
}

// checkPath refuses paths HDF5 would read otherwise than as folders.
func checkPath(op, file, path string) error {
	p := strings.TrimPrefix(path, "/")
	if p == "" || strings.HasSuffix(p, "/") || strings.Contains(p, "//") || slices.Contains(strings.Split(p, "/"), ".") {
		return errorf(op, file, path, nil, "path %q: want names separated by /, such as run1/fields/u", path)
	}
	return nil
}

// checkDims checks a new dataset's dims and chunk shape.
func checkDims(op, file, path string, dims []int, opt *Options) error {
	if len(dims) < 1 || len(dims) > hdf5.MaxDim {
		return errorf(op, file, path, nil, "%d dimensions; 1 to %d are allowed", len(dims), hdf5.MaxDim)
	}
	for _, n := range dims {
		if n < 1 {
			return errorf(op, file, path, nil, "dims %v: every extent must be at least 1", dims)
		}
	}
	if opt == nil || opt.Chunk == nil {
		return nil
	}
	if len(opt.Chunk) != len(dims) {
		return errorf(op, file, path, nil, "chunk %v for dims %v", opt.Chunk, dims)
	}
	for k, n := range opt.Chunk {
		if n < 1 || n > dims[k] {
			return errorf(op, file, path, nil, "chunk %v for dims %v: each extent must be 1 to the dataset's", opt.Chunk, dims)
		}
	}
	return nil
}

func chunkOf(opt *Options) []int {
	if opt == nil {
		return nil
	}
	return opt.Chunk
}

// create reserves the space of a dataset path of T with dims and makes
// it, zeros written into it where zero is set, unless check (this
// process's verdict on the arguments) or another process refuses; it
// returns the open dataset.
func create[T ga.Elem](op string, f *File, path string, dims []int, opt *Options, zero bool, check error) (hdf5.ID, error) {
	code, tname := typeCode[T]()
	err := check
	if err == nil {
		err = f.valid(op, path, true)
	}
	if err == nil {
		err = checkPath(op, f.name, path)
	}
	if err == nil {
		err = checkDims(op, f.name, path, dims, opt)
	}
	if err = agree(f.comm, op, f.name, path, err, op, path, tname, dims, chunkOf(opt)); err != nil {
		return -1, err
	}
	kind, err := locked(func() (int, error) { return hdf5.Exists(f.id, path) })
	switch {
	case err != nil:
		err = hdf5Error(op, f.name, path, err)
	case kind != hdf5.None:
		err = errorf(op, f.name, path, ErrExists, "%s exists already", path)
	}
	if err = agree(f.comm, op, f.name, path, err); err != nil {
		return -1, err
	}
	// The space first: HDF5 writes the zeros of a filled dataset as it
	// creates it.
	if err = f.fail(f.reserve(op, path, volume(dims)*int(unsafe.Sizeof(*new(T))))); err != nil {
		return -1, err
	}
	ds, err := locked(func() (hdf5.ID, error) { return hdf5.DatasetCreate(f.id, path, code, dims, chunkOf(opt), zero) })
	if err != nil {
		err = hdf5Error(op, f.name, path, err)
	}
	if err = f.fail(agree(f.comm, op, f.name, path, err)); err != nil {
		return -1, err
	}
	return ds, nil
}

// open opens the dataset path of T and checks its type against T's; it
// returns the open dataset and its dims.
func open[T ga.Elem](op string, f *File, path string, write bool, check error, args ...any) (hdf5.ID, []int, error) {
	code, tname := typeCode[T]()
	err := check
	if err == nil {
		err = f.valid(op, path, write)
	}
	if err == nil {
		err = checkPath(op, f.name, path)
	}
	if err = agree(f.comm, op, f.name, path, err, append([]any{op, path, tname}, args...)...); err != nil {
		return -1, nil, err
	}
	ds, in, err := openDataset(op, f, path)
	if err == nil && in.Code != code {
		err = errorf(op, f.name, path, ErrMismatch, "the dataset holds %s, not %s", in.Type, tname)
	}
	if err = agree(f.comm, op, f.name, path, err); err != nil {
		closeDataset(ds)
		return -1, nil, err
	}
	return ds, in.Dims, nil
}

// openDataset opens the dataset path of f: ErrNotFound where there is
// none.
func openDataset(op string, f *File, path string) (hdf5.ID, hdf5.Info, error) {
	kind, err := locked(func() (int, error) { return hdf5.Exists(f.id, path) })
	switch {
	case err != nil:
		return -1, hdf5.Info{}, hdf5Error(op, f.name, path, err)
	case kind == hdf5.None:
		return -1, hdf5.Info{}, errorf(op, f.name, path, ErrNotFound, "no dataset %s in the file", path)
	case kind != hdf5.Dataset:
		return -1, hdf5.Info{}, errorf(op, f.name, path, ErrNotFound, "%s is a group, not a dataset", path)
	}
	lib.Lock()
	ds, in, err := hdf5.DatasetOpen(f.id, path)
	lib.Unlock()
	if err != nil {
		return -1, in, hdf5Error(op, f.name, path, err)
	}
	return ds, in, nil
}

// closeDataset closes ds where it is open; a failure to close a dataset
// shows as a failure of the file's Close.
func closeDataset(ds hdf5.ID) {
	if ds >= 0 {
		locked(func() (struct{}, error) { return struct{}{}, hdf5.DatasetClose(ds) })
	}
}

// Inquire tells the element type, dims and chunk shape of the dataset
// path. It is collective.
func (f *File) Inquire(path string) (Info, error) {
	const op = "Inquire"
	err := f.valid(op, path, false)
	if err == nil {
		err = checkPath(op, f.name, path)
	}
	if err = agree(f.comm, op, f.name, path, err, op, path); err != nil {
		return Info{}, err
	}
	ds, in, err := openDataset(op, f, path)
	closeDataset(ds)
	if err = agree(f.comm, op, f.name, path, err); err != nil {
		return Info{}, err
	}
	return Info{Type: in.Type, Dims: in.Dims, Chunk: in.Chunk}, nil
}

// CreateDataset makes the dataset path of elements of T with dims, and the
// groups on its way, for WriteSection to fill; its elements are zero until
// written (HDF5 writes the zeros as it makes it, a write of the dataset's
// size). A path that exists is ErrExists. It is collective.
func CreateDataset[T ga.Elem](f *File, path string, dims []int, opt *Options) error {
	ds, err := create[T]("CreateDataset", f, path, dims, opt, true, nil)
	closeDataset(ds)
	return err
}

// Write writes g to a new dataset path of its type and dims (and the
// groups on its way), with the attributes "name" (g's name) and
// "distribution" (how many blocks goga cut it into along each dimension).
// A path that exists is ErrExists. It is collective.
func Write[T ga.Elem](f *File, path string, g *ga.Array[T], opt *Options) error {
	const op = "Write"
	check := sameGroup(op, f, path, g)
	var dims []int
	if check == nil {
		dims = g.Dims()
	}
	ds, err := create[T](op, f, path, dims, opt, false, check)
	if err != nil {
		return err
	}
	defer closeDataset(ds)
	if err = f.fail(move(op, f, path, ds, dims, g, make([]int, len(dims)), lastOf(dims), make([]int, len(dims)), true)); err != nil {
		return err
	}
	if err = f.SetAttr(path, "name", g.Name()); err != nil {
		return err
	}
	if grid := g.ProcGrid(); grid != nil {
		return f.SetAttr(path, "distribution", grid)
	}
	return nil
}

// Read reads the dataset path into g, whose type and dims must be the
// dataset's (else ErrMismatch). g changes only if the read succeeds on
// every process. It is collective.
func Read[T ga.Elem](f *File, path string, g *ga.Array[T]) error {
	const op = "Read"
	check := sameGroup(op, f, path, g)
	var dims []int
	if check == nil {
		dims = g.Dims()
	}
	ds, fdims, err := open[T](op, f, path, false, check, dims)
	if err != nil {
		return err
	}
	defer closeDataset(ds)
	if !slices.Equal(fdims, dims) {
		err = errorf(op, f.name, path, ErrMismatch, "the dataset's dims are %v, the global array's %v", fdims, dims)
	}
	if err = agree(f.comm, op, f.name, path, err); err != nil {
		return err
	}
	return move(op, f, path, ds, dims, g, make([]int, len(dims)), lastOf(dims), make([]int, len(dims)), false)
}

// Load makes a global array called name of the dataset path's dims, with
// the default distribution on GA's default group, and reads the dataset
// into it. It is collective.
func Load[T ga.Elem](f *File, path, name string) (*ga.Array[T], error) {
	const op = "Load"
	ds, dims, err := open[T](op, f, path, false, nil, name)
	if err != nil {
		return nil, err
	}
	defer closeDataset(ds)
	g, err := ga.CreateConfig[T](name, dims, nil, f.pg)
	if err != nil {
		return nil, errorf(op, f.name, path, err, "%v", err)
	}
	if err = move(op, f, path, ds, dims, g, make([]int, len(dims)), lastOf(dims), make([]int, len(dims)), false); err != nil {
		g.Destroy()
		return nil, err
	}
	return g, nil
}

func sameGroup[T ga.Elem](op string, f *File, path string, g *ga.Array[T]) error {
	switch {
	case g == nil || !g.Valid():
		return errorf(op, "", path, ga.ErrNil, "global array is nil or destroyed")
	case f != nil && g.Pgroup() != f.pg:
		return errorf(op, f.name, path, nil, "global array %q is on another processor group than the file", g.Name())
	}
	return nil
}

func lastOf(dims []int) []int {
	hi := make([]int, len(dims))
	for k, n := range dims {
		hi[k] = n - 1
	}
	return hi
}
