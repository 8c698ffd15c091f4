package dra

import (
	"errors"
	"fmt"

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
	ErrPeer           = errors.New("another process failed")
)

// sentinels numbers the sentinels, so that the processes that did not fail
// learn which one the failing process's error wraps.
var sentinels = []error{nil, ErrNotInitialized, ErrClosed, ErrLimit, ErrChecksum, ErrFormat, ErrMismatch}

func errorf(op, file string, err error, format string, a ...any) error {
	return &Error{Op: op, File: file, Msg: fmt.Sprintf(format, a...), Err: err}
}

// peerError is what a process gets when another one failed.
type peerError struct {
	rank int
	msg  string
	err  error // the failing process's sentinel, or nil
}

func (e *peerError) Error() string   { return fmt.Sprintf("process %d failed: %s", e.rank, e.msg) }
func (e *peerError) Unwrap() []error { return []error{ErrPeer, e.err} }

// agree makes one process's failure every process's: it returns nil when
// no process of c failed, the process's own error where it failed, and
// elsewhere an *Error wrapping ErrPeer and the first failing process's
// sentinel, with its message. Every process of c calls it at the same
// point; it costs one Allreduce when nothing failed.
func agree(c *mpi.Comm, op, file string, err error) error {
	me, n := c.Rank(), c.Size()
	flag := []int32{int32(n)}
	if err != nil {
		flag[0] = int32(me)
	}
	first := []int32{0}
	if rerr := mpi.Allreduce(c, flag, first, mpi.Min); rerr != nil {
		return errorf(op, file, rerr, "agreeing on success: %v", rerr)
	}
	r := int(first[0])
	if r == n {
		return nil
	}
	var text []byte
	code := []int32{0}
	if me == r {
		text = []byte(err.Error())
		for i, s := range sentinels[1:] {
			if errors.Is(err, s) {
				code[0] = int32(i + 1)
			}
		}
	}
	size := []int{len(text)}
	if berr := errors.Join(mpi.Bcast(c, size, r), mpi.Bcast(c, code, r)); berr != nil {
		return errorf(op, file, berr, "learning process %d's failure: %v", r, berr)
	}
	if me != r {
		text = make([]byte, size[0])
	}
	if berr := mpi.Bcast(c, text, r); berr != nil {
		return errorf(op, file, berr, "learning process %d's failure: %v", r, berr)
	}
	if err != nil {
		return err
	}
	pe := &peerError{rank: r, msg: string(text), err: sentinels[code[0]]}
	return &Error{Op: op, File: file, Msg: pe.Error(), Err: pe}
}
