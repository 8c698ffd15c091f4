package ga_test

import (
	"errors"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/scalapack"
)

// diagMaker makes the n × n arrays an eigensolver test works on: GA's
// default distribution, BlockCyclicGrid in ScaLAPACK's layout (solved in
// place), and V in other blocks than A's (put back by blocks).
type diagMaker struct {
	name string
	a, v func(t *testing.T, name string, n int) *ga.Array[float64]
}

func diagMakers() []diagMaker {
	def := func(t *testing.T, name string, n int) *ga.Array[float64] {
		a, err := ga.Create[float64](name, []int{n, n}, nil)
		must(t, err)
		return a
	}
	cyclic := func(nb int) func(t *testing.T, name string, n int) *ga.Array[float64] {
		return func(t *testing.T, name string, n int) *ga.Array[float64] {
			p := ga.Nnodes()
			r := 1
			for k := 1; k*k <= p; k++ {
				if p%k == 0 {
					r = k
				}
			}
			a, err := ga.New[float64](n, n).Name(name).BlockCyclicGrid([]int{nb, nb}, []int{p / r, r}).Allocate()
			must(t, err)
			return a
		}
	}
	return []diagMaker{{"default", def, def}, {"in place", cyclic(3), cyclic(3)}, {"V in other blocks", cyclic(3), cyclic(2)}}
}

// rowsResidual checks V·A = Λ·V·S (S = I if s is nil) and V·S·Vᵀ = I on
// row-major n × n matrices, scaled as ScaLAPACK's tester scales them, below
// 5·20 (its strictest threshold, times 5 as for the generalized problem).
func rowsResidual(t *testing.T, what string, a, s, v, vals []float64, n int) {
	t.Helper()
	if s == nil {
		s = make([]float64, n*n)
		for i := range n {
			s[i*n+i] = 1
		}
	}
	if !slices.IsSorted(vals) || len(vals) != n {
		fatalf(t, "%s: eigenvalues %v", what, vals)
	}
	norm := func(m []float64) float64 { // ∞-norm: the largest row sum
		out := 0.0
		for i := range n {
			r := 0.0
			for j := range n {
				r += math.Abs(m[i*n+j])
			}
			out = max(out, r)
		}
		return out
	}
	mul := func(x, y []float64) []float64 {
		out := make([]float64, n*n)
		for i := range n {
			for k := range n {
				for j := range n {
					out[i*n+j] += x[i*n+k] * y[k*n+j]
				}
			}
		}
		return out
	}
	va, vs := mul(v, a), mul(v, s)
	res, orth := make([]float64, n*n), make([]float64, n*n)
	for i := range n {
		for j := range n {
			res[i*n+j] = va[i*n+j] - vals[i]*vs[i*n+j]
			for k := range n {
				orth[i*n+j] += vs[i*n+k] * v[j*n+k]
			}
		}
		orth[i*n+i]--
	}
	vn := norm(v)
	if r := norm(res) / (norm(a) * vn * float64(n) * 0x1p-52); !(r < 100) {
		fatalf(t, "%s: ‖VA − ΛVS‖ scaled %g", what, r)
	}
	if r := norm(orth) / (norm(s) * vn * vn * float64(n) * 0x1p-52); !(r < 100) {
		fatalf(t, "%s: ‖VSVᵀ − I‖ scaled %g", what, r)
	}
}

func tridiagonal(n int) []float64 {
	a := make([]float64, n*n)
	for i := range n {
		a[i*n+i] = 2
		if i > 0 {
			a[i*n+i-1], a[(i-1)*n+i] = -1, -1
		}
	}
	return a
}

