package ga_test

import (
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingPackc ports global/testing/packc.c of GlobalArrays/ga
// (commit dd40347): Pack of src (element i is i+1) into a zeroed dst under
// a mask with one element in q set (q = 1, 2, 3), over the ranges [0, n-1],
// [1, n-1], [0, n-2], [n/4, n/2] and [n/3, n/3+10] (0-based, inclusive, as
// GA's llo and lhi), for each of the 36 pairs of element and mask type; all
// of dst, read back, must equal the sequential pack on every process, the
// rest of dst zero, and the returned count the number of mask bits in the
// range. n is 1000 where the original has 200000 (the same cases, in
// seconds rather than minutes). On 1-4 processes over shared memory.
func TestGATestingPackc(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		eachMaskPair(t, opPack, gatestingMaskN)
	})
}
