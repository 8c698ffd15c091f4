package main

import (
	"os"
	"testing"

	"github.com/goga-hpc/goga/internal/mpitest"
)

func TestMain(m *testing.M) { os.Exit(mpitest.Main(m)) }

// TestDemo runs the demo's job on a smaller matrix and on the Matrix Market
// example, in both layouts; run fails when the scaled residual is not below
// 16.
func TestDemo(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		defer func() { *mm, *layout = "", "blockcyclic" }()
		for _, l := range []string{"blockcyclic", "regular"} {
			*layout = l
			*n, *nb, *mm = 300, 32, ""
			mpitest.Must(t, run())
			*mm, *nb = "../../testdata/nonsym6.mtx", 2
			mpitest.Must(t, run())
		}
	}, mpitest.ManyNodes())
}
