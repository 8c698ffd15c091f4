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

// TestCinterop runs Go and C on the same array on 1-4 processes; run fails
// unless both sums agree with the closed form.
func TestCinterop(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		*n = 999
		var out bytes.Buffer
		mpitest.Must(t, run(&out))
		if s := out.String(); mpi.World().Rank() == 0 && !strings.Contains(s, "reading what C wrote") {
			t.Errorf("no C line in\n%s", s)
		}
	})
}
