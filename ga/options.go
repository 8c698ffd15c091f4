package ga

import (
	"os"
	"sync/atomic"

	"github.com/goga-hpc/goga/mpi"
)

// An Option changes how GA runs, given once to Init, InitLimited or
// InitComm.
type Option func(*settings)

type settings struct {
	unchecked bool
	profile   string // GOGA_PROFILE: where Terminate writes the profile
}

// Unchecked makes Brdcst, Gop and Sync, and their processor-group forms
// (Pgroup.Brdcst, Pgroup.Gop, Pgroup.Sync), the bare MPI call they wrap
// (MPI_Bcast, MPI_Allreduce, and the fence then MPI_Barrier), for a
// production run of tested code; GOGA_UNCHECKED=1 in the environment does
// the same. What is lost is their agreement: a process whose own arguments
// are wrong still gets its error and calls nothing, but the other
// processes are not told, and wait in MPI for it or get what MPI makes of
// a mismatch (a different root, length or operation on one process: a
// hang, a truncation error, or wrong data), and processes that reach
// different collective calls pass each other's Sync. Every other collective
// call keeps its agreement. The default is checked.
func Unchecked() Option { return func(s *settings) { s.unchecked = true } }

// unchecked is Unchecked's setting for the running GA.
var unchecked atomic.Bool

// agreeSettings returns what opts and the environment say, the same on
// every process of c, or an error on every process where they differ.
func agreeSettings(op string, c *mpi.Comm, opts []Option) (settings, error) {
	var s settings
	for _, o := range opts {
		if o != nil {
			o(&s)
		}
	}
	s.unchecked = s.unchecked || os.Getenv("GOGA_UNCHECKED") == "1"
	s.profile = os.Getenv("GOGA_PROFILE")
	mine := 0
	if s.unchecked {
		mine = 1
	}
	if s.profile != "" {
		mine |= 2
	}
	v := []int{mine, -mine} // the maximum and minus the minimum, in one call
	if err := mpi.Allreduce(c, nil, v, mpi.Max); err != nil {
		return s, err
	}
	if (v[0]^-v[1])&1 != 0 {
		return s, errorf(op, "", "Unchecked (or GOGA_UNCHECKED=1) on some processes only; give every process the same options")
	}
	if v[0] != -v[1] {
		return s, errorf(op, "", "GOGA_PROFILE set on some processes only; give every process the same environment")
	}
	return s, nil
}
