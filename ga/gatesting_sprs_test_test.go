package ga_test

import (
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingSprsTest ports global/testing/sprs_test.c of GlobalArrays/ga
// (commit dd4034712e5ecc88d08a8c0d4ef56a45230660e4): in each element type
// (GA's int, long and long long are int32, int64 and int64), a sparse
// matrix with 2 on the diagonal and -1 at rows (j + (m+1)·skip) mod dim of
// column j, m = 0..3, each process adding the columns of its column block,
// is checked against the same matrix held densely, as the original checks
// it: every column (get_column), the diagonal (get_diag, all 2), the
// diagonal after shift_diag(1) (all 3), scale(2), diag_right_multiply and
// diag_left_multiply by d[i] = i, every block (get_block), the sparse
// product with itself (matmat_multiply), the count sketch of dim/2 rows
// against the sketch formed from its labels and weights (count_sketch;
// the original skips long long, whose accumulate GA C lacks, goga has
// it), the products with the dense matrix of the same elements
// (sprsdns_multiply, dnssprs_multiply), and the conversions both ways
// (create_from_dense, create_from_sparse). Every value is a small integer,
// exact in every type, so the checks are exact, as the original's are.
// The original's dim is 1024; here it is 40 (skip 8), so that the dense
// references stay quick on four processes.
func TestGATestingSprsTest(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		eachType(t, sprsTestCase[int32], sprsTestCase[int64], sprsTestCase[float32],
			sprsTestCase[float64], sprsTestCase[complex64], sprsTestCase[complex128])
	})
}

const sprsDim = 40

// sprsSetup is the original's setup_matrix: the sparse matrix and its
// dense model.
func sprsSetup[T ga.Elem](t *testing.T) (*ga.Sparse[T], [][]T) {
	t.Helper()
	me, n := ga.Nodeid(), ga.Nnodes()
	dim, nskip := sprsDim, 5
	skip := dim / nskip
	s, err := ga.CreateSparse[T](dim, dim)
	must(t, err)
	a := newDense[T](dim, dim)
	jlo, jhi := dim*me/n, dim*(me+1)/n-1
	for j := range dim {
		a[j][j] = mk[T](2, 0)
		if j >= jlo && j <= jhi {
			must(t, s.AddElement(j, j, a[j][j]))
		}
		for m := range nskip - 1 {
			i := (j + (m+1)*skip) % dim
			a[i][j] = mk[T](-1, 0)
			if j >= jlo && j <= jhi {
				must(t, s.AddElement(i, j, a[i][j]))
			}
		}
	}
	must(t, s.Assemble())
	return s, a
}

func sprsTestCase[T ga.Elem](t *testing.T) {
	t.Run("get_column", sprsColumnDiag[T])
	t.Run("scale", func(t *testing.T) {
		s, a := sprsSetup[T](t)
		defer mpitest.Cleanup(t, s.Destroy)
		must(t, s.Scale(mk[T](2, 0)))
		for _, row := range a {
			for j := range row {
				row[j] *= mk[T](2, 0)
			}
		}
		sameRows(t, "scale", s, a, nil)
	})
	for _, left := range []bool{false, true} {
		name := map[bool]string{false: "diag_right_multiply", true: "diag_left_multiply"}[left]
		t.Run(name, func(t *testing.T) {
			s, a := sprsSetup[T](t)
			defer mpitest.Cleanup(t, s.Destroy)
			d, err := ga.Create[T]("d", []int{sprsDim}, nil)
			must(t, err)
			defer destroy(t, d)
			putAll(t, d, pattern([]int{sprsDim}, func(i int) T { return mk[T](i, 0) }))
			if left {
				must(t, s.DiagLeftMultiply(d))
			} else {
				must(t, s.DiagRightMultiply(d))
			}
			for i, row := range a {
				for j := range row {
					if left {
						row[j] *= mk[T](i, 0)
					} else {
						row[j] *= mk[T](j, 0)
					}
				}
			}
			sameRows(t, name, s, a, nil)
		})
	}
	t.Run("get_block", sprsBlocks[T])
	t.Run("matmat_multiply", func(t *testing.T) {
		s, a := sprsSetup[T](t)
		defer mpitest.Cleanup(t, s.Destroy)
		b, _ := sprsSetup[T](t)
		defer mpitest.Cleanup(t, b.Destroy)
		c, err := s.MatMat(b)
		must(t, err)
		defer mpitest.Cleanup(t, c.Destroy)
		sameRows(t, "A·B", c, mulDense(a, a), nil)
	})
	t.Run("count_sketch", sprsSketch[T])
	t.Run("sprsdns_dnssprs_multiply", sprsDenseProducts[T])
	t.Run("create_from_dense_sparse", sprsConversions[T])
}

