package cgo

/*
#include <complex.h>

// The Fortran BLAS interface, which every BLAS the build links provides
// (OpenBLAS, reference BLAS, MKL): the package's pkg-config line links it
// with ScaLAPACK. One wrapper per element type, from one macro.
#define GOGA_GEMM(name, fortran, T) \
	void fortran(const char *ta, const char *tb, const int *m, const int *n, const int *k, \
		const T *alpha, const T *a, const int *lda, const T *b, const int *ldb, \
		const T *beta, T *c, const int *ldc); \
	static void name(char ta, char tb, int m, int n, int k, const void *alpha, \
		const void *a, int lda, const void *b, int ldb, const void *beta, void *c, int ldc) { \
		fortran(&ta, &tb, &m, &n, &k, alpha, a, &lda, b, &ldb, beta, c, &ldc); \
	}
GOGA_GEMM(goga_sgemm, sgemm_, float)
GOGA_GEMM(goga_dgemm, dgemm_, double)
GOGA_GEMM(goga_cgemm, cgemm_, float complex)
GOGA_GEMM(goga_zgemm, zgemm_, double complex)
*/
import "C"

import (
	"reflect"
	"unsafe"
)

// Gemm is the BLAS's xGEMM on column-major matrices in this process alone:
// c = alpha·op(a)·op(b) + beta·c, op(a) m × k, op(b) k × n, where ta and tb
// are 'N' or 'T'. a, b and c point at the matrices' first elements, of the
// element type T (float32, float64, complex64 or complex128); the caller
// checks their extents, which the BLAS does not.
func Gemm[T any](ta, tb byte, m, n, k int, alpha T, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int, beta T, c unsafe.Pointer, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	cta, ctb, cm, cn, ck := C.char(ta), C.char(tb), C.int(m), C.int(n), C.int(k)
	pa, pb := unsafe.Pointer(&alpha), unsafe.Pointer(&beta)
	// By kind, not type: named element types (type energy float64) too.
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Float32:
		C.goga_sgemm(cta, ctb, cm, cn, ck, pa, a, C.int(lda), b, C.int(ldb), pb, c, C.int(ldc))
	case reflect.Float64:
		C.goga_dgemm(cta, ctb, cm, cn, ck, pa, a, C.int(lda), b, C.int(ldb), pb, c, C.int(ldc))
	case reflect.Complex64:
		C.goga_cgemm(cta, ctb, cm, cn, ck, pa, a, C.int(lda), b, C.int(ldb), pb, c, C.int(ldc))
	case reflect.Complex128:
		C.goga_zgemm(cta, ctb, cm, cn, ck, pa, a, C.int(lda), b, C.int(ldb), pb, c, C.int(ldc))
	default:
		panic("cgo.Gemm: element type is not float32, float64, complex64 or complex128")
	}
}

// Dgemm sets c = a·b for n × n matrices in column-major order with the
// linked BLAS in this process alone: the limit that distributed products
// are measured against (cmd/gabench's dgemm_limit_GFlops).
func Dgemm(n int, a, b, c []float64) {
	if n == 0 {
		return
	}
	_, _, _ = a[n*n-1], b[n*n-1], c[n*n-1]
	Gemm('N', 'N', n, n, n, 1.0, unsafe.Pointer(&a[0]), n, unsafe.Pointer(&b[0]), n, 0.0, unsafe.Pointer(&c[0]), n)
}
