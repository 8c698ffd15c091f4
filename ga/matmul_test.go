package ga_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/scalapack"
)

// TestMatmulPatch checks MatmulPatch against a product computed here, in
// every type GA multiplies, every transpose pair, on patches at odd offsets
// of arrays in four layouts distributed unlike each other, on 2-D slices of
// 3-D arrays and vectors, with C overlapping an operand, beta 0 (C not
// read), and misuse; on 1-4 processes over shared memory and TCP.
func TestMatmulPatch(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		t.Run("float32", testMatmulPatch[float32])
		t.Run("float64", testMatmulPatch[float64])
		t.Run("complex64", testMatmulPatch[complex64])
		t.Run("complex128", testMatmulPatch[complex128])
		t.Run("misuse", testMatmulMisuse)
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

// opnd is a patch of a model: rows × cols, read row-major from its
// positions in the whole array.
type opnd[T ga.Elem] struct {
	model      []T
	pos        []int
	rows, cols int
}

func matOf[T ga.Elem](m made[T], lo, hi []int, rows, cols int) opnd[T] {
	return opnd[T]{model: m.model, pos: order(m.a.Dims(), lo, hi, false), rows: rows, cols: cols}
}

// at is op(X)[i][j].
func (x opnd[T]) at(trans ga.TransOp, i, j int) T {
	if trans == 't' || trans == ga.Trans {
		i, j = j, i
	}
	return x.model[x.pos[i*x.cols+j]]
}

// product is the model of C = alpha·op(A)·op(B) + beta·C (m × n, with k
// terms); it writes c's model.
func product[T ga.Elem](ta, tb ga.TransOp, alpha T, a, b opnd[T], beta T, c opnd[T], k int) {
	out := make([]T, len(c.pos))
	for i := range c.rows {
		for j := range c.cols {
			var s T
			for l := range k {
				s += a.at(ta, i, l) * b.at(tb, l, j)
			}
			out[i*c.cols+j] = alpha * s
			if beta != 0 { // C is not read with beta 0, as in BLAS
				out[i*c.cols+j] += beta * c.at(ga.NoTrans, i, j)
			}
		}
	}
	for q, p := range c.pos {
		c.model[p] = out[q]
	}
}

func testMatmulPatch[T scalapack.Elem](t *testing.T) {
	rng := rand.New(rand.NewPCG(11, uint64(len(typeName[T]()))))
	alpha, beta := mk[T](2, 1), mk[T](-1, 2)
	const m, k, n = 4, 5, 6
	for i := range kinds {
		ka, kb, kc := kinds[i], kinds[(i+1)%len(kinds)], kinds[(i+2)%len(kinds)]
		a := newLayout[T](t, ka, []int{9, 11}, rng)
		b := newLayout[T](t, kb, []int{8, 13}, rng)
		c := newLayout[T](t, kc, []int{10, 12}, rng)
		// GA's lower-case spellings as well as the constants.
		for _, tr := range []struct{ a, b ga.TransOp }{{'n', 'n'}, {'t', 'n'}, {ga.NoTrans, ga.Trans}, {ga.Trans, 't'}} {
			ar, ac := m, k
			if tr.a == 't' || tr.a == ga.Trans {
				ar, ac = k, m
			}
			br, bc := k, n
			if tr.b == 't' || tr.b == ga.Trans {
				br, bc = n, k
			}
			alo, ahi := []int{2, 3}, []int{2 + ar - 1, 3 + ac - 1}
			blo, bhi := []int{1, 5}, []int{1 + br - 1, 5 + bc - 1}
			clo, chi := []int{5, 4}, []int{5 + m - 1, 4 + n - 1}
			must(t, ga.MatmulPatch(tr.a, tr.b, alpha, a.a, alo, ahi, b.a, blo, bhi, beta, c.a, clo, chi))
			product(tr.a, tr.b, alpha, matOf(a, alo, ahi, ar, ac), matOf(b, blo, bhi, br, bc), beta, matOf(c, clo, chi, m, n), k)
			c.check(t, "MatmulPatch "+string([]byte{byte(tr.a), byte(tr.b)})+" "+ka+"·"+kb+" into "+kc)
			a.check(t, "MatmulPatch's A")
			b.check(t, "MatmulPatch's B")
		}
		// C overlapping A: every operand is read before C is written.
		lo, hi, clo, chi := []int{0, 0}, []int{4, 4}, []int{2, 3}, []int{6, 7}
		must(t, ga.MatmulPatch(ga.NoTrans, ga.Trans, alpha, a.a, lo, hi, a.a, lo, hi, beta, a.a, clo, chi))
		pa := matOf(a, lo, hi, 5, 5)
		saved := append([]T(nil), a.model...)
		product(ga.NoTrans, ga.Trans, alpha, opnd[T]{model: saved, pos: pa.pos, rows: 5, cols: 5}, opnd[T]{model: saved, pos: pa.pos, rows: 5, cols: 5}, beta, matOf(a, clo, chi, 5, 5), 5)
		a.check(t, "MatmulPatch into an overlapping patch of its operands")
		for _, x := range []made[T]{a, b, c} {
			must(t, x.a.Destroy())
		}
	}
	matmulSlices[T](t, rng, alpha, beta)
}

// matmulSlices multiplies 2-D slices of 3-D arrays and vectors, and with
// beta 0 into a C that holds NaN: it must not be read.
func matmulSlices[T scalapack.Elem](t *testing.T, rng *rand.Rand, alpha, beta T) {
	a := newLayout[T](t, "regular", []int{3, 7, 6}, rng)
	defer destroy(t, a.a)
	b := newLayout[T](t, "cyclic", []int{5, 4, 6}, rng)
	defer destroy(t, b.a)
	c := newLayout[T](t, "grid", []int{7, 9}, rng)
	defer destroy(t, c.a)
	// A[1, 0:5, 1:6] is 5 × 5; B[0:5, 2, 0:4] is 5 × 4 (rows along the
	// first dimension, columns along the last).
	alo, ahi := []int{1, 0, 1}, []int{1, 4, 5}
	blo, bhi := []int{0, 2, 0}, []int{4, 2, 3}
	clo, chi := []int{1, 2}, []int{5, 5}
	must(t, ga.MatmulPatch(ga.Trans, ga.NoTrans, alpha, a.a, alo, ahi, b.a, blo, bhi, beta, c.a, clo, chi))
	product(ga.Trans, ga.NoTrans, alpha, matOf(a, alo, ahi, 5, 5), matOf(b, blo, bhi, 5, 4), beta, matOf(c, clo, chi, 5, 4), 5)
	c.check(t, "MatmulPatch of 3-D slices")

	// A column of C = op(A) · a column of B: B[1:6, 3, 4] is a 5 × 1 column.
	blo, bhi = []int{0, 3, 4}, []int{4, 3, 4}
	clo, chi = []int{0, 8}, []int{4, 8}
	must(t, ga.MatmulPatch(ga.NoTrans, ga.NoTrans, alpha, a.a, alo, ahi, b.a, blo, bhi, beta, c.a, clo, chi))
	product(ga.NoTrans, ga.NoTrans, alpha, matOf(a, alo, ahi, 5, 5), matOf(b, blo, bhi, 5, 1), beta, matOf(c, clo, chi, 5, 1), 5)
	c.check(t, "MatmulPatch into a column")

	// beta = 0: C's patch is not read, so NaN there does not matter.
	clo, chi = []int{2, 0}, []int{6, 3}
	bad := make([]T, 20)
	for i := range bad {
		bad[i] = nanOf[T]()
		c.model[linear(c.a.Dims(), []int{clo[0] + i/4, i % 4})] = bad[i]
	}
	must(t, ga.Sync()) // every process has checked C
	if ga.Nodeid() == 0 {
		must(t, c.a.Put(clo, chi, bad, nil))
	}
	must(t, ga.Sync())
	blo, bhi = []int{0, 2, 0}, []int{4, 2, 3}
	var zero T
	must(t, ga.MatmulPatch(ga.Trans, ga.NoTrans, alpha, a.a, alo, ahi, b.a, blo, bhi, zero, c.a, clo, chi))
	product(ga.Trans, ga.NoTrans, alpha, matOf(a, alo, ahi, 5, 5), matOf(b, blo, bhi, 5, 4), zero, matOf(c, clo, chi, 5, 4), 5)
	c.check(t, "MatmulPatch with beta 0 over NaN")
}

// nanOf is NaN in T (in the real part of a complex T).
func nanOf[T scalapack.Elem]() T { return fromC[T](complex(math.NaN(), 0)) }

// testMatmulMisuse: wrong arguments, alike on every process or on one only,
// are an error on every process, and C is left as it was.
func testMatmulMisuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 0))
	// Arrays are named after their layouts: A "regular", B "cyclic", C "rows".
	a := newLayout[float64](t, "regular", []int{9, 11}, rng)
	defer destroy(t, a.a)
	b := newLayout[float64](t, "cyclic", []int{8, 13}, rng)
	defer destroy(t, b.a)
	c := newLayout[float64](t, "rows", []int{10, 12}, rng)
	defer destroy(t, c.a)
	cube := newLayout[float64](t, "regular", []int{3, 4, 5}, rng)
	defer destroy(t, cube.a)
	line, err := ga.Create[float64]("line", []int{20}, nil)
	must(t, err)
	defer destroy(t, line)
	alo, ahi := []int{0, 0}, []int{3, 4} // 4 × 5
	blo, bhi := []int{0, 0}, []int{4, 5} // 5 × 6
	clo, chi := []int{0, 0}, []int{3, 5} // 4 × 6
	alpha := 1.0
	if ga.Nodeid() == ga.Nnodes()-1 && ga.Nnodes() > 1 {
		alpha = 2
	}
	cases := []struct {
		what  string
		err   error
		array string
		want  error
	}{
		{"a bad transpose", ga.MatmulPatch('x', ga.NoTrans, 1.0, a.a, alo, ahi, b.a, blo, bhi, 0, c.a, clo, chi), "regular", nil},
		{"inner dimensions that differ", ga.MatmulPatch(ga.Trans, ga.NoTrans, 1.0, a.a, alo, ahi, b.a, blo, bhi, 0, c.a, clo, chi), "cyclic", nil},
		{"C of the wrong shape", ga.MatmulPatch(ga.NoTrans, ga.NoTrans, 1.0, a.a, alo, ahi, b.a, blo, bhi, 0, c.a, clo, []int{4, 5}), "rows", nil},
		{"A's patch past its end", ga.MatmulPatch(ga.NoTrans, ga.NoTrans, 1.0, a.a, []int{6, 0}, []int{9, 4}, b.a, blo, bhi, 0, c.a, clo, chi), "regular", nil},
		{"a patch over three dimensions", ga.MatmulPatch(ga.NoTrans, ga.NoTrans, 1.0, cube.a, []int{0, 0, 0}, []int{1, 1, 1}, b.a, blo, bhi, 0, c.a, clo, chi), "regular", nil},
		{"a 1-D array", ga.MatmulPatch(ga.NoTrans, ga.NoTrans, 1.0, line, []int{0}, []int{4}, b.a, blo, bhi, 0, c.a, clo, chi), "line", nil},
		{"C nil", ga.MatmulPatch(ga.NoTrans, ga.NoTrans, 1.0, a.a, alo, ahi, b.a, blo, bhi, 0, nil, clo, chi), "", nil},
	}
	if ga.Nnodes() > 1 {
		cases = append(cases, struct {
			what  string
			err   error
			array string
			want  error
		}{"alpha different on the last process", ga.MatmulPatch(ga.NoTrans, ga.NoTrans, alpha, a.a, alo, ahi, b.a, blo, bhi, 0, c.a, clo, chi), "rows", ga.ErrMismatch})
	}
	for _, x := range cases {
		if x.err == nil {
			fatalf(t, "MatmulPatch with %s: no error", x.what)
		}
		if x.array != "" {
			wantErr(t, "MatmulPatch with "+x.what, x.err, "MatmulPatch", x.array, x.want)
		}
	}
	c.check(t, "C after refused MatmulPatch calls")
}

