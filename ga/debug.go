package ga

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"

	"github.com/goga-hpc/goga/armci"
)

// Argument tracing. With SetDebug(true), every collective call this process
// makes writes one line before it acts: its group rank, the call and the
// arguments the processes agree on (array numbers and types, dims,
// distributions, roots, operations; element values are not part of them).
// Lines of different processes go to their own outputs, so a hang or a
// mismatch shows which call each process was in. The trace includes
// armci's lines (armci.SetDebug): what its network paths dropped, such as
// a stranger's connection or datagram; those of start-up appear when the
// trace is on before Init. The profile (profile.go) names collective calls
// as the trace does; docs/PROFILE.md describes both.

var debug struct {
	on atomic.Bool
	mu sync.Mutex
	w  io.Writer // nil: os.Stderr
}

// SetDebug turns argument tracing on or off for this process (GA_Set_debug).
func SetDebug(on bool) {
	debug.on.Store(on)
	armci.SetDebug(on)
}

// Debug reports whether argument tracing is on (GA_Get_debug).
func Debug() bool { return debug.on.Load() }

// SetDebugOutput sends this process's trace lines to w; nil means os.Stderr,
// the default.
func SetDebugOutput(w io.Writer) {
	if w != nil {
		w = &lockedWriter{w: w} // ga's and armci's lines share it
	}
	debug.mu.Lock()
	debug.w = w
	debug.mu.Unlock()
	armci.SetDebugOutput(w)
}

// lockedWriter serializes the writes of two tracers to one writer.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// trace writes a collective call's line when tracing is on.
func trace(g *group, l *args) {
	if l == nil || !debug.on.Load() {
		return
	}
	debug.mu.Lock()
	defer debug.mu.Unlock()
	w := debug.w
	if w == nil {
		w = os.Stderr
	}
	fmt.Fprintf(w, "ga: process %d: %s\n", g.rank, l.b)
}
