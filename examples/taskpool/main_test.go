package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

func TestMain(m *testing.M) { os.Exit(mpitest.Main(m)) }

// TestTaskpool draws tasks on 1-4 processes; run fails unless every task
// was done exactly once with the right result.
func TestTaskpool(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		*tasks = 200
		var out bytes.Buffer
		mpitest.Must(t, run(&out))
		if s := out.String(); mpi.World().Rank() == 0 && !strings.Contains(s, "exactly once") {
			t.Errorf("no verdict in\n%s", s)
		}
	})
}
