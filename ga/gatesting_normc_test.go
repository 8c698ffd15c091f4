package ga_test

import (
	"math"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingNormc ports global/testing/normc.c of GlobalArrays/ga
// (commit dd40347): Norm1 and NormInfinity of a vector of 25 elements and
// of a 5 × 5 matrix, in each of the six element types, made as the original
// makes them (New and Allocate, GA_Create_handle's way) and filled by each
// process in place through AccessLocal with the values 0, -1, ..., -24, so
// that Norm1 must be 300 (the sum of |a| over every element, as GA
// computes it for a matrix too) and NormInfinity 24. The tolerances are the
// original's: the integer and complex128 norms exact, float64's within
// 1e-12 relative, float32's NormInfinity within 1e-6 and Norm1 1e-4,
// complex64's 1e-6 and 1e-5.
//
// The original fills a matrix's local block as if it were stored column by
// column (element i + dim1·j of the buffer gets -(i + 5j) in global
// indices), which in GA C's row-major storage scatters the values over the
// block; what it checks depends only on every value appearing once, as
// here, where A[i][j] = -(i + 5j): the Fortran-order position, in goga's C
// order.
func TestGATestingNormc(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		for _, shape := range []struct {
			name string
			dims []int
		}{{"vector", []int{25}}, {"matrix", []int{5, 5}}} {
			t.Run(shape.name, func(t *testing.T) {
				// The tolerances of NormInfinity and Norm1; 0 is exact.
				t.Run("int32", func(t *testing.T) { normcCase[int32](t, shape.dims, 0, 0) })
				t.Run("int64", func(t *testing.T) { normcCase[int64](t, shape.dims, 0, 0) })
				t.Run("float32", func(t *testing.T) { normcCase[float32](t, shape.dims, 1e-6, 1e-4) })
				t.Run("float64", func(t *testing.T) { normcCase[float64](t, shape.dims, 1e-12, 1e-12) })
				t.Run("complex64", func(t *testing.T) { normcCase[complex64](t, shape.dims, 1e-6, 1e-5) })
				t.Run("complex128", func(t *testing.T) { normcCase[complex128](t, shape.dims, 0, 0) })
			})
		}
	})
}

func normcCase[T ga.Elem](t *testing.T, dims []int, tolInf, tol1 float64) {
	const ldim = 25
	a, err := ga.New[T](dims...).Allocate()
	must(t, err)
	defer destroy(t, a)
	data, lo, hi, ld, ok, err := a.AccessLocal()
	must(t, err)
	if ok {
		eachSub(lo, hi, func(sub []int) {
			n := sub[0] // the Fortran-order position: i + 5j for a matrix
			if len(sub) == 2 {
				n += sub[1] * dims[0]
			}
			data[bufPos(lo, hi, ld, sub)] = mk[T](-n, 0)
		})
		must(t, a.ReleaseUpdate(lo, hi))
	}

	check := func(what string, got, want, tol float64) {
		t.Helper()
		if tol == 0 && got != want || tol != 0 && !(math.Abs(got-want)/want < tol) {
			t.Errorf("%s = %v, want %v (relative tolerance %v)", what, got, want, tol)
		}
	}
	norm, err := a.NormInfinity()
	must(t, err)
	check("NormInfinity", norm, ldim-1, tolInf)
	norm, err = a.Norm1()
	must(t, err)
	check("Norm1", norm, ldim*(ldim-1)/2, tol1)
}
