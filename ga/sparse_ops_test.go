package ga_test

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestSparseOps: the operations of assembled sparse matrices on
// rectangular random matrices, in every element type, against dense
// computations: sparse–sparse and sparse–dense products both ways, columns
// and diagonals (the diagonal of a matrix with more rows than columns, a
// shift that must store missing diagonal elements), products with
// diagonal matrices of either side's size, blocks asked for by every
// process at once, the conversions, Duplicate, and CountSketch's
// determinism; then misuse.
func TestSparseOps(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		eachType(t, sparseOpsCase[int32], sparseOpsCase[int64], sparseOpsCase[float32],
			sparseOpsCase[float64], sparseOpsCase[complex64], sparseOpsCase[complex128])
		t.Run("misuse", testSparseOpsMisuse)
	})
}

// randomDense is an idim × jdim matrix with about a third of its elements
// small non-zero integers (complex ones for complex T).
func randomDense[T ga.Elem](rng *rand.Rand, idim, jdim int) [][]T {
	m := newDense[T](idim, jdim)
	for i := range m {
		for j := range m[i] {
			if rng.IntN(3) == 0 {
				m[i][j] = mk[T](rng.IntN(9)+1, rng.IntN(5)-2)
			}
		}
	}
	return m
}

func sparseOpsCase[T ga.Elem](t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	a, b, d := randomDense[T](rng, 7, 9), randomDense[T](rng, 9, 5), randomDense[T](rng, 4, 7)
	sa, sb := sparseOf(t, a), sparseOf(t, b)
	defer mpitest.Cleanup(t, sa.Destroy)
	defer mpitest.Cleanup(t, sb.Destroy)

	c, err := sa.MatMat(sb)
	must(t, err)
	sameRows(t, "A·B", c, mulDense(a, b), nil)
	must(t, c.Destroy())
	gb, gd := denseArray(t, "b", b), denseArray(t, "d", d)
	defer destroy(t, gb)
	defer destroy(t, gd)
	x, err := ga.SparseDenseMultiply(sa, gb)
	must(t, err)
	sameElems(t, "A·dense B", getAll(t, x), flat(mulDense(a, b)))
	destroy(t, x)
	x, err = ga.DenseSparseMultiply(gd, sa)
	must(t, err)
	sameElems(t, "dense D·A", getAll(t, x), flat(mulDense(d, a)))
	destroy(t, x)

	for j := range 9 {
		v, err := sa.Column(j)
		must(t, err)
		want := make([]T, 7)
		for i := range want {
			want[i] = a[i][j]
		}
		sameElems(t, "column", getAll(t, v), want)
		destroy(t, v)
	}
	sparseDiagonals(t, sb, b)
	sparseDiagProducts(t, a)
	sparseBlocks(t, sa, a)

	fromDense, err := ga.CreateSparseFromDense(gd)
	must(t, err)
	sameRows(t, "from dense", fromDense, d, func(i, j int) bool { return i == j })
	must(t, fromDense.Destroy())
	x, err = ga.CreateDenseFromSparse(sa)
	must(t, err)
	sameElems(t, "to dense", getAll(t, x), flat(a))
	destroy(t, x)

	dup, err := sa.Duplicate()
	must(t, err)
	must(t, dup.Scale(mk[T](2, 0)))
	sameRows(t, "A after its duplicate is scaled", sa, a, nil)
	must(t, dup.Destroy())

	// The same seed gives the same sketch.
	s1, l1, w1, err := sa.CountSketch(3, 99)
	must(t, err)
	s2, l2, w2, err := sa.CountSketch(3, 99)
	must(t, err)
	sameElems(t, "sketch again", getAll(t, s2), getAll(t, s1))
	sameElems(t, "labels again", getAll(t, l2), getAll(t, l1))
	sameElems(t, "weights again", getAll(t, w2), getAll(t, w1))
	for _, x := range []*ga.Array[T]{s1, w1, s2, w2} {
		destroy(t, x)
	}
	destroy(t, l1)
	destroy(t, l2)
}

// sparseDiagonals: the diagonal of b (9 × 5), zero below its columns; b
// shifted by 3, storing the diagonal elements b lacks.
func sparseDiagonals[T ga.Elem](t *testing.T, sb *ga.Sparse[T], b [][]T) {
	diag := func() []T {
		v, err := sb.Diag()
		must(t, err)
		defer destroy(t, v)
		return getAll(t, v)
	}
	want := make([]T, 9)
	for i := range 5 {
		want[i] = b[i][i]
	}
	sameElems(t, "diagonal", diag(), want)
	must(t, sb.ShiftDiag(mk[T](3, 0)))
	for i := range 5 {
		b[i][i] += mk[T](3, 0)
		want[i] = b[i][i]
	}
	sameElems(t, "shifted diagonal", diag(), want)
	sameRows(t, "shifted", sb, b, func(i, j int) bool { return i == j })
}

