//go:build !amd64

package armci

// Elsewhere there are no assembly accumulate kernels (acc_amd64.s): the
// BLAS's axpy and the C kernels serve.

func accFloat64AVX2(dst, src *float64, n int, a float64) { panic("armci: no AVX2 kernel") }

func accFloat32AVX2(dst, src *float32, n int, a float32) { panic("armci: no AVX2 kernel") }

const asmAVX2 = false
