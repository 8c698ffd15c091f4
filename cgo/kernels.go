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
#cgo noescape goga_axpby_float32
#cgo nocallback goga_axpby_float32
#cgo noescape goga_axpby_float64
#cgo nocallback goga_axpby_float64
#cgo noescape goga_mul_float32
#cgo nocallback goga_mul_float32
#cgo noescape goga_mul_float64
#cgo nocallback goga_mul_float64
#cgo noescape goga_axpby_nt_float32
#cgo nocallback goga_axpby_nt_float32
#cgo noescape goga_axpby_nt_float64
#cgo nocallback goga_axpby_nt_float64
#cgo noescape goga_mul_nt_float32
#cgo nocallback goga_mul_nt_float32
#cgo noescape goga_mul_nt_float64
#cgo nocallback goga_mul_nt_float64
#cgo noescape goga_copy_nt
#cgo nocallback goga_copy_nt
#cgo noescape goga_dot_float32
#cgo nocallback goga_dot_float32
#cgo noescape goga_dot_float64
#cgo nocallback goga_dot_float64
#cgo noescape goga_norms_float64
#cgo nocallback goga_norms_float64
#cgo noescape goga_norms_float32
#cgo nocallback goga_norms_float32
#cgo noescape goga_argmax_float64
#cgo nocallback goga_argmax_float64
#cgo noescape goga_argmin_float64
#cgo nocallback goga_argmin_float64
#cgo noescape goga_argmax_float32
#cgo nocallback goga_argmax_float32
#cgo noescape goga_argmin_float32
#cgo nocallback goga_argmin_float32
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// Accumulate kernels: dst[i] += a*src[i] for n elements. dst and src must not
// overlap. They pay off from a few hundred bytes on, where the vectorized C
// loop outruns Go's scalar one by more than a crossing costs.
//
// They pass dst and src to C as integers, which cgo does not check: its
// check that Go memory passed to C holds no Go pointers looks the buffer's
// object up in the heap, and cost 20 ns of a 4 KiB accumulate's 140. The
// elements are numbers, so it cannot fail; the buffers stay alive through
// the call (asIntegers), and a goroutine's stack does not move while it is in C.

// asIntegers calls k with dst and src as integers and keeps both alive until
// it returns.
func asIntegers(dst, src unsafe.Pointer, k func(d, s C.uintptr_t)) {
	k(C.uintptr_t(uintptr(dst)), C.uintptr_t(uintptr(src)))
	runtime.KeepAlive(dst)
	runtime.KeepAlive(src)
}

// AccInt32 is dst += a*src over int32.
func AccInt32(dst, src unsafe.Pointer, n int, a int32) {
	asIntegers(dst, src, func(d, s C.uintptr_t) { C.goga_acc_int32(d, s, C.long(n), C.int32_t(a)) })
}

// AccInt64 is dst += a*src over int64.
func AccInt64(dst, src unsafe.Pointer, n int, a int64) {
	asIntegers(dst, src, func(d, s C.uintptr_t) { C.goga_acc_int64(d, s, C.long(n), C.int64_t(a)) })
}

// AccFloat32 is dst += a*src over float32.
func AccFloat32(dst, src unsafe.Pointer, n int, a float32) {
	asIntegers(dst, src, func(d, s C.uintptr_t) { C.goga_acc_float32(d, s, C.long(n), C.float(a)) })
}

// AccFloat64 is dst += a*src over float64.
func AccFloat64(dst, src unsafe.Pointer, n int, a float64) {
	asIntegers(dst, src, func(d, s C.uintptr_t) { C.goga_acc_float64(d, s, C.long(n), C.double(a)) })
}

// AccComplex64 is dst += a*src over complex64.
func AccComplex64(dst, src unsafe.Pointer, n int, a complex64) {
	asIntegers(dst, src, func(d, s C.uintptr_t) { C.goga_acc_complex64(d, s, C.long(n), C.float(real(a)), C.float(imag(a))) })
}

// AccComplex128 is dst += a*src over complex128.
func AccComplex128(dst, src unsafe.Pointer, n int, a complex128) {
	asIntegers(dst, src, func(d, s C.uintptr_t) { C.goga_acc_complex128(d, s, C.long(n), C.double(real(a)), C.double(imag(a))) })
}

