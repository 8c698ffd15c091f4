package main

import (
	"os"
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
