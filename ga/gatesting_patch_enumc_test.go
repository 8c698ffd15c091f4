package ga_test

import (
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingPatchEnumc ports global/testing/patch_enumc.c of
// GlobalArrays/ga (commit dd40347) with its data: PatchEnum over the whole
// of a 200000-element vector, with start 1 and inc 1, a hundred times over
// for the real types and once, with start and inc 1+1i, for the complex
// ones; every process reads the whole vector back and element i must be
// exactly start + i·inc. GA's C_LONG and C_LONGLONG are both int64 here, so
// six types instead of seven. On 1-4 processes over shared memory.
func TestGATestingPatchEnumc(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		eachType(t, patchEnumc[int32], patchEnumc[int64], patchEnumc[float32], patchEnumc[float64],
			patchEnumc[complex64], patchEnumc[complex128])
	})
}

func patchEnumc[T ga.Elem](t *testing.T) {
	const nelem = 200000
	a, err := ga.Create[T]("g_a", []int{nelem}, nil)
	must(t, err)
	defer destroy(t, a)
	start, inc, times := mk[T](1, 0), mk[T](1, 0), 100
	if isComplex[T]() {
		start, inc, times = mk[T](1, 1), mk[T](1, 1), 1
	}
	for range times {
		must(t, a.PatchEnum(0, nelem-1, start, inc))
	}
	got := make([]T, nelem)
	must(t, a.Get([]int{0}, []int{nelem - 1}, got, nil))
	want := make([]T, nelem)
	for i := range want {
		want[i] = start + mk[T](i, 0)*inc
	}
	sameElems(t, "PatchEnum", got, want)
	must(t, ga.Sync())
}
