package cgo

/*
#include <stdlib.h>
#include "blacs.h"
*/
import "C"

import "unsafe"

// BlacsType is the element type of a BLACS call: the guide's five.
type BlacsType int

// The BLACS element types (integer, single, double, single complex, double
// complex).
const (
	BlacsInt     BlacsType = C.GOGA_BI
	BlacsFloat   BlacsType = C.GOGA_BS
	BlacsDouble  BlacsType = C.GOGA_BD
	BlacsComplex BlacsType = C.GOGA_BC
	BlacsZomplex BlacsType = C.GOGA_BZ
)

// cs is a one-character C string for BLACS's char arguments; the bytes stay
// valid for the whole program.
var cs = func() map[byte]*C.char {
	m := map[byte]*C.char{}
	for _, c := range []byte(" ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") {
		m[c] = (*C.char)(C.CBytes([]byte{c, 0}))
	}
	return m
}()

// topo turns a topology name into its C string: the BLACS read only the
// first character (" " for the default). Callers check the letter.
func topo(t string) *C.char {
	if t == "" {
		return cs[' ']
	}
	if p, ok := cs[t[0]]; ok {
		return p
	}
	return cs[' ']
}

// BlacsFromComm is Csys2blacs_handle (after Cblacs_pinfo).
func BlacsFromComm(c Comm) int { return int(C.goga_sys2blacs(C.uintptr_t(c))) }

// BlacsComm is Cblacs2sys_handle.
func BlacsComm(ctxt int) Comm { return Comm(C.goga_blacs2sys(C.int(ctxt))) }

// BlacsGridInit is Cblacs_gridinit; ctxt is replaced by the grid's context.
func BlacsGridInit(ctxt int, order byte, nprow, npcol int) int {
	c := C.int(ctxt)
	C.Cblacs_gridinit(&c, cs[order], C.int(nprow), C.int(npcol))
	return int(c)
}

// BlacsGridMap is Cblacs_gridmap with a column-major nprow×npcol map.
func BlacsGridMap(ctxt int, usermap []int, nprow, npcol int) int {
	c := C.int(ctxt)
	m := cints(usermap)
	C.Cblacs_gridmap(&c, &m[0], C.int(nprow), C.int(nprow), C.int(npcol))
	return int(c)
}

// BlacsGridInfo is Cblacs_gridinfo.
func BlacsGridInfo(ctxt int) (nprow, npcol, myrow, mycol int) {
	var a, b, c, d C.int
	C.Cblacs_gridinfo(C.int(ctxt), &a, &b, &c, &d)
	return int(a), int(b), int(c), int(d)
}

// BlacsPnum is Cblacs_pnum.
func BlacsPnum(ctxt, prow, pcol int) int {
	return int(C.Cblacs_pnum(C.int(ctxt), C.int(prow), C.int(pcol)))
}

// BlacsPcoord is Cblacs_pcoord.
func BlacsPcoord(ctxt, pnum int) (prow, pcol int) {
	var r, c C.int
	C.Cblacs_pcoord(C.int(ctxt), C.int(pnum), &r, &c)
	return int(r), int(c)
}

// BlacsBarrier is Cblacs_barrier.
func BlacsBarrier(ctxt int, scope byte) { C.Cblacs_barrier(C.int(ctxt), cs[scope]) }

// BlacsGridExit is Cblacs_gridexit.
func BlacsGridExit(ctxt int) { C.Cblacs_gridexit(C.int(ctxt)) }

// BlacsGesd2d is xGESD2D.
func BlacsGesd2d(t BlacsType, ctxt, m, n int, a unsafe.Pointer, lda, r, c int) {
	C.goga_gesd2d(C.int(t), C.int(ctxt), C.int(m), C.int(n), a, C.int(lda), C.int(r), C.int(c))
}

// BlacsGerv2d is xGERV2D.
func BlacsGerv2d(t BlacsType, ctxt, m, n int, a unsafe.Pointer, lda, r, c int) {
	C.goga_gerv2d(C.int(t), C.int(ctxt), C.int(m), C.int(n), a, C.int(lda), C.int(r), C.int(c))
}

// BlacsTrsd2d is xTRSD2D.
func BlacsTrsd2d(t BlacsType, ctxt int, uplo, diag byte, m, n int, a unsafe.Pointer, lda, r, c int) {
	C.goga_trsd2d(C.int(t), C.int(ctxt), cs[uplo], cs[diag], C.int(m), C.int(n), a, C.int(lda), C.int(r), C.int(c))
}

