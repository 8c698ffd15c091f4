package armci

import (
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/goga-hpc/goga/internal/acctest"
)

// TestAccumulate checks accumulate against Go's loop for every element type
// on lengths around its thresholds (Go's loop, the assembly kernels from
// asmAcc on, the C kernels from bigAcc bytes on) and the AVX2 kernels' steps
// (16 and 4 float64s, 32 and 8 float32s, then single elements), with scale
// one, another and zero, writing nothing past the source's length. The
// values are small integers, so every result is exact. A zero scale times
// an infinity is NaN, as in Go's loop.
func TestAccumulate(t *testing.T) {
	testAccumulate(t, func(i int) float64 { return float64(i%9) - 4 }, -3)
	testAccumulate(t, func(i int) float32 { return float32(i%5) / 2 }, 4)
	testAccumulate(t, func(i int) int32 { return int32(i%7 - 3) }, 3)
	testAccumulate(t, func(i int) int64 { return int64(i%11 - 5) }, -2)
	testAccumulate(t, func(i int) complex64 { return complex(float32(i%3), float32(-i%4)) }, 2-1i)
	testAccumulate(t, func(i int) complex128 { return complex(float64(i%5), float64(i%2)) }, 1i)

	inexact(t, func(i int) float64 { return float64(i)/7 - 0.3 }, 1.0/3)
	inexact(t, func(i int) float32 { return float32(i)/7 - 0.3 }, 1.0/3)

	dst, src := make([]float64, 64), make([]float64, 64)
	src[7] = math.Inf(1)
	accumulate(dst, src, 0)
	if !math.IsNaN(dst[7]) || dst[6] != 0 {
		t.Errorf("0·Inf accumulated %v (and 0·0 %v), want NaN (and 0)", dst[7], dst[6])
	}
}

func testAccumulate[T AccElem](t *testing.T, val func(int) T, scale T) {
	acctest.Check(t, accumulate[T], val, []int{1, 15, 16, 17, 20, 35, 64, 127, 128, 129, 200, 1000}, []T{1, scale, 0})
}

// inexact checks accumulate on values whose products round, at every
// alignment of dst and src within a vector: the kernels multiply and add
// with two roundings, as Go's loop does, and must give its bits.
func inexact[T float32 | float64](t *testing.T, val func(int) T, scale T) {
	t.Helper()
	for dOff := range 4 {
		for sOff := range 4 {
			dst, src := make([]T, 300+dOff), make([]T, 300+sOff)
			for i := range dst {
				dst[i] = val(3*i + 1)
			}
			for i := range src {
				src[i] = val(i)
			}
			want := slices.Clone(dst)
			for i, v := range src[sOff:] {
				want[dOff+i] += scale * v
			}
			accumulate(dst[dOff:], src[sOff:], scale)
			if !slices.Equal(dst, want) {
				t.Errorf("%T offsets %d, %d: accumulate differs from Go's loop", scale, dOff, sOff)
			}
		}
	}
}

// TestCopyStreaming: copies from streamCopyFrom bytes on go through the
// streaming kernel, from every alignment of the destination within a
// vector and with tails, and write nothing outside it; and sysfs's cache
// size, which sets the threshold, is read and parsed.
func TestCopyStreaming(t *testing.T) {
	for in, want := range map[string]int{"32768K": 32 << 20, "1M": 1 << 20, "512": 512} {
		if got, ok := cacheBytes(in); !ok || got != want {
			t.Errorf("cacheBytes(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "K", "x12K", "-4K"} {
		if got, ok := cacheBytes(in); ok {
			t.Errorf("cacheBytes(%q) = %d, want no size", in, got)
		}
	}
	if dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*"); len(dirs) > 0 && LastLevelCache() <= 0 {
		t.Errorf("LastLevelCache() = %d with %d cache entries in sysfs", LastLevelCache(), len(dirs))
	}

	old := streamCopyFrom
	defer func() { streamCopyFrom = old }()
	streamCopyFrom = func() int { return bigCopy }
	src := make([]byte, bigCopy+300)
	for i := range src {
		src[i] = byte(i*7 + 3)
	}
	for _, n := range []int{bigCopy, bigCopy + 1, bigCopy + 127, bigCopy + 200} {
		for shift := range 33 {
			buf := make([]byte, n+shift+40)
			copyBytes(buf[shift:shift+n], src[3:3+n])
			for i, b := range buf {
				want := byte(0)
				if i >= shift && i < shift+n {
					want = src[3+i-shift]
				}
				if b != want {
					t.Fatalf("n=%d shift=%d: byte %d is %d, want %d", n, shift, i, b, want)
				}
			}
		}
	}
}
