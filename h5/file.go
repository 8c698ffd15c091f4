package h5

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"syscall"

	"github.com/goga-hpc/goga/cgo/hdf5"
	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/mpi"
)

// Mode is how Open opens a file.
type Mode int

// Modes. ModeReadWrite works on a copy under a temporary name that Close
// renames to the file's name, as Create does, so the file is always
// complete.
const (
	ModeRead Mode = iota + 1
	ModeReadWrite
)

func (m Mode) String() string {
	switch m {
	case ModeRead:
		return "Read"
	case ModeReadWrite:
		return "ReadWrite"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// partial is the suffix of the temporary name a file is written under.
const partial = ".partial"

// lib serializes this process's calls of HDF5, which is built without
// thread safety; start silences its error printing, once.
var (
	lib     sync.Mutex
	started = sync.OnceValue(hdf5.Init)
)

// locked runs f, calls of HDF5, holding lib.
func locked[R any](f func() (R, error)) (R, error) {
	lib.Lock()
	defer lib.Unlock()
	return f()
}

// File is an HDF5 file opened collectively by the processes of GA's
// default group, through parallel HDF5's MPI-IO driver on the group's
// communicator. Its methods, and the functions that take it, are
// collective over that group, with the same arguments on every process.
type File struct {
	pg       *ga.Pgroup
	comm     *mpi.Comm
	id       hdf5.ID
	name     string // the file's name
	tmp      string // the name written under, "" when read in place
	failed   error  // the first failure that changed the file: Close discards it
	reserved int    // bytes of the partial file given disk space (process 0)
	closed   bool
}

// Name is the file's name.
func (f *File) Name() string { return f.name }

func (f *File) String() string { return "h5 " + f.name }

// begin starts a call on f: the group, HDF5 started, and the call's own
// check (this process's verdict on its arguments, or nil), agreed with
// the arguments.
func begin(op, file, obj string, check error, args ...any) (*ga.Pgroup, *mpi.Comm, error) {
	pg := ga.PgroupGetDefault()
	if pg == nil {
		return nil, nil, errorf(op, file, obj, ga.ErrNotInitialized, "GA is not running")
	}
	c := pg.Comm()
	err := check
	if err == nil {
		if serr := started(); serr != nil {
			err = hdf5Error(op, file, obj, serr)
		}
	}
	return pg, c, agree(c, op, file, obj, err, args...)
}

// Create makes the HDF5 file name, replacing one there, for writing. The
// file appears under its name at Close, complete; until then it is name +
// ".partial". It is collective over GA's default group.
func Create(name string) (*File, error) {
	const op = "Create"
	pg, c, err := begin(op, name, "", nil, op, name)
	if err != nil {
		return nil, err
	}
	f := &File{pg: pg, comm: c, name: name, tmp: name + partial}
	return f, f.open(op, true, true)
}

// Open opens the HDF5 file name for reading (ModeRead, in place) or for
// reading and writing (ModeReadWrite: on a copy, name + ".partial", that
// Close renames to name). It is collective over GA's default group. A file
// that is missing is ErrNotFound, one that is not HDF5 ErrFormat.
func Open(name string, mode Mode) (*File, error) {
	const op = "Open"
	var check error
	if mode != ModeRead && mode != ModeReadWrite {
		check = errorf(op, name, "", nil, "mode %v: Open takes ModeRead or ModeReadWrite", mode)
	}
	pg, c, err := begin(op, name, "", check, op, name, mode)
	if err != nil {
		return nil, err
	}
	f := &File{pg: pg, comm: c, name: name}
	if c.Rank() == 0 {
		err = checkFile(op, name)
		if err == nil && mode == ModeReadWrite {
			if err = copyFile(name, name+partial); err != nil {
				os.Remove(name + partial)
				err = errorf(op, name, "", err, "copying to %s: %v", name+partial, err)
			}
		}
	}
	if err = agree(c, op, name, "", err); err != nil {
		return nil, err
	}
	if mode == ModeReadWrite {
		f.tmp = name + partial
	}
	return f, f.open(op, false, mode == ModeReadWrite)
}

// open opens f's file collectively; on failure it removes the partial
// file.
func (f *File) open(op string, create, rw bool) error {
	id, err := locked(func() (hdf5.ID, error) { return hdf5.FileOpen(f.path(), f.comm.Handle(), create, rw) })
	if err != nil {
		err = hdf5Error(op, f.name, "", err)
	}
	if err = agree(f.comm, op, f.name, "", err); err != nil {
		if id >= 0 {
			locked(func() (struct{}, error) { return struct{}{}, hdf5.FileClose(id) })
		}
		f.removePartial()
		f.closed = true
		return err
	}
	f.id = id
	return nil
}

// path is the name of the file HDF5 has open.
func (f *File) path() string {
	if f.tmp != "" {
		return f.tmp
	}
	return f.name
}

// checkFile tells, from one process, whether name is an HDF5 file HDF5
// opens: ErrNotFound where it is missing, ErrFormat where it is not HDF5.
func checkFile(op, name string) error {
	if _, err := os.Stat(name); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return errorf(op, name, "", errors.Join(ErrNotFound, err), "%v", err)
		}
		return errorf(op, name, "", err, "%v", err)
	}
	ok, err := locked(func() (bool, error) { return hdf5.FileCheck(name) })
	if !ok {
		return errorf(op, name, "", ErrFormat, "the file is not HDF5 (no HDF5 signature)")
	}
	if err != nil {
		return hdf5Error(op, name, "", err)
	}
	return nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	return errors.Join(err, out.Close())
}

