package armci

import (
	"unsafe"

	"github.com/goga-hpc/goga/cgo"
)

// The AVX2 accumulate kernels in Go's assembler (acc_amd64.s): the C
// kernels' loop without a cgo crossing. n may be any length; dst and src
// must not overlap.
//
//go:noescape
func accFloat64AVX2(dst, src *float64, n int, a float64)

//go:noescape
func accFloat32AVX2(dst, src *float32, n int, a float32)

// accAsm runs dst += scale·src over n elements in assembly where the CPU
// has AVX2 and T is float32 or float64, and reports whether it did.
func accAsm[T AccElem](dst, src unsafe.Pointer, n int, scale T) bool {
	if !cgo.AVX2 {
		return false
	}
	switch a := any(scale).(type) {
	case float64:
		accFloat64AVX2((*float64)(dst), (*float64)(src), n, a)
		return true
	case float32:
		accFloat32AVX2((*float32)(dst), (*float32)(src), n, a)
		return true
	}
	return false
}
