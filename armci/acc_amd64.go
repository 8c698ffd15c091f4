package armci

import "github.com/goga-hpc/goga/cgo"

// The AVX2 accumulate kernels in Go's assembler (acc_amd64.s): the C
// kernels' loop without a cgo crossing. n may be any length; dst and src
// must not overlap.
//
//go:noescape
func accFloat64AVX2(dst, src *float64, n int, a float64)

//go:noescape
func accFloat32AVX2(dst, src *float32, n int, a float32)

// asmAVX2 says whether this CPU (and its kernel) runs the AVX2 kernels.
var asmAVX2 = cgo.AVX2
