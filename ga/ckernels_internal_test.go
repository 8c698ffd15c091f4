package ga

import (
	"path/filepath"
	"testing"
)

// TestStreamAbove checks the rule for non-temporal stores: the last-level
// cache shared by the node's processes, counted over the three
// runs of one kernel call, never where the output is an operand, never
// before Init or without a cache size; and sysfs's size format.
func TestStreamAbove(t *testing.T) {
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

	old := streamAbove.Load()
	defer streamAbove.Store(old)
	x := make([]float64, 1<<20)
	y, c := make([]float64, len(x)), make([]float64, len(x))
	streamAbove.Store(0)
	if streams(c, x, y) {
		t.Error("streams with no threshold set")
	}

	llc := lastLevelCache()
	if dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*"); len(dirs) > 0 && llc <= 0 {
		t.Fatalf("lastLevelCache() = %d with %d cache entries in sysfs", llc, len(dirs))
	}
	if llc <= 0 {
		t.Skip("no cache sizes in sysfs here")
	}
	setStreamAbove(2)
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
