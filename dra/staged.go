package dra

import (
	"errors"
	"os"

	"github.com/goga-hpc/goga/mpi"
)

// A file is written under a temporary name, its name + partial, and takes
// its name only once complete and synced: a crash or a failure midway
// leaves what was under the name before. These helpers are that life,
// shared by disk arrays and .npy files; each is collective over c.

// partial is the suffix of the temporary name a file is written under.
const partial = ".partial"

// openShared opens name collectively; every process gets the same error.
func openShared(op string, c *mpi.Comm, file, name string, mode mpi.FileMode) (*mpi.File, error) {
	f, err := mpi.FileOpen(c, name, mode, nil)
	if err != nil {
		err = errorf(op, file, err, "%v", err)
	}
	if err := agree(c, op, file, err); err != nil {
		if f != nil {
			f.Close()
		}
		return nil, err
	}
	return f, nil
}

// createPartial makes file's partial file of size bytes, zeros, with its
// disk space reserved (see reserve), and opens it for reading and
// writing, unless check (this process's verdict on the arguments) or
// another process refuses. Process 0 makes the file alone, so that one
// agreement covers the arguments and the making.
func createPartial(op string, c *mpi.Comm, file string, size int, check error) (*mpi.File, error) {
	tmp := file + partial
	err := check
	if err == nil && c.Rank() == 0 {
		// Create truncates a partial file left by a crash.
		var out *os.File
		if out, err = os.Create(tmp); err == nil {
			err = out.Truncate(int64(size))
			if cerr := out.Close(); err == nil {
				err = cerr
			}
		}
		if err == nil {
			err = reserve(tmp, size)
		}
		if err != nil {
			os.Remove(tmp)
			err = errorf(op, file, err, "making the file of %d bytes: %v", size, err)
		}
	}
	if err := agree(c, op, file, err); err != nil {
		if check == nil && c.Rank() == 0 {
			os.Remove(tmp)
		}
		return nil, err
	}
	f, err := openShared(op, c, file, tmp, mpi.ModeRdwr)
	if err != nil {
		removePartial(c, file)
		return nil, err
	}
	return f, nil
}

// removePartial removes file's partial file (process 0) once every
// process is done with it, and returns when it is gone.
func removePartial(c *mpi.Comm, file string) {
	c.Barrier()
	if c.Rank() == 0 {
		os.Remove(file + partial)
	}
	c.Barrier()
}

// publish syncs and closes f, file's partial file, and renames it to
// file; on any failure, or if prior (this process's error so far) is not
// nil on some process, it removes the partial file instead.
func publish(op string, c *mpi.Comm, f *mpi.File, file string, prior error) error {
	err := errors.Join(f.Sync(), f.Close())
	if err != nil {
		err = errorf(op, file, err, "%v", err)
	}
	if prior != nil {
		err = prior
	}
	if err := agree(c, op, file, err); err != nil {
		removePartial(c, file)
		return err
	}
	if c.Rank() == 0 {
		if err = commit(file+partial, file); err != nil {
			err = errorf(op, file, err, "%v", err)
		}
	}
	return agree(c, op, file, err)
}

// commit gives tmp, whose data is synced, the name final. The rename is
// atomic but not synced through the directory (measured: another 7 ms or
// so for 32 MiB, a fifth of the write): after a crash the name holds the
// new file or the previous one, both complete.
func commit(tmp, final string) error { return os.Rename(tmp, final) }
