package ga_test

import (
	"strings"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingTestmultrect ports global/testing/testmultrect.c of
// GlobalArrays/ga (commit dd40347): C = A·B with Gemm ('N', 'N', m, n, k
// = 2, 4, 3) on rectangular arrays made through the handle interface
// (GA_Create_handle, GA_Set_data, GA_Allocate: ga.New ... Allocate), A
// 2 × 3 filled with 10, B 3 × 4 with 20, C 2 × 4 zeroed, after printing
// the three (GA_Print). The original checks only that this runs; GA C
// 5.8 puts 600 in every element of C (10·20·3), which is checked here,
// with A and B unchanged and each print naming its array. GA_Dgemm from C
// passes its arguments swapped to the Fortran-order routine (C order
// throughout here: A is m × k, as in the original's C-order dims).
func TestGATestingTestmultrect(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		const m, k, n = 2, 3, 4
		a, err := ga.New[float64](m, k).Name("Matrix A").Allocate()
		must(t, err)
		defer destroy(t, a)
		must(t, a.Fill(10))
		b, err := ga.New[float64](k, n).Name("Matrix B").Allocate()
		must(t, err)
		defer destroy(t, b)
		must(t, b.Fill(20))
		c, err := ga.New[float64](m, n).Name("Matrix C").Allocate()
		must(t, err)
		defer destroy(t, c)
		must(t, c.Zero())

		for _, x := range []*ga.Array[float64]{a, b, c} {
			var sb strings.Builder
			must(t, x.Fprint(&sb))
			if ga.Nodeid() == 0 && !strings.Contains(sb.String(), x.Name()) {
				t.Errorf("Print of %s does not name it:\n%s", x.Name(), sb.String())
			}
		}
		must(t, ga.Gemm(ga.NoTrans, ga.NoTrans, m, n, k, 1.0, a, b, 0.0, c))

		constant := func(v float64, dims ...int) []float64 {
			return pattern(dims, func(int) float64 { return v })
		}
		sameElems(t, "C = A·B", getAll(t, c), constant(600, m, n))
		sameElems(t, "A after Gemm", getAll(t, a), constant(10, m, k))
		sameElems(t, "B after Gemm", getAll(t, b), constant(20, k, n))
	})
}