// Element-wise kernels on n elements: c = alpha*a + beta*b, c = a*b, and
// the sum of a*b. c may be a or b itself but must not overlap them
// otherwise. With stream, on a CPU that has them (Streams), c is written with
// non-temporal stores: for runs far larger than the last-level cache, whose
// c would not stay there anyway.

// AVX2 reports whether this CPU runs AVX2 code and its kernel keeps the
// vector registers (GCC's check): for the Go assembly kernels too.
var AVX2 = C.goga_avx2() != 0

// Streams reports whether the element-wise kernels can write with
// non-temporal stores on this CPU: theirs are AVX2 code.
var Streams = AVX2

// AxpbyFloat32 is c = alpha*a + beta*b over float32.
func AxpbyFloat32(c, a, b unsafe.Pointer, n int, alpha, beta float32, stream bool) {
	if stream && Streams {
		C.goga_axpby_nt_float32(c, a, b, C.long(n), C.float(alpha), C.float(beta))
		return
	}
	C.goga_axpby_float32(c, a, b, C.long(n), C.float(alpha), C.float(beta))
}

// AxpbyFloat64 is c = alpha*a + beta*b over float64.
func AxpbyFloat64(c, a, b unsafe.Pointer, n int, alpha, beta float64, stream bool) {
	if stream && Streams {
		C.goga_axpby_nt_float64(c, a, b, C.long(n), C.double(alpha), C.double(beta))
		return
	}
	C.goga_axpby_float64(c, a, b, C.long(n), C.double(alpha), C.double(beta))
}

// MulFloat32 is c = a*b over float32.
func MulFloat32(c, a, b unsafe.Pointer, n int, stream bool) {
	if stream && Streams {
		C.goga_mul_nt_float32(c, a, b, C.long(n))
		return
	}
	C.goga_mul_float32(c, a, b, C.long(n))
}

// MulFloat64 is c = a*b over float64.
func MulFloat64(c, a, b unsafe.Pointer, n int, stream bool) {
	if stream && Streams {
		C.goga_mul_nt_float64(c, a, b, C.long(n))
		return
	}
	C.goga_mul_float64(c, a, b, C.long(n))
}

// CopyStream copies n bytes from src to dst, which must not overlap, with
// non-temporal stores (memcpy on a CPU without them, Streams false): for
// copies whose source and destination together outgrow the last-level
// cache. Like the accumulates, it takes its buffers as integers.
func CopyStream(dst, src unsafe.Pointer, n int) {
	asIntegers(dst, src, func(d, s C.uintptr_t) { C.goga_copy_nt(d, s, C.long(n)) })
}

// DotFloat32 is the sum of a*b over float32, in eight partial sums.
func DotFloat32(a, b unsafe.Pointer, n int) float32 {
	return float32(C.goga_dot_float32(a, b, C.long(n)))
}

// DotFloat64 is the sum of a*b over float64, in eight partial sums.
func DotFloat64(a, b unsafe.Pointer, n int) float64 {
	return float64(C.goga_dot_float64(a, b, C.long(n)))
}

// BestFloat64 is the index of a's first largest element of n (smallest if
// !larger), NaN never winning; -1 when no element is above -Inf (below
// +Inf).
func BestFloat64(a unsafe.Pointer, n int, larger bool) int {
	if larger {
		return int(C.goga_argmax_float64(a, C.long(n)))
	}
	return int(C.goga_argmin_float64(a, C.long(n)))
}

// BestFloat32 is BestFloat64 over float32.
func BestFloat32(a unsafe.Pointer, n int, larger bool) int {
	if larger {
		return int(C.goga_argmax_float32(a, C.long(n)))
	}
	return int(C.goga_argmin_float32(a, C.long(n)))
}

// NormsFloat64 returns the sum and the maximum of |a| over n float64,
// both NaN if any element is.
func NormsFloat64(a unsafe.Pointer, n int) (sum, most float64) {
	var s, m C.double
	C.goga_norms_float64(a, C.long(n), &s, &m)
	return float64(s), float64(m)
}

// NormsFloat32 is NormsFloat64 over float32.
func NormsFloat32(a unsafe.Pointer, n int) (sum, most float64) {
	var s, m C.double
	C.goga_norms_float32(a, C.long(n), &s, &m)
	return float64(s), float64(m)
}
