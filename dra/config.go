package dra

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"

	"github.com/goga-hpc/goga/ga"
)

// Config says how a disk array's transfers share the I/O (NDRA_Create_config,
// DRA_Set_default_config).
//
// IOProcs is how many processes move data between the file and the global
// array: the group's processes k·P/IOProcs for k < IOProcs, spread evenly
// over its ranks (so over its nodes, where ranks fill nodes in turn), each
// moving one band of the file, which it gets from or puts into the global
// array by one-sided calls wherever the data lives. Fewer I/O processes
// leave the others' cores to computation while a transfer runs in the
// background, and suit file systems that serve few clients best.
//
// Files is how many files hold the array. goga keeps a disk array in one
// file, so that a crash leaves it complete or absent (a rename publishes
// it), and parallel file systems stripe one file over their servers, which
// is what GA's several files were for: Files must be 1.
//
// Values below 1 take GA's defaults: Files from IOProcs or the number of
// nodes, IOProcs from Files (so that Config{} is one I/O process per
// node); an IOProcs above the group's size is its size.
type Config struct {
	Files, IOProcs int
}

// defaultConfig is what Create and Open use without a Config; the zero
// value: every process does I/O.
var defaultConfig atomic.Pointer[Config]

// SetDefaultConfig sets the Config of the disk arrays created or opened
// after it without one of their own (DRA_Set_default_config). Every
// process should set the same.
func SetDefaultConfig(c Config) error {
	if _, err := c.resolve("SetDefaultConfig", "", 1); err != nil {
		return err
	}
	defaultConfig.Store(&c)
	return nil
}

// resolve returns the number of I/O processes c gives a group on nodes
// nodes, or an error naming op and file.
func (c Config) resolve(op, file string, nodes int) (int, error) {
	if c.Files > 1 {
		return 0, errorf(op, file, nil, "Config{Files: %d}: a disk array is one file (complete or absent after a crash); several files are not supported", c.Files)
	}
	procs := c.IOProcs
	if procs < 1 {
		procs = c.Files // 1 where Files is 1
		if procs < 1 {
			procs = nodes
		}
	}
	return procs, nil
}

// ioProcsOf is the number of I/O processes cfg (nil: every process) gives
// a group of np processes.
func ioProcsOf(cfg *Config, np int) int {
	if cfg == nil {
		return np
	}
	k, _ := cfg.resolve("", "", nodesOf())
	return min(max(k, 1), np)
}

// nodesOf is the number of nodes of GA's default group's processes.
func nodesOf() int { return max(ga.ClusterNnodes(), 1) }

// ioIndex is the place of process me among the k I/O processes of a group
// of np, or -1 where it does none: process ⌊i·np/k⌋ is the i-th.
func ioIndex(me, np, k int) int {
	for i := range k {
		if i*np/k == me {
			return i
		}
	}
	return -1
}

// debug is DRA's trace (SetDebug).
var debug struct {
	on  atomic.Bool
	mu  sync.Mutex
	out io.Writer
}

// SetDebug turns on or off the trace of every transfer (DRA_Set_debug):
// each process writes a line per transfer it starts (the operation, the
// file, its band of rows and its bytes, and whether its I/O runs in the
// background) to SetDebugOutput's writer, standard error by default.
func SetDebug(on bool) { debug.on.Store(on) }

// SetDebugOutput sets where SetDebug's trace goes; nil is standard error.
func SetDebugOutput(w io.Writer) {
	debug.mu.Lock()
	debug.out = w
	debug.mu.Unlock()
}

// tracef writes a line of the trace, when it is on.
func tracef(format string, a ...any) {
	if !debug.on.Load() {
		return
	}
	debug.mu.Lock()
	defer debug.mu.Unlock()
	w := debug.out
	if w == nil {
		w = os.Stderr
	}
	fmt.Fprintf(w, "dra: rank %d: "+format+"\n", append([]any{ga.Nodeid()}, a...)...)
}
