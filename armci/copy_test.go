package armci

import (
	"math"
	"testing"

	"github.com/goga-hpc/goga/internal/acctest"
)

// TestAccumulate checks accumulate against Go's loop for every element type
// on lengths around its thresholds (Go's loop, gonum's assembly from asmAcc
// on, the C kernels from bigAcc bytes on), with scale one, another and
// zero, writing nothing past the source's length. The values are small
// integers, so every result is exact. A zero scale times an infinity is NaN,
// as in Go's loop.
func TestAccumulate(t *testing.T) {
	testAccumulate(t, func(i int) float64 { return float64(i%9) - 4 }, -3)
	testAccumulate(t, func(i int) float32 { return float32(i%5) / 2 }, 4)
	testAccumulate(t, func(i int) int32 { return int32(i%7 - 3) }, 3)
	testAccumulate(t, func(i int) int64 { return int64(i%11 - 5) }, -2)
	testAccumulate(t, func(i int) complex64 { return complex(float32(i%3), float32(-i%4)) }, 2-1i)
	testAccumulate(t, func(i int) complex128 { return complex(float64(i%5), float64(i%2)) }, 1i)

	dst, src := make([]float64, 64), make([]float64, 64)
	src[7] = math.Inf(1)
	accumulate(dst, src, 0)
	if !math.IsNaN(dst[7]) || dst[6] != 0 {
		t.Errorf("0·Inf accumulated %v (and 0·0 %v), want NaN (and 0)", dst[7], dst[6])
	}
}

func testAccumulate[T AccElem](t *testing.T, val func(int) T, scale T) {
	acctest.Check(t, accumulate[T], val, []int{1, 15, 16, 17, 64, 127, 128, 129, 200, 1000}, []T{1, scale, 0})
}
