package cgo

/*
#include "shim.h"
*/
import "C"

// Derived datatypes, all returned committed.

// TypeVector is MPI_Type_vector plus commit.
func TypeVector(count, blocklen, stride int, old Datatype) (Datatype, int) {
	var o C.goga_h
	rc := C.goga_type_vector(ci(count), ci(blocklen), ci(stride), h(uintptr(old)), &o)
	return Datatype(o), int(rc)
}

// TypeIndexed is MPI_Type_indexed plus commit.
func TypeIndexed(blocklens, displs []int, old Datatype) (Datatype, int) {
	var o C.goga_h
	bl, d := cints(blocklens), cints(displs)
	rc := C.goga_type_indexed(ci(len(bl)), intsPtr(bl), intsPtr(d), h(uintptr(old)), &o)
	return Datatype(o), int(rc)
}

// TypeSubarray is MPI_Type_create_subarray plus commit; fortranOrder selects
// MPI_ORDER_FORTRAN instead of MPI_ORDER_C.
func TypeSubarray(sizes, subsizes, starts []int, fortranOrder bool, old Datatype) (Datatype, int) {
	var o C.goga_h
	sz, sub, st := cints(sizes), cints(subsizes), cints(starts)
	order := 0
	if fortranOrder {
		order = 1
	}
	rc := C.goga_type_subarray(ci(len(sz)), intsPtr(sz), intsPtr(sub), intsPtr(st), ci(order), h(uintptr(old)), &o)
	return Datatype(o), int(rc)
}

// TypeFree is MPI_Type_free.
func TypeFree(t Datatype) int { return int(C.goga_type_free(h(uintptr(t)))) }

// TypeSizeExtent is MPI_Type_size_x and MPI_Type_get_extent_x.
func TypeSizeExtent(t Datatype) (size, lb, extent int, rc int) {
	var s, l, e C.longlong
	rc = int(C.goga_type_size_extent(h(uintptr(t)), &s, &l, &e))
	return int(s), int(l), int(e), rc
}

// TypeStrided builds the committed type of a strided patch: blocks of counts[0]
// elements of base, repeated counts[i] times at strides[i-1] bytes for each
// level i = 1 … len(strides). len(counts) is len(strides)+1.
func TypeStrided(counts []int, strides []int, base Datatype) (Datatype, int) {
	var o C.goga_h
	cc := cints(counts)
	cs := make([]C.longlong, len(strides)+1)
	for i, s := range strides {
		cs[i] = C.longlong(s)
	}
	rc := C.goga_type_strided(ci(len(strides)), intsPtr(cc), &cs[0], h(uintptr(base)), &o)
	return Datatype(o), int(rc)
}
