package armci

import (
	"errors"
	"net"
	"slices"
	"unsafe"

	"github.com/goga-hpc/goga/internal/agreement"
	"github.com/goga-hpc/goga/mpi"
)

// SetMaxPiece makes transfers over MPI go in pieces of at most n bytes (a
// multiple of 16, the largest element), as transfers of more than 1 GiB do,
// until the returned function restores the default.
func SetMaxPiece(n int) (restore func()) {
	old := maxPiece
	maxPiece = n
	return func() { maxPiece = old }
}

// WithNodes makes the runtime take the processes for which nodeOf returns
// the same number as sharing a node, in place of the node they really run on:
// a job on one machine then has segments that span "nodes", with some parts
// mapped and others reached through MPI.
func WithNodes(nodeOf func() int) Option { return func(rt *Runtime) { rt.nodeOf = nodeOf } }

// WithExchanges makes the runtime's agreements across nodes exchange
// records point to point (exchange.go) even where MPI yields when idle.
func WithExchanges() Option { return func(rt *Runtime) { rt.exchangeAlways = true } }

// Exchanges reports whether the runtime's agreements across nodes exchange
// records point to point.
func Exchanges(rt *Runtime) bool { return rt.exchanges }

// Linked reports whether the runtime's exchanges go over its own TCP links.
func Linked(rt *Runtime) bool { return rt.links != nil }

// ExchangePartners is agreement.Partners.
var ExchangePartners = agreement.Partners

// PartAddr is the address at which this process maps rank's part of s, or 0
// where it does not map it.
func PartAddr(s *Segment, rank int) uintptr {
	if s.near == nil || s.near[rank] == nil {
		return 0
	}
	return uintptr(unsafe.Pointer(unsafe.SliceData(s.near[rank].part)))
}

// Progressing reports whether the runtime's progress goroutine runs.
func Progressing(rt *Runtime) bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.progressStop != nil
}

// ReviveAfter is how many Frees ago a window must have been retired for a
// segment to revive it.
const ReviveAfter = reviveAfter

// Revived is how many retired windows segments have revived.
func Revived(rt *Runtime) int {
	rt.retired.mu.Lock()
	defer rt.retired.mu.Unlock()
	return rt.retired.revived
}

// Rung is how many doorbell datagrams this process's server has woken to.
func Rung(rt *Runtime) int64 {
	if !rt.Doorbells() {
		return 0
	}
	return rt.am.bell.rung.Load()
}

// MPIYields reports whether the runtime found that MPI yields the core
// when a poll finds nothing (procs.go).
func MPIYields() bool { return mpiYields }

// YieldsWhenIdle is yieldsWhenIdle, on the given environment.
func YieldsWhenIdle(env map[string]string) bool {
	return yieldsWhenIdle(func(k string) string { return env[k] })
}

// OnListen makes f learn the address of each link listener and doorbell
// socket as soon as it listens, until restore.
func OnListen(f func(network string, addr net.Addr)) (restore func()) {
	old := listening
	listening = f
	return func() { listening = old }
}

// ErrHandoff is the failure FailHandoffs injects.
var ErrHandoff = errors.New("injected: the hand-off's wait failed")

// FailHandoffs makes this process's waits for a mutex's hand-off fail at
// once with ErrHandoff, after the lock has gone to the host, until restore.
func FailHandoffs() (restore func()) {
	w, r := handoffWait, handoffRecv
	handoffWait = func(*amServer, ...*mpi.Request) error { return ErrHandoff }
	handoffRecv = func(*mpi.Comm, []byte, int, int) (mpi.Status, error) { return mpi.Status{}, ErrHandoff }
	return func() { handoffWait, handoffRecv = w, r }
}

// Table is one of the tables a runtime or a segment keeps in a process
// whose length grows with the number of processes: Entries of Bytes each.
// What entries point to is a table of its own.
type Table struct{ Entries, Bytes int }

func table[E any](s []E) Table { var z E; return Table{len(s), int(unsafe.Sizeof(z))} }

// SetMaxDoorbells makes runtimes of more than n processes go without
// doorbells, until restore.
func SetMaxDoorbells(n int) (restore func()) {
	old := maxDoorbells
	maxDoorbells = n
	return func() { maxDoorbells = old }
}

// Written returns the targets that rt's AllFence would visit, sorted.
func Written(rt *Runtime) []int {
	if rt.am == nil {
		return nil
	}
	rt.am.writtenMu.Lock()
	defer rt.am.writtenMu.Unlock()
	return slices.Sorted(slices.Values(rt.am.written))
}

// RuntimeTables lists rt's tables by name (see doc.go, Costs at scale).
func RuntimeTables(rt *Runtime) map[string]Table {
	t := map[string]Table{"turns": table(rt.turns)}
	if a := rt.am; a != nil {
		t["am.sent"], t["am.fenced"], t["am.listed"] = table(a.sent), table(a.fenced), table(a.listed)
		if d := a.bell; d != nil {
			t["doorbell.peers"], t["doorbell.last"] = table(d.peers), table(d.last)
			t["doorbell.count"], t["doorbell.heard"] = table(d.count), table(d.heard)
			n := 0
			for _, p := range d.peers {
				if p != nil {
					n++
				}
			}
			// An address and its IPv4 bytes (8, the allocation's size).
			t["doorbell.addrs"] = Table{n, int(unsafe.Sizeof(net.UDPAddr{})) + 8}
		}
	}
	if l := rt.links; l != nil {
		t["links.ranks"], t["links.peers"] = table(l.ranks), table(l.peers)
		n := 0
		for _, p := range l.peers {
			if p != nil {
				n++
			}
		}
		t["links.link"] = Table{n, int(unsafe.Sizeof(link{}))}
	}
	if rt.node != nil {
		t["node.ranks"] = table(rt.node.ranks)
	}
	if b := rt.bar; b != nil {
		t["barrier.lines"], t["barrier.slots"] = table(b.lines), table(b.slots)
	}
	return t
}

// SegmentTables lists s's tables in this process by name, and the
// transports its tables point to, by kind (see doc.go, Costs at scale).
func SegmentTables(s *Segment) map[string]Table {
	t := map[string]Table{"sizes": table(s.sizes), "to": table(s.to), "at": table(s.at), "near": table(s.near)}
	if s.toSeg != nil {
		t["toSeg"] = table(s.toSeg)
	}
	if s.issued != nil {
		t["issued"], t["flushed"] = table(s.issued), table(s.flushed)
	}
	seen := map[any]bool{}
	count := func(name string, x any, bytes int) {
		if !seen[x] {
			seen[x] = true
			t[name] = Table{t[name].Entries + 1, bytes}
		}
	}
	for r := range s.to {
		for _, x := range []any{s.to[r], s.at[r]} {
			switch v := x.(type) {
			case *mapped:
				count("mapped", v, int(unsafe.Sizeof(mapped{})))
				if e := v.entered; e != nil && !seen[e] {
					count("entered", e, int(unsafe.Sizeof(entered{})))
					t["entered.bits"] = Table{t["entered.bits"].Entries + len(e.bits), 8}
				}
			case *viaAM:
				count("viaAM", v, int(unsafe.Sizeof(viaAM{})))
			case *overMPI:
				count("overMPI", v, int(unsafe.Sizeof(overMPI{})))
			}
		}
	}
	return t
}
