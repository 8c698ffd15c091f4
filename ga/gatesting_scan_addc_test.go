package ga_test

import (
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingScanAddc ports global/testing/scan_addc.c of GlobalArrays/ga
// (commit dd40347): ScanAdd, inclusive and exclusive, of src (element i is
// i+1) into a zeroed dst under a mask with one element in q set (q = 1, 2,
// 3), over the ranges [0, n-1], [1, n-1], [0, n-2], [n/4, n/2] and
// [n/3, n/3+10] (0-based, inclusive, as GA's lo and hi), for each of the 36
// pairs of element and mask type; all of dst, read back, must equal the
// sequential segmented sum on every process, exactly (the sums are
// integers), with the elements before the range's first mask bit left at
// zero, as GA C leaves them untouched. n is 1000 where the original has
// 200000. On 1-4 processes over shared memory.
func TestGATestingScanAddc(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		eachMaskPair(t, opScanAdd, gatestingMaskN)
	})
}
