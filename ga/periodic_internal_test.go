package ga

import (
	"fmt"
	"testing"
)

// TestPeriodicSpans is the GA user manual's periodic decomposition (section
// 4.4) in 0-based C indices: for a 5x5 array,
// dimension 0's [-2, 1] splits into [3, 4] (wrapped) and [0, 1]; dimension
// 1's [3, 5] into [3, 4] and [0, 0] (wrapped).
func TestPeriodicSpans(t *testing.T) {
	cases := []struct {
		lo, hi, n int
		want      string
	}{
		{-2, 1, 5, "[{3 4 0} {0 1 2}]"},
		{3, 5, 5, "[{3 4 0} {0 0 2}]"},
		{0, 4, 5, "[{0 4 0}]"},
		{-5, -1, 5, "[{0 4 0}]"},
		{5, 9, 5, "[{0 4 0}]"},
		{-1, 0, 2, "[{1 1 0} {0 0 1}]"},
		{1, 2, 2, "[{1 1 0} {0 0 1}]"},
	}
	for _, c := range cases {
		if got := fmt.Sprint(periodicSpans(c.lo, c.hi, c.n)); got != c.want {
			t.Errorf("periodicSpans(%d, %d, %d) = %s, want %s", c.lo, c.hi, c.n, got, c.want)
		}
	}
}

// TestAbsReal covers Gop's absmax/absmin helper on named element types, which
// a type switch on the built-in types would miss.
func TestAbsReal(t *testing.T) {
	type energy float64
	type count int32
	if got := absReal(energy(-2.5)); got != 2.5 {
		t.Errorf("absReal(energy(-2.5)) = %v", got)
	}
	if got := absReal(count(-7)); got != 7 {
		t.Errorf("absReal(count(-7)) = %v", got)
	}
	if got := absReal(int64(4)); got != 4 {
		t.Errorf("absReal(int64(4)) = %v", got)
	}
}
