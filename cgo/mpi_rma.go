package cgo

/*
#include "shim.h"

// noescape and nocallback: see mpi.go.
#cgo noescape memcpy
#cgo nocallback memcpy
#cgo nocallback goga_put
#cgo nocallback goga_get
#cgo nocallback goga_accumulate
#cgo nocallback goga_get_accumulate
#cgo nocallback goga_fetch_and_op
#cgo nocallback goga_compare_and_swap
#cgo nocallback goga_win_flush
#cgo nocallback goga_win_flush_local
#cgo nocallback goga_win_flush_all
#cgo nocallback goga_win_flush_local_all
#cgo nocallback goga_win_sync
*/
import "C"

import "unsafe"

// WinAllocate is MPI_Win_allocate; the window returns errors.
func WinAllocate(size, dispUnit int, c Comm) (unsafe.Pointer, Win, int) {
	var base address
	var w C.goga_h
	rc := C.goga_win_allocate(C.longlong(size), ci(dispUnit), h(uintptr(c)), base.out(), &w)
	return base.of(size), Win(w), int(rc)
}

// address receives a base address from MPI as an integer, not in a Go
// pointer: for no memory MPI may return any value (osc ucx returns 1), and
// a Go pointer holding 1 crashes the garbage collector ("invalid pointer
// found on stack") when it moves the goroutine's stack.
type address C.uintptr_t

// out is where MPI writes the address (a void **).
func (a *address) out() *unsafe.Pointer { return (*unsafe.Pointer)(unsafe.Pointer(a)) }

// of is the address as a pointer to size bytes: nil for none.
func (a *address) of(size int) unsafe.Pointer {
	if size <= 0 {
		return nil
	}
	return *a.out()
}

// WinAllocateShared is MPI_Win_allocate_shared; noncontig sets the
// alloc_shared_noncontig hint. The window returns errors.
func WinAllocateShared(size, dispUnit int, noncontig bool, c Comm) (unsafe.Pointer, Win, int) {
	var base address
	var w C.goga_h
	nc := 0
	if noncontig {
		nc = 1
	}
	rc := C.goga_win_allocate_shared(C.longlong(size), ci(dispUnit), ci(nc), h(uintptr(c)), base.out(), &w)
	return base.of(size), Win(w), int(rc)
}

// WinSharedQuery is MPI_Win_shared_query.
func WinSharedQuery(w Win, rank int) (base unsafe.Pointer, size, dispUnit, rc int) {
	var s C.longlong
	var d C.int
	var b address
	rc = int(C.goga_win_shared_query(h(uintptr(w)), ci(rank), &s, &d, b.out()))
	return b.of(int(s)), int(s), int(d), rc
}

// WinCreate is MPI_Win_create on memory that must not be Go memory.
func WinCreate(base unsafe.Pointer, size, dispUnit int, c Comm) (Win, int) {
	var w C.goga_h
	rc := C.goga_win_create(base, C.longlong(size), ci(dispUnit), h(uintptr(c)), &w)
	return Win(w), int(rc)
}

// WinFree is MPI_Win_free.
func WinFree(w Win) int { return int(C.goga_win_free(h(uintptr(w)))) }

// WinLockAll is MPI_Win_lock_all.
func WinLockAll(assert int, w Win) int { return int(C.goga_win_lock_all(ci(assert), h(uintptr(w)))) }

// WinUnlockAll is MPI_Win_unlock_all.
func WinUnlockAll(w Win) int { return int(C.goga_win_unlock_all(h(uintptr(w)))) }

// WinLock is MPI_Win_lock.
func WinLock(typ, rank, assert int, w Win) int {
	return int(C.goga_win_lock(ci(typ), ci(rank), ci(assert), h(uintptr(w))))
}

// WinUnlock is MPI_Win_unlock.
func WinUnlock(rank int, w Win) int { return int(C.goga_win_unlock(ci(rank), h(uintptr(w)))) }

// WinFlush is MPI_Win_flush.
func WinFlush(rank int, w Win) int { return int(C.goga_win_flush(ci(rank), h(uintptr(w)))) }

// WinFlushAll is MPI_Win_flush_all.
func WinFlushAll(w Win) int { return int(C.goga_win_flush_all(h(uintptr(w)))) }

// WinFlushLocal is MPI_Win_flush_local.
func WinFlushLocal(rank int, w Win) int { return int(C.goga_win_flush_local(ci(rank), h(uintptr(w)))) }

// WinFlushLocalAll is MPI_Win_flush_local_all.
func WinFlushLocalAll(w Win) int { return int(C.goga_win_flush_local_all(h(uintptr(w)))) }

