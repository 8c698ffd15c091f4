//go:build !amd64

package armci

import "unsafe"

// accAsm has no assembly kernels here (acc_amd64.s): the BLAS's axpy and
// the C kernels serve.
func accAsm[T AccElem](dst, src unsafe.Pointer, n int, scale T) bool { return false }
