// Package program is what goga's commands and example programs do alike:
// start their own MPI job when run alone, and end the whole job, with a
// non-zero exit, when one rank fails.
package program

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/goga-hpc/goga/mpi"
)

// Main runs run on every rank and exits non-zero if it fails on any. A
// program asked for np ranks that is not a rank of an MPI job already runs
// itself again, with its arguments, under mpirun.sh on np ranks; np 1 or
// less never does. A rank whose run fails prints its error, prefixed with
// name and its rank, and aborts the job, so that the other ranks do not
// wait for it in a collective call.
func Main(name string, np int, run func() error) {
	// Open MPI and MPICH set these in the ranks they start.
	if os.Getenv("OMPI_COMM_WORLD_SIZE") == "" && os.Getenv("PMI_SIZE") == "" && np > 1 {
		if err := relaunch(np); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
			os.Exit(1)
		}
		return
	}
	if err := run(); err != nil {
		if !mpi.Initialized() || mpi.Finalized() {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "%s: rank %d: %v\n", name, mpi.World().Rank(), err)
		mpi.Abort(1)
	}
}

// relaunch runs this program again under mpirun.sh on np ranks, found in
// the working directory, beside the program or one directory up (bin/'s
// parent); else mpirun.sh on the PATH.
func relaunch(np int) error {
	self, err := os.Executable()
	if err == nil {
		self, err = filepath.Abs(self)
	}
	if err != nil {
		return err
	}
	launcher := "mpirun.sh"
	for _, dir := range []string{".", filepath.Dir(self), filepath.Join(filepath.Dir(self), "..")} {
		p, _ := filepath.Abs(filepath.Join(dir, "mpirun.sh"))
		if _, err := os.Stat(p); err == nil {
			launcher = p
			break
		}
	}
	cmd := exec.Command(launcher, append([]string{"-np", strconv.Itoa(np), self}, os.Args[1:]...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	return cmd.Run()
}
