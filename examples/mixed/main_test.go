package main

import (
	"os"
	"testing"

	"github.com/goga-hpc/goga/examples/internal/extest"
	"github.com/goga-hpc/goga/internal/mpitest"
)

func TestMain(m *testing.M) { os.Exit(mpitest.Main(m)) }

// TestMixed splits the processes into a GA half and an MPI half (one
// process: GA alone); run fails unless their sums add up to the closed form.
func TestMixed(t *testing.T) {
	extest.Run(t, run, "total ", func() { *n = 10007 })
}
