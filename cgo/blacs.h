// blacs.h: the C BLACS (in Debian's ScaLAPACK library), declared here because
// no header ships with it, and one shim per routine family that dispatches on
// the element type, so that Go needs one wrapper per family.
#ifndef GOGA_BLACS_H
#define GOGA_BLACS_H

#include <mpi.h>
#include <stdint.h>

void Cblacs_pinfo(int *mypnum, int *nprocs);
void Cblacs_get(int icontxt, int what, int *val);
void Cblacs_gridinit(int *icontxt, char *order, int nprow, int npcol);
void Cblacs_gridmap(int *icontxt, int *usermap, int ldumap, int nprow, int npcol);
void Cblacs_gridinfo(int icontxt, int *nprow, int *npcol, int *myprow, int *mypcol);
int Cblacs_pnum(int icontxt, int prow, int pcol);
void Cblacs_pcoord(int icontxt, int pnum, int *prow, int *pcol);
void Cblacs_barrier(int icontxt, char *scope);
void Cblacs_gridexit(int icontxt);
void Cblacs_set(int icontxt, int what, int *val);
void Cblacs_freebuff(int icontxt, int wait);
void Cblacs_abort(int icontxt, int errornum);
void Cblacs_exit(int notdone);
void Cfree_blacs_system_handle(int isysctxt);
int Csys2blacs_handle(MPI_Comm comm);
MPI_Comm Cblacs2sys_handle(int ctxt);

#define GOGA_BLACS_DECL(t, T)                                                                        \
	void C##t##gesd2d(int, int, int, T *, int, int, int);                                        \
	void C##t##gerv2d(int, int, int, T *, int, int, int);                                        \
	void C##t##trsd2d(int, char *, char *, int, int, T *, int, int, int);                        \
	void C##t##trrv2d(int, char *, char *, int, int, T *, int, int, int);                        \
	void C##t##gebs2d(int, char *, char *, int, int, T *, int);                                  \
	void C##t##gebr2d(int, char *, char *, int, int, T *, int, int, int);                        \
	void C##t##trbs2d(int, char *, char *, char *, char *, int, int, T *, int);                  \
	void C##t##trbr2d(int, char *, char *, char *, char *, int, int, T *, int, int, int);        \
	void C##t##gsum2d(int, char *, char *, int, int, T *, int, int, int);                        \
	void C##t##gamx2d(int, char *, char *, int, int, T *, int, int *, int *, int, int, int);     \
	void C##t##gamn2d(int, char *, char *, int, int, T *, int, int *, int *, int, int, int);
GOGA_BLACS_DECL(i, int)
GOGA_BLACS_DECL(s, float)
GOGA_BLACS_DECL(d, double)
GOGA_BLACS_DECL(c, float)
GOGA_BLACS_DECL(z, double)

// Element type codes, as package cgo's BlacsType constants.
enum { GOGA_BI = 0, GOGA_BS, GOGA_BD, GOGA_BC, GOGA_BZ };

#define GOGA_BLACS_SWITCH(typ, call)                               \
	switch (typ) {                                                 \
	case GOGA_BI: Ci##call; break;                                 \
	case GOGA_BS: Cs##call; break;                                 \
	case GOGA_BD: Cd##call; break;                                 \
	case GOGA_BC: Cc##call; break;                                 \
	case GOGA_BZ: Cz##call; break;                                 \
	}

static inline int goga_sys2blacs(uintptr_t comm) {
	int me, n;
	Cblacs_pinfo(&me, &n); // sets the BLACS up on the MPI already running
	return Csys2blacs_handle((MPI_Comm)comm);
}
static inline uintptr_t goga_blacs2sys(int ctxt) { return (uintptr_t)Cblacs2sys_handle(ctxt); }

static inline void goga_gesd2d(int typ, int ctxt, int m, int n, void *a, int lda, int r, int c) {
	GOGA_BLACS_SWITCH(typ, gesd2d(ctxt, m, n, a, lda, r, c))
}
static inline void goga_gerv2d(int typ, int ctxt, int m, int n, void *a, int lda, int r, int c) {
	GOGA_BLACS_SWITCH(typ, gerv2d(ctxt, m, n, a, lda, r, c))
}
static inline void goga_trsd2d(int typ, int ctxt, char *uplo, char *diag, int m, int n, void *a, int lda, int r, int c) {
	GOGA_BLACS_SWITCH(typ, trsd2d(ctxt, uplo, diag, m, n, a, lda, r, c))
}
static inline void goga_trrv2d(int typ, int ctxt, char *uplo, char *diag, int m, int n, void *a, int lda, int r, int c) {
	GOGA_BLACS_SWITCH(typ, trrv2d(ctxt, uplo, diag, m, n, a, lda, r, c))
}
static inline void goga_gebs2d(int typ, int ctxt, char *scope, char *top, int m, int n, void *a, int lda) {
	GOGA_BLACS_SWITCH(typ, gebs2d(ctxt, scope, top, m, n, a, lda))
}
static inline void goga_gebr2d(int typ, int ctxt, char *scope, char *top, int m, int n, void *a, int lda, int r, int c) {
	GOGA_BLACS_SWITCH(typ, gebr2d(ctxt, scope, top, m, n, a, lda, r, c))
}
static inline void goga_trbs2d(int typ, int ctxt, char *scope, char *top, char *uplo, char *diag, int m, int n, void *a, int lda) {
	GOGA_BLACS_SWITCH(typ, trbs2d(ctxt, scope, top, uplo, diag, m, n, a, lda))
}
static inline void goga_trbr2d(int typ, int ctxt, char *scope, char *top, char *uplo, char *diag, int m, int n, void *a, int lda, int r, int c) {
	GOGA_BLACS_SWITCH(typ, trbr2d(ctxt, scope, top, uplo, diag, m, n, a, lda, r, c))
}
static inline void goga_gsum2d(int typ, int ctxt, char *scope, char *top, int m, int n, void *a, int lda, int r, int c) {
	GOGA_BLACS_SWITCH(typ, gsum2d(ctxt, scope, top, m, n, a, lda, r, c))
}
static inline void goga_gamx2d(int typ, int ctxt, char *scope, char *top, int m, int n, void *a, int lda, int *ra, int *ca, int ldia, int r, int c) {
	GOGA_BLACS_SWITCH(typ, gamx2d(ctxt, scope, top, m, n, a, lda, ra, ca, ldia, r, c))
}
static inline void goga_gamn2d(int typ, int ctxt, char *scope, char *top, int m, int n, void *a, int lda, int *ra, int *ca, int ldia, int r, int c) {
	GOGA_BLACS_SWITCH(typ, gamn2d(ctxt, scope, top, m, n, a, lda, ra, ca, ldia, r, c))
}

#endif
