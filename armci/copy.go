package armci

import (
	"sync"
	"unsafe"

	"github.com/goga-hpc/goga/cgo"
	"gonum.org/v1/gonum/blas/gonum"
)

// bigCopy is the size from which copyBytes hands a copy to the C library's
// memcpy: measured here, it moves 256 KiB to 2 MiB between processes' mapped
// segments 10-30% faster than Go's copy, and one cgo crossing (about 26 ns) is
// lost in it.
const bigCopy = 64 << 10

// copyBytes is copy(dst, src) for segment transfers. It is small enough to
// inline into the quickest transfers (Direct's).
func copyBytes(dst, src []byte) {
	if len(dst) < bigCopy || len(src) < bigCopy {
		copy(dst, src)
		return
	}
	memcpy(dst, src)
}

// memcpy copies with the C library's memcpy, or with non-temporal stores
// from streamCopyFrom bytes on.
func memcpy(dst, src []byte) {
	n := min(len(dst), len(src))
	if from := streamCopyFrom(); from > 0 && n >= from {
		cgo.CopyStream(unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), n)
		return
	}
	cgo.Memcpy(unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), n)
}

// streamCopyFrom is the size from which copies write with non-temporal
// stores: where source and destination together fill the last-level cache,
// the destination would not stay there anyway, and ordinary stores read
// each of its lines in before writing it. glibc's memcpy streams only from
// three quarters of the cache it believes in (240 MiB on a 2-core AMD EPYC
// VM, for a cache of 32). In one process there: 8 MiB in 311-312 µs by
// memcpy and 299-344 streaming; 16 MiB 959-1130 and 656-696;
// 32 MiB 2631-3825 and 1617-2503; 64 MiB 6118-6176 and 3723-3730. 0: never
// (no cache size, or a CPU without the kernel).
var streamCopyFrom = sync.OnceValue(func() int {
	if !cgo.Streams {
		return 0
	}
	return LastLevelCache() / 2
})

// bigAcc is the size from which accumulate hands the loop to a vectorized C
// kernel (about 3x Go's scalar loop here, against one crossing), for the
// element types and CPUs that have no assembly kernel (accAsm).
const bigAcc = 1024

// asmAcc is the length from which float32 and float64 accumulates run in
// assembly: the AVX2 kernels of acc_amd64.s where the CPU has AVX2, else
// gonum's (its BLAS's axpy: SSE2 on amd64) below bigAcc. Neither needs a
// cgo crossing. In one process on the AMD EPYC VM gonum's took 13 ns for 64
// float64 against 36 in Go's loop, and below 16 elements Go's loop wins.
// From bigAcc on, the C kernel's AVX2 loop beats gonum's (armcibench's
// accumulate of 4 KiB between two processes 105 ns against 136), and the
// same loop in Go's assembler beats the C kernel by its crossing: 4 KiB in
// one process 57 ns against 81 through C.
const asmAcc = 16

var blasAcc gonum.Implementation

// accKernel runs dst += scale·src in assembly or C when it is large enough and
// T is one of the kernels' types, and reports whether it did.
func accKernel[T AccElem](dst, src []T, scale T) bool {
	n := len(src)
	if n < asmAcc {
		return false
	}
	d, s := unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0])
	if nb := uintptr(n * sizeOf[T]()); uintptr(d) < uintptr(s)+nb && uintptr(s) < uintptr(d)+nb {
		return false // the kernels assume no overlap
	}
	if accAsm(d, s, n, scale) {
		return true
	}
	if n*sizeOf[T]() < bigAcc {
		// The BLAS's axpy does nothing for alpha 0, where dst + 0·src is
		// NaN at an infinite src: that case stays in Go.
		switch a := any(scale).(type) {
		case float64:
			if a != 0 {
				blasAcc.Daxpy(n, a, any(src).([]float64), 1, any(dst).([]float64), 1)
				return true
			}
		case float32:
			if a != 0 {
				blasAcc.Saxpy(n, a, any(src).([]float32), 1, any(dst).([]float32), 1)
				return true
			}
		}
		return false
	}
	switch a := any(scale).(type) {
	case float64:
		cgo.AccFloat64(d, s, n, a)
	case float32:
		cgo.AccFloat32(d, s, n, a)
	case int64:
		cgo.AccInt64(d, s, n, a)
	case int32:
		cgo.AccInt32(d, s, n, a)
	case complex128:
		cgo.AccComplex128(d, s, n, a)
	case complex64:
		cgo.AccComplex64(d, s, n, a)
	default:
		return false
	}
	return true
}
