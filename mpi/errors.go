package mpi

import (
	"errors"
	"fmt"

	"github.com/goga-hpc/goga/cgo"
)

// Error is a failure reported by the MPI library, with MPI's own message.
type Error struct {
	Op    string // the goga call that failed, such as "Send"
	Code  int    // MPI's error code
	Class int    // MPI's error class (MPI_Error_class)
	Msg   string // MPI_Error_string of Code
}

func (e *Error) Error() string { return fmt.Sprintf("mpi: %s: %s (MPI error %d)", e.Op, e.Msg, e.Code) }

// ArgError is misuse refused before any MPI call: a short buffer, a rank out of
// range, a freed handle. Arg names the offending argument.
type ArgError struct {
	Op  string // the goga call, such as "Send"
	Arg string // the argument, such as "dest"
	Msg string
	Err error // a sentinel such as ErrFreed, or nil
}

func (e *ArgError) Error() string { return fmt.Sprintf("mpi: %s: %s: %s", e.Op, e.Arg, e.Msg) }

// Sentinel errors, wrapped in ArgError and reachable with errors.Is.
var (
	ErrNotInitialized = errors.New("MPI is not initialized")
	ErrFinalized      = errors.New("MPI is finalized")
	ErrFreed          = errors.New("handle has been freed")
	ErrNil            = errors.New("handle is nil")
)

func (e *ArgError) Unwrap() error { return e.Err }

// stateErr wraps a sentinel in an ArgError.
func stateErr(op, arg string, err error) error {
	return &ArgError{Op: op, Arg: arg, Msg: err.Error(), Err: err}
}

func argErr(op, arg, format string, a ...any) error {
	return &ArgError{Op: op, Arg: arg, Msg: fmt.Sprintf(format, a...)}
}

// Check turns the return code of an MPI call made from C code compiled into
// the same binary into an *Error naming op (nil for MPI_SUCCESS). Like every
// call of this package it also reschedules the calling goroutine now and
// then, which a goroutine looping over such calls needs (pace.go).
func Check(op string, rc int) error { return check(op, rc) }

// check turns an MPI return code into an error.
func check(op string, rc int) error {
	pace()
	if rc == cgo.Success {
		return nil
	}
	return &Error{Op: op, Code: rc, Class: cgo.ErrorClass(rc), Msg: cgo.ErrorString(rc)}
}
