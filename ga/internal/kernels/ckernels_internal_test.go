package kernels

import (
	"testing"

	"github.com/goga-hpc/goga/armci"
)

// TestStreamAbove checks the rule for non-temporal stores: the last-level
// cache shared by the node's processes, counted over the three runs of one
// kernel call, never where the output is an operand, never before Init or
// without a cache size.
func TestStreamAbove(t *testing.T) {
	old := streamAbove.Load()
	defer streamAbove.Store(old)
	x := make([]float64, 1<<20)
	y, c := make([]float64, len(x)), make([]float64, len(x))
	streamAbove.Store(0)
	if streams(c, x, y) {
		t.Error("streams with no threshold set")
	}

	llc := armci.LastLevelCache()
	if llc <= 0 {
		t.Skip("no cache sizes in sysfs here")
	}
	SetStreamAbove(llc, 2)
	above := int(streamAbove.Load())
	if above != llc/2 {
		t.Fatalf("streamAbove = %d for 2 processes and a %d-byte cache, want %d", above, llc, llc/2)
	}
	n := (above + 23) / 24 // the fewest float64 whose three runs reach it
	if !streams(c[:n], x, y) || streams(c[:n-1], x, y) {
		t.Errorf("streams at %d and %d elements: want true, false (threshold %d bytes)", n, n-1, above)
	}
	if streams(x[:n], x, y) || streams(y[:n], x, y) {
		t.Error("streams into one of the operands")
	}
}