// TestMatmulPatchVectors checks how MatmulPatch reads patches along one
// dimension of 4-D arrays, as GA C 5.8's NGA_Matmul_patch does with the
// same bounds (each case's verdict is GA's): the 4 × 1 by 1 × 3 product of
// global/testing/mulmatpatchc.c, which GA computes (6 in all 12 elements
// with A all 2 and B all 3), and each rule by which a row along an inner
// dimension becomes a column, in every type GA multiplies, with transposed
// operands too; GA's refusals are errors on every process, C unchanged.
func TestMatmulPatchVectors(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		t.Run("float32", testMatmulVectors[float32])
		t.Run("float64", testMatmulVectors[float64])
		t.Run("complex64", testMatmulVectors[complex64])
		t.Run("complex128", testMatmulVectors[complex128])
	})
}

func testMatmulVectors[T scalapack.Elem](t *testing.T) {
	dims := []int{10, 10, 10, 10}
	one, zero := mk[T](1, 0), mk[T](0, 0)
	{
		a, err := ga.Create[T]("A", dims, nil)
		must(t, err)
		defer destroy(t, a)
		b, err := ga.Create[T]("B", dims, nil)
		must(t, err)
		defer destroy(t, b)
		c, err := ga.Create[T]("C", dims, nil)
		must(t, err)
		defer destroy(t, c)
		must(t, a.Fill(mk[T](2, 0)))
		must(t, b.Fill(mk[T](3, 0)))
		must(t, c.Zero())
		clo, chi := []int{0, 0, 0, 0}, []int{0, 3, 2, 0}
		must(t, ga.MatmulPatch(ga.NoTrans, ga.NoTrans, one, a, []int{0, 0, 0, 0}, []int{3, 0, 0, 0}, b, []int{0, 0, 0, 0}, []int{0, 2, 0, 0}, zero, c, clo, chi))
		want := make([]T, total(dims))
		for _, p := range order(dims, clo, chi, false) {
			want[p] = mk[T](6, 0)
		}
		sameElems(t, "mulmatpatchc's 4 × 1 by 1 × 3 product", getAll(t, c), want)
	}

	rng := rand.New(rand.NewPCG(46, uint64(len(typeName[T]()))))
	a := newLayout[T](t, "regular", dims, rng)
	defer destroy(t, a.a)
	b := newLayout[T](t, "cyclic", dims, rng)
	defer destroy(t, b.a)
	c := newLayout[T](t, "grid", dims, rng)
	defer destroy(t, c.a)
	alpha, beta := mk[T](2, 1), mk[T](-1, 2)
	type shaped struct {
		lo, hi     []int
		rows, cols int // as the patch lies, before op
	}
	for _, x := range []struct {
		what    string
		ta, tb  ga.TransOp
		a, b, c shaped
		k       int
		refused string // the array GA's refusal names, or ""
	}{
		{"mulmatpatchc's case: B a row", ga.NoTrans, ga.NoTrans,
			shaped{[]int{0, 0, 0, 0}, []int{3, 0, 0, 0}, 4, 1}, shaped{[]int{0, 0, 0, 0}, []int{0, 2, 0, 0}, 1, 3}, shaped{[]int{0, 0, 0, 0}, []int{0, 3, 2, 0}, 4, 3}, 1, ""},
		{"op(A) a column from a row along the last dimension", ga.Trans, ga.NoTrans,
			shaped{[]int{1, 2, 3, 0}, []int{1, 2, 3, 3}, 1, 4}, shaped{[]int{0, 0, 0, 0}, []int{0, 2, 0, 0}, 1, 3}, shaped{[]int{0, 0, 0, 0}, []int{0, 3, 2, 0}, 4, 3}, 1, ""},
		{"transposed B a column", ga.NoTrans, ga.Trans,
			shaped{[]int{0, 0, 0, 0}, []int{3, 0, 0, 0}, 4, 1}, shaped{[]int{0, 0, 0, 0}, []int{0, 2, 0, 0}, 3, 1}, shaped{[]int{0, 0, 0, 0}, []int{0, 3, 2, 0}, 4, 3}, 1, ""},
		{"both transposed", ga.Trans, ga.Trans,
			shaped{[]int{1, 2, 3, 0}, []int{1, 2, 3, 3}, 1, 4}, shaped{[]int{5, 4, 3, 2}, []int{5, 6, 3, 2}, 3, 1}, shaped{[]int{0, 0, 0, 0}, []int{0, 3, 2, 0}, 4, 3}, 1, ""},
		{"A and B inner: A a column, B a row", ga.NoTrans, ga.NoTrans,
			shaped{[]int{1, 0, 2, 3}, []int{1, 3, 2, 3}, 4, 1}, shaped{[]int{2, 1, 0, 4}, []int{2, 1, 2, 4}, 1, 3}, shaped{[]int{0, 1, 2, 0}, []int{3, 1, 2, 2}, 4, 3}, 1, ""},
		{"A and B inner, A transposed: both rows", ga.Trans, ga.NoTrans,
			shaped{[]int{1, 0, 2, 3}, []int{1, 3, 2, 3}, 1, 4}, shaped{[]int{2, 1, 0, 4}, []int{2, 1, 2, 4}, 1, 3}, shaped{[]int{0, 1, 2, 0}, []int{3, 1, 2, 2}, 4, 3}, 1, ""},
		{"B and C inner: both columns", ga.NoTrans, ga.NoTrans,
			shaped{[]int{0, 5, 1, 0}, []int{3, 5, 1, 1}, 4, 2}, shaped{[]int{1, 2, 3, 1}, []int{1, 3, 3, 1}, 2, 1}, shaped{[]int{4, 4, 0, 9}, []int{4, 4, 3, 9}, 4, 1}, 2, ""},
		{"B and C inner, B transposed: B a row, C a column", ga.NoTrans, ga.Trans,
			shaped{[]int{0, 5, 1, 0}, []int{3, 5, 1, 1}, 4, 2}, shaped{[]int{1, 2, 3, 1}, []int{1, 3, 3, 1}, 1, 2}, shaped{[]int{4, 4, 0, 9}, []int{4, 4, 3, 9}, 4, 1}, 2, ""},
		{"A and C inner, agreeing as rows", ga.NoTrans, ga.NoTrans,
			shaped{[]int{2, 0, 7, 2}, []int{2, 1, 7, 2}, 1, 2}, shaped{[]int{0, 3, 0, 0}, []int{1, 3, 0, 2}, 2, 3}, shaped{[]int{5, 5, 0, 5}, []int{5, 5, 2, 5}, 1, 3}, 2, ""},
		{"A and C inner: both columns", ga.NoTrans, ga.NoTrans,
			shaped{[]int{1, 2, 0, 1}, []int{1, 2, 3, 1}, 4, 1}, shaped{[]int{3, 3, 3, 3}, []int{3, 3, 3, 3}, 1, 1}, shaped{[]int{0, 6, 6, 0}, []int{0, 9, 6, 0}, 4, 1}, 1, ""},
		{"C inner: a column", ga.NoTrans, ga.NoTrans,
			shaped{[]int{0, 0, 0, 0}, []int{3, 0, 0, 0}, 4, 1}, shaped{[]int{9, 9, 9, 9}, []int{9, 9, 9, 9}, 1, 1}, shaped{[]int{2, 0, 3, 1}, []int{2, 0, 6, 1}, 4, 1}, 1, ""},
		{"A, B and C inner (GA: a and b and c ambiguous)", ga.NoTrans, ga.NoTrans,
			shaped{[]int{0, 1, 0, 0}, []int{0, 3, 0, 0}, 0, 0}, shaped{[]int{0, 0, 1, 0}, []int{0, 0, 3, 0}, 0, 0}, shaped{[]int{1, 0, 1, 0}, []int{1, 0, 4, 0}, 0, 0}, 0, "grid"},
		{"B inner, neither shape fitting (GA: a & b dims error)", ga.NoTrans, ga.NoTrans,
			shaped{[]int{0, 0, 0, 0}, []int{3, 1, 0, 0}, 0, 0}, shaped{[]int{0, 0, 1, 0}, []int{0, 0, 3, 0}, 0, 0}, shaped{[]int{0, 0, 0, 0}, []int{3, 0, 0, 0}, 0, 0}, 0, "cyclic"},
	} {
		what := x.what + " (" + string([]byte{byte(x.ta), byte(x.tb)}) + ")"
		err := ga.MatmulPatch(x.ta, x.tb, alpha, a.a, x.a.lo, x.a.hi, b.a, x.b.lo, x.b.hi, beta, c.a, x.c.lo, x.c.hi)
		if x.refused != "" {
			wantErr(t, "MatmulPatch with "+what, err, "MatmulPatch", x.refused, nil)
		} else {
			must(t, err)
			product(x.ta, x.tb, alpha, matOf(a, x.a.lo, x.a.hi, x.a.rows, x.a.cols), matOf(b, x.b.lo, x.b.hi, x.b.rows, x.b.cols), beta, matOf(c, x.c.lo, x.c.hi, x.c.rows, x.c.cols), x.k)
		}
		c.check(t, "MatmulPatch with "+what)
	}
	a.check(t, "MatmulPatch's A")
	b.check(t, "MatmulPatch's B")
}