// sprsColumnDiag: every column, the diagonal, and the diagonal after a
// shift by 1.
func sprsColumnDiag[T ga.Elem](t *testing.T) {
	s, a := sprsSetup[T](t)
	defer mpitest.Cleanup(t, s.Destroy)
	for j := range sprsDim {
		v, err := s.Column(j)
		must(t, err)
		want := make([]T, sprsDim)
		for i := range want {
			want[i] = a[i][j]
		}
		sameElems(t, "column", getAll(t, v), want)
		destroy(t, v)
	}
	for _, want := range []int{2, 3} {
		if want == 3 {
			must(t, s.ShiftDiag(mk[T](1, 0)))
		}
		d, err := s.Diag()
		must(t, err)
		sameElems(t, "diagonal", getAll(t, d), pattern([]int{sprsDim}, func(int) T { return mk[T](want, 0) }))
		// The vector is split as the rows are.
		if lo, hi, ok := s.RowDistribution(ga.Nodeid()); ok {
			dlo, dhi, _ := d.Distribution(ga.Nodeid())
			if dlo[0] != lo || dhi[0] != hi {
				t.Errorf("diagonal's block %v..%v, rows %d..%d", dlo, dhi, lo, hi)
			}
		}
		destroy(t, d)
	}
}

// sprsBlocks reads every block on every process, each in turn.
func sprsBlocks[T ga.Elem](t *testing.T) {
	s, a := sprsSetup[T](t)
	defer mpitest.Cleanup(t, s.Destroy)
	n := ga.Nnodes()
	seen := newDense[int32](sprsDim, sprsDim)
	for k := range n {
		for l := range n {
			b, ok, err := s.Block(k, l)
			must(t, err)
			ilo, ihi, _ := s.RowDistribution(k)
			jlo, jhi, _ := s.ColumnDistribution(l)
			if b.Ilo != ilo || b.Ihi != ihi || b.Jlo != jlo || b.Jhi != jhi {
				t.Errorf("block (%d, %d) spans %d..%d × %d..%d, want %d..%d × %d..%d", k, l, b.Ilo, b.Ihi, b.Jlo, b.Jhi, ilo, ihi, jlo, jhi)
			}
			if ok != (b.Idx != nil) || !ok {
				continue
			}
			for r := range ihi - ilo + 1 {
				for e := b.Idx[r]; e < b.Idx[r+1]; e++ {
					i, j := ilo+r, b.Jdx[e]
					if j < jlo || j > jhi || b.Val[e] != a[i][j] {
						t.Errorf("block (%d, %d): element (%d, %d) = %v, want %v", k, l, i, j, b.Val[e], a[i][j])
					}
					seen[i][j]++
				}
			}
		}
	}
	var z T
	for i := range a {
		for j := range a[i] {
			if (a[i][j] != z) != (seen[i][j] == 1) {
				t.Errorf("element (%d, %d) = %v seen %d times in the blocks", i, j, a[i][j], seen[i][j])
			}
		}
	}
}

// sprsSketch: the sketch against the one made serially from its labels
// and weights, which are each row's own (labels in [0, k), weights ±1).
func sprsSketch[T ga.Elem](t *testing.T) {
	s, a := sprsSetup[T](t)
	defer mpitest.Cleanup(t, s.Destroy)
	k := sprsDim / 2
	sk, labels, weights, err := s.CountSketch(k, 228103)
	must(t, err)
	defer destroy(t, sk)
	defer destroy(t, labels)
	defer destroy(t, weights)
	lab, w := getAll(t, labels), getAll(t, weights)
	want := newDense[T](k, sprsDim)
	for i, row := range a {
		if lab[i] < 0 || int(lab[i]) >= k || (w[i] != mk[T](1, 0) && w[i] != mk[T](-1, 0)) {
			mpitest.Fatalf(t, "row %d: label %d, weight %v", i, lab[i], w[i])
		}
		for j, x := range row {
			want[lab[i]][j] += w[i] * x
		}
	}
	sameElems(t, "sketch", getAll(t, sk), flat(want))
}

// sprsDenseProducts: S·B and B·S, B the dense matrix of S's elements.
func sprsDenseProducts[T ga.Elem](t *testing.T) {
	s, a := sprsSetup[T](t)
	defer mpitest.Cleanup(t, s.Destroy)
	b := denseArray(t, "b", a)
	defer destroy(t, b)
	want := flat(mulDense(a, a))
	c, err := ga.SparseDenseMultiply(s, b)
	must(t, err)
	sameElems(t, "S·B", getAll(t, c), want)
	destroy(t, c)
	c, err = ga.DenseSparseMultiply(b, s)
	must(t, err)
	sameElems(t, "B·S", getAll(t, c), want)
	destroy(t, c)
}

// sprsConversions: the sparse matrix made from the dense one holds its
// elements, and the dense one made from the sparse one holds them too.
func sprsConversions[T ga.Elem](t *testing.T) {
	s, a := sprsSetup[T](t)
	defer mpitest.Cleanup(t, s.Destroy)
	b := denseArray(t, "b", a)
	defer destroy(t, b)
	fromDense, err := ga.CreateSparseFromDense(b)
	must(t, err)
	defer mpitest.Cleanup(t, fromDense.Destroy)
	sameRows(t, "from dense", fromDense, a, func(i, j int) bool { return i == j })
	c, err := ga.CreateDenseFromSparse(s)
	must(t, err)
	defer destroy(t, c)
	sameElems(t, "from sparse", getAll(t, c), flat(a))
}
