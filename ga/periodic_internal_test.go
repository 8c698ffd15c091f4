package ga

import (
	"fmt"
	"testing"
)

// TestPeriodicSpans is the manual's T5 in 0-based C indices: for a 5x5 array,
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
