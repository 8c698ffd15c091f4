// scalapack_drivers.h: ScaLAPACK's drivers (Fortran symbols, 4-byte INTEGER),
// with a shim per driver that dispatches on the element type (real or complex
// double), so that Go has one wrapper per driver. Character arguments are
// passed without Fortran's hidden lengths: ScaLAPACK reads one character.
#ifndef GOGA_SCALAPACK_H
#define GOGA_SCALAPACK_H

#include <stdlib.h>

void pdgesv_(int *, int *, double *, int *, int *, int *, int *, double *, int *, int *, int *, int *);
void pzgesv_(int *, int *, double *, int *, int *, int *, int *, double *, int *, int *, int *, int *);
void pdgetrf_(int *, int *, double *, int *, int *, int *, int *, int *);
void pzgetrf_(int *, int *, double *, int *, int *, int *, int *, int *);
void pdgetrs_(char *, int *, int *, double *, int *, int *, int *, int *, double *, int *, int *, int *, int *);
void pzgetrs_(char *, int *, int *, double *, int *, int *, int *, int *, double *, int *, int *, int *, int *);
void pdposv_(char *, int *, int *, double *, int *, int *, int *, double *, int *, int *, int *, int *);
void pzposv_(char *, int *, int *, double *, int *, int *, int *, double *, int *, int *, int *, int *);
void pdpotrf_(char *, int *, double *, int *, int *, int *, int *);
void pzpotrf_(char *, int *, double *, int *, int *, int *, int *);
void pdpotrs_(char *, int *, int *, double *, int *, int *, int *, double *, int *, int *, int *, int *);
void pzpotrs_(char *, int *, int *, double *, int *, int *, int *, double *, int *, int *, int *, int *);
void pdgemm_(char *, char *, int *, int *, int *, double *, double *, int *, int *, int *, double *, int *, int *, int *, double *, double *, int *, int *, int *);
void pzgemm_(char *, char *, int *, int *, int *, double *, double *, int *, int *, int *, double *, int *, int *, int *, double *, double *, int *, int *, int *);
void pdtrsm_(char *, char *, char *, char *, int *, int *, double *, double *, int *, int *, int *, double *, int *, int *, int *);
void pztrsm_(char *, char *, char *, char *, int *, int *, double *, double *, int *, int *, int *, double *, int *, int *, int *);
void pdlapiv_(char *, char *, char *, int *, int *, double *, int *, int *, int *, int *, int *, int *, int *, int *);
void pzlapiv_(char *, char *, char *, int *, int *, double *, int *, int *, int *, int *, int *, int *, int *, int *);
// The REDIST library's C entry points; MDESC is the nine-integer descriptor.
void Cpdgemr2d(int, int, double *, int, int, int *, double *, int, int, int *, int);
void Cpzgemr2d(int, int, void *, int, int, int *, void *, int, int, int *, int);

void pdgetri_(int *, double *, int *, int *, int *, int *, double *, int *, int *, int *, int *);
void pzgetri_(int *, double *, int *, int *, int *, int *, double *, int *, int *, int *, int *);
void pdpotri_(char *, int *, double *, int *, int *, int *, int *);
void pzpotri_(char *, int *, double *, int *, int *, int *, int *);
void pdsyevd_(char *, char *, int *, double *, int *, int *, int *, double *, double *, int *, int *, int *, double *, int *, int *, int *, int *);

void pdsygvx_(int *, char *, char *, char *, int *, double *, int *, int *, int *, double *, int *, int *, int *,
	double *, double *, int *, int *, double *, int *, int *, double *, double *, double *, int *, int *, int *,
	double *, int *, int *, int *, int *, int *, double *, int *);

#define GOGA_PICK(cplx, name) ((cplx) ? pz##name##_ : pd##name##_)

static inline int goga_pgesv(int cplx, int n, int nrhs, void *a, int *desca, int *ipiv, void *b, int *descb) {
	int one = 1, info = 0;
	GOGA_PICK(cplx, gesv)(&n, &nrhs, a, &one, &one, desca, ipiv, b, &one, &one, descb, &info);
	return info;
}
static inline int goga_pgetrf(int cplx, int m, int n, void *a, int *desca, int *ipiv) {
	int one = 1, info = 0;
	GOGA_PICK(cplx, getrf)(&m, &n, a, &one, &one, desca, ipiv, &info);
	return info;
}
static inline int goga_pgetrs(int cplx, char trans, int n, int nrhs, void *a, int *desca, int *ipiv, void *b, int *descb) {
	int one = 1, info = 0;
	GOGA_PICK(cplx, getrs)(&trans, &n, &nrhs, a, &one, &one, desca, ipiv, b, &one, &one, descb, &info);
	return info;
}
static inline int goga_pposv(int cplx, char uplo, int n, int nrhs, void *a, int *desca, void *b, int *descb) {
	int one = 1, info = 0;
	GOGA_PICK(cplx, posv)(&uplo, &n, &nrhs, a, &one, &one, desca, b, &one, &one, descb, &info);
	return info;
}
static inline int goga_ppotrf(int cplx, char uplo, int n, void *a, int *desca) {
	int one = 1, info = 0;
	GOGA_PICK(cplx, potrf)(&uplo, &n, a, &one, &one, desca, &info);
	return info;
}
static inline int goga_ppotrs(int cplx, char uplo, int n, int nrhs, void *a, int *desca, void *b, int *descb) {
	int one = 1, info = 0;
	GOGA_PICK(cplx, potrs)(&uplo, &n, &nrhs, a, &one, &one, desca, b, &one, &one, descb, &info);
	return info;
}
static inline void goga_pgemm(int cplx, char ta, char tb, int m, int n, int k, double *alpha, void *a, int *desca,
		void *b, int *descb, double *beta, void *c, int *descc) {
	int one = 1;
	GOGA_PICK(cplx, gemm)(&ta, &tb, &m, &n, &k, alpha, a, &one, &one, desca, b, &one, &one, descb, beta, c, &one, &one, descc);
}
static inline void goga_ptrsm(int cplx, char side, char uplo, char trans, char diag, int m, int n, double *alpha,
		void *a, int *desca, void *b, int *descb) {
	int one = 1;
	GOGA_PICK(cplx, trsm)(&side, &uplo, &trans, &diag, &m, &n, alpha, a, &one, &one, desca, b, &one, &one, descb);
}
// goga_plapiv applies pivots already tied to the rows (rowcol 'R') or
// columns ('C') of A, so the pivot vector needs no transposition and IWORK
// is not referenced.
static inline void goga_plapiv(int cplx, char direc, char rowcol, int m, int n, void *a, int *desca, int *ipiv, int *descip) {
	int one = 1, iwork = 0;
	char pivroc = rowcol == 'R' ? 'C' : 'R';
	GOGA_PICK(cplx, lapiv)(&direc, &rowcol, &pivroc, &m, &n, a, &one, &one, desca, ipiv, &one, &one, descip, &iwork);
}
static inline void goga_pgemr2d(int cplx, int m, int n, void *a, int *desca, void *b, int *descb, int gctxt) {
	if (cplx) Cpzgemr2d(m, n, a, 1, 1, desca, b, 1, 1, descb, gctxt);
	else Cpdgemr2d(m, n, a, 1, 1, desca, b, 1, 1, descb, gctxt);
}