// TestDiag runs DiagStd, Diag, DiagReuse and the sequential calls on the
// (2, -1) matrix (eigenvalues 2 − 2cos(kπ/(n+1))) and a random symmetric
// matrix of odd order, with S = 2·I (eigenvalues halved) and a random
// positive definite S, on each layout; A and S must stay as they were.
func TestDiag(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		const n = 13
		r := rand.New(rand.NewPCG(3, 4))
		sym, spd := make([]float64, n*n), make([]float64, n*n)
		for i := range n {
			for j := range i + 1 {
				sym[i*n+j] = 2*r.Float64() - 1
				sym[j*n+i] = sym[i*n+j]
				spd[i*n+j] = 0.1 * (2*r.Float64() - 1)
				spd[j*n+i] = spd[i*n+j]
			}
			spd[i*n+i] = 2 + r.Float64()
		}
		twoI := make([]float64, n*n)
		for i := range n {
			twoI[i*n+i] = 2
		}
		want := make([]float64, n)
		for k := range want {
			want[k] = 2 - 2*math.Cos(float64(k+1)*math.Pi/float64(n+1))
		}
		for _, mk := range diagMakers() {
			a, s, v := mk.a(t, "A", n), mk.a(t, "S", n), mk.v(t, "V", n)
			solves := []struct {
				name string
				gen  bool
				f    func() ([]float64, error)
			}{
				{"DiagStd", false, func() ([]float64, error) { return ga.DiagStd(a, v) }},
				{"DiagStdSeq", false, func() ([]float64, error) { return ga.DiagStdSeq(a, v) }},
				{"Diag", true, func() ([]float64, error) { return ga.Diag(a, s, v) }},
				{"DiagSeq", true, func() ([]float64, error) { return ga.DiagSeq(a, s, v) }},
				{"DiagReuse 0", true, func() ([]float64, error) { return ga.DiagReuse(0, a, s, v) }},
				{"DiagReuse 1", true, func() ([]float64, error) { return ga.DiagReuse(1, a, s, v) }},
			}
			for _, c := range solves {
				for pi, p := range []struct {
					a, s []float64
				}{{tridiagonal(n), twoI}, {sym, spd}} {
					what := mk.name + " " + c.name
					must(t, ga.Sync()) // everyone has read the last results
					putAll(t, a, p.a)
					putAll(t, s, p.s)
					vals, err := c.f()
					must(t, err)
					if !slices.Equal(getAll(t, a), p.a) || !slices.Equal(getAll(t, s), p.s) {
						fatalf(t, "%s: A or S changed", what)
					}
					var sv []float64
					if c.gen {
						sv = p.s
					}
					rowsResidual(t, what, p.a, sv, getAll(t, v), vals, n)
					if pi == 0 {
						for k := range want {
							w := want[k]
							if c.gen {
								w /= 2
							}
							if math.Abs(vals[k]-w) > 1e-14*8 {
								fatalf(t, "%s: eigenvalue %d = %v, want %v", what, k, vals[k], w)
							}
						}
					}
					if strings.HasPrefix(c.name, "DiagReuse") {
						break // the factor kept is of 2·I, for DiagReuse 1
					}
				}
			}
			vals, err := ga.DiagReuse(-1, a, s, v)
			if vals != nil || err != nil {
				fatalf(t, "DiagReuse -1: %v, %v", vals, err)
			}
			_, err = ga.DiagReuse(1, a, s, v)
			wantErr(t, "DiagReuse 1 after -1", err, "DiagReuse", "S", nil, "control 0")
			destroy(t, a)
			destroy(t, s)
			destroy(t, v)
		}
	})
}

