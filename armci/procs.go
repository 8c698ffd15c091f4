package armci

import (
	"runtime"
	"sync"
)

// The active-message server and the progress goroutine must run while the
// program's goroutine sits in a blocking MPI call (a barrier) or computes.
// Go sizes GOMAXPROCS by the CPUs the process may run on, so a process that
// mpirun binds to one core, as it binds ranks on a cluster, gets a single
// P: the program's goroutine inside a cgo call holds it, and the server
// waits until sysmon takes it back, up to 10 ms later; the server's polling
// loop in turn holds the P against the program. Across the two simulated
// nodes with each rank bound to a core, update_ghosts took 412-496 µs
// (median of nine loops, two runs) with one P and 127-128 with two (GA C:
// 133; unbound, 99-100). While a background goroutine runs, the process
// therefore has at least two Ps: two threads may then run Go code on one
// core, sharing it as the kernel schedules them.
var procs struct {
	mu    sync.Mutex
	users int // background goroutines running, over every runtime
	prev  int // GOMAXPROCS before the first; 0 when it was not raised
}

// backgroundStarted notes that a background goroutine starts, raising
// GOMAXPROCS to 2 if it is lower.
func backgroundStarted() {
	procs.mu.Lock()
	defer procs.mu.Unlock()
	procs.users++
	if procs.users == 1 {
		procs.prev = 0
		if n := runtime.GOMAXPROCS(0); n < 2 {
			procs.prev = n
			runtime.GOMAXPROCS(2)
		}
	}
}

// backgroundStopped notes that one has stopped; after the last, GOMAXPROCS
// goes back to what it was, unless the program changed it meanwhile.
func backgroundStopped() {
	procs.mu.Lock()
	defer procs.mu.Unlock()
	procs.users--
	if procs.users == 0 && procs.prev > 0 && runtime.GOMAXPROCS(0) == 2 {
		runtime.GOMAXPROCS(procs.prev)
	}
}
