package main

import (
	"os"
	"testing"

	"github.com/goga-hpc/goga/examples/internal/extest"
	"github.com/goga-hpc/goga/internal/mpitest"
)

func TestMain(m *testing.M) { os.Exit(mpitest.Main(m)) }

// TestCinterop runs Go and C on the same array; run fails unless both sums
// agree with the closed form.
func TestCinterop(t *testing.T) {
	extest.Run(t, run, "reading what C wrote", func() { *n = 999 })
}
