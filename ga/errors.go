package ga

import (
	"errors"
	"fmt"
)

// Error is misuse that GA refuses before anything moves: the call, the array
// (by name) and what was wrong, with the values.
type Error struct {
	Op    string // the call, such as "Put"
	Array string // the array's name, or "" for calls on no array
	Msg   string
	Err   error // a sentinel such as ErrDestroyed, or nil
	peer  bool  // another process refused a collective call (ErrPeer)
}

func (e *Error) Error() string {
	if e.Array == "" {
		return fmt.Sprintf("ga: %s: %s", e.Op, e.Msg)
	}
	return fmt.Sprintf("ga: %s on %q: %s", e.Op, e.Array, e.Msg)
}

// Unwrap gives the sentinels errors.Is looks for: Err, and ErrPeer when
// another process refused the call (Err is then that process's sentinel).
func (e *Error) Unwrap() []error {
	out := make([]error, 0, 2)
	if e.Err != nil {
		out = append(out, e.Err)
	}
	if e.peer {
		out = append(out, ErrPeer)
	}
	return out
}

// Sentinels reachable with errors.Is.
var (
	ErrNotInitialized = errors.New("GA is not initialized")
	ErrDestroyed      = errors.New("array has been destroyed")
	ErrMemoryLimit    = errors.New("memory limit reached")
	ErrNil            = errors.New("nil array")
	ErrNotFinite      = errors.New("NaN or Inf in a solver's input")
	ErrNotSymmetric   = errors.New("matrix is not symmetric")
	// ErrReadOnly is wrapped by the refusal of a call that would write an
	// array while it is read_only (see Array.SetProperty).
	ErrReadOnly = errors.New("array is read_only")
)

// sentinels numbers the sentinels, so that a collective call can tell the
// other processes which one its refusal wraps (see agree).
var sentinels = []error{ErrNotInitialized, ErrDestroyed, ErrMemoryLimit, ErrNil, ErrMismatch, ErrNotFinite, ErrNotSymmetric, ErrReadOnly}

func errorf(op, array, format string, a ...any) error {
	return &Error{Op: op, Array: array, Msg: fmt.Sprintf(format, a...)}
}

func stateErr(op, array string, err error) error {
	return &Error{Op: op, Array: array, Msg: err.Error(), Err: err}
}
