// Package agreement is goga's agreement protocol: how the processes of a
// collective call learn, before they act, whether any of them refused the
// call or failed in it and whether they all passed the same arguments, so
// that a mistake on one process is an error on every process instead of a
// hang.
//
// An agreement is one reduction of a few maxima (Verdict: who refused, the
// hash of the arguments and its negation), which rides on the
// synchronization the call makes anyway: armci's AllMax and BarrierMax carry
// it in their record (record.go), a call on a bare communicator in one
// MPI_Allreduce. Only when a process refused does a second collective
// follow, one broadcast of that process's reason (Tell); every other process
// then returns an error wrapping ErrPeer and the refusing process's
// sentinel. Where the arguments differ, process 0's are broadcast (Text). ga, dra and armci use it; it may use mpi and nothing above.
package agreement

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/goga-hpc/goga/mpi"
)

// ErrPeer is wrapped by the error a process gets when a collective call
// failed on another process: that process refused its arguments, or failed
// in its part. ga.ErrPeer and dra.ErrPeer are this error.
var ErrPeer = errors.New("the call failed on another process")

// ErrMixed is wrapped by the error of a reduction carried by an agreement
// when the processes did not all carry the same one (armci.ErrMixed).
var ErrMixed = errors.New("the processes called different reductions")

// Words is how many maxima an agreement reduces: who refused, the
// arguments' hash and its negation.
const Words = 3

// Verdict is a process's words: rank + 1 where it refused (else 0), then
// sum, the hash of its arguments (0 for none), and -sum, whose maxima are
// each other's negation only where every process passed the same.
func Verdict(rank int, refused bool, sum int64) [Words]int64 {
	var v [Words]int64
	if refused {
		v[0] = int64(rank) + 1
	}
	v[1], v[2] = sum, -sum
	return v
}

// Refuser is the process whose refusal the reduced words v report (the
// highest rank that refused), or -1 where none did.
func Refuser(v []int64) int { return int(v[0]) - 1 }

// Mismatch reports whether the reduced words v come from different
// arguments.
func Mismatch(v []int64) bool { return v[1] != -v[2] }

// Hash is the hash of an agreement's arguments b: FNV-1a's step over 8
// bytes at a time, each word mixed before the next, with the length in
// the last word. It is never negative, so that -Hash fits.
func Hash(b []byte) int64 {
	h := uint64(14695981039346656037)
	n := len(b)
	for ; len(b) >= 8; b = b[8:] {
		h = (h ^ binary.LittleEndian.Uint64(b)) * 1099511628211
		h ^= h >> 29
	}
	var last [8]byte
	copy(last[:], b)
	last[7] = byte(n)
	h = (h ^ binary.LittleEndian.Uint64(last[:])) * 1099511628211
	h ^= h >> 29
	return int64(h >> 2)
}

// ReasonLen is the most bytes of a reason (or text) that reach the other
// processes; the rest is cut.
const ReasonLen = 1024

// Reason is why a process refused a call, as the others learn it: the
// sentinel its error wraps (nil for none of the caller's), the name of what
// it refused (an array, a file; may be empty) and its message.
type Reason struct {
	Sentinel error
	Name     string
	Msg      string
}

// Tell sends root's reason to every process of c, in one broadcast of
// ReasonLen bytes, and returns it; every process of c calls it, root with
// its error local (nil elsewhere), the name and message to tell. The
// sentinel is told by its place in sentinels (the first that local wraps),
// which every process passes alike.
func Tell(c *mpi.Comm, root int, sentinels []error, local error, name, msg string) (Reason, error) {
	var text string
	if local != nil {
		code := 0
		for i, s := range sentinels {
			if s != nil && errors.Is(local, s) {
				code = i + 1
				break
			}
		}
		text = string(rune('0'+code)) + name + "\x1f" + msg
	}
	text, err := Text(c, text, root)
	if err != nil || text == "" {
		return Reason{}, err
	}
	var r Reason
	if i := int(text[0] - '0'); i > 0 && i <= len(sentinels) {
		r.Sentinel = sentinels[i-1]
	}
	r.Msg = text[1:]
	if name, msg, ok := strings.Cut(r.Msg, "\x1f"); ok {
		r.Name, r.Msg = name, msg
	}
	return r, nil
}

// Text sends root's text to every process of c, cut to ReasonLen bytes: it
// serves error messages only.
func Text(c *mpi.Comm, text string, root int) (string, error) {
	buf := make([]byte, ReasonLen)
	copy(buf, text)
	if err := mpi.Bcast(c, buf, root); err != nil {
		return "", err
	}
	if i := bytes.IndexByte(buf, 0); i >= 0 {
		buf = buf[:i]
	}
	return string(buf), nil
}

// PeerError is what a process gets when another process of a call failed:
// that process's rank, message and sentinel (nil for none of the caller's).
// errors.Is finds ErrPeer and the sentinel in it.
type PeerError struct {
	Rank     int
	Msg      string
	Sentinel error
}

func (e *PeerError) Error() string   { return fmt.Sprintf("process %d failed: %s", e.Rank, e.Msg) }
func (e *PeerError) Unwrap() []error { return []error{ErrPeer, e.Sentinel} }

// Among is the agreement of a call on c's processes for packages whose
// failures are told by sentinel (dra, h5): local is this process's error
// (nil: it succeeded), sum the hash of its arguments (0 where there are
// none to compare). Every process of c calls it at the same point: one
// Allreduce of Words words, and one broadcast more where a process failed.
// It returns, alike on every process, peer set where some process failed
// (the last one), mismatch where none failed but the sums differ, and err
// where MPI itself failed.
func Among(c *mpi.Comm, local error, sum int64, sentinels []error) (peer *PeerError, mismatch bool, err error) {
	v := Verdict(c.Rank(), local != nil, sum)
	all := make([]int64, Words)
	if err := mpi.Allreduce(c, v[:], all, mpi.Max); err != nil {
		return nil, false, fmt.Errorf("agreeing on success: %w", err)
	}
	r := Refuser(all)
	if r < 0 {
		return nil, Mismatch(all), nil
	}
	var msg string
	if local != nil {
		msg = local.Error()
	}
	why, err := Tell(c, r, sentinels, local, "", msg)
	if err != nil {
		return nil, false, fmt.Errorf("learning process %d's failure: %w", r, err)
	}
	return &PeerError{Rank: r, Msg: why.Msg, Sentinel: why.Sentinel}, false, nil
}
