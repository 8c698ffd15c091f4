package ga_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestSolverInput checks that the solvers refuse, on every process alike and
// with A and B as they were, what ScaLAPACK would turn into a wrong answer
// without an error: a nonsymmetric A for Cholesky and NaN or Inf anywhere in
// A or B; on arrays that are copied and on arrays solved in place.
func TestSolverInput(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		np := ga.Nnodes()
		regular := func(name string, dims ...int) (*ga.Array[float64], error) {
			return ga.Create[float64](name, dims, nil)
		}
		cyclic := func(rb, cb int) maker {
			return func(name string, dims ...int) (*ga.Array[float64], error) {
				return ga.New[float64](dims...).Name(name).BlockCyclicGrid([]int{rb, cb}, []int{np, 1}).Allocate()
			}
		}
		t.Run("copied", func(t *testing.T) { testSolverInput(t, regular, regular) })
		t.Run("inplace", func(t *testing.T) { testSolverInput(t, cyclic(4, 4), cyclic(4, 2)) })
	})
}

// spd is the n × n symmetric, diagonally dominant matrix 1/(1+|i−j|) + n·I.
func spd(n int) []float64 {
	a := make([]float64, n*n)
	for i := range n {
		for j := range n {
			a[i*n+j] = 1 / float64(1+max(i-j, j-i))
		}
		a[i*n+i] += float64(n)
	}
	return a
}

func testSolverInput(t *testing.T, makeA, makeB maker) {
	const n, nrhs = 12, 2
	a, err := makeA("A", n, n)
	must(t, err)
	defer destroy(t, a)
	b, err := makeB("B", n, nrhs)
	must(t, err)
	defer destroy(t, b)
	bv := pattern([]int{n, nrhs}, func(i int) float64 { return float64(i%5) - 1.5 })

	// load puts av and bv in; refused checks that f fails on every process
	// with an error from op naming array, wrapping sentinel and mentioning
	// the values, and that A and B are as loaded.
	load := func(av []float64) {
		if ga.Nodeid() == 0 {
			must(t, a.Put([]int{0, 0}, []int{n - 1, n - 1}, av, nil))
			must(t, b.Put([]int{0, 0}, []int{n - 1, nrhs - 1}, bv, nil))
		}
		must(t, ga.Sync())
	}
	refused := func(what string, av []float64, f func() error, op, array string, sentinel error, values ...string) {
		t.Helper()
		load(av)
		wantErr(t, what, f(), op, array, sentinel, values...)
		sameElems(t, what+": A", getAll(t, a), av)
		sameElems(t, what+": B", getAll(t, b), bv)
		must(t, ga.Sync())
	}
	solvers := []struct {
		op string
		f  func() error
	}{
		{"LuSolve", func() error { return ga.LuSolve(ga.NoTrans, a, b) }},
		{"LuSolve", func() error { return ga.LuSolve(ga.Trans, a, b) }},
		{"LltSolve", func() error { return ga.LltSolve(a, b) }},
		{"Solve", func() error { return ga.Solve(a, b) }},
	}

	// A nonsymmetric A whose lower triangle is that of an SPD matrix: GA's
	// Cholesky would solve with the lower triangle and return nil.
	nonsym := spd(n)
	nonsym[2*n+9] += 0.5
	refused("LltSolve, nonsymmetric A", nonsym, func() error { return ga.LltSolve(a, b) },
		"LltSolve", "A", ga.ErrNotSymmetric, "[2 9]", "[9 2]")
	refused("SpdInvert, nonsymmetric A", nonsym, func() error { return ga.SpdInvert(a) },
		"SpdInvert", "A", ga.ErrNotSymmetric, "[2 9]")
	// Solve takes LU for it and gets the right answer.
	load(nonsym)
	must(t, ga.Solve(a, b))
	if res := residual(false, nonsym, getAll(t, b), bv, n, nrhs); !(res < 16) {
		t.Errorf("Solve of a nonsymmetric A: scaled residual %g", res)
	}
	must(t, ga.Sync())

	for _, bad := range []struct {
		i, j int
		v    float64
	}{{3, 7, math.NaN()}, {7, 3, math.Inf(1)}, {5, 5, math.Inf(-1)}, {n - 1, 0, math.NaN()}} {
		av := spd(n)
		av[bad.i*n+bad.j] = bad.v
		at := fmt.Sprintf("[%d %d]", bad.i, bad.j)
		for _, s := range solvers {
			refused(fmt.Sprintf("%s, A%s = %v", s.op, at, bad.v), av, s.f, s.op, "A", ga.ErrNotFinite, at, fmt.Sprint(bad.v))
		}
		refused(fmt.Sprintf("SpdInvert, A%s = %v", at, bad.v), av, func() error { return ga.SpdInvert(a) },
			"SpdInvert", "A", ga.ErrNotFinite, at)
	}
	// NaN or Inf in B.
	for _, bad := range []struct {
		i, j int
		v    float64
	}{{5, 1, math.Inf(1)}, {0, 0, math.NaN()}, {n - 1, nrhs - 1, math.Inf(-1)}} {
		keep := bv[bad.i*nrhs+bad.j]
		bv[bad.i*nrhs+bad.j] = bad.v
		at := fmt.Sprintf("[%d %d]", bad.i, bad.j)
		for _, s := range solvers {
			refused(fmt.Sprintf("%s, B%s = %v", s.op, at, bad.v), spd(n), s.f, s.op, "B", ga.ErrNotFinite, at)
		}
		bv[bad.i*nrhs+bad.j] = keep
	}
	// And sound input still solves.
	for _, s := range solvers[2:] {
		load(spd(n))
		must(t, s.f())
		if res := residual(false, spd(n), getAll(t, b), bv, n, nrhs); !(res < 16) {
			t.Errorf("%s: scaled residual %g", s.op, res)
		}
		must(t, ga.Sync())
	}
}