// WinSync is MPI_Win_sync.
func WinSync(w Win) int { return int(C.goga_win_sync(h(uintptr(w)))) }

// Put is MPI_Put.
func Put(o unsafe.Pointer, oc int, ot Datatype, rank, disp, tc int, tt Datatype, w Win) int {
	return int(C.goga_put(o, ci(oc), h(uintptr(ot)), ci(rank), C.longlong(disp), ci(tc), h(uintptr(tt)), h(uintptr(w))))
}

// Get is MPI_Get.
func Get(o unsafe.Pointer, oc int, ot Datatype, rank, disp, tc int, tt Datatype, w Win) int {
	return int(C.goga_get(o, ci(oc), h(uintptr(ot)), ci(rank), C.longlong(disp), ci(tc), h(uintptr(tt)), h(uintptr(w))))
}

// Accumulate is MPI_Accumulate.
func Accumulate(o unsafe.Pointer, oc int, ot Datatype, rank, disp, tc int, tt Datatype, op Op, w Win) int {
	return int(C.goga_accumulate(o, ci(oc), h(uintptr(ot)), ci(rank), C.longlong(disp), ci(tc), h(uintptr(tt)), h(uintptr(op)), h(uintptr(w))))
}

// GetAccumulate is MPI_Get_accumulate.
func GetAccumulate(o unsafe.Pointer, oc int, ot Datatype, r unsafe.Pointer, rc int, rt Datatype,
	rank, disp, tc int, tt Datatype, op Op, w Win) int {
	return int(C.goga_get_accumulate(o, ci(oc), h(uintptr(ot)), r, ci(rc), h(uintptr(rt)),
		ci(rank), C.longlong(disp), ci(tc), h(uintptr(tt)), h(uintptr(op)), h(uintptr(w))))
}

// FetchAndOp is MPI_Fetch_and_op.
func FetchAndOp(o, r unsafe.Pointer, t Datatype, rank, disp int, op Op, w Win) int {
	return int(C.goga_fetch_and_op(o, r, h(uintptr(t)), ci(rank), C.longlong(disp), h(uintptr(op)), h(uintptr(w))))
}

// CompareAndSwap is MPI_Compare_and_swap.
func CompareAndSwap(o, cmp, r unsafe.Pointer, t Datatype, rank, disp int, w Win) int {
	return int(C.goga_compare_and_swap(o, cmp, r, h(uintptr(t)), ci(rank), C.longlong(disp), h(uintptr(w))))
}

// Rput is MPI_Rput. The caller pins o until the request completes.
func Rput(o unsafe.Pointer, oc int, ot Datatype, rank, disp, tc int, tt Datatype, w Win) (Request, int) {
	var r C.goga_h
	rc := C.goga_rput(o, ci(oc), h(uintptr(ot)), ci(rank), C.longlong(disp), ci(tc), h(uintptr(tt)), h(uintptr(w)), &r)
	return Request(r), int(rc)
}

// Rget is MPI_Rget. The caller pins o until the request completes.
func Rget(o unsafe.Pointer, oc int, ot Datatype, rank, disp, tc int, tt Datatype, w Win) (Request, int) {
	var r C.goga_h
	rc := C.goga_rget(o, ci(oc), h(uintptr(ot)), ci(rank), C.longlong(disp), ci(tc), h(uintptr(tt)), h(uintptr(w)), &r)
	return Request(r), int(rc)
}

// Raccumulate is MPI_Raccumulate. The caller pins o until the request completes.
func Raccumulate(o unsafe.Pointer, oc int, ot Datatype, rank, disp, tc int, tt Datatype, op Op, w Win) (Request, int) {
	var r C.goga_h
	rc := C.goga_raccumulate(o, ci(oc), h(uintptr(ot)), ci(rank), C.longlong(disp), ci(tc), h(uintptr(tt)), h(uintptr(op)), h(uintptr(w)), &r)
	return Request(r), int(rc)
}

// AllocMem is MPI_Alloc_mem.
func AllocMem(n int) (unsafe.Pointer, int) {
	// At least a byte, so that there is always memory to free.
	n = max(n, 1)
	var p address
	rc := C.MPI_Alloc_mem(C.MPI_Aint(n), C.MPI_INFO_NULL, unsafe.Pointer(p.out()))
	return p.of(n), int(rc)
}

// FreeMem is MPI_Free_mem.
func FreeMem(p unsafe.Pointer) int { return int(C.MPI_Free_mem(p)) }

// Memcpy is the C library's memcpy, for large copies between mapped segments
// where it outruns Go's copy; one crossing is nothing beside tens of KiB.
func Memcpy(dst, src unsafe.Pointer, n int) {
	C.memcpy(dst, src, C.size_t(n))
}