// removePartial removes f's partial file (process 0) once every process is
// done with it.
func (f *File) removePartial() {
	if f.tmp == "" {
		return
	}
	f.comm.Barrier()
	if f.comm.Rank() == 0 {
		os.Remove(f.tmp)
	}
	f.comm.Barrier()
}

// valid checks f for a call op that writes (write) or reads.
func (f *File) valid(op, obj string, write bool) error {
	switch {
	case f == nil || f.closed:
		return errorf(op, "", obj, ErrClosed, "the file is nil or closed")
	case write && f.tmp == "":
		return errorf(op, f.name, obj, ErrReadOnly, "opened with ModeRead")
	case ga.PgroupGetDefault() != f.pg:
		return errorf(op, f.name, obj, nil, "GA's default group is not the one the file was opened on")
	}
	return nil
}

// reserve gives the partial file disk space for n bytes more of data,
// from process 0, so that a full disk is an error here, on every process,
// rather than a write that MPI-IO reports as done (Open MPI's OMPIO prints
// "No space left on device" and returns success). HDF5 places a new
// dataset at its end of allocated space, which it does not tell under the
// MPI-IO driver: reserved is a bound on it, the file's length or the last
// bound, whichever is larger, plus each dataset's bytes and 64 KiB for
// its metadata. The space past the end of the file is kept off its length
// (FALLOC_FL_KEEP_SIZE) and freed at Close.
func (f *File) reserve(op, obj string, n int) error {
	var err error
	if f.comm.Rank() == 0 {
		var st os.FileInfo
		if st, err = os.Stat(f.tmp); err == nil {
			f.reserved = max(f.reserved, int(st.Size())) + n + 64<<10
			err = fallocate(f.tmp, f.reserved, true)
		}
		if err != nil {
			err = errorf(op, f.name, obj, err, "reserving %d bytes: %v", f.reserved, err)
		}
	}
	return agree(f.comm, op, f.name, obj, err)
}

// fallocate allocates the first n bytes of the file name on its disk;
// keep leaves its length as it is.
func fallocate(name string, n int, keep bool) error {
	out, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	mode := uint32(0)
	if keep {
		mode = 1 // FALLOC_FL_KEEP_SIZE
	}
	err = syscall.Fallocate(int(out.Fd()), mode, 0, int64(n))
	if err == syscall.EOPNOTSUPP {
		err = nil
	}
	return errors.Join(err, out.Close())
}

// writeBehind starts the writeback of the partial file's dirty pages, from
// a goroutine of process 0 (sync_file_range WRITE, which waits while the
// device's queue is full), so that Close's fsync finds them on their way
// while the program goes on. It is a hint: a failure shows, if it matters,
// at that fsync.
func (f *File) writeBehind() {
	if f.comm.Rank() != 0 {
		return
	}
	go func() {
		if out, err := os.OpenFile(f.tmp, os.O_WRONLY, 0); err == nil {
			const write = 2 // SYNC_FILE_RANGE_WRITE
			syscall.SyncFileRange(int(out.Fd()), 0, 0, write)
			out.Close()
		}
	}()
}

// fail records err, a failure after the file changed, for Close, and
// returns it.
func (f *File) fail(err error) error {
	if err != nil && f.failed == nil && f.tmp != "" {
		f.failed = err
	}
	return err
}

// Close closes the file, collectively. A file written (Create,
// ModeReadWrite) is synced, checked by HDF5 (opened alone and closed) and
// renamed to its name; if a call on it failed after changing it, or any of
// these steps fails, the partial file is removed instead and Close returns
// that failure, on every process. Close of a closed file is ErrClosed.
func (f *File) Close() error {
	const op = "Close"
	if f == nil || f.closed {
		return errorf(op, "", "", ErrClosed, "the file is nil or closed")
	}
	f.closed = true
	_, err := locked(func() (struct{}, error) { return struct{}{}, hdf5.FileClose(f.id) })
	if err != nil {
		err = hdf5Error(op, f.name, "", err)
	}
	if f.tmp == "" {
		return agree(f.comm, op, f.name, "", err)
	}
	if f.failed != nil {
		err = f.failed
	}
	if err = agree(f.comm, op, f.name, "", err); err != nil {
		f.removePartial()
		return err
	}
	if f.comm.Rank() == 0 {
		err = f.publish(op)
	}
	return agree(f.comm, op, f.name, "", err)
}

// publish syncs the partial file, has HDF5 check it, and gives it the
// file's name; on failure it removes it. Process 0 does it alone.
func (f *File) publish(op string) error {
	err := syncFile(f.tmp)
	if err != nil {
		err = errorf(op, f.name, "", err, "syncing: %v", err)
	} else {
		err = checkFile(op, f.tmp)
	}
	if err == nil {
		if rerr := os.Rename(f.tmp, f.name); rerr != nil {
			err = errorf(op, f.name, "", rerr, "%v", rerr)
		}
	}
	if err != nil {
		os.Remove(f.tmp)
	}
	return err
}

// syncFile frees the space reserved past the end of the file name and
// syncs it.
func syncFile(name string) error {
	out, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	st, err := out.Stat()
	if err == nil {
		err = out.Truncate(st.Size())
	}
	if err == nil {
		err = out.Sync()
	}
	return errors.Join(err, out.Close())
}
