package linalg

import (
	"math"
	"testing"
)

// TestFinite puts one NaN or Inf at every place of runs of every length up
// to 9 (the unrolled loops' bodies and tails), in either part of a complex
// element, and checks that finite finds it and passes the run without it.
func TestFinite(t *testing.T) {
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		for n := 1; n <= 9; n++ {
			for i := range n {
				check(t, n, i, bad, func(v float64) float64 { return v })
				check(t, n, i, bad, func(v float64) float32 { return float32(v) })
				check(t, n, i, bad, func(v float64) complex128 { return complex(1, v) })
				check(t, n, i, bad, func(v float64) complex64 { return complex64(complex(v, 1)) })
			}
		}
	}
}

func check[T interface {
	float32 | float64 | complex64 | complex128
}](t *testing.T, n, i int, bad float64, of func(float64) T) {
	t.Helper()
	s := make([]T, n)
	for k := range s {
		s[k] = of(math.MaxFloat32 / 2)
	}
	if !finite(s) {
		t.Errorf("%T: finite(%v) = false, want true", s, s)
	}
	s[i] = of(bad)
	if finite(s) {
		t.Errorf("%T: finite(%v) = true, want false", s, s)
	}
}
