package linalg

import (
	"syscall"
	"unsafe"

	"github.com/goga-hpc/goga/scalapack"
)

// scratch is memory the solvers copy matrices into, kept from one call to the
// next as GA keeps its MA stack. Fresh pages are expensive: on a virtual
// machine each 4 KiB page faults in for about 10 µs, more than copying it, so
// a solve that copied 8 MiB into new memory would spend some 20 ms in the
// kernel. The memory is mapped outside Go's heap and asks for transparent
// huge pages (MADV_HUGEPAGE), which fault in 2 MiB at a time; it is reused
// while it is large enough and unmapped at Terminate.
type scratch struct {
	mem []byte
}

const (
	hugePage          = 2 << 20
	madvPopulateWrite = 23
)

// scratchOf returns n elements of s, growing it if needed. Their contents
// are left from earlier use.
func scratchOf[T scalapack.Elem](s *scratch, n int) []T {
	if n == 0 {
		return nil
	}
	var z T
	es := int(unsafe.Sizeof(z))
	if need := n * es; len(s.mem) < need {
		s.free()
		size := (need + hugePage - 1) / hugePage * hugePage
		mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
		if err != nil {
			return make([]T, n) // the heap still works, only slower
		}
		// Advice, ignored where not offered: huge pages, faulted in now in
		// one call (MADV_POPULATE_WRITE, Linux 5.14) rather than one by one.
		_ = syscall.Madvise(mem, syscall.MADV_HUGEPAGE)
		_ = syscall.Madvise(mem, madvPopulateWrite)
		s.mem = mem
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&s.mem[0])), n)
}

func (s *scratch) free() {
	if s.mem != nil {
		_ = syscall.Munmap(s.mem)
		s.mem = nil
	}
}