// TestDiagHermitian solves D·(2, -1)·Dᴴ with D = diag(iᵏ), Hermitian with
// the (2, -1) matrix's spectrum: V·A = Λ·V and V·Vᴴ = I, by rows; over
// shared memory and TCP.
func TestDiagHermitian(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		const n = 9
		a, err := ga.New[complex128](n, n).Name("H").BlockCyclicGrid([]int{2, 2}, []int{ga.Nnodes(), 1}).Allocate()
		must(t, err)
		defer destroy(t, a)
		v, err := ga.Create[complex128]("V", []int{n, n}, nil)
		must(t, err)
		defer destroy(t, v)
		h := make([]complex128, n*n)
		for i := range n {
			for j := range n {
				h[i*n+j] = complex(tridiagonal(n)[i*n+j], 0) * cmplx.Pow(1i, complex(float64(i-j), 0))
			}
		}
		putAll(t, a, h)
		vals, err := ga.DiagStd(a, v)
		must(t, err)
		z := getAll(t, v)
		for k := range n {
			if w := 2 - 2*math.Cos(float64(k+1)*math.Pi/float64(n+1)); math.Abs(vals[k]-w) > 1e-13 {
				fatalf(t, "eigenvalue %d = %v, want %v", k, vals[k], w)
			}
			for j := range n {
				var va, vv complex128
				for i := range n {
					va += z[k*n+i] * h[i*n+j]
					vv += z[k*n+i] * cmplx.Conj(z[j*n+i])
				}
				if cmplx.Abs(va-complex(vals[k], 0)*z[k*n+j]) > 1e-13 {
					fatalf(t, "row %d: (V·A − λV)[%d] = %v", k, j, va-complex(vals[k], 0)*z[k*n+j])
				}
				if j == k {
					vv--
				}
				if cmplx.Abs(vv) > 1e-13 {
					fatalf(t, "(V·Vᴴ − I)[%d][%d] = %v", k, j, vv)
				}
			}
		}
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

// TestDiagRefused checks that input the solvers refuse is an error on every
// process with A, S and V unchanged: A not symmetric or holding NaN, S not
// positive definite, shapes that do not fit, V the same array as A; over
// shared memory and TCP.
func TestDiagRefused(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		const n = 7
		for _, mk := range diagMakers()[:2] {
			a, s, v := mk.a(t, "A", n), mk.a(t, "S", n), mk.v(t, "V", n)
			marks := make([]float64, n*n)
			for i := range marks {
				marks[i] = -7
			}
			putAll(t, v, marks)
			must(t, ga.Sync())
			good := tridiagonal(n)
			bad := slices.Clone(good)
			bad[5*n+1] = 0.5
			putAll(t, a, bad)
			putAll(t, s, good)
			_, err := ga.DiagStd(a, v)
			wantErr(t, mk.name+" nonsymmetric", err, "DiagStd", "A", ga.ErrNotSymmetric)
			_, err = ga.DiagSeq(s, a, v)
			wantErr(t, mk.name+" nonsymmetric S", err, "DiagSeq", "A", nil)
			if ga.Nodeid() == 0 && !errors.Is(err, ga.ErrNotSymmetric) || ga.Nodeid() != 0 && !errors.Is(err, ga.ErrPeer) {
				fatalf(t, "DiagSeq with a nonsymmetric S: %v", err)
			}
			bad = slices.Clone(good)
			bad[3*n+3] = math.NaN()
			putAll(t, a, bad)
			_, err = ga.Diag(a, s, v)
			wantErr(t, mk.name+" NaN", err, "Diag", "A", ga.ErrNotFinite)
			putAll(t, a, good)
			indefinite := slices.Clone(good)
			indefinite[4*n+4] = -3
			putAll(t, s, indefinite)
			var npd *scalapack.NotPositiveDefiniteError
			if _, err := ga.Diag(a, s, v); !errors.As(err, &npd) || npd.Order != 5 {
				fatalf(t, "%s: Diag with an indefinite S: %v", mk.name, err)
			}
			if !slices.Equal(getAll(t, a), good) || !slices.Equal(getAll(t, s), indefinite) || !slices.Equal(getAll(t, v), marks) {
				fatalf(t, "%s: a refused call changed A, S or V", mk.name)
			}
			_, err = ga.DiagStd(a, a)
			wantErr(t, mk.name+" V = A", err, "DiagStd", "A", nil, "same array")
			w, err := ga.Create[float64]("W", []int{n, n + 1}, nil)
			must(t, err)
			_, err = ga.Diag(a, w, v)
			wantErr(t, mk.name+" S of other dims", err, "Diag", "W", nil, "dims")
			destroy(t, w)
			destroy(t, a)
			destroy(t, s)
			destroy(t, v)
		}
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}
