package ga

import (
	"fmt"
	"io"
	"os"
	"sync/atomic"
)

// OpStats counts one kind of operation on this process.
type OpStats struct {
	Calls       int
	LocalBytes  int // moved to or from this process's own blocks
	RemoteBytes int // moved to or from other processes' blocks
}

// Stats is what GA_Print_stats reports.
type Stats struct {
	Created, Destroyed                            int
	Put, Get, Acc, ReadInc, Scatter, Gather, Sacc OpStats
}

// counters are a group's Stats as they are kept: the operation counts are
// atomic, so that the one-sided path counts without taking the group's lock.
type counters struct {
	created, destroyed                            int // under the group's lock
	Put, Get, Acc, ReadInc, Scatter, Gather, Sacc opCounter
}

// opCounter is OpStats, kept. Calls that move one piece count their call
// and bytes with one atomic add to a tally; calls of several pieces count the
// call in calls and each piece's bytes in a tally.
type opCounter struct {
	calls         atomic.Int64
	local, remote tally
}

func (c *opCounter) read() OpStats {
	lc, lb := c.local.read()
	rc, rb := c.remote.read()
	return OpStats{Calls: int(c.calls.Load() + lc + rc), LocalBytes: int(lb), RemoteBytes: int(rb)}
}

// tally counts calls and bytes in one word, calls above tallyShift bits of
// bytes, so that the quickest calls pay one atomic add for both: on an 8-byte
// Put a second add was a sixth of ga's time. Whoever finds the word half
// full moves it into the wide counters.
type tally struct {
	word         atomic.Uint64
	calls, bytes atomic.Int64
}

const (
	tallyShift = 40
	tallyBytes = 1<<tallyShift - 1
	// tallyMax is the largest amount one add may carry: far below the
	// room left above the drain's threshold, whatever goroutines race.
	tallyMax = 1 << 32
)

// add counts calls (0 or 1) and bytes.
func (t *tally) add(calls, bytes int) {
	if bytes >= tallyMax {
		t.calls.Add(int64(calls))
		t.bytes.Add(int64(bytes))
		return
	}
	w := t.word.Add(uint64(calls)<<tallyShift | uint64(bytes))
	if w&tallyBytes >= 1<<(tallyShift-1) || w>>tallyShift >= 1<<(63-tallyShift) {
		t.drain()
	}
}

func (t *tally) drain() {
	for {
		w := t.word.Load()
		if w&tallyBytes < 1<<(tallyShift-1) && w>>tallyShift < 1<<(63-tallyShift) {
			return // another goroutine drained it
		}
		if t.word.CompareAndSwap(w, 0) {
			t.calls.Add(int64(w >> tallyShift))
			t.bytes.Add(int64(w & tallyBytes))
			return
		}
	}
}

func (t *tally) read() (calls, bytes int64) {
	w := t.word.Load()
	return t.calls.Load() + int64(w>>tallyShift), t.bytes.Load() + int64(w&tallyBytes)
}

// ReadStats returns this process's counts of operations on arrays of the
// default group.
func ReadStats() Stats {
	g, err := current("ReadStats")
	if err != nil {
		return Stats{}
	}
	c := &g.stats
	g.mu.Lock()
	s := Stats{Created: c.created, Destroyed: c.destroyed}
	g.mu.Unlock()
	s.Put, s.Get, s.Acc, s.ReadInc = c.Put.read(), c.Get.read(), c.Acc.read(), c.ReadInc.read()
	s.Scatter, s.Gather, s.Sacc = c.Scatter.read(), c.Gather.read(), c.Sacc.read()
	return s
}

// PrintStats writes this process's operation counts and bytes moved, local and
// remote, per kind (GA_Print_stats).
func PrintStats() { fprintStats(os.Stdout, ReadStats()) }

func fprintStats(w io.Writer, s Stats) {
	fmt.Fprintf(w, "GA statistics for process %d\n", Nodeid())
	fmt.Fprintf(w, "  arrays created %d, destroyed %d; memory in use %d bytes\n", s.Created, s.Destroyed, InquireMemory())
	fmt.Fprintf(w, "  %-8s %10s %16s %16s\n", "op", "calls", "local bytes", "remote bytes")
	for _, r := range []struct {
		name string
		o    OpStats
	}{{"put", s.Put}, {"get", s.Get}, {"acc", s.Acc}, {"read_inc", s.ReadInc}, {"scatter", s.Scatter}, {"gather", s.Gather}, {"scat_acc", s.Sacc}} {
		fmt.Fprintf(w, "  %-8s %10d %16d %16d\n", r.name, r.o.Calls, r.o.LocalBytes, r.o.RemoteBytes)
	}
}
