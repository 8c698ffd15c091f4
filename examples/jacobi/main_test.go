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

// TestJacobi solves a small grid on 1-4 processes (3 cuts it unevenly); run
// fails unless the interior converges to i² − j².
func TestJacobi(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		*n, *every = 12, 50
		var out bytes.Buffer
		mpitest.Must(t, run(&out))
		if s := out.String(); mpi.World().Rank() == 0 && !strings.Contains(s, "largest error") {
			t.Errorf("no summary line in\n%s", s)
		}
	})
}