// TestSolverAgreement changes one argument of a solver or of Gemm on one
// process only: every process gets an error (ErrMismatch, or the refusing
// process's own error and ErrPeer on the others), nobody hangs, and the
// arrays are as they were.
func TestSolverAgreement(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		const n = 8
		mkArr := func(name string, dims ...int) *ga.Array[float64] {
			x, err := ga.Create[float64](name, dims, nil)
			must(t, err)
			must(t, x.Fill(float64(len(name))))
			return x
		}
		a, b, b2, c := mkArr("A", n, n), mkArr("B", n, 1), mkArr("B2", n, 1), mkArr("C", n, n)
		if ga.Nodeid() == 0 {
			must(t, a.Put([]int{0, 0}, []int{n - 1, n - 1}, spd(n), nil))
		}
		must(t, ga.Sync())
		arrays := []*ga.Array[float64]{a, b, b2, c}
		before := make([][]float64, len(arrays))
		for i, x := range arrays {
			before[i] = getAll(t, x)
		}
		odd := ga.Nodeid() == ga.Nnodes()-1 // the process that differs
		pick := oddOne[*ga.Array[float64]]
		for _, c2 := range []struct {
			what   string
			f      func() error
			op     string
			refuse bool // the odd process refuses; the others get ErrPeer
		}{
			{"LuSolve trans", func() error { return ga.LuSolve(oddOne[ga.TransOp](ga.NoTrans, ga.Trans), a, b) }, "LuSolve", false},
			{"LuSolve B", func() error { return ga.LuSolve(ga.NoTrans, a, pick(b, b2)) }, "LuSolve", false},
			{"LuSolve A not square", func() error { return ga.LuSolve(ga.NoTrans, pick(a, b), pick(b, a)) }, "LuSolve", true},
			{"LltSolve B", func() error { return ga.LltSolve(a, pick(b, b2)) }, "LltSolve", false},
			{"Solve A", func() error { return ga.Solve(pick(a, c), b) }, "Solve", false},
			{"SpdInvert A", func() error { return ga.SpdInvert(pick(a, c)) }, "SpdInvert", false},
			{"block size", func() error {
				if odd {
					must(t, ga.SetSolverBlockSize(16))
					defer func() { must(t, ga.SetSolverBlockSize(32)) }()
				}
				return ga.LuSolve(ga.NoTrans, a, b)
			}, "LuSolve", false},
			{"Gemm m", func() error { return ga.Gemm(ga.NoTrans, ga.NoTrans, oddOne(n, n-1), 1, n, 1, a, b, 0, b2) }, "Gemm", false},
			{"Gemm alpha", func() error {
				return ga.Gemm(ga.NoTrans, ga.NoTrans, n, 1, n, oddOne(1.0, 2.0), a, b, 0, b2)
			}, "Gemm", false},
			{"Gemm beta", func() error {
				return ga.Gemm(ga.NoTrans, ga.NoTrans, n, 1, n, 1, a, b, oddOne(0.0, 1.0), b2)
			}, "Gemm", false},
			{"Gemm ta", func() error { return ga.Gemm(oddOne[ga.TransOp](ga.NoTrans, 'X'), ga.NoTrans, n, 1, n, 1, a, b, 0, b2) }, "Gemm", true},
		} {
			err := c2.f()
			var e *ga.Error
			switch {
			case ga.Nnodes() == 1:
				// One process cannot disagree with itself; the odd arguments
				// are its own and must just be valid or refused.
				if c2.refuse && !errors.As(err, &e) {
					t.Errorf("%s on one process: %v, want a *ga.Error", c2.what, err)
				}
				for i, x := range arrays { // put back what a valid call changed
					putAll(t, x, before[i])
				}
				continue
			case !errors.As(err, &e) || e.Op != c2.op:
				t.Errorf("%s: %v, want a *ga.Error from %s", c2.what, err, c2.op)
			case c2.refuse && odd && (errors.Is(err, ga.ErrPeer) || errors.Is(err, ga.ErrMismatch)):
				t.Errorf("%s: the refusing process got %v, want its own error", c2.what, err)
			case c2.refuse && !odd && !errors.Is(err, ga.ErrPeer):
				t.Errorf("%s: %v, want an error wrapping ErrPeer", c2.what, err)
			case !c2.refuse && !errors.Is(err, ga.ErrMismatch):
				t.Errorf("%s: %v, want an error wrapping ErrMismatch", c2.what, err)
			}
			for i, x := range arrays {
				if got := getAll(t, x); !slices.Equal(got, before[i]) {
					t.Errorf("%s changed %s", c2.what, x.Name())
				}
			}
			must(t, ga.Sync())
		}
		for _, x := range arrays {
			must(t, x.Destroy())
		}
	})
}

// oddOne is other on the last process and usual on the others.
func oddOne[T any](usual, other T) T {
	if ga.Nodeid() == ga.Nnodes()-1 {
		return other
	}
	return usual
}

// TestLoadMatrixMarketErrors: a file that cannot be read is an error on every
// process, with no array left.
func TestLoadMatrixMarketErrors(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		used := ga.InquireMemory()
		_, err := ga.LoadMatrixMarket("missing", "../testdata/no-such.mtx")
		if ga.Nodeid() == 0 {
			wantErr(t, "missing file", err, "LoadMatrixMarket", "missing", nil, "no-such.mtx")
		} else {
			wantErr(t, "missing file", err, "LoadMatrixMarket", "missing", ga.ErrPeer, "no-such.mtx")
		}
		if ga.InquireMemory() != used {
			t.Errorf("a failed load left %d bytes allocated", ga.InquireMemory()-used)
		}
	})
}
