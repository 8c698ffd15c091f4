package dra

import (
	"os"
	"syscall"
)

// reserve allocates the disk space of the first n bytes of name, so that a
// full disk shows here, as an error, and not during a collective write:
// Open MPI 4.1.4 (OMPIO) prints "No space left on device" there and still
// returns MPI_SUCCESS (measured on a full tmpfs). A file system without
// fallocate is left as it is.
func reserve(name string, n int) error {
	f, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	err = syscall.Fallocate(int(f.Fd()), 0, 0, int64(n))
	if err == syscall.EOPNOTSUPP {
		err = nil
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
