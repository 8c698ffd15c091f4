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

// TestMatmul multiplies and solves on 1-4 processes, with a nonsymmetric A
// (Solve takes LU) and a symmetric positive definite one (Cholesky); run
// fails unless C = A·B and X = B.
func TestMatmul(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		for _, files := range [][2]string{
			{"../../testdata/nonsym6.mtx", "testdata/b6x3.mtx"},
			{"../../testdata/spd5.mtx", "../../testdata/spd5.mtx"},
		} {
			*aFile, *bFile = files[0], files[1]
			var out bytes.Buffer
			mpitest.Must(t, run(&out))
			if s := out.String(); mpi.World().Rank() == 0 && !strings.Contains(s, " ms\n") {
				t.Errorf("no timing line in\n%s", s)
			}
		}
	})
}
