package ga_test

import (
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGemm checks C = alpha·op(A)·op(B) + beta·C against the product
// computed here, for both element types, every transpose pair, arrays larger
// than the product (only their leading patches take part), GA's default and
// block-cyclic layouts, and misuse.
func TestGemm(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		mpitest.Must(t, ga.Init())
		defer endGA(t)
		t.Run("float64", func(t *testing.T) { testGemm[float64](t) })
		t.Run("complex128", func(t *testing.T) { testGemm[complex128](t) })
		t.Run("float32", func(t *testing.T) { testGemm[float32](t) })
		t.Run("complex64", func(t *testing.T) { testGemm[complex64](t) })
		t.Run("misuse", testGemmMisuse)
		// Over shared memory the processes multiply the blocks they map in
		// place; over TCP nothing is mapped and ScaLAPACK multiplies.
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

// gemmElem is the element types Gemm takes.
type gemmElem interface {
	float32 | float64 | complex64 | complex128
}

func gemmVal[T gemmElem](r *rand.Rand) T {
	re, im := r.Float64()*2-1, r.Float64()*2-1
	var z T
	switch any(z).(type) {
	case complex128:
		return any(complex(re, im)).(T)
	case complex64:
		return any(complex64(complex(re, im))).(T)
	case float32:
		return any(float32(re)).(T)
	}
	return any(re).(T)
}

// gemmTol is the error allowed per term of a product of k terms: the
// element type's precision with a margin.
func gemmTol[T gemmElem]() float64 {
	var z T
	switch any(z).(type) {
	case float32, complex64:
		return 1e-5
	}
	return 1e-12
}

func testGemm[T gemmElem](t *testing.T) {
	np := ga.Nnodes()
	// A slice, not a map: every rank must take the layouts in one order.
	layouts := []struct {
		name string
		mk   func(name string, r, c int) (*ga.Array[T], error)
	}{
		{"default", func(name string, r, c int) (*ga.Array[T], error) {
			return ga.Create[T](name, []int{r, c}, nil)
		}},
		{"blockcyclic", func(name string, r, c int) (*ga.Array[T], error) {
			return ga.New[T](r, c).Name(name).BlockCyclicGrid([]int{4, 3}, []int{1, np}).Allocate()
		}},
	}
	for _, l := range layouts {
		lname, mk := l.name, l.mk
		// 8 × 8 on 2 processes is two column blocks of C, which the
		// in-place product shares out by columns (byRows).
		for _, c := range []struct{ m, n, k, extra int }{{1, 1, 1, 0}, {7, 5, 3, 2}, {33, 17, 40, 0}, {8, 8, 8, 0}} {
			for _, tr := range []string{"NN", "NT", "TN", "TT"} {
				ta, tb := ga.TransOp(tr[0]), ga.TransOp(tr[1])
				name := fmt.Sprintf("%s/%dx%dx%d+%d/%s", lname, c.m, c.n, c.k, c.extra, tr)
				r := rand.New(rand.NewPCG(uint64(c.m*100+c.k), uint64(ta+tb)))
				// A's and B's shapes as stored, each padded by extra.
				ar, ac := c.m, c.k
				if ta == ga.Trans {
					ar, ac = c.k, c.m
				}
				br, bc := c.k, c.n
				if tb == ga.Trans {
					br, bc = c.n, c.k
				}
				ar, ac, br, bc = ar+c.extra, ac+c.extra, br+c.extra, bc+c.extra
				cr, cc := c.m+c.extra, c.n+c.extra
				av, bv, cv := make([]T, ar*ac), make([]T, br*bc), make([]T, cr*cc)
				for _, v := range [][]T{av, bv, cv} {
					for i := range v {
						v[i] = gemmVal[T](r)
					}
				}
				a, err := mk("A", ar, ac)
				mpitest.Must(t, err)
				b, err := mk("B", br, bc)
				mpitest.Must(t, err)
				cg, err := mk("C", cr, cc)
				mpitest.Must(t, err)
				if ga.Nodeid() == 0 {
					mpitest.Must(t, a.Put([]int{0, 0}, []int{ar - 1, ac - 1}, av, nil))
					mpitest.Must(t, b.Put([]int{0, 0}, []int{br - 1, bc - 1}, bv, nil))
					mpitest.Must(t, cg.Put([]int{0, 0}, []int{cr - 1, cc - 1}, cv, nil))
				}
				mpitest.Must(t, ga.Sync())
				alpha, beta := T(2), T(0)
				if c.extra > 0 {
					beta = T(-0.5)
				}
				mpitest.Must(t, ga.Gemm(ta, tb, c.m, c.n, c.k, alpha, a, b, beta, cg))
				got := make([]T, cr*cc)
				mpitest.Must(t, cg.Get([]int{0, 0}, []int{cr - 1, cc - 1}, got, nil))
				opA := func(i, l int) T {
					if ta == ga.Trans {
						return av[l*ac+i]
					}
					return av[i*ac+l]
				}
				opB := func(l, j int) T {
					if tb == ga.Trans {
						return bv[j*bc+l]
					}
					return bv[l*bc+j]
				}
				for i := range cr {
					for j := range cc {
						want := cv[i*cc+j]
						if i < c.m && j < c.n {
							var s T
							for l := range c.k {
								s += opA(i, l) * opB(l, j)
							}
							want = alpha*s + beta*want
						}
						if d := cmplx.Abs(toC(got[i*cc+j] - want)); d > gemmTol[T]()*float64(c.k) {
							fatalf(t, "%s: C[%d][%d] = %v, want %v", name, i, j, got[i*cc+j], want)
						}
					}
				}
				mpitest.Must(t, ga.Sync())
				for _, x := range []*ga.Array[T]{a, b, cg} {
					mpitest.Must(t, x.Destroy())
				}
			}
		}
	}
}

func toC[T gemmElem](v T) complex128 {
	switch x := any(v).(type) {
	case complex128:
		return x
	case complex64:
		return complex128(x)
	case float32:
		return complex(float64(x), 0)
	case float64:
		return complex(x, 0)
	}
	return 0
}

func testGemmMisuse(t *testing.T) {
	a, err := ga.Create[float64]("A", []int{4, 3}, nil)
	mpitest.Must(t, err)
	b, err := ga.Create[float64]("B", []int{3, 5}, nil)
	mpitest.Must(t, err)
	c, err := ga.Create[float64]("C", []int{4, 5}, nil)
	mpitest.Must(t, err)
	mpitest.Must(t, c.Fill(7))
	for _, bad := range []struct {
		name    string
		ta, tb  ga.TransOp
		m, n, k int
		x       *ga.Array[float64]
		array   string
		mention string
	}{
		{"k too large for A", ga.NoTrans, ga.NoTrans, 4, 5, 4, c, "A", "needs 4 × 4"},
		{"n too large for C", ga.NoTrans, ga.NoTrans, 4, 6, 3, c, "B", "needs 3 × 6"},
		{"transposed A does not fit", ga.Trans, ga.NoTrans, 4, 5, 3, c, "A", "needs 3 × 4"},
		{"bad ta", 'X', ga.NoTrans, 4, 5, 3, c, "A", "ta"},
		{"bad tb", ga.NoTrans, 'Q', 4, 5, 3, c, "B", "tb"},
		{"zero m", ga.NoTrans, ga.NoTrans, 0, 5, 3, c, "C", "at least 1"},
		{"C is A", ga.NoTrans, ga.NoTrans, 4, 3, 3, a, "A", "also an operand"},
	} {
		err := ga.Gemm(bad.ta, bad.tb, bad.m, bad.n, bad.k, 1, a, b, 0, bad.x)
		wantErr(t, bad.name, err, "Gemm", bad.array, nil, bad.mention)
	}
	// Nothing was written.
	got := make([]float64, 20)
	mpitest.Must(t, c.Get([]int{0, 0}, []int{3, 4}, got, nil))
	for i, v := range got {
		if v != 7 {
			fatalf(t, "a refused Gemm changed C[%d] to %g", i, v)
		}
	}
	mpitest.Must(t, ga.Sync())
	for _, x := range []*ga.Array[float64]{a, b, c} {
		mpitest.Must(t, x.Destroy())
	}
}
