package main

import (
	"os"
	"testing"

	"github.com/goga-hpc/goga/examples/internal/extest"
	"github.com/goga-hpc/goga/internal/mpitest"
)

func TestMain(m *testing.M) { os.Exit(mpitest.Main(m)) }

// TestMatmul multiplies and solves with a nonsymmetric A (Solve takes LU)
// and a symmetric positive definite one (Cholesky); run fails unless
// C = A·B and X = B.
func TestMatmul(t *testing.T) {
	extest.Run(t, run, " ms\n",
		func() { *aFile, *bFile = "../../testdata/nonsym6.mtx", "testdata/b6x3.mtx" },
		func() { *aFile, *bFile = "../../testdata/spd5.mtx", "../../testdata/spd5.mtx" })
}
