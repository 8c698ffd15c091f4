package cgo

/*
#include "shim.h"

// noescape and nocallback: see mpi.go.
#cgo noescape goga_bcast
#cgo nocallback goga_bcast
#cgo noescape goga_reduce
#cgo nocallback goga_reduce
#cgo noescape goga_allreduce
#cgo nocallback goga_allreduce
#cgo nocallback goga_barrier
*/
import "C"

import "unsafe"

// In the collectives, a nil send buffer means MPI_IN_PLACE (for Scatter(v), a nil receive buffer).

// Barrier is MPI_Barrier.
func Barrier(c Comm) int { return int(C.goga_barrier(h(uintptr(c)))) }

// Bcast is MPI_Bcast.
func Bcast(buf unsafe.Pointer, count int, t Datatype, root int, c Comm) int {
	return int(C.goga_bcast(buf, ci(count), h(uintptr(t)), ci(root), h(uintptr(c))))
}

// Reduce is MPI_Reduce.
func Reduce(s, r unsafe.Pointer, count int, t Datatype, op Op, root int, c Comm) int {
	return int(C.goga_reduce(s, r, ci(count), h(uintptr(t)), h(uintptr(op)), ci(root), h(uintptr(c))))
}

// Allreduce is MPI_Allreduce.
func Allreduce(s, r unsafe.Pointer, count int, t Datatype, op Op, c Comm) int {
	return int(C.goga_allreduce(s, r, ci(count), h(uintptr(t)), h(uintptr(op)), h(uintptr(c))))
}

// Ibarrier is MPI_Ibarrier.
func Ibarrier(c Comm) (Request, int) {
	var r C.goga_h
	rc := C.goga_ibarrier(h(uintptr(c)), &r)
	return Request(r), int(rc)
}

// Iallreduce is MPI_Iallreduce. The caller pins s and r until the request
// completes.
func Iallreduce(s, r unsafe.Pointer, count int, t Datatype, op Op, c Comm) (Request, int) {
	var q C.goga_h
	rc := C.goga_iallreduce(s, r, ci(count), h(uintptr(t)), h(uintptr(op)), h(uintptr(c)), &q)
	return Request(q), int(rc)
}

// Scan is MPI_Scan.
func Scan(s, r unsafe.Pointer, count int, t Datatype, op Op, c Comm) int {
	return int(C.goga_scan(s, r, ci(count), h(uintptr(t)), h(uintptr(op)), h(uintptr(c))))
}

// Exscan is MPI_Exscan.
func Exscan(s, r unsafe.Pointer, count int, t Datatype, op Op, c Comm) int {
	return int(C.goga_exscan(s, r, ci(count), h(uintptr(t)), h(uintptr(op)), h(uintptr(c))))
}

// ReduceScatter is MPI_Reduce_scatter.
func ReduceScatter(s, r unsafe.Pointer, counts []int, t Datatype, op Op, c Comm) int {
	cc := cints(counts)
	return int(C.goga_reduce_scatter(s, r, intsPtr(cc), h(uintptr(t)), h(uintptr(op)), h(uintptr(c))))
}

// Gather is MPI_Gather with one datatype on both sides.
func Gather(s unsafe.Pointer, scount int, r unsafe.Pointer, rcount int, t Datatype, root int, c Comm) int {
	return int(C.goga_gather(s, ci(scount), r, ci(rcount), h(uintptr(t)), ci(root), h(uintptr(c))))
}

// Gatherv is MPI_Gatherv with one datatype on both sides.
func Gatherv(s unsafe.Pointer, scount int, r unsafe.Pointer, rcounts, displs []int, t Datatype, root int, c Comm) int {
	rc, d := cints(rcounts), cints(displs)
	return int(C.goga_gatherv(s, ci(scount), r, intsPtr(rc), intsPtr(d), h(uintptr(t)), ci(root), h(uintptr(c))))
}

