package dra

import (
	"os"
	"syscall"
)

// What dra asks of the kernel beyond MPI-IO: disk space up front, and a
// hint that lets the device write while the processor copies.

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

// writeBehind starts the writeback of n bytes of f at off, written a
// moment ago, and returns without waiting (sync_file_range WRITE), so that
// the fsync at Close finds them on their way. It is a hint: a failure
// shows, if it matters, at that fsync.
func writeBehind(f *os.File, off, n int) {
	const write = 2 // SYNC_FILE_RANGE_WRITE
	syscall.SyncFileRange(int(f.Fd()), int64(off), int64(n), write)
}
