// Package scalapackref holds ScaLAPACK's own index tools (NUMROC, INDXG2P,
// INDXG2L, INDXL2G, DESCINIT) as oracles for tests of goga's pure-Go
// equivalents. It is for tests only; goga's library code never calls them.
package scalapackref

/*
// ScaLAPACK's tool routines, Fortran symbols with 4-byte integers
// (Debian builds ScaLAPACK with 32-bit INTEGER).
int numroc_(int *n, int *nb, int *iproc, int *isrcproc, int *nprocs);
int indxg2p_(int *indxglob, int *nb, int *iproc, int *isrcproc, int *nprocs);
int indxg2l_(int *indxglob, int *nb, int *iproc, int *isrcproc, int *nprocs);
int indxl2g_(int *indxloc, int *nb, int *iproc, int *isrcproc, int *nprocs);
void descinit_(int *desc, int *m, int *n, int *mb, int *nb, int *irsrc, int *icsrc, int *ictxt, int *lld, int *info);
*/
import "C"

// Numroc is ScaLAPACK's NUMROC.
func Numroc(n, nb, iproc, isrc, nprocs int) int {
	a, b, c, d, e := C.int(n), C.int(nb), C.int(iproc), C.int(isrc), C.int(nprocs)
	return int(C.numroc_(&a, &b, &c, &d, &e))
}

// Indxg2p is ScaLAPACK's INDXG2P (1-based indices, as in Fortran).
func Indxg2p(ig, nb, iproc, isrc, nprocs int) int {
	a, b, c, d, e := C.int(ig), C.int(nb), C.int(iproc), C.int(isrc), C.int(nprocs)
	return int(C.indxg2p_(&a, &b, &c, &d, &e))
}

// Indxg2l is ScaLAPACK's INDXG2L (1-based).
func Indxg2l(ig, nb, iproc, isrc, nprocs int) int {
	a, b, c, d, e := C.int(ig), C.int(nb), C.int(iproc), C.int(isrc), C.int(nprocs)
	return int(C.indxg2l_(&a, &b, &c, &d, &e))
}

// Indxl2g is ScaLAPACK's INDXL2G (1-based).
func Indxl2g(il, nb, iproc, isrc, nprocs int) int {
	a, b, c, d, e := C.int(il), C.int(nb), C.int(iproc), C.int(isrc), C.int(nprocs)
	return int(C.indxl2g_(&a, &b, &c, &d, &e))
}

// Descinit is ScaLAPACK's DESCINIT; it returns the descriptor and INFO.
func Descinit(m, n, mb, nb, irsrc, icsrc, ctxt, lld int) ([9]int, int) {
	var d [9]C.int
	a, b, c, e, f, g, h, i := C.int(m), C.int(n), C.int(mb), C.int(nb), C.int(irsrc), C.int(icsrc), C.int(ctxt), C.int(lld)
	var info C.int
	C.descinit_(&d[0], &a, &b, &c, &e, &f, &g, &h, &i, &info)
	var out [9]int
	for k := range d {
		out[k] = int(d[k])
	}
	return out, int(info)
}
