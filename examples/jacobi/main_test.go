package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/goga-hpc/goga/examples/internal/extest"
	"github.com/goga-hpc/goga/internal/mpitest"
)

func TestMain(m *testing.M) { os.Exit(mpitest.Main(m)) }

// TestJacobi solves a small grid (3 processes cut it unevenly); run fails
// unless the interior converges to i² − j².
func TestJacobi(t *testing.T) {
	extest.RunManyNodes(t, run, "largest error", func() { *n, *every = 12, 50 })
}

// TestJacobiHDF5 writes the field every 100 iterations to an HDF5 file;
// run fails unless the last one reads back equal to the field.
func TestJacobiHDF5(t *testing.T) {
	if !mpitest.Child() {
		os.Setenv("GOGA_JACOBI_H5", filepath.Join(t.TempDir(), "jacobi.h5"))
	}
	extest.Run(t, run, "read back exactly", func() { *n, *every, *h5out = 12, 50, os.Getenv("GOGA_JACOBI_H5") })
}
