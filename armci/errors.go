package armci

import (
	"errors"
	"fmt"
)

// Error is misuse refused before any data moves: the call, the argument and
// what was wrong with it.
type Error struct {
	Op  string // the call, such as "Put"
	Arg string // the argument, such as "rank"
	Msg string
	Err error // a sentinel such as ErrFreed, or nil
}

func (e *Error) Error() string { return fmt.Sprintf("armci: %s: %s: %s", e.Op, e.Arg, e.Msg) }
func (e *Error) Unwrap() error { return e.Err }

// Sentinels reachable with errors.Is.
var (
	ErrFreed     = errors.New("segment has been freed")
	ErrFinalized = errors.New("runtime has been finalized")
	ErrNil       = errors.New("nil")
)

func argErr(op, arg, format string, a ...any) error {
	return &Error{Op: op, Arg: arg, Msg: fmt.Sprintf(format, a...)}
}

// renamed returns err with its Op set to op, for a call (a non-blocking one)
// that hands its work to another: the error names the call the user made.
func renamed(op string, err error) error {
	var e *Error
	if errors.As(err, &e) && e.Op != op {
		c := *e
		c.Op = op
		return &c
	}
	return err
}

func stateErr(op, arg string, err error) error {
	return &Error{Op: op, Arg: arg, Msg: err.Error(), Err: err}
}
