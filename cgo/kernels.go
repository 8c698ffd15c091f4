package cgo

/*
#cgo CFLAGS: -O3
#include "kernels.h"

#cgo noescape goga_acc_int32
#cgo nocallback goga_acc_int32
#cgo noescape goga_acc_int64
#cgo nocallback goga_acc_int64
#cgo noescape goga_acc_float32
#cgo nocallback goga_acc_float32
#cgo noescape goga_acc_float64
#cgo nocallback goga_acc_float64
#cgo noescape goga_acc_complex64
#cgo nocallback goga_acc_complex64
#cgo noescape goga_acc_complex128
#cgo nocallback goga_acc_complex128
*/
import "C"

import "unsafe"

// Accumulate kernels: dst[i] += a*src[i] for n elements. dst and src must not
// overlap. They pay off from a few hundred bytes on, where the vectorized C
// loop outruns Go's scalar one by more than a crossing costs.

// AccInt32 is dst += a*src over int32.
func AccInt32(dst, src unsafe.Pointer, n int, a int32) {
	C.goga_acc_int32(dst, src, C.long(n), C.int32_t(a))
}

// AccInt64 is dst += a*src over int64.
func AccInt64(dst, src unsafe.Pointer, n int, a int64) {
	C.goga_acc_int64(dst, src, C.long(n), C.int64_t(a))
}

// AccFloat32 is dst += a*src over float32.
func AccFloat32(dst, src unsafe.Pointer, n int, a float32) {
	C.goga_acc_float32(dst, src, C.long(n), C.float(a))
}

// AccFloat64 is dst += a*src over float64.
func AccFloat64(dst, src unsafe.Pointer, n int, a float64) {
	C.goga_acc_float64(dst, src, C.long(n), C.double(a))
}

// AccComplex64 is dst += a*src over complex64.
func AccComplex64(dst, src unsafe.Pointer, n int, a complex64) {
	C.goga_acc_complex64(dst, src, C.long(n), C.float(real(a)), C.float(imag(a)))
}

// AccComplex128 is dst += a*src over complex128.
func AccComplex128(dst, src unsafe.Pointer, n int, a complex128) {
	C.goga_acc_complex128(dst, src, C.long(n), C.double(real(a)), C.double(imag(a)))
}
