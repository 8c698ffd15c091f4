package kernels

import (
	"sync/atomic"
	"unsafe"

	"github.com/goga-hpc/goga/cgo"
)

// Long float runs go to C kernels that GCC vectorizes (cgo/kernels.h): Go
// compiles these loops to scalar code, which ran Add and Dot over a
// 2048 × 2048 array at 0.72 and 0.22 of the GA C library's speed. Shorter
// runs, other element types (named float types included) and partial
// overlaps stay in Go.

// cRun is the fewest elements worth a cgo crossing (about 26 ns).
const cRun = 256

// ptr is the address of run's first element.
func ptr[T any](run []T) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(run)) }

// overlap reports whether x and y share memory without being the same run:
// the kernels allow c to be a or b exactly, not in part.
func overlap[T any](x, y []T) bool {
	if len(x) == 0 || len(y) == 0 || ptr(x) == ptr(y) {
		return false
	}
	size := unsafe.Sizeof(x[0])
	px, py := uintptr(ptr(x)), uintptr(ptr(y))
	return px < py+uintptr(len(y))*size && py < px+uintptr(len(x))*size
}

// Axpby sets dst = alpha·x + beta·y; dst may be x or y, not in part.
func Axpby[T Elem](dst, x, y []T, alpha, beta T) {
	x, y = x[:len(dst)], y[:len(dst)]
	if len(dst) >= cRun && !overlap(dst, x) && !overlap(dst, y) {
		stream := streams(dst, x, y)
		switch a := any(alpha).(type) {
		case float64:
			cgo.AxpbyFloat64(ptr(dst), ptr(x), ptr(y), len(dst), a, any(beta).(float64), stream)
			return
		case float32:
			cgo.AxpbyFloat32(ptr(dst), ptr(x), ptr(y), len(dst), a, any(beta).(float32), stream)
			return
		}
	}
	for i := range dst {
		dst[i] = alpha*x[i] + beta*y[i]
	}
}

// Multiply sets dst = x·y element by element; dst may be x or y, not in
// part.
func Multiply[T Elem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	if len(dst) >= cRun && !overlap(dst, x) && !overlap(dst, y) {
		stream := streams(dst, x, y)
		switch any(dst).(type) {
		case []float64:
			cgo.MulFloat64(ptr(dst), ptr(x), ptr(y), len(dst), stream)
			return
		case []float32:
			cgo.MulFloat32(ptr(dst), ptr(x), ptr(y), len(dst), stream)
			return
		}
	}
	for i := range dst {
		dst[i] = x[i] * y[i]
	}
}

// streamAbove is the bytes one run of a kernel must read and write, on this
// process, for the kernel to write its output with non-temporal stores: the
// last-level cache shared among the processes of this node, which all run a
// collective operation of ga at once. Below it the output may stay in the cache
// for the next operation to read; above it, it would be evicted anyway, and
// reading it in before writing it (the ordinary stores) costs a third more
// traffic. On a 2-core AMD EPYC VM, two processes each computing
// c = a·b on random values (medians of 18 timings of 10 passes each):
// arrays of 4 MiB (12 MiB a process) 161 µs with ordinary stores, 156
// streaming; of 8 MiB 652 and 540; of 16 MiB 1089 and 775. On constant
// arrays, as gabench fills them, streaming won from 4 MiB and lost at 2
// (cgo/kernels.h): this machine writes some data faster than other, and
// the threshold is set by the random values. Fill was tried streaming too
// and lost: two processes filling 16 MiB with 1.5 took 1170 µs against
// 510-710 with ordinary AVX2 stores, and with zeros both took 350-390. Set
// by ga's Init; 0, before Init or where the cache's size is unknown, means
// never.
var streamAbove atomic.Int64

// SetStreamAbove sets the threshold for procs processes on this node that
// share a last-level cache of cache bytes (armci.LastLevelCache; 0 if
// unknown).
func SetStreamAbove(cache, procs int) {
	streamAbove.Store(int64(cache / max(procs, 1)))
}

// SwapStreamAbove sets the threshold to bytes and returns the one it
// replaces: tests make every kernel run stream with 1.
func SwapStreamAbove(bytes int64) (old int64) { return streamAbove.Swap(bytes) }

// streams reports whether dst = f(x, y) should write dst with non-temporal
// stores: three distinct runs whose bytes together reach streamAbove. Where
// dst is x or y, its lines are read anyway.
func streams[T any](dst, x, y []T) bool {
	above := streamAbove.Load()
	return above > 0 && ptr(dst) != ptr(x) && ptr(dst) != ptr(y) &&
		int64(3*len(dst))*int64(unsafe.Sizeof(dst[0])) >= above
}

// Dot returns the sum of x·y.
func Dot[T Elem](x, y []T) T {
	y = y[:len(x)]
	if len(x) >= cRun {
		switch any(x).(type) {
		case []float64:
			return any(cgo.DotFloat64(ptr(x), ptr(y), len(x))).(T)
		case []float32:
			return any(cgo.DotFloat32(ptr(x), ptr(y), len(x))).(T)
		}
	}
	var s T
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

// cBest is the kernels' Best for long float runs, in C; ok is false where
// it does not apply or found no element above -Inf (below +Inf), which the
// Go loop then settles.
func cBest[U any](run []U, larger bool) (k int, ok bool) {
	if len(run) < cRun {
		return 0, false
	}
	switch any(run).(type) {
	case []float64:
		k = cgo.BestFloat64(ptr(run), len(run), larger)
	case []float32:
		k = cgo.BestFloat32(ptr(run), len(run), larger)
	default:
		return 0, false
	}
	return k, k >= 0
}

// cNorms is the kernels' Norms for long float runs, in C.
func cNorms[U any](run []U) (sum, most float64, ok bool) {
	if len(run) < cRun {
		return 0, 0, false
	}
	switch any(run).(type) {
	case []float64:
		sum, most = cgo.NormsFloat64(ptr(run), len(run))
	case []float32:
		sum, most = cgo.NormsFloat32(ptr(run), len(run))
	default:
		return 0, 0, false
	}
	return sum, most, true
}
