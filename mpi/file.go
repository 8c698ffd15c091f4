package mpi

import "github.com/goga-hpc/goga/cgo"

// FileMode is an access mode of FileOpen (MPI_MODE_*); combine with |.
type FileMode int

// Access modes.
const (
	ModeRdonly         FileMode = cgo.ModeRdonly
	ModeWronly         FileMode = cgo.ModeWronly
	ModeRdwr           FileMode = cgo.ModeRdwr
	ModeCreate         FileMode = cgo.ModeCreate
	ModeExcl           FileMode = cgo.ModeExcl
	ModeDeleteOnClose  FileMode = cgo.ModeDeleteOnClose
	ModeUniqueOpen     FileMode = cgo.ModeUniqueOpen
	ModeSequential     FileMode = cgo.ModeSequential
	ModeAppend         FileMode = cgo.ModeAppend
	fileModeAccessMask          = ModeRdonly | ModeWronly | ModeRdwr
)

// Error classes of I/O failures, to compare with Error.Class.
const (
	ErrClassNoSuchFile = cgo.ErrNoSuchFile
	ErrClassNoSpace    = cgo.ErrNoSpace
	ErrClassAccess     = cgo.ErrAccess
	ErrClassFileExists = cgo.ErrFileExists
	ErrClassQuota      = cgo.ErrQuota
	ErrClassReadOnly   = cgo.ErrReadOnly
	ErrClassIO         = cgo.ErrIO
)

// Info is an MPI_Info object of hints (for FileOpen, SetView). A nil *Info
// stands for MPI_INFO_NULL.
type Info struct {
	h     cgo.Info
	freed bool
}

// NewInfo is MPI_Info_create followed by MPI_Info_set for each pair of
// hints, key then value: NewInfo("cb_buffer_size", "16777216").
func NewInfo(kv ...string) (*Info, error) {
	const op = "NewInfo"
	if err := running(op); err != nil {
		return nil, err
	}
	if len(kv)%2 != 0 {
		return nil, argErr(op, "kv", "%d strings: hints come as key, value pairs", len(kv))
	}
	h, rc := cgo.InfoCreate()
	if err := check(op, rc); err != nil {
		return nil, err
	}
	i := &Info{h: h}
	for k := 0; k < len(kv); k += 2 {
		if err := i.Set(kv[k], kv[k+1]); err != nil {
			cgo.InfoFree(h)
			return nil, err
		}
	}
	return i, nil
}

// Set is MPI_Info_set.
func (i *Info) Set(key, value string) error {
	if err := i.valid("Info.Set"); err != nil {
		return err
	}
	return check("Info.Set", cgo.InfoSet(i.h, key, value))
}

// Free is MPI_Info_free.
func (i *Info) Free() error {
	if err := i.valid("Info.Free"); err != nil {
		return err
	}
	if err := check("Info.Free", cgo.InfoFree(i.h)); err != nil {
		return err
	}
	i.freed = true
	return nil
}

func (i *Info) valid(op string) error {
	if err := running(op); err != nil {
		return err
	}
	if i == nil {
		return stateErr(op, "info", ErrNil)
	}
	if i.freed {
		return stateErr(op, "info", ErrFreed)
	}
	return nil
}

// handle is i's MPI handle, MPI_INFO_NULL for nil.
func (i *Info) handle(op string) (cgo.Info, error) {
	if i == nil {
		return cgo.InfoNull, nil
	}
	if err := i.valid(op); err != nil {
		return cgo.InfoNull, err
	}
	return i.h, nil
}

// File is an MPI file opened collectively on a communicator (MPI_File). Its
// calls return errors (MPI_ERRORS_RETURN). Offsets count etypes of the
// current view: bytes until SetView sets another.
type File struct {
	h      cgo.File
	comm   *Comm
	name   string
	closed bool
}

// FileOpen is MPI_File_open: collective over c, every rank passing the same
// name and mode. The mode holds exactly one of ModeRdonly, ModeWronly and
// ModeRdwr.
func FileOpen(c *Comm, name string, mode FileMode, hints *Info) (*File, error) {
	const op = "FileOpen"
	if err := c.valid(op); err != nil {
		return nil, err
	}
	switch mode & fileModeAccessMask {
	case ModeRdonly, ModeWronly, ModeRdwr:
	default:
		return nil, argErr(op, "mode", "%#x holds not exactly one of ModeRdonly, ModeWronly, ModeRdwr", int(mode))
	}
	ih, err := hints.handle(op)
	if err != nil {
		return nil, err
	}
	h, rc := cgo.FileOpen(c.h, name, int(mode), ih)
	if err := check(op+" "+name, rc); err != nil {
		return nil, err
	}
	return &File{h: h, comm: c, name: name}, nil
}

// FileDelete is MPI_File_delete.
func FileDelete(name string, hints *Info) error {
	const op = "FileDelete"
	if err := running(op); err != nil {
		return err
	}
	ih, err := hints.handle(op)
	if err != nil {
		return err
	}
	return check(op+" "+name, cgo.FileDelete(name, ih))
}

// Name returns the name f was opened with.
func (f *File) Name() string {
	if f == nil {
		return ""
	}
	return f.name
}

func (f *File) valid(op string) error {
	if err := running(op); err != nil {
		return err
	}
	if f == nil {
		return stateErr(op, "file", ErrNil)
	}
	if f.closed {
		return stateErr(op, "file", ErrFreed)
	}
	return nil
}