// BlacsTrrv2d is xTRRV2D.
func BlacsTrrv2d(t BlacsType, ctxt int, uplo, diag byte, m, n int, a unsafe.Pointer, lda, r, c int) {
	C.goga_trrv2d(C.int(t), C.int(ctxt), cs[uplo], cs[diag], C.int(m), C.int(n), a, C.int(lda), C.int(r), C.int(c))
}

// BlacsGebs2d is xGEBS2D.
func BlacsGebs2d(t BlacsType, ctxt int, scope byte, top string, m, n int, a unsafe.Pointer, lda int) {
	C.goga_gebs2d(C.int(t), C.int(ctxt), cs[scope], topo(top), C.int(m), C.int(n), a, C.int(lda))
}

// BlacsGebr2d is xGEBR2D.
func BlacsGebr2d(t BlacsType, ctxt int, scope byte, top string, m, n int, a unsafe.Pointer, lda, r, c int) {
	C.goga_gebr2d(C.int(t), C.int(ctxt), cs[scope], topo(top), C.int(m), C.int(n), a, C.int(lda), C.int(r), C.int(c))
}

// BlacsTrbs2d is xTRBS2D.
func BlacsTrbs2d(t BlacsType, ctxt int, scope byte, top string, uplo, diag byte, m, n int, a unsafe.Pointer, lda int) {
	C.goga_trbs2d(C.int(t), C.int(ctxt), cs[scope], topo(top), cs[uplo], cs[diag], C.int(m), C.int(n), a, C.int(lda))
}

// BlacsTrbr2d is xTRBR2D.
func BlacsTrbr2d(t BlacsType, ctxt int, scope byte, top string, uplo, diag byte, m, n int, a unsafe.Pointer, lda, r, c int) {
	C.goga_trbr2d(C.int(t), C.int(ctxt), cs[scope], topo(top), cs[uplo], cs[diag], C.int(m), C.int(n), a, C.int(lda), C.int(r), C.int(c))
}

// BlacsGsum2d is xGSUM2D.
func BlacsGsum2d(t BlacsType, ctxt int, scope byte, top string, m, n int, a unsafe.Pointer, lda, r, c int) {
	C.goga_gsum2d(C.int(t), C.int(ctxt), cs[scope], topo(top), C.int(m), C.int(n), a, C.int(lda), C.int(r), C.int(c))
}

// BlacsGamx2d is xGAMX2D; ra and ca may be nil (ldia then -1, as RCFLAG asks).
func BlacsGamx2d(t BlacsType, ctxt int, scope byte, top string, m, n int, a unsafe.Pointer, lda int, ra, ca []int32, ldia, r, c int) {
	C.goga_gamx2d(C.int(t), C.int(ctxt), cs[scope], topo(top), C.int(m), C.int(n), a, C.int(lda), i32(ra), i32(ca), C.int(ldia), C.int(r), C.int(c))
}

// BlacsGamn2d is xGAMN2D (see BlacsGamx2d).
func BlacsGamn2d(t BlacsType, ctxt int, scope byte, top string, m, n int, a unsafe.Pointer, lda int, ra, ca []int32, ldia, r, c int) {
	C.goga_gamn2d(C.int(t), C.int(ctxt), cs[scope], topo(top), C.int(m), C.int(n), a, C.int(lda), i32(ra), i32(ca), C.int(ldia), C.int(r), C.int(c))
}

func i32(v []int32) *C.int {
	if len(v) == 0 {
		return nil
	}
	return (*C.int)(unsafe.Pointer(&v[0]))
}

// BlacsGet is Cblacs_get.
func BlacsGet(ctxt, what int) int {
	var v C.int
	C.Cblacs_get(C.int(ctxt), C.int(what), &v)
	return int(v)
}

// BlacsSet is Cblacs_set with one value.
func BlacsSet(ctxt, what, val int) {
	v := C.int(val)
	C.Cblacs_set(C.int(ctxt), C.int(what), &v)
}

// BlacsPinfo is Cblacs_pinfo.
func BlacsPinfo() (mypnum, nprocs int) {
	var me, n C.int
	C.Cblacs_pinfo(&me, &n)
	return int(me), int(n)
}

// BlacsFreeBuff is Cblacs_freebuff.
func BlacsFreeBuff(ctxt int, wait bool) {
	w := C.int(0)
	if wait {
		w = 1
	}
	C.Cblacs_freebuff(C.int(ctxt), w)
}

// BlacsExitContinue is Cblacs_exit(1): every context freed, MPI left running.
func BlacsExitContinue() { C.Cblacs_exit(1) }

// BlacsFreeSystem is Cfree_blacs_system_handle.
func BlacsFreeSystem(h int) { C.Cfree_blacs_system_handle(C.int(h)) }
