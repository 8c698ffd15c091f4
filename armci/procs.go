package armci

import (
	"os"
	"runtime"
	"strconv"
	"strings"
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

// mpiYields reports whether MPI gives up the core when a poll finds
// nothing to do (Open MPI's mpi_yield_when_idle, on by itself where mpirun
// oversubscribes the node's cores). A poll then cannot hold the core
// against the computation beside it, so the active-message server yields
// between polls as it did before it could spin (amServer.yielding). MPIs
// other than Open MPI do not yield in a single poll.
var mpiYields = yieldsWhenIdle(os.Getenv)

// yieldsWhenIdle reads Open MPI's settings as mpirun passes them to its
// processes: mpi_yield_when_idle if it is set, else whether the job
// oversubscribes its nodes (mpi_oversubscribe), which turns it on. Checked
// against Open MPI 4.1's own variable after MPI_Init, with and without
// --oversubscribe and --mca mpi_yield_when_idle 0 and 1.
func yieldsWhenIdle(getenv func(string) string) bool {
	if v := getenv("OMPI_MCA_mpi_yield_when_idle"); v != "" {
		return mcaTrue(v)
	}
	return mcaTrue(getenv("OMPI_MCA_mpi_oversubscribe"))
}

// mcaTrue parses an Open MPI boolean setting: a non-zero integer, or true,
// yes, enabled, t or y in any case.
func mcaTrue(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	if n, err := strconv.Atoi(v); err == nil {
		return n != 0
	}
	switch v {
	case "true", "yes", "enabled", "t", "y":
		return true
	}
	return false
}
