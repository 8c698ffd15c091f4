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

// TestMixed splits 1-4 processes into a GA half and an MPI half; run fails
// unless their sums add up to the closed form.
func TestMixed(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		*n = 10007
		var out bytes.Buffer
		mpitest.Must(t, run(&out))
		if s := out.String(); mpi.World().Rank() == 0 && !strings.Contains(s, "total ") {
			t.Errorf("no total in\n%s", s)
		}
	})
}
