package cgo

/*
#include "scalapack_drivers.h"
*/
import "C"

import "unsafe"

// Descriptors cross as [9]int32, ScaLAPACK's DESC arrays.

func cdesc(d *[9]int32) *C.int { return (*C.int)(unsafe.Pointer(&d[0])) }

func flag(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// Pgesv is PDGESV or PZGESV (complex) on whole matrices; it returns INFO.
func Pgesv(complex bool, n, nrhs int, a unsafe.Pointer, desca *[9]int32, ipiv []int32, b unsafe.Pointer, descb *[9]int32) int {
	return int(C.goga_pgesv(flag(complex), C.int(n), C.int(nrhs), a, cdesc(desca), i32(ipiv), b, cdesc(descb)))
}

// Ptrsm is PDTRSM or PZTRSM on whole matrices: B = alpha·op(A)⁻¹·B (side
// 'L') or alpha·B·op(A)⁻¹ (side 'R'); alpha points at one element of B's type.
func Ptrsm(complex bool, side, uplo, trans, diag byte, m, n int, alpha unsafe.Pointer, a unsafe.Pointer, desca *[9]int32, b unsafe.Pointer, descb *[9]int32) {
	C.goga_ptrsm(flag(complex), C.char(side), C.char(uplo), C.char(trans), C.char(diag), C.int(m), C.int(n), (*C.double)(alpha), a, cdesc(desca), b, cdesc(descb))
}

// Plapiv is PDLAPIV or PZLAPIV on a whole m × n matrix: the interchanges of
// ipiv, tied to A's rows (rowcol 'R') or columns ('C') and described by
// descip, applied forward ('F') or backward ('B').
func Plapiv(complex bool, direc, rowcol byte, m, n int, a unsafe.Pointer, desca *[9]int32, ipiv []int32, descip *[9]int32) {
	C.goga_plapiv(flag(complex), C.char(direc), C.char(rowcol), C.int(m), C.int(n), a, cdesc(desca), i32(ipiv), cdesc(descip))
}

// Pgemr2d is PDGEMR2D or PZGEMR2D: copies the m × n matrix A into B, each
// with its own blocks and grid; a descriptor's context is -1 on processes
// outside its grid. gctxt is a context holding every process of both.
func Pgemr2d(complex bool, m, n int, a unsafe.Pointer, desca *[9]int32, b unsafe.Pointer, descb *[9]int32, gctxt int) {
	C.goga_pgemr2d(flag(complex), C.int(m), C.int(n), a, cdesc(desca), b, cdesc(descb), C.int(gctxt))
}

// Pgetrf is PDGETRF or PZGETRF; it returns INFO.
func Pgetrf(complex bool, m, n int, a unsafe.Pointer, desca *[9]int32, ipiv []int32) int {
	return int(C.goga_pgetrf(flag(complex), C.int(m), C.int(n), a, cdesc(desca), i32(ipiv)))
}

// Pgetrs is PDGETRS or PZGETRS; it returns INFO.
func Pgetrs(complex bool, trans byte, n, nrhs int, a unsafe.Pointer, desca *[9]int32, ipiv []int32, b unsafe.Pointer, descb *[9]int32) int {
	return int(C.goga_pgetrs(flag(complex), C.char(trans), C.int(n), C.int(nrhs), a, cdesc(desca), i32(ipiv), b, cdesc(descb)))
}

// Pposv is PDPOSV or PZPOSV; it returns INFO.
func Pposv(complex bool, uplo byte, n, nrhs int, a unsafe.Pointer, desca *[9]int32, b unsafe.Pointer, descb *[9]int32) int {
	return int(C.goga_pposv(flag(complex), C.char(uplo), C.int(n), C.int(nrhs), a, cdesc(desca), b, cdesc(descb)))
}

// Ppotrf is PDPOTRF or PZPOTRF; it returns INFO.
func Ppotrf(complex bool, uplo byte, n int, a unsafe.Pointer, desca *[9]int32) int {
	return int(C.goga_ppotrf(flag(complex), C.char(uplo), C.int(n), a, cdesc(desca)))
}

// Ppotrs is PDPOTRS or PZPOTRS; it returns INFO.
func Ppotrs(complex bool, uplo byte, n, nrhs int, a unsafe.Pointer, desca *[9]int32, b unsafe.Pointer, descb *[9]int32) int {
	return int(C.goga_ppotrs(flag(complex), C.char(uplo), C.int(n), C.int(nrhs), a, cdesc(desca), b, cdesc(descb)))
}

// Pgemm is PDGEMM or PZGEMM; alpha and beta point to one element of the type.
func Pgemm(complex bool, ta, tb byte, m, n, k int, alpha unsafe.Pointer, a unsafe.Pointer, desca *[9]int32,
	b unsafe.Pointer, descb *[9]int32, beta unsafe.Pointer, c unsafe.Pointer, descc *[9]int32) {
	C.goga_pgemm(flag(complex), C.char(ta), C.char(tb), C.int(m), C.int(n), C.int(k), (*C.double)(alpha), a, cdesc(desca),
		b, cdesc(descb), (*C.double)(beta), c, cdesc(descc))
}

// Pgetri is PDGETRI or PZGETRI with its workspace queried and allocated in C;
// it returns INFO (-1000 if the workspace could not be allocated).
func Pgetri(complex bool, n int, a unsafe.Pointer, desca *[9]int32, ipiv []int32) int {
	return int(C.goga_pgetri(flag(complex), C.int(n), a, cdesc(desca), i32(ipiv)))
}

// Ppotri is PDPOTRI or PZPOTRI; it returns INFO.
func Ppotri(complex bool, uplo byte, n int, a unsafe.Pointer, desca *[9]int32) int {
	return int(C.goga_ppotri(flag(complex), C.char(uplo), C.int(n), a, cdesc(desca)))
}

// Pdsyevd is PDSYEVD with its workspace queried and allocated in C; w gets
// all n eigenvalues. It returns INFO.
func Pdsyevd(jobz, uplo byte, n int, a unsafe.Pointer, desca *[9]int32, w []float64, z unsafe.Pointer, descz *[9]int32) int {
	return int(C.goga_pdsyevd(C.char(jobz), C.char(uplo), C.int(n), (*C.double)(a), cdesc(desca), (*C.double)(unsafe.Pointer(&w[0])), (*C.double)(z), cdesc(descz)))
}

// Pdsygvx is PDSYGVX for every eigenpair, workspace queried in C. It returns
// INFO and the number of eigenvalues found; ifail (n entries) gets the
// failures.
func Pdsygvx(ibtype int, uplo byte, n int, a unsafe.Pointer, desca *[9]int32, b unsafe.Pointer, descb *[9]int32,
	w []float64, z unsafe.Pointer, descz *[9]int32, ifail []int32, nprocs int) (info, found int) {
	var m C.int
	info = int(C.goga_pdsygvx(C.int(ibtype), C.char(uplo), C.int(n), (*C.double)(a), cdesc(desca), (*C.double)(b), cdesc(descb),
		(*C.double)(unsafe.Pointer(&w[0])), (*C.double)(z), cdesc(descz), &m, i32(ifail), C.int(nprocs)))
	return info, int(m)
}
