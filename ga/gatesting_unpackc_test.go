package ga_test

import (
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingUnpackc ports global/testing/unpackc.c of GlobalArrays/ga
// (commit dd40347): Unpack of src (element i is i+1) into a zeroed dst
// under a mask with one element in q set (q = 1, 2, 3), over the ranges
// [0, n-1], [1, n-1], [0, n-2], [n/4, n/2] and [n/3, n/3+10] (0-based,
// inclusive, as GA's llo and lhi), for each of the 36 pairs of element and
// mask type; all of dst, read back, must equal the sequential unpack on
// every process (src[0], src[1], ... at the mask bits, zero elsewhere), and
// the returned count the number of mask bits in the range. n is 1000 where
// the original has 200000. On 1-4 processes over shared memory.
func TestGATestingUnpackc(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		eachMaskPair(t, opUnpack, gatestingMaskN)
	})
}
