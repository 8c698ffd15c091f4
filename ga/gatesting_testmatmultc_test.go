package ga_test

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingTestmatmultc ports global/testing/testmatmultc.c of
// GlobalArrays/ga (commit dd40347): C = A·B with Gemm ('n', 'n', four
// times, as the original's four transpose pairs are all "nn") on square
// float64 arrays, A and B loaded from process 0 with the values 1, 2, ...,
// 1024, 0, 1, 2, ... in C order, C zeroed; process 0 checks every element
// of each product against a sequential dgemm (gonum's here) within 1.0, as
// the original does, at its sizes 512 and 1024. The original times five
// runs of each and checks the first; here each is run and checked once
// (the timing is not ported), in GA's default layout and in 128 × 128
// block-cyclic blocks (the original's BLOCK_CYCLIC variant). GA C 5.8
// passes these checks on 1-4 processes. GA_Dgemm from C passes A and B
// swapped to the Fortran routine (the original's check swaps them back):
// in C order throughout here, A is m × k.
func TestGATestingTestmatmultc(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		for _, num := range []int{512, 1024} {
			for _, cyclic := range []bool{false, true} {
				t.Run(fmt.Sprintf("%d block-cyclic %v", num, cyclic), func(t *testing.T) {
					testmatmultcCase(t, num, cyclic)
				})
			}
		}
	})
}

func testmatmultcCase(t *testing.T, num int, cyclic bool) {
	const nummax = 1024
	create := func(name string, r, c int) *ga.Array[float64] {
		b := ga.New[float64](r, c).Name(name)
		if cyclic {
			b.BlockCyclic(128, 128)
		}
		a, err := b.Allocate()
		must(t, err)
		return a
	}
	m, n, k := num, num, num
	c := create("g_c", m, n)
	defer destroy(t, c)
	b := create("g_b", k, n)
	defer destroy(t, b)
	a := create("g_a", m, k)
	defer destroy(t, a)
	// h0 in the original: 1, ..., nummax, then 0, 1, ... again.
	h0 := func(rows, cols int) []float64 {
		return pattern([]int{rows, cols}, func(i int) float64 { return float64((i + 1) % (nummax + 1)) })
	}
	ha, hb := h0(m, k), h0(k, n)
	if ga.Nodeid() == 0 {
		must(t, a.Put([]int{0, 0}, []int{m - 1, k - 1}, ha, nil))
		must(t, b.Put([]int{0, 0}, []int{k - 1, n - 1}, hb, nil))
	}
	must(t, c.Zero())
	must(t, ga.Sync())

	var ref []float64
	if ga.Nodeid() == 0 {
		ref = make([]float64, m*n)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
			blas64.General{Rows: m, Cols: k, Stride: k, Data: ha},
			blas64.General{Rows: k, Cols: n, Stride: n, Data: hb},
			0, blas64.General{Rows: m, Cols: n, Stride: n, Data: ref})
	}
	for run := range 4 {
		must(t, ga.Sync())
		must(t, ga.Gemm(ga.NoTrans, ga.NoTrans, m, n, k, 1.0, a, b, 0.0, c))
		if ga.Nodeid() != 0 {
			continue
		}
		got := make([]float64, m*n)
		must(t, c.Get([]int{0, 0}, []int{m - 1, n - 1}, got, nil))
		bad := 0
		for i := range got {
			if math.Abs(got[i]-ref[i]) > 1.0 {
				if bad < 5 {
					t.Errorf("run %d: C[%d][%d] = %v, dgemm gives %v", run, i/n, i%n, got[i], ref[i])
				}
				bad++
			}
		}
		if bad > 0 {
			t.Errorf("run %d: %d elements differ from dgemm by more than 1.0", run, bad)
		}
	}
}
