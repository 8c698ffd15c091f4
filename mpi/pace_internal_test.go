package mpi

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestPace: in a one-P program, a goroutine that calls pace in a busy loop
// lets another goroutine run after about a period, long before Go would
// preempt it (10 ms), and reschedules at most once a period.
func TestPace(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	// loop calls pace until the other goroutine has run and d has passed,
	// and returns when the other goroutine first ran and how often.
	loop := func(d time.Duration) (first, took time.Duration, n int64) {
		var ran atomic.Int64
		var at atomic.Int64
		stop := make(chan struct{})
		defer close(stop)
		runtime.Gosched() // Go's own preemption counts 10 ms from here
		paced.Store(time.Now().UnixNano())
		start := time.Now()
		go func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if ran.Add(1) == 1 {
					at.Store(int64(time.Since(start)))
				}
				runtime.Gosched()
			}
		}()
		for ran.Load() == 0 || time.Since(start) < d {
			pace()
		}
		return time.Duration(at.Load()), time.Since(start), ran.Load()
	}
	// A loaded machine can stretch a period past 10 ms: a few tries.
	var first time.Duration
	for range 5 {
		if first, _, _ = loop(0); first >= pacePeriod && first < 10*time.Millisecond {
			break
		}
	}
	if first < pacePeriod || first >= 10*time.Millisecond {
		t.Errorf("another goroutine first ran %v into a pacing loop, want %v to 10 ms", first, pacePeriod)
	}
	// The other goroutine runs once or twice at each rescheduling (its own
	// Gosched may hand the P straight back).
	_, took, n := loop(30 * time.Millisecond)
	if max := 2 * (int64(took/pacePeriod) + 1); n > max {
		t.Errorf("in %v of pacing, another goroutine ran %d times, want at most %d", took, n, max)
	}
}
