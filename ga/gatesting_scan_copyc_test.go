package ga_test

import (
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingScanCopyc ports global/testing/scan_copyc.c of
// GlobalArrays/ga (commit dd40347): ScanCopy of src (element i is
// (i+1) + (i+2)i, the imaginary part for the complex types) into a zeroed
// dst under a mask whose elements are rand()%q themselves (q = 1 gives an
// all-zero mask; 2 and 3 masks of 0, 1 and 2), over the ranges [0, n-1],
// [1, n-1], [0, n-2], [n/4, n/2] and [n/3, n/3+10] (0-based, inclusive, as
// GA's lo and hi), for each of the 36 pairs of element and mask type; all
// of dst, read back, must equal the sequential segmented copy on every
// process, with 0 written before the range's first mask bit as GA C does.
// n is 1000 where the original has 200000. On 1-4 processes over shared
// memory.
func TestGATestingScanCopyc(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		eachMaskPair(t, opScanCopy, gatestingMaskN)
	})
}
