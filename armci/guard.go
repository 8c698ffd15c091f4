package armci

import (
	"sync"
	"syscall"
	"unsafe"
)

// A segment's local part is handed out in place (Local, and ga's Access
// calls), and a program may keep such a slice past Free. MPI unmaps the
// part's memory at Free, and the next segment is usually mapped at the same
// address: a write through the stale slice would then land, silently, in
// another array. So Free reserves the part's pages as inaccessible address
// space (no memory, only addresses): a stale access faults at once, with Go's
// "unexpected fault address" and a stack trace that names the line. The
// reservations last until Finalize, up to maxGuarded bytes of addresses in
// all; past that the oldest are given back.

const maxGuarded = 1 << 40 // 1 TiB of the 128 TiB of user address space

// mapFixedNoreplace is MAP_FIXED_NOREPLACE (Linux 4.17): map exactly there,
// or fail if anything is mapped there already.
const mapFixedNoreplace = 0x100000

type guards struct {
	mu     sync.Mutex
	ranges [][2]uintptr // start, length
	bytes  uintptr
}

// pages returns the whole pages that p lies in.
func pages(p []byte) (start, length uintptr) {
	if len(p) == 0 {
		return 0, 0
	}
	page := uintptr(syscall.Getpagesize())
	start = uintptr(unsafe.Pointer(unsafe.SliceData(p))) &^ (page - 1)
	end := (uintptr(unsafe.Pointer(unsafe.SliceData(p))) + uintptr(len(p)) + page - 1) &^ (page - 1)
	return start, end - start
}

// reserve makes [start, start+length) inaccessible, if nothing is mapped
// there (memory that MPI keeps in its heap instead is left alone).
func (g *guards) reserve(start, length uintptr) {
	if length == 0 {
		return
	}
	_, _, e := syscall.Syscall6(syscall.SYS_MMAP, start, length, syscall.PROT_NONE,
		syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS|syscall.MAP_NORESERVE|mapFixedNoreplace, ^uintptr(0), 0)
	if e != 0 {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.ranges = append(g.ranges, [2]uintptr{start, length})
	g.bytes += length
	for g.bytes > maxGuarded && len(g.ranges) > 1 {
		r := g.ranges[0]
		syscall.Syscall(syscall.SYS_MUNMAP, r[0], r[1], 0)
		g.ranges, g.bytes = g.ranges[1:], g.bytes-r[1]
	}
}

// release gives every reservation back.
func (g *guards) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, r := range g.ranges {
		syscall.Syscall(syscall.SYS_MUNMAP, r[0], r[1], 0)
	}
	g.ranges, g.bytes = nil, 0
}
