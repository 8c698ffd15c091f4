package mpitest

import (
	"os"
	"testing"

	"github.com/goga-hpc/goga/mpi"
)

// TempDir is t.TempDir shared by the ranks of c, for tests of files that
// all of them open (MPI-IO): rank 0 makes the directory and tells the others
// its name; it is removed when the test ends, unless the test failed (the
// job is then being aborted).
func TempDir(t testing.TB, c *mpi.Comm) string {
	t.Helper()
	var name []byte
	if c.Rank() == 0 {
		name = []byte(t.TempDir())
	}
	n := []int{len(name)}
	Must(t, mpi.Bcast(c, n, 0))
	if c.Rank() != 0 {
		name = make([]byte, n[0])
	}
	Must(t, mpi.Bcast(c, name, 0))
	if _, err := os.Stat(string(name)); err != nil {
		Fatalf(t, "the ranks do not share a file system: %v", err)
	}
	return string(name)
}
