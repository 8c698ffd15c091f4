// Package acctest checks accumulate kernels (dst += a·src) against Go's own
// loop, for the tests of the packages that have them (cgo's C kernels,
// armci's dispatch among Go, assembly and C).
package acctest

import (
	"fmt"
	"slices"
	"testing"
)

// Number is what the kernels accumulate.
type Number interface {
	~int32 | ~int64 | ~float32 | ~float64 | ~complex64 | ~complex128
}

// Check calls acc(dst, src, a) for every length in ns and every scale, on a
// dst three elements longer than src, and reports where dst differs from
// Go's loop, past src's length included. val gives the values: small
// integers keep every sum exact.
func Check[T Number](t *testing.T, acc func(dst, src []T, a T), val func(int) T, ns []int, scales []T) {
	t.Helper()
	var z T
	for _, n := range ns {
		for _, a := range scales {
			dst, src := make([]T, n+3), make([]T, n)
			for i := range dst {
				dst[i] = val(3*i + 1)
			}
			for i := range src {
				src[i] = val(i)
			}
			want := slices.Clone(dst)
			for i, v := range src {
				want[i] += a * v
			}
			acc(dst, src, a)
			if !slices.Equal(dst, want) {
				t.Errorf("%s: got %v, want %v", fmt.Sprintf("%T/n=%d/scale=%v", z, n, a), dst, want)
			}
		}
	}
}
