package main

import (
	"os"
	"testing"

	"github.com/goga-hpc/goga/examples/internal/extest"
	"github.com/goga-hpc/goga/internal/mpitest"
)

func TestMain(m *testing.M) { os.Exit(mpitest.Main(m)) }

// TestTaskpool draws tasks; run fails unless every task was done exactly
// once with the right result.
func TestTaskpool(t *testing.T) {
	extest.RunManyNodes(t, run, "exactly once", func() { *tasks = 200 })
}
