package h5

import (
	"errors"
	"fmt"
	"strings"

	"github.com/goga-hpc/goga/internal/agreement"
	"github.com/goga-hpc/goga/mpi"
)

// Error is a failed call of this package: the call, the file, the object in
// it (a dataset or group path, "" for the file itself), the HDF5 function
// that failed ("" where none did) and what was wrong. Err is a sentinel
// (ErrNotFound, ...) or the underlying error.
type Error struct {
	Op     string // the call, such as "Write"
	File   string
	Object string
	Call   string // the HDF5 function, such as "H5Dwrite"
	Msg    string
	Err    error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("h5: " + e.Op)
	if e.File != "" {
		b.WriteString(" " + e.File)
	}
	if e.Object != "" {
		b.WriteString(" " + e.Object)
	}
	if e.Call != "" {
		b.WriteString(": " + e.Call)
	}
	b.WriteString(": " + e.Msg)
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Sentinels reachable with errors.Is.
var (
	ErrNotFound = errors.New("no such file, dataset, group or attribute")
	ErrExists   = errors.New("the object exists already")
	ErrMismatch = errors.New("the dataset holds another type or shape")
	ErrFormat   = errors.New("not an HDF5 file")
	ErrClosed   = errors.New("the file is closed")
	ErrReadOnly = errors.New("the file is open for reading only")
	ErrArgs     = errors.New("the processes passed different arguments")
	// ErrHDF5 is wrapped by the failures of HDF5's own calls.
	ErrHDF5 = errors.New("an HDF5 call failed")
	// ErrPeer is the error of goga's agreements: ga.ErrPeer is the same.
	ErrPeer = agreement.ErrPeer
)

// sentinels numbers the sentinels, so that the processes that did not fail
// learn which one the failing process's error wraps.
var sentinels = []error{ErrNotFound, ErrExists, ErrMismatch, ErrFormat, ErrClosed, ErrReadOnly, ErrArgs, ErrHDF5}

func errorf(op, file, obj string, err error, format string, a ...any) error {
	return &Error{Op: op, File: file, Object: obj, Msg: fmt.Sprintf(format, a...), Err: err}
}

// hdf5Error is the failure of an HDF5 step, whose message the binding
// starts with the failing call's name.
func hdf5Error(op, file, obj string, err error) error {
	call, msg, ok := strings.Cut(err.Error(), ": ")
	if !ok {
		call, msg = "", err.Error()
	}
	return &Error{Op: op, File: file, Object: obj, Call: call, Msg: msg, Err: ErrHDF5}
}

// agree makes one process's failure every process's, by goga's agreement
// protocol (agreement.Among), and checks that every process passed the
// same arguments (args, hashed; none for a step within a call). It returns
// nil where no process failed, the process's own error where it failed,
// and elsewhere an *Error wrapping ErrPeer and the failing process's
// sentinel, with its message. Every process of c calls it at the same
// point.
func agree(c *mpi.Comm, op, file, obj string, err error, args ...any) error {
	var sum int64
	if len(args) > 0 {
		sum = agreement.Hash(fmt.Append(nil, args...))
	}
	peer, mismatch, aerr := agreement.Among(c, err, sum, sentinels)
	switch {
	case err != nil:
		return err
	case aerr != nil:
		return errorf(op, file, obj, aerr, "%v", aerr)
	case peer != nil:
		return &Error{Op: op, File: file, Object: obj, Msg: peer.Error(), Err: peer}
	case mismatch:
		return errorf(op, file, obj, ErrArgs, "arguments differ between processes (here %v)", args)
	}
	return nil
}
