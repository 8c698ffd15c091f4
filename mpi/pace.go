package mpi

import (
	"runtime"
	"sync/atomic"
	"time"
)

// Go's scheduler preempts a goroutine that has run 10 ms without being
// rescheduled. When sysmon finds such a goroutine inside a cgo call, where
// it cannot be preempted, it takes the goroutine's P away instead, and does
// so at every one of its ticks (20 µs when busy) until the goroutine is
// rescheduled, each time waking another thread to poll the network (Go
// 1.26's retake). A goroutine that loops over MPI calls, a loop of
// barriers or a progress loop, is such a goroutine: on two simulated nodes
// each MPI_Barrier from Go took 7.6-11.7 µs, with ten times the context
// switches of the same loop in C (5.0-5.5 µs), and 5.6-6.3 µs once the loop
// rescheduled itself every 2 ms. So an MPI call reschedules its goroutine
// when no call has done so for pacePeriod. The clock is shared by all
// goroutines: one that loops over MPI calls beside another that does too
// may be rescheduled less often, but still once in a few periods.
const pacePeriod = 2 * time.Millisecond

// paced is when an MPI call last rescheduled its goroutine (Unix ns).
var paced atomic.Int64

// pace reschedules the calling goroutine (runtime.Gosched) if no MPI call
// has done so for pacePeriod; every call that enters MPI paces (check).
func pace() {
	now := time.Now().UnixNano()
	last := paced.Load()
	if now-last < int64(pacePeriod) || !paced.CompareAndSwap(last, now) {
		return
	}
	runtime.Gosched()
}
