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
}

func (e *Error) Error() string {
	if e.Array == "" {
		return fmt.Sprintf("ga: %s: %s", e.Op, e.Msg)
	}
	return fmt.Sprintf("ga: %s on %q: %s", e.Op, e.Array, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

// Sentinels reachable with errors.Is.
var (
	ErrNotInitialized = errors.New("GA is not initialized")
	ErrDestroyed      = errors.New("array has been destroyed")
	ErrMemoryLimit    = errors.New("memory limit reached")
	ErrNil            = errors.New("nil array")
)

func errorf(op, array, format string, a ...any) error {
	return &Error{Op: op, Array: array, Msg: fmt.Sprintf(format, a...)}
}

func stateErr(op, array string, err error) error {
	return &Error{Op: op, Array: array, Msg: err.Error(), Err: err}
}
