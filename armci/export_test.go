package armci

import (
	"errors"
	"net"
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
	if s.parts == nil || s.parts[rank] == nil {
		return 0
	}
	return uintptr(unsafe.Pointer(unsafe.SliceData(s.parts[rank])))
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
