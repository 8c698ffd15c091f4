package ga_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/scalapack"
)

// TestGATestingTestmult ports global/testing/testmult.c of GlobalArrays/ga
// (commit dd40347): for arrays of 2 to 7 dimensions (N, N, 2, 2, 2, 1, 1,
// as many as it has) in float32, float64, complex64 and complex128, A and
// B filled with 2 (2+2i for the complex types), MatmulPatch multiplies
// their (N-2) × (N-2) patches lo (1, 1, 1, 1, 1, 0, 0), hi (N-2, N-2, 1,
// 1, 1, 0, 0) into the same patch of C; the patch is copied (CopyPatch,
// elements paired in order) into a 2-D array, from which Gemm's product of
// two 2-D arrays of the same values is subtracted (Add); the difference's
// Dot with itself must be within 1e-6 of 0, as in the original. The
// product's closed form (4·(N-2), or 8i·(N-2)) is also checked over the
// whole of C, which is 0 outside the patch. N is the original's 400.
// NGA_Matmul_patch and GA_Sgemm ... GA_Zgemm from C take C-order bounds and
// arrays as MatmulPatch and Gemm do.
func TestGATestingTestmult(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		for ndim := 2; ndim <= 7; ndim++ {
			t.Run(fmt.Sprintf("%d-D", ndim), func(t *testing.T) {
				t.Run("float32", func(t *testing.T) { testmultCase[float32](t, ndim) })
				t.Run("float64", func(t *testing.T) { testmultCase[float64](t, ndim) })
				t.Run("complex128", func(t *testing.T) { testmultCase[complex128](t, ndim) })
				t.Run("complex64", func(t *testing.T) { testmultCase[complex64](t, ndim) })
			})
		}
	})
}

func testmultCase[T scalapack.Elem](t *testing.T, ndim int) {
	const N = 400
	dims := []int{N, N, 2, 2, 2, 1, 1}[:ndim]
	lo := []int{1, 1, 1, 1, 1, 0, 0}[:ndim]
	hi := []int{N - 2, N - 2, 1, 1, 1, 0, 0}[:ndim]
	value, one, zero := mk[T](2, 2), mk[T](1, 0), mk[T](0, 0)

	a, err := ga.Create[T]("array A", dims, nil)
	must(t, err)
	b, err := a.Duplicate("array B")
	must(t, err)
	c, err := a.Duplicate("array C")
	must(t, err)
	defer destroy(t, c)
	must(t, a.Fill(value))
	must(t, b.Fill(value))
	must(t, c.Zero())
	must(t, ga.MatmulPatch(ga.NoTrans, ga.NoTrans, one, a, lo, hi, b, lo, hi, zero, c, lo, hi))
	must(t, a.Destroy())
	must(t, b.Destroy())
	want := make([]T, total(dims))
	for _, p := range order(dims, lo, hi, false) {
		want[p] = value * value * mk[T](N-2, 0)
	}
	sameElems(t, "C = A·B on the patch", getAll(t, c), want)

	m := N - 2
	a2, err := ga.Create[T]("array A_", []int{m, m}, nil)
	must(t, err)
	defer destroy(t, a2)
	b2, err := a2.Duplicate("array B_")
	must(t, err)
	c2, err := a2.Duplicate("array C_")
	must(t, err)
	defer destroy(t, c2)
	must(t, a2.Fill(value))
	must(t, b2.Fill(value))
	must(t, c2.Zero())
	must(t, ga.Gemm(ga.NoTrans, ga.NoTrans, m, m, m, one, a2, b2, zero, c2))
	must(t, b2.Destroy())
	must(t, ga.CopyPatch(ga.NoTrans, c, lo, hi, a2, []int{0, 0}, []int{m - 1, m - 1}))
	must(t, ga.Add(one, a2, -one, c2, c2))
	d, err := ga.Dot(c2, c2)
	must(t, err)
	if z := complexOf(d); math.Abs(real(z)) > 1e-6 || math.Abs(imag(z)) > 1e-6 {
		t.Errorf("%d-D: the MatmulPatch and Gemm products differ: dot of the difference %v", ndim, d)
	}
}
