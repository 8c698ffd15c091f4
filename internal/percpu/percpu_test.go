package percpu

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestExact checks exact totals once racing goroutines are done, from more
// goroutines than Ps, with Ps added after New (their adds spill).
func TestExact(t *testing.T) {
	old := runtime.GOMAXPROCS(2)
	defer runtime.GOMAXPROCS(old)
	c := New(5)
	runtime.GOMAXPROCS(4) // Ps 2 and 3 have no slot
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			for k := range 50000 {
				add2(c, g%5, 1, 4, int64(k))
				if k%7 == 0 {
					c.Add(3, 2)
					runtime.Gosched()
				}
			}
		})
	}
	wg.Wait()
	var want [5]int64
	for g := range 16 {
		want[g%5] += 50000
		want[3] += 2 * ((50000 + 6) / 7)
		want[4] += 50000 * 49999 / 2
	}
	for i := range want {
		if got := c.Read(i); got != want[i] {
			t.Errorf("counter %d = %d, want %d", i, got, want[i])
		}
	}
}

// add2 adds v to counter i and w to counter j, pinned once, as ga counts a
// transfer's call and bytes.
func add2(c *Counters, i int, v int64, j int, w int64) {
	if s := c.Pin(); s != nil {
		s[i] += v
		s[j] += w
		Unpin()
		return
	}
	Unpin()
	c.Spill(i, v)
	c.Spill(j, w)
}

// TestSlotsApart checks that no two Ps' slots share a cache line, nor the
// first one a line with memory before the counters.
func TestSlotsApart(t *testing.T) {
	c := New(3)
	if c.stride*8%line != 0 || c.stride < c.n {
		t.Fatalf("stride %d int64s for %d counters", c.stride, c.n)
	}
	if s := c.slot(0); &s[0] != &c.slots[line/8] {
		t.Errorf("slot 0 starts at %p, want one line in", &s[0])
	}
	if c.slot(runtime.GOMAXPROCS(0)) != nil {
		t.Errorf("a slot past the Ps that New saw")
	}
}

func BenchmarkAdd(b *testing.B) {
	c := New(4)
	b.Run("percpu", func(b *testing.B) {
		for b.Loop() {
			add2(c, 0, 1, 1, 8)
		}
	})
	var a [2]atomic.Int64
	b.Run("atomic", func(b *testing.B) {
		for b.Loop() {
			a[0].Add(1)
			a[1].Add(8)
		}
	})
}

// TestPinBoth: adds through PinBoth's two slots, or their spills, reach
// both sets of counters exactly.
func TestPinBoth(t *testing.T) {
	c, d := New(3), New(70) // d's slots span two lines
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 10000 {
				if s, q := PinBoth(c, d); s != nil {
					s[2]++
					q[69] += 3
					Unpin()
				} else {
					Unpin()
					c.Spill(2, 1)
					d.Spill(69, 3)
				}
			}
		})
	}
	wg.Wait()
	if got := c.Read(2); got != 80000 {
		t.Errorf("c = %d, want 80000", got)
	}
	if got := d.Read(69); got != 240000 {
		t.Errorf("d = %d, want 240000", got)
	}
}
