package ga_test

import (
	"math"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestIntegerWrap: integer arithmetic wraps on overflow without an error,
// as in GA C and as ElemMultiply, AddConstant, AbsValue and ScanAdd say:
// MaxInt64² is 1, MaxInt64 + 1 is MinInt64, |MinInt64| is MinInt64, and a
// prefix sum past MaxInt64 goes negative; int32 alike.
func TestIntegerWrap(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		wrap[int64](t, math.MaxInt64, math.MinInt64)
		wrap[int32](t, math.MaxInt32, math.MinInt32)
	}, mpitest.Ranks(1, 3))
}

func wrap[T int32 | int64](t *testing.T, maxT, minT T) {
	const n = 5
	mk := func(name string) *ga.Array[T] {
		a, err := ga.Create[T](name, []int{n}, nil)
		must(t, err)
		return a
	}
	a, b, c, mask := mk("a"), mk("b"), mk("c"), mk("mask")
	for _, x := range []*ga.Array[T]{a, b, c, mask} {
		defer destroy(t, x)
	}
	must(t, a.Fill(maxT))
	must(t, ga.ElemMultiply(a, a, c))
	sameElems(t, "MaxInt squared", getAll(t, c), []T{1, 1, 1, 1, 1})
	must(t, a.AddConstant(1))
	sameElems(t, "MaxInt + 1", getAll(t, a), []T{minT, minT, minT, minT, minT})
	must(t, a.AbsValue())
	sameElems(t, "|MinInt|", getAll(t, a), []T{minT, minT, minT, minT, minT})
	must(t, b.Fill(maxT/2+1))
	must(t, mask.Zero())
	if ga.Nodeid() == 0 {
		must(t, mask.Put([]int{0}, []int{0}, []T{1}, nil))
	}
	must(t, ga.Sync())
	must(t, ga.ScanAdd(b, c, mask, 0, n-1, false))
	h := maxT/2 + 1 // 2h is maxT + 1, which wraps to minT
	sameElems(t, "prefix sums past MaxInt", getAll(t, c), []T{h, minT, minT + h, 0, h})
}
