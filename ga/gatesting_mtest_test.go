package ga_test

import (
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingMtest ports global/testing/mtest.c of GlobalArrays/ga
// (commit dd40347): Scatter fills a 100 × 100 int32 matrix, each process
// sending every nproc-th of the 10 000 values from its rank on (value k to
// row k mod 100, column k div 100), after the original has checked, with
// an integer sum, that the processes' counts add up to 10 000. After Sync,
// each process reads its block in place: element [i][j] must be 100j + i.
// The original's loops stop before each block's last row and column
// (i < hi[0], j < hi[1]) and print a mismatch without failing; this port
// checks every element of the block, inclusive of hi, and fails on a
// mismatch.
func TestGATestingMtest(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		a, values, subs := dealtScatter(t)
		defer destroy(t, a)
		must(t, a.Scatter(values, subs))
		must(t, ga.Sync())
		checkDealt(t, a, "Scatter", 1)
	})
}
