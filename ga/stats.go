package ga

import (
	"fmt"
	"io"
	"os"

	"github.com/goga-hpc/goga/internal/percpu"
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
	// MaxMemory is the most bytes of global array data this process has
	// held at once since Init (GA's "max memory consumed").
	MaxMemory int
}

// counters are a group's Stats as they are kept: the operation counts are
// per-P counters (internal/percpu), so that the one-sided path counts without
// the group's lock or a locked instruction.
type counters struct {
	created, destroyed int // under the group's lock
	ops                *percpu.Counters
}

// opKind is a kind of counted operation; its counters are its calls and its
// local and remote bytes.
type opKind int

const (
	statPut opKind = iota
	statGet
	statAcc
	statReadInc
	statScatter
	statGather
	statSacc
	opKinds
)

// A kind's counters, from int(kind)·perKind on.
const (
	callsOf = iota
	localBytesOf
	remoteBytesOf
	perKind
)

func newCounters() counters { return counters{ops: percpu.New(int(opKinds) * perKind)} }

func (c *counters) read(k opKind) OpStats {
	i := int(k) * perKind
	return OpStats{Calls: int(c.ops.Read(i + callsOf)), LocalBytes: int(c.ops.Read(i + localBytesOf)), RemoteBytes: int(c.ops.Read(i + remoteBytesOf))}
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
	proc.mu.Lock()
	s.MaxMemory = proc.maxUsed
	proc.mu.Unlock()
	s.Put, s.Get, s.Acc, s.ReadInc = c.read(statPut), c.read(statGet), c.read(statAcc), c.read(statReadInc)
	s.Scatter, s.Gather, s.Sacc = c.read(statScatter), c.read(statGather), c.read(statSacc)
	return s
}

// PrintStats writes this process's operation counts and bytes moved, local and
// remote, per kind (GA_Print_stats).
func PrintStats() { fprintStats(os.Stdout, ReadStats()) }

func fprintStats(w io.Writer, s Stats) {
	fmt.Fprintf(w, "GA statistics for process %d\n", Nodeid())
	fmt.Fprintf(w, "  arrays created %d, destroyed %d; memory in use %d bytes, at most %d since Init\n", s.Created, s.Destroyed, InquireMemory(), s.MaxMemory)
	fmt.Fprintf(w, "  %-8s %10s %16s %16s\n", "op", "calls", "local bytes", "remote bytes")
	for _, r := range []struct {
		name string
		o    OpStats
	}{{"put", s.Put}, {"get", s.Get}, {"acc", s.Acc}, {"read_inc", s.ReadInc}, {"scatter", s.Scatter}, {"gather", s.Gather}, {"scat_acc", s.Sacc}} {
		fmt.Fprintf(w, "  %-8s %10d %16d %16d\n", r.name, r.o.Calls, r.o.LocalBytes, r.o.RemoteBytes)
	}
}