// Allgather is MPI_Allgather with one datatype on both sides.
func Allgather(s unsafe.Pointer, scount int, r unsafe.Pointer, rcount int, t Datatype, c Comm) int {
	return int(C.goga_allgather(s, ci(scount), r, ci(rcount), h(uintptr(t)), h(uintptr(c))))
}

// Allgatherv is MPI_Allgatherv with one datatype on both sides.
func Allgatherv(s unsafe.Pointer, scount int, r unsafe.Pointer, rcounts, displs []int, t Datatype, c Comm) int {
	rc, d := cints(rcounts), cints(displs)
	return int(C.goga_allgatherv(s, ci(scount), r, intsPtr(rc), intsPtr(d), h(uintptr(t)), h(uintptr(c))))
}

// Scatter is MPI_Scatter with one datatype on both sides.
func Scatter(s unsafe.Pointer, scount int, r unsafe.Pointer, rcount int, t Datatype, root int, c Comm) int {
	return int(C.goga_scatter(s, ci(scount), r, ci(rcount), h(uintptr(t)), ci(root), h(uintptr(c))))
}

// Scatterv is MPI_Scatterv with one datatype on both sides.
func Scatterv(s unsafe.Pointer, scounts, displs []int, r unsafe.Pointer, rcount int, t Datatype, root int, c Comm) int {
	sc, d := cints(scounts), cints(displs)
	return int(C.goga_scatterv(s, intsPtr(sc), intsPtr(d), r, ci(rcount), h(uintptr(t)), ci(root), h(uintptr(c))))
}

// Alltoall is MPI_Alltoall with one datatype on both sides.
func Alltoall(s unsafe.Pointer, scount int, r unsafe.Pointer, rcount int, t Datatype, c Comm) int {
	return int(C.goga_alltoall(s, ci(scount), r, ci(rcount), h(uintptr(t)), h(uintptr(c))))
}

// Alltoallv is MPI_Alltoallv with one datatype on both sides.
func Alltoallv(s unsafe.Pointer, scounts, sdispls []int, r unsafe.Pointer, rcounts, rdispls []int, t Datatype, c Comm) int {
	sc, sd, rc, rd := cints(scounts), cints(sdispls), cints(rcounts), cints(rdispls)
	return int(C.goga_alltoallv(s, intsPtr(sc), intsPtr(sd), r, intsPtr(rc), intsPtr(rd), h(uintptr(t)), h(uintptr(c))))
}

// OpCreate is MPI_Op_create of f; slot is -1 when all UserOps slots are taken.
func OpCreate(f UserFunc, commute bool) (op Op, slot, rc int) {
	userOps.Lock()
	defer userOps.Unlock()
	for i, g := range userOps.f {
		if g != nil {
			continue
		}
		var h C.goga_h
		c := 0
		if commute {
			c = 1
		}
		if rc = int(C.goga_op_create(C.int(i), C.int(c), &h)); rc != Success {
			return 0, i, rc
		}
		userOps.f[i] = f
		return Op(h), i, rc
	}
	return 0, -1, Success
}

// OpFree is MPI_Op_free of the operator in slot.
func OpFree(op Op, slot int) int {
	rc := int(C.goga_op_free(h(uintptr(op))))
	if rc == Success {
		userOps.Lock()
		userOps.f[slot] = nil
		userOps.Unlock()
	}
	return rc
}

// ReduceCB is Reduce for a user-defined operator.
func ReduceCB(s, r unsafe.Pointer, count int, t Datatype, op Op, root int, c Comm) int {
	return int(C.goga_reduce_cb(s, r, ci(count), h(uintptr(t)), h(uintptr(op)), ci(root), h(uintptr(c))))
}

// AllreduceCB is Allreduce for a user-defined operator.
func AllreduceCB(s, r unsafe.Pointer, count int, t Datatype, op Op, c Comm) int {
	return int(C.goga_allreduce_cb(s, r, ci(count), h(uintptr(t)), h(uintptr(op)), h(uintptr(c))))
}
