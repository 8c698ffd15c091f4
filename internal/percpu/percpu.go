// Package percpu keeps counters that goroutines add to without a locked
// instruction. Each of the Go scheduler's Ps adds to its own slot while the
// goroutine is pinned to it, as sync.Pool keeps its per-P caches, and a read
// sums the slots. ga counts every one-sided call this way (GA_Print_stats):
// with one locked add per call, the add was a quarter of an 8-byte ga.Put,
// and with two processes incrementing one shared counter it halved ReadInc's
// rate, the locked add waiting each time for the counter's cache line that
// the other process's fetch-and-add had just taken.
//
// A read taken while others add sees each slot as one of its recent values
// (aligned 64-bit words are never torn on the 64-bit machines goga runs on);
// counts are exact once the adders are done. Built with the race detector,
// every add is an atomic one instead, so that the detector has nothing to
// report.
package percpu

import (
	"runtime"
	"sync/atomic"
	_ "unsafe" // go:linkname
)

// procPin pins the goroutine to its P, whose id it returns, until
// procUnpin: the runtime lets no other goroutine run on that P meanwhile.
// Both are the runtime's, kept for packages that link to them (go.dev/issue/67401).
//
//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()

// line is the cache line size that slots are padded to, so that two Ps
// never write one line.
const line = 64

// Counters is a fixed number of int64 counters.
type Counters struct {
	n      int     // counters
	stride int     // int64s per slot, n rounded up to whole lines
	slots  []int64 // one slot per P that there was at New
	end    int     // where the slots end: a P whose slot starts here or later has none
	// spill takes the adds of Ps made later (GOMAXPROCS raised), and every
	// add under the race detector.
	spill []atomic.Int64
}

// New returns n counters at zero.
func New(n int) *Counters {
	stride := (n*8 + line - 1) / line * line / 8
	// One line in front, so that the first slot shares no line with
	// whatever the allocator put before it.
	ps := runtime.GOMAXPROCS(0)
	return &Counters{n: n, stride: stride, slots: make([]int64, line/8+ps*stride), end: line/8 + ps*stride, spill: make([]atomic.Int64, n)}
}

// slot returns p's slot, or nil when p came after New.
func (c *Counters) slot(p int) []int64 {
	start := line/8 + p*c.stride
	if start+c.n > len(c.slots) {
		return nil
	}
	return c.slots[start : start+c.n : start+c.n]
}

// Add adds v to counter i.
func (c *Counters) Add(i int, v int64) {
	if s := c.Pin(); s != nil {
		s[i] += v
		Unpin()
		return
	}
	Unpin()
	c.spill[i].Add(v)
}

// Pin pins the goroutine to its P and returns the P's slot, to add to in
// place until Unpin, or nil where adds must go to Spill (a P made after New,
// or a build with the race detector). Unpin must follow either way, soon:
// the P runs nothing else meanwhile. Pin inlines into its caller, so that a
// caller with a few counters to add calls only the runtime's pin and unpin.
func (c *Counters) Pin() []int64 {
	k := line/8 + procPin()*c.stride
	if race || k >= c.end {
		return nil
	}
	return c.slots[k:]
}

// PinBoth is Pin of c and d at once: one pin of the goroutine, the P's slot
// in each (nil as Pin's). Unpin must follow.
func PinBoth(c, d *Counters) (sc, sd []int64) {
	p := procPin()
	k, l := line/8+p*c.stride, line/8+p*d.stride
	if race || k >= c.end || l >= d.end {
		return nil, nil
	}
	return c.slots[k:], d.slots[l:]
}

// Unpin ends a Pin.
func Unpin() { procUnpin() }

// Spill adds v to counter i where Pin gave no slot.
func (c *Counters) Spill(i int, v int64) { c.spill[i].Add(v) }

// Read returns counter i: the sum over the slots.
func (c *Counters) Read(i int) int64 {
	v := c.spill[i].Load()
	for p := 0; ; p++ {
		s := c.slot(p)
		if s == nil {
			return v
		}
		v += s[i]
	}
}
