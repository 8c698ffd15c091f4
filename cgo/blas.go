package cgo

/*
// The Fortran BLAS interface, which every BLAS the build links provides
// (OpenBLAS, reference BLAS, MKL): the package's pkg-config line links it
// with ScaLAPACK.
void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
	const double *alpha, const double *a, const int *lda, const double *b, const int *ldb,
	const double *beta, double *c, const int *ldc);

static void goga_dgemm(int n, const double *a, const double *b, double *c) {
	const double one = 1, zero = 0;
	dgemm_("N", "N", &n, &n, &n, &one, a, &n, b, &n, &zero, c, &n);
}
*/
import "C"

// Dgemm sets c = a·b for n × n matrices in column-major order with the
// linked BLAS in this process alone: the limit that distributed products
// are measured against (cmd/gabench's dgemm_limit_GFlops).
func Dgemm(n int, a, b, c []float64) {
	if n == 0 {
		return
	}
	_, _, _ = a[n*n-1], b[n*n-1], c[n*n-1]
	C.goga_dgemm(C.int(n), (*C.double)(&a[0]), (*C.double)(&b[0]), (*C.double)(&c[0]))
}
