package dra

import (
	"errors"
	"fmt"

	"github.com/goga-hpc/goga/internal/agreement"
	"github.com/goga-hpc/goga/mpi"
)

// Error is a failed DRA call: the call, the disk array's file, and what was
// wrong. Err is a sentinel (ErrChecksum, ...) or the underlying error.
type Error struct {
	Op   string // the call, such as "Read"
	File string // the file, or "" for calls on no array
	Msg  string
	Err  error
}

func (e *Error) Error() string {
	if e.File == "" {
		return fmt.Sprintf("dra: %s: %s", e.Op, e.Msg)
	}
	return fmt.Sprintf("dra: %s %s: %s", e.Op, e.File, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

// Sentinels reachable with errors.Is.
var (
	ErrNotInitialized = errors.New("DRA is not initialized")
	ErrClosed         = errors.New("disk array is closed")
	ErrLimit          = errors.New("a limit given to Init is reached")
	ErrChecksum       = errors.New("checksum mismatch")
	ErrFormat         = errors.New("not a valid file of this kind")
	ErrMismatch       = errors.New("the file holds another type or shape")
	// ErrPeer is the error of goga's agreements: ga.ErrPeer is the same.
	ErrPeer = agreement.ErrPeer
)

// sentinels numbers the sentinels, so that the processes that did not fail
// learn which one the failing process's error wraps.
var sentinels = []error{ErrNotInitialized, ErrClosed, ErrLimit, ErrChecksum, ErrFormat, ErrMismatch}

func errorf(op, file string, err error, format string, a ...any) error {
	return &Error{Op: op, File: file, Msg: fmt.Sprintf(format, a...), Err: err}
}

// agree makes one process's failure every process's, by goga's agreement
// protocol (agreement.Among): it returns nil when no process of c failed,
// the process's own error where it failed, and elsewhere an *Error
// wrapping ErrPeer and the sentinel of the last failing process, with its
// message. Every process of c calls it at the same point.
func agree(c *mpi.Comm, op, file string, err error) error {
	peer, _, aerr := agreement.Among(c, err, 0, sentinels)
	switch {
	case err != nil:
		return err
	case aerr != nil:
		return errorf(op, file, aerr, "%v", aerr)
	case peer != nil:
		return &Error{Op: op, File: file, Msg: peer.Error(), Err: peer}
	}
	return nil
}
