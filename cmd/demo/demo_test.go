package main

import (
	"os"
	"testing"

	"github.com/goga-hpc/goga/internal/mpitest"
)

func TestMain(m *testing.M) { os.Exit(mpitest.Main(m)) }

// TestDemo runs the demo's job on a smaller matrix and on the Matrix Market
// example; run fails when the scaled residual is not below 16.
func TestDemo(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		*n, *nb = 300, 32
		mpitest.Must(t, run())
		*mm = "../../testdata/nonsym6.mtx"
		defer func() { *mm = "" }()
		mpitest.Must(t, run())
	})
}