// goga_pgetri queries the workspace, allocates it, and inverts.
static inline int goga_pgetri(int cplx, int n, void *a, int *desca, int *ipiv) {
	int one = 1, info = 0, lwork = -1, liwork = -1, iq = 0;
	double q[2] = {0, 0};
	GOGA_PICK(cplx, getri)(&n, a, &one, &one, desca, ipiv, q, &lwork, &iq, &liwork, &info);
	if (info != 0) return info;
	lwork = (int)q[0] + 1;
	liwork = iq + 1;
	double *work = malloc(sizeof(double) * (cplx ? 2 : 1) * lwork);
	int *iwork = malloc(sizeof(int) * liwork);
	if (!work || !iwork) { free(work); free(iwork); return -1000; }
	GOGA_PICK(cplx, getri)(&n, a, &one, &one, desca, ipiv, work, &lwork, iwork, &liwork, &info);
	free(work);
	free(iwork);
	return info;
}
static inline int goga_ppotri(int cplx, char uplo, int n, void *a, int *desca) {
	int one = 1, info = 0;
	GOGA_PICK(cplx, potri)(&uplo, &n, a, &one, &one, desca, &info);
	return info;
}
// goga_pdsyevd queries the workspace, allocates it, and solves.
static inline int goga_pdsyevd(char jobz, char uplo, int n, double *a, int *desca, double *w, double *z, int *descz) {
	int one = 1, info = 0, lwork = -1, liwork = -1, iq = 0;
	double q = 0;
	pdsyevd_(&jobz, &uplo, &n, a, &one, &one, desca, w, z, &one, &one, descz, &q, &lwork, &iq, &liwork, &info);
	if (info != 0) return info;
	lwork = (int)q + 1;
	liwork = iq + 1;
	double *work = malloc(sizeof(double) * lwork);
	int *iwork = malloc(sizeof(int) * liwork);
	if (!work || !iwork) { free(work); free(iwork); return -1000; }
	pdsyevd_(&jobz, &uplo, &n, a, &one, &one, desca, w, z, &one, &one, descz, work, &lwork, iwork, &liwork, &info);
	free(work);
	free(iwork);
	return info;
}

// goga_pdsygvx solves the generalized problem for every eigenpair (RANGE 'A'),
// querying and allocating the workspace; m gets the number found and ifail
// (n entries) the failures. nprocs is the grid's size, for ICLUSTR and GAP.
static inline int goga_pdsygvx(int ibtype, char uplo, int n, double *a, int *desca, double *b, int *descb,
		double *w, double *z, int *descz, int *m, int *ifail, int nprocs) {
	int one = 1, info = 0, lwork = -1, liwork = -1, iq = 0, il = 0, iu = 0, nz = 0;
	char jobz = 'V', range = 'A';
	double vl = 0, vu = 0, abstol = 0, orfac = -1, q = 0;
	int *iclustr = malloc(sizeof(int) * 2 * nprocs);
	double *gap = malloc(sizeof(double) * nprocs);
	if (!iclustr || !gap) { free(iclustr); free(gap); return -1000; }
	pdsygvx_(&ibtype, &jobz, &range, &uplo, &n, a, &one, &one, desca, b, &one, &one, descb, &vl, &vu, &il, &iu,
		&abstol, m, &nz, w, &orfac, z, &one, &one, descz, &q, &lwork, &iq, &liwork, ifail, iclustr, gap, &info);
	if (info == 0) {
		lwork = (int)q + 1;
		liwork = iq + 1;
		double *work = malloc(sizeof(double) * lwork);
		int *iwork = malloc(sizeof(int) * liwork);
		if (!work || !iwork) {
			info = -1000;
		} else {
			pdsygvx_(&ibtype, &jobz, &range, &uplo, &n, a, &one, &one, desca, b, &one, &one, descb, &vl, &vu, &il, &iu,
				&abstol, m, &nz, w, &orfac, z, &one, &one, descz, work, &lwork, iwork, &liwork, ifail, iclustr, gap, &info);
		}
		free(work);
		free(iwork);
	}
	free(iclustr);
	free(gap);
	return info;
}

#endif
