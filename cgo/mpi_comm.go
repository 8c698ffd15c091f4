package cgo

/*
#include "shim.h"

// noescape and nocallback: see mpi.go.
#cgo noescape goga_comm_rank_size
#cgo nocallback goga_comm_rank_size
*/
import "C"

// CommRankSize is MPI_Comm_rank and MPI_Comm_size in one crossing.
func CommRankSize(c Comm) (rank, size, rc int) {
	var r, s C.int
	rc = int(C.goga_comm_rank_size(h(uintptr(c)), &r, &s))
	return int(r), int(s), rc
}

// CommDup is MPI_Comm_dup.
func CommDup(c Comm) (Comm, int) {
	var o C.goga_h
	rc := C.goga_comm_dup(h(uintptr(c)), &o)
	return Comm(o), int(rc)
}

// CommSplit is MPI_Comm_split.
func CommSplit(c Comm, color, key int) (Comm, int) {
	var o C.goga_h
	rc := C.goga_comm_split(h(uintptr(c)), ci(color), ci(key), &o)
	return Comm(o), int(rc)
}

// CommSplitType is MPI_Comm_split_type with MPI_INFO_NULL.
func CommSplitType(c Comm, typ, key int) (Comm, int) {
	var o C.goga_h
	rc := C.goga_comm_split_type(h(uintptr(c)), ci(typ), ci(key), &o)
	return Comm(o), int(rc)
}

// CommCreate is MPI_Comm_create.
func CommCreate(c Comm, g Group) (Comm, int) {
	var o C.goga_h
	rc := C.goga_comm_create(h(uintptr(c)), h(uintptr(g)), &o)
	return Comm(o), int(rc)
}

// CommFree is MPI_Comm_free.
func CommFree(c Comm) int { return int(C.goga_comm_free(h(uintptr(c)))) }

// CommCompare is MPI_Comm_compare.
func CommCompare(a, b Comm) (int, int) {
	var r C.int
	rc := C.goga_comm_compare(h(uintptr(a)), h(uintptr(b)), &r)
	return int(r), int(rc)
}

// CommGroup is MPI_Comm_group.
func CommGroup(c Comm) (Group, int) {
	var o C.goga_h
	rc := C.goga_comm_group(h(uintptr(c)), &o)
	return Group(o), int(rc)
}

// CommC2F is MPI_Comm_c2f.
func CommC2F(c Comm) int { return int(C.goga_comm_c2f(h(uintptr(c)))) }

// CommF2C is MPI_Comm_f2c.
func CommF2C(f int) Comm { return Comm(C.goga_comm_f2c(ci(f))) }

// Groups.

// GroupRankSize is MPI_Group_rank and MPI_Group_size.
func GroupRankSize(g Group) (rank, size, rc int) {
	var r, s C.int
	rc = int(C.goga_group_rank_size(h(uintptr(g)), &r, &s))
	return int(r), int(s), rc
}

// GroupIncl is MPI_Group_incl.
func GroupIncl(g Group, ranks []int) (Group, int) {
	var o C.goga_h
	cr := cints(ranks)
	rc := C.goga_group_incl(h(uintptr(g)), ci(len(cr)), intsPtr(cr), &o)
	return Group(o), int(rc)
}

// GroupExcl is MPI_Group_excl.
func GroupExcl(g Group, ranks []int) (Group, int) {
	var o C.goga_h
	cr := cints(ranks)
	rc := C.goga_group_excl(h(uintptr(g)), ci(len(cr)), intsPtr(cr), &o)
	return Group(o), int(rc)
}

// GroupUnion is MPI_Group_union.
func GroupUnion(a, b Group) (Group, int) {
	var o C.goga_h
	rc := C.goga_group_union(h(uintptr(a)), h(uintptr(b)), &o)
	return Group(o), int(rc)
}

// GroupIntersection is MPI_Group_intersection.
func GroupIntersection(a, b Group) (Group, int) {
	var o C.goga_h
	rc := C.goga_group_intersection(h(uintptr(a)), h(uintptr(b)), &o)
	return Group(o), int(rc)
}

// GroupTranslateRanks is MPI_Group_translate_ranks.
func GroupTranslateRanks(a Group, ranks []int, b Group) ([]int, int) {
	in := cints(ranks)
	out := make([]C.int, len(in))
	rc := C.goga_group_translate(h(uintptr(a)), ci(len(in)), intsPtr(in), h(uintptr(b)), intsPtr(out))
	res := make([]int, len(out))
	for i, x := range out {
		res[i] = int(x)
	}
	return res, int(rc)
}

// GroupFree is MPI_Group_free.
func GroupFree(g Group) int { return int(C.goga_group_free(h(uintptr(g)))) }
