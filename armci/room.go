package armci

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// ErrNoRoom is wrapped by Malloc's error when the memory asked for cannot
// exist on this machine. MPI would fail inside the window's creation on one
// rank and leave the others waiting there, so Malloc checks first and every
// rank refuses alike.
var ErrNoRoom = errors.New("not enough memory")

// room checks that a segment whose part on this process has size bytes, and
// whose parts in this node's shared memory have the sizes mapped (nil: none),
// can be allocated: the shared parts together must fit the file system that
// backs them (Open MPI's osc_sm_backing_directory, /dev/shm unless set), and
// this process's part must fit the machine's memory and swap. It is a
// plausibility check, not a promise: memory in use by others can still run
// out later.
func room(size int, mapped []int) error {
	if total := MachineMemory(); uint64(size) > total {
		return fmt.Errorf("%w: %d bytes on this process; the machine has %d bytes of memory and swap", ErrNoRoom, size, total)
	}
	if mapped == nil {
		return nil
	}
	dir := os.Getenv("OMPI_MCA_osc_sm_backing_directory")
	if dir == "" {
		dir = "/dev/shm"
	}
	var fs syscall.Statfs_t
	if err := syscall.Statfs(dir, &fs); err != nil {
		return nil // not there: MPI places the file elsewhere
	}
	free := fs.Bavail * uint64(fs.Bsize)
	var sum uint64
	for _, n := range mapped {
		sum += uint64(partSize(n))
	}
	if sum > free {
		return fmt.Errorf("%w: %d bytes of shared memory in all on this node; %s has %d bytes free", ErrNoRoom, sum, dir, free)
	}
	return nil
}

// MachineMemory returns this machine's memory and swap, in bytes: more than
// any process here can ever allocate (the maximum uint64 if it is unknown).
func MachineMemory() uint64 {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return ^uint64(0)
	}
	return (uint64(si.Totalram) + uint64(si.Totalswap)) * uint64(si.Unit)
}