// sparseDiagProducts: D·A with d of A's rows, A·D with d of its columns.
func sparseDiagProducts[T ga.Elem](t *testing.T, a [][]T) {
	for _, left := range []bool{true, false} {
		s := sparseOf(t, a)
		n := map[bool]int{true: 7, false: 9}[left]
		d, err := ga.Create[T]("d", []int{n}, nil)
		must(t, err)
		dv := pattern([]int{n}, func(i int) T { return mk[T](i-2, 1) })
		putAll(t, d, dv)
		want := newDense[T](7, 9)
		for i := range want {
			for j := range want[i] {
				if left {
					want[i][j] = dv[i] * a[i][j]
				} else {
					want[i][j] = a[i][j] * dv[j]
				}
			}
		}
		if left {
			must(t, s.DiagLeftMultiply(d))
		} else {
			must(t, s.DiagRightMultiply(d))
		}
		sameRows(t, "diagonal product", s, want, nil)
		destroy(t, d)
		must(t, s.Destroy())
	}
}

// sparseBlocks: each process asks for its own block, in turn through all.
func sparseBlocks[T ga.Elem](t *testing.T, s *ga.Sparse[T], a [][]T) {
	me, n := ga.Nodeid(), ga.Nnodes()
	for k := range n * n {
		irow, icol := (me+k)%n, (me+k/n)%n
		b, ok, err := s.Block(irow, icol)
		must(t, err)
		want := 0
		got := 0
		for i := b.Ilo; i <= b.Ihi; i++ {
			for j := b.Jlo; j <= b.Jhi; j++ {
				if a[i][j] != mk[T](0, 0) {
					want++
				}
			}
		}
		if ok {
			for r := range b.Ihi - b.Ilo + 1 {
				for e := b.Idx[r]; e < b.Idx[r+1]; e++ {
					if j := b.Jdx[e]; j < b.Jlo || j > b.Jhi || b.Val[e] != a[b.Ilo+r][j] {
						t.Errorf("block (%d, %d): (%d, %d) = %v, want %v", irow, icol, b.Ilo+r, j, b.Val[e], a[b.Ilo+r][j])
					}
					got++
				}
			}
		}
		if got != want || ok != (want > 0) {
			t.Errorf("block (%d, %d): %d elements (ok %v), want %d", irow, icol, got, ok, want)
		}
	}
}

func testSparseOpsMisuse(t *testing.T) {
	me, n := ga.Nodeid(), ga.Nnodes()
	a := [][]float64{{1, 0, 2}, {0, 3, 0}}
	s := sparseOf(t, a)
	defer mpitest.Cleanup(t, s.Destroy)
	raw, err := ga.CreateSparse[float64](2, 3)
	must(t, err)
	wantErr(t, "not assembled", raw.Scale(2), "SparseScale", "", nil, "not assembled")
	_, err = raw.Diag()
	wantErr(t, "diag not assembled", err, "SparseDiag", "", nil, "not assembled")
	_, err = s.MatMat(raw)
	wantErr(t, "B not assembled", err, "SparseMatMat", "", nil, "not assembled")
	must(t, raw.Destroy())
	_, err = s.MatMat(raw)
	wantErr(t, "B destroyed", err, "SparseMatMat", "", ga.ErrDestroyed)

	_, err = s.Column(3)
	wantErr(t, "column", err, "SparseColumn", "", nil, "column 3", "has 3")
	_, err = s.MatMat(s)
	wantErr(t, "shapes", err, "SparseMatMat", "", nil, "2 × 3", "columns must be B's rows")
	_, _, err = s.Block(n, 0)
	wantErr(t, "block", err, "SparseBlock", "", nil, "block ("+strconv.Itoa(n)+", 0)")
	_, _, _, err = s.CountSketch(3, 1)
	wantErr(t, "sketch rows", err, "SparseCountSketch", "", nil, "3 rows", "1 to 2")

	d3, err := ga.Create[float64]("d3", []int{3}, nil)
	must(t, err)
	defer destroy(t, d3)
	d2, err := ga.Create[float64]("d2", []int{2}, nil)
	must(t, err)
	defer destroy(t, d2)
	must(t, d3.Fill(5))
	must(t, d2.Fill(5))
	wantErr(t, "left d", s.DiagLeftMultiply(d3), "SparseDiagLeftMultiply", "d3", nil, "[3]", "want [2]")
	// One process's wrong vector: every process refuses, the matrix unchanged.
	d := d3
	if me == n-1 {
		d = d2
	}
	err = s.DiagRightMultiply(d)
	if me == n-1 {
		wantErr(t, "one wrong d", err, "SparseDiagRightMultiply", "d2", nil, "[2]", "want [3]")
	} else {
		wantErr(t, "one wrong d", err, "SparseDiagRightMultiply", "d2", ga.ErrPeer)
	}
	sameRows(t, "after refusals", s, a, nil)

	m, err := ga.Create[float64]("m", []int{2, 2}, nil)
	must(t, err)
	defer destroy(t, m)
	_, err = ga.SparseDenseMultiply(s, m)
	wantErr(t, "sprsdns", err, "SparseDenseMultiply", "m", nil, "[2 2]", "3 rows")
	_, err = ga.DenseSparseMultiply(d3, s)
	wantErr(t, "dnssprs", err, "DenseSparseMultiply", "d3", nil, "[3]", "2 columns")
	_, err = ga.CreateSparseFromDense(d3)
	wantErr(t, "from a vector", err, "CreateSparseFromDense", "d3", nil, "[3]", "matrix")

	var none *ga.Sparse[float64]
	_, err = none.Diag()
	wantErr(t, "nil", err, "SparseDiag", "", ga.ErrNil)
	_, err = ga.CreateDenseFromSparse(none)
	wantErr(t, "nil to dense", err, "CreateDenseFromSparse", "", ga.ErrNil)
	must(t, ga.Sync())
}