// Close is MPI_File_close (collective).
func (f *File) Close() error {
	const op = "File.Close"
	if err := f.valid(op); err != nil {
		return err
	}
	f.closed = true // a failed close leaves no handle to close again
	return check(op+" "+f.name, cgo.FileClose(&f.h))
}

// Sync is MPI_File_sync (collective): the data written so far reaches the
// storage device.
func (f *File) Sync() error {
	if err := f.valid("File.Sync"); err != nil {
		return err
	}
	return check("File.Sync "+f.name, cgo.FileSync(f.h))
}

// SetSize is MPI_File_set_size (collective): n bytes, truncating or extending.
func (f *File) SetSize(n int) error {
	if err := f.valid("File.SetSize"); err != nil {
		return err
	}
	if n < 0 {
		return argErr("File.SetSize", "n", "negative size %d", n)
	}
	return check("File.SetSize "+f.name, cgo.FileSetSize(f.h, n))
}

// Size is MPI_File_get_size: the file's size in bytes.
func (f *File) Size() (int, error) {
	if err := f.valid("File.Size"); err != nil {
		return 0, err
	}
	n, rc := cgo.FileGetSize(f.h)
	return n, check("File.Size "+f.name, rc)
}

// SetView is MPI_File_set_view (collective) with the "native"
// representation: the view starts disp bytes into the file, its etype is T,
// and its filetype is ftype (elements of T), or T itself (a contiguous view)
// when ftype is nil. Offsets of later transfers count elements of T.
func SetView[T Elem](f *File, disp int, ftype *Datatype, hints *Info) error {
	const op = "SetView"
	if err := f.valid(op); err != nil {
		return err
	}
	if disp < 0 {
		return argErr(op, "disp", "negative displacement %d", disp)
	}
	e := info[T]()
	ft := e.dt
	if ftype != nil {
		if err := ftype.valid(op, "ftype"); err != nil {
			return err
		}
		if ftype.elem.dt != e.dt {
			return argErr(op, "ftype", "filetype of %s, etype %s", ftype.elem.name, e.name)
		}
		ft = ftype.h
	}
	ih, err := hints.handle(op)
	if err != nil {
		return err
	}
	return check(op+" "+f.name, cgo.FileSetView(f.h, disp, e.dt, ft, ih))
}

// fileArgs checks a transfer's file, offset and buffer length.
func fileArgs(op string, f *File, off, n int) error {
	if err := f.valid(op); err != nil {
		return err
	}
	if off < 0 {
		return argErr(op, "offset", "negative offset %d", off)
	}
	return checkCount(op, "buf", n)
}

// fileIO runs one blocking transfer of buf at off and returns how many
// elements moved, as MPI reports it.
func fileIO[T Elem](op string, f *File, off int, buf []T, x cgo.FileXfer) (int, error) {
	if err := fileArgs(op, f, off, len(buf)); err != nil {
		return 0, err
	}
	e := info[T]()
	var st cgo.Status
	if err := check(op+" "+f.name, cgo.FileIO(x, f.h, off, ptr(buf), len(buf), e.dt, &st)); err != nil {
		return 0, err
	}
	return status(st, e.size).Count, nil
}

// WriteAtAll is MPI_File_write_at_all (collective): buf at offset off of
// the view. It returns the number of elements written.
func WriteAtAll[T Elem](f *File, off int, buf []T) (int, error) {
	return fileIO("WriteAtAll", f, off, buf, cgo.FileWriteAtAll)
}

// ReadAtAll is MPI_File_read_at_all (collective): it fills buf from offset
// off of the view and returns the number of elements read as MPI reports
// it. Open MPI 4.1.4 (OMPIO) reports all of buf even for a read that meets
// the end of the file (measured), so a caller that must not read past the
// end compares with Size first.
func ReadAtAll[T Elem](f *File, off int, buf []T) (int, error) {
	return fileIO("ReadAtAll", f, off, buf, cgo.FileReadAtAll)
}

// WriteAt is MPI_File_write_at, by this rank alone.
func WriteAt[T Elem](f *File, off int, buf []T) (int, error) {
	return fileIO("WriteAt", f, off, buf, cgo.FileWriteAt)
}

// ReadAt is MPI_File_read_at, by this rank alone.
func ReadAt[T Elem](f *File, off int, buf []T) (int, error) {
	return fileIO("ReadAt", f, off, buf, cgo.FileReadAt)
}

// startIO starts a non-blocking collective transfer; buf stays pinned until
// the request completes.
func startIO[T Elem](op string, f *File, off int, buf []T, write bool) (*Request, error) {
	if err := fileArgs(op, f, off, len(buf)); err != nil {
		return nil, err
	}
	e := info[T]()
	r := newRequest(op, buf, e.size)
	h, rc := cgo.FileIstart(write, f.h, off, ptr(buf), len(buf), e.dt)
	return r.started(h, check(op+" "+f.name, rc))
}

// IwriteAtAll is MPI_File_iwrite_at_all (MPI 3.1): WriteAtAll that returns
// at once; buf must not change until the request completes, and its
// Status.Count is the number of elements written.
func IwriteAtAll[T Elem](f *File, off int, buf []T) (*Request, error) {
	return startIO("IwriteAtAll", f, off, buf, true)
}

// IreadAtAll is MPI_File_iread_at_all (MPI 3.1): ReadAtAll that returns at
// once; buf must not be read until the request completes.
func IreadAtAll[T Elem](f *File, off int, buf []T) (*Request, error) {
	return startIO("IreadAtAll", f, off, buf, false)
}
