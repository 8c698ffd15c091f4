package cgo

import (
	"fmt"
	"slices"
	"testing"
	"unsafe"

	"github.com/goga-hpc/goga/internal/acctest"
)

// TestAcc checks each accumulate kernel against the same loop in Go, with
// scale one and another, on lengths around the vector widths, from buffers
// on the heap and on the stack, and that it writes nothing past n. The
// values are small integers, so the sums are exact.
func TestAcc(t *testing.T) {
	testAcc(t, func(d, s unsafe.Pointer, n int, a int32) { AccInt32(d, s, n, a) }, func(i int) int32 { return int32(i%7 - 3) }, 3)
	testAcc(t, func(d, s unsafe.Pointer, n int, a int64) { AccInt64(d, s, n, a) }, func(i int) int64 { return int64(i%11 - 5) }, -2)
	testAcc(t, func(d, s unsafe.Pointer, n int, a float32) { AccFloat32(d, s, n, a) }, func(i int) float32 { return float32(i%5) / 2 }, 4)
	testAcc(t, func(d, s unsafe.Pointer, n int, a float64) { AccFloat64(d, s, n, a) }, func(i int) float64 { return float64(i%9) - 4.5 }, -3)
	testAcc(t, func(d, s unsafe.Pointer, n int, a complex64) { AccComplex64(d, s, n, a) }, func(i int) complex64 { return complex(float32(i%3), float32(-i%4)) }, 2-1i)
	testAcc(t, func(d, s unsafe.Pointer, n int, a complex128) { AccComplex128(d, s, n, a) }, func(i int) complex128 { return complex(float64(i%5), float64(i%2)) }, 1i)
}

func testAcc[T int32 | int64 | float32 | float64 | complex64 | complex128](t *testing.T, k func(d, s unsafe.Pointer, n int, a T), val func(int) T, scale T) {
	ns := []int{1, 3, 8, 17, 64, 255, 1000}
	acctest.Check(t, func(dst, src []T, a T) { k(unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), len(src), a) }, val, ns, []T{1, scale})
	// A source on the stack.
	for _, n := range ns {
		dst := make([]T, n)
		var small [8]T
		for i := range small {
			small[i] = val(i + 2)
		}
		m := min(n, len(small))
		want := slices.Clone(dst)
		for i := range m {
			want[i] += scale * small[i]
		}
		k(unsafe.Pointer(&dst[0]), unsafe.Pointer(&small[0]), m, scale)
		if !slices.Equal(dst, want) {
			t.Errorf("%T/n=%d from the stack: got %v, want %v", scale, n, dst, want)
		}
	}
}

// TestElementwise checks c = alpha·a + beta·b and c = a·b, with ordinary
// and non-temporal stores, against the same loops in Go: on lengths around
// the vector widths, from every alignment of c inside a vector (the
// streaming loops store whole aligned vectors between a scalar head and
// tail), writing nothing outside c; and with c the same run as a.
func TestElementwise(t *testing.T) {
	if !Streams {
		t.Log("this CPU has no AVX2: the streaming kernels run the ordinary ones")
	}
	testElementwise(t, AxpbyFloat64, MulFloat64)
	testElementwise(t, AxpbyFloat32, MulFloat32)
}

func testElementwise[T float32 | float64](t *testing.T, axpby func(c, a, b unsafe.Pointer, n int, alpha, beta T, stream bool), mul func(c, a, b unsafe.Pointer, n int, stream bool)) {
	const guard = 9
	var z T
	for _, stream := range []bool{false, true} {
		for _, n := range []int{1, 3, 7, 8, 9, 16, 17, 31, 33, 100, 1000} {
			for shift := range 8 {
				name := fmt.Sprintf("%T/stream=%v/n=%d/shift=%d", z, stream, n, shift)
				a, b := make([]T, n), make([]T, n)
				for i := range a {
					a[i], b[i] = T(i%13)-6, T(i%7)/2
				}
				buf := make([]T, n+shift+guard)
				for i := range buf {
					buf[i] = -99
				}
				c := buf[shift : shift+n]
				want := slices.Clone(buf)
				for i := range c {
					want[shift+i] = 3*a[i] - 2*b[i]
				}
				axpby(unsafe.Pointer(&c[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), n, 3, -2, stream)
				if !slices.Equal(buf, want) {
					t.Errorf("axpby %s: got %v, want %v", name, buf, want)
				}
				for i := range c {
					want[shift+i] = a[i] * b[i]
				}
				mul(unsafe.Pointer(&c[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), n, stream)
				if !slices.Equal(buf, want) {
					t.Errorf("mul %s: got %v, want %v", name, buf, want)
				}
				// c = a·b into a itself.
				wantA := slices.Clone(a)
				for i := range wantA {
					wantA[i] *= b[i]
				}
				mul(unsafe.Pointer(&a[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), n, stream)
				if !slices.Equal(a, wantA) {
					t.Errorf("mul into a %s: got %v, want %v", name, a, wantA)
				}
			}
		}
	}
}
