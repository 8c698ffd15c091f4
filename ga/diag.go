package ga

import (
	"errors"
	"fmt"
	"sync"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/mpi"
	"github.com/goga-hpc/goga/peigs"
	"github.com/goga-hpc/goga/scalapack"
)

// The eigensolvers hand global arrays to package peigs over the linear
// solvers' bridge (linalg.go, linalg_transposed.go): a BlockCyclicGrid A in
// square blocks is solved where it lies, after one local copy (A must
// survive); any other is read by one Get per block into a block-cyclic
// copy on a near-square grid. Both are Aᵀ, which has A's eigenvalues; its
// eigenvectors, ScaLAPACK's Z, are the columns of Zᵀ's transpose, so V = Zᵀ
// holds them as rows, which is how GA's C interface returns them (the
// Fortran interface's columns; checked against GA 5.8's GA_Diag_std_seq).
// Z is written into V's own storage when V lies as A does, else put back by
// one Put per block.

// diagKind is the kind of eigenproblem a Diag call solves: standard
// (DiagStd), generalized (Diag), or generalized with S's factor kept
// (DiagReuse).
type diagKind int

const (
	diagStd diagKind = iota
	diagGen
	diagReuse
)

// DiagStd solves the standard symmetric (Hermitian) eigenproblem of the
// n × n array a (GA_Diag_std): it returns every eigenvalue, ascending, and
// writes the eigenvectors into v as its rows, so that v·a = Λ·v and
// v·vᴴ = I (for a real a, its rows are a's eigenvectors). a is left as it
// was. Unlike GA, which aborts without PeIGS, it runs in parallel on
// ScaLAPACK (see package peigs), and a that is not symmetric or holds NaN
// or Inf is an error wrapping ErrNotSymmetric or ErrNotFinite, with nothing
// changed. Eigenvectors that fail to converge are a *scalapack.EigenError,
// with v's contents undefined. It is collective.
func DiagStd[T scalapack.Elem](a, v *Array[T]) ([]float64, error) {
	return diag("DiagStd", diagStd, 0, false, a, nil, v)
}

// Diag solves the generalized eigenproblem a·x = λ·s·x with s positive
// definite (GA_Diag): it returns every eigenvalue, ascending, and writes
// the eigenvectors into v as its rows, so that v·a = Λ·v·s and v·s·vᴴ = I.
// a and s are left as they were. An s that is not positive definite is a
// *scalapack.NotPositiveDefiniteError; otherwise as DiagStd. It is
// collective.
func Diag[T scalapack.Elem](a, s, v *Array[T]) ([]float64, error) {
	return diag("Diag", diagGen, 0, false, a, s, v)
}

// DiagReuse is Diag for repeated calls with one s (GA_Diag_reuse): control
// 0 factors s, solves and keeps the factorization; control > 0 solves with
// the kept factorization of that s (s must not have changed since; an
// error if none is kept); control < 0 frees the kept factorization and
// returns no eigenvalues. One factorization is kept per process group,
// until freed, replaced, or the group ends (Terminate, Pgroup.Destroy).
// It is collective.
func DiagReuse[T scalapack.Elem](control int, a, s, v *Array[T]) ([]float64, error) {
	const op = "DiagReuse"
	if control < 0 {
		g, err := groupOf(op, s)
		if err != nil {
			return nil, err
		}
		forgetFactor(g)
		return nil, nil
	}
	return diag(op, diagReuse, control, false, a, s, v)
}

// DiagStdSeq is DiagStd solved on one process, the group's first
// (GA_Diag_std_seq), as GA does for small matrices: it reads a whole, and
// runs ScaLAPACK's divide and conquer on a one-process grid (LAPACK's
// algorithm with the library's blocked kernels). It is collective.
func DiagStdSeq[T scalapack.Elem](a, v *Array[T]) ([]float64, error) {
	return diag("DiagStdSeq", diagStd, 0, true, a, nil, v)
}

// DiagSeq is Diag solved on one process, as DiagStdSeq (GA_Diag_seq). It
// is collective.
func DiagSeq[T scalapack.Elem](a, s, v *Array[T]) ([]float64, error) {
	return diag("DiagSeq", diagGen, 0, true, a, s, v)
}

// kept is DiagReuse's factorization of S, per group: a *peigs.Factor[T]
// and the number of the array S it factors.
var kept = struct {
	sync.Mutex
	m map[*group]keptFactor
}{m: map[*group]keptFactor{}}

type keptFactor struct {
	s int
	f any
}

// forgetFactor drops the factorization DiagReuse keeps for g, whose GA ends.
func forgetFactor(g *group) {
	kept.Lock()
	delete(kept.m, g)
	kept.Unlock()
}

// diag checks and agrees on the arguments, then solves on the processes'
// near-square grid or the grid of a BlockCyclicGrid a, or if seq on the
// group's first process alone.
func diag[T scalapack.Elem](op string, kind diagKind, control int, seq bool, a, s, v *Array[T]) ([]float64, error) {
	g, err := groupOf(op, a)
	if err != nil {
		return nil, err
	}
	check := diagShape(op, kind, a, s, v)
	var f *peigs.Factor[T]
	if check == nil && kind == diagReuse && control > 0 {
		kept.Lock()
		k := kept.m[g]
		kept.Unlock()
		if f, _ = k.f.(*peigs.Factor[T]); f == nil || k.s != s.id {
			check = errorf(op, s.name, "no factorization of this S is kept: call with control 0 first")
		}
	}
	l := newArgs(op).ints("kind", int(kind), control).ints("nb", g.block())
	if err := opening(g, op, a.Name(), check, writing(array(array(array(l, "A", a), "S", s), "V", v), v)); err != nil {
		return nil, err
	}
	n := a.dims[0]
	var vals []float64
	var z *scalapack.Matrix[T]
	var put bool
	if seq {
		one, err := g.grid(blacs.RowMajor, 1, 1)
		if err != nil {
			return nil, err
		}
		if one.In() {
			vals, z, put, _, err = diagSolve(g, op, kind, one, a, s, v, nil)
		}
		// The one process tells the others its verdict and the eigenvalues.
		if err := agree(g, false, op, a.name, err, nil); err != nil {
			return nil, err
		}
		if !one.In() {
			vals = make([]float64, n)
		}
		if err := mpi.Bcast(g.comm(), vals, 0); err != nil {
			return nil, err
		}
	} else {
		vals, z, put, f, err = diagSolve(g, op, kind, nil, a, s, v, f)
		if err != nil {
			return nil, err
		}
		if kind == diagReuse && control == 0 {
			kept.Lock()
			kept.m[g] = keptFactor{s: s.id, f: f}
			kept.Unlock()
		}
	}
	if put {
		err = putTransposed(z, leading(v, n, n))
	}
	return vals, closing(g, op, v.name, err)
}

// diagSolve reads the problem and solves it on one (a grid of the first
// process alone, which runs this by itself) or on all the processes (one
// nil), with S factored already if f is not nil. It returns the
// eigenvalues, Z (to be put into v if put, else v's own storage) and S's
// factor.
func diagSolve[T scalapack.Elem](g *group, op string, kind diagKind, one *blacs.Grid, a, s, v *Array[T], f *peigs.Factor[T]) (vals []float64, z *scalapack.Matrix[T], put bool, _ *peigs.Factor[T], err error) {
	n := a.dims[0]
	// Arrays that lie as a does (in its blocks both ways) are used in place.
	here := func(x *Array[T]) bool {
		return one == nil && inPlace(a, x) && x.m.BlockSize(1) == a.m.BlockSize(1)
	}
	read := func(x *Array[T], sc *scratch, m *scalapack.Matrix[T]) (*scalapack.Matrix[T], error) {
		if here(x) {
			local, err := x.localData()
			if err != nil {
				return nil, err
			}
			return storageOf(x, workCopy(sc, local))
		}
		grid, nb := one, min(g.block(), max(n, 1))
		if m != nil {
			return getTransposed(m.Grid, leading(x, n, n), m.Desc.MB, m.Desc.NB, sc)
		}
		if grid == nil {
			var err error
			if grid, err = g.solverGrid(); err != nil {
				return nil, err
			}
		}
		return getTransposed(grid, leading(x, n, n), nb, nb, sc)
	}
	m, err := read(a, &g.scratchA, nil)
	var sm *scalapack.Matrix[T]
	if err == nil && kind != diagStd && f == nil {
		sm, err = read(s, &g.scratchB, m)
	}
	if err == nil {
		if here(v) {
			z, err = storageOf(v, nil)
		} else {
			z, err = emptyTransposed[T](m.Grid, n, n, m.Desc.MB, m.Desc.NB, &g.scratchC)
			put = true
		}
	}
	if one == nil {
		// Everyone has read A and S before ScaLAPACK's collective calls.
		err = agree(g, false, op, a.name, err, nil)
	}
	if err != nil {
		return nil, nil, false, nil, err
	}
	o := &peigs.Options{Overwrite: true}
	if kind == diagStd {
		vals, z, err = peigs.Standard(m, z, peigs.All(), o)
		return vals, z, put, nil, diagErr(op, a, s, err)
	}
	if f == nil {
		fo := o
		if kind == diagReuse {
			fo = nil // a factor to keep lives in memory of its own, not in the scratch
		}
		if f, err = peigs.Factorize(sm, fo); err != nil {
			return nil, nil, false, nil, diagErr(op, a, s, err)
		}
	}
	vals, z, err = peigs.Generalized(1, m, f, z, peigs.All(), o)
	return vals, z, put, f, diagErr(op, a, s, err)
}

// diagShape checks the arrays of an eigenproblem: a square, s (unless
// kind is diagStd) and v of its shape, v distinct from both.
func diagShape[T scalapack.Elem](op string, kind diagKind, a, s, v *Array[T]) error {
	if err := a.valid(op); err != nil {
		return err
	}
	if err := v.valid(op); err != nil {
		return err
	}
	if len(a.dims) != 2 || a.dims[0] != a.dims[1] {
		return errorf(op, a.name, "dims %v: A must be a square matrix", a.dims)
	}
	if len(v.dims) != 2 || v.dims[0] != a.dims[0] || v.dims[1] != a.dims[1] {
		return errorf(op, v.name, "dims %v: V must have A's dims %v", v.dims, a.dims)
	}
	if v == a {
		return errorf(op, a.name, "A and V are the same array")
	}
	if kind == diagStd {
		return nil
	}
	if err := s.valid(op); err != nil {
		return err
	}
	if len(s.dims) != 2 || s.dims[0] != a.dims[0] || s.dims[1] != a.dims[1] {
		return errorf(op, s.name, "dims %v: S must have A's dims %v", s.dims, a.dims)
	}
	if v == s {
		return errorf(op, s.name, "S and V are the same array")
	}
	return nil
}

// diagErr gives peigs's refusal of A or S as GA's error on that array.
func diagErr[T scalapack.Elem](op string, a, s *Array[T], err error) error {
	var ns *peigs.NotSymmetricError
	if !errors.As(err, &ns) {
		return err
	}
	name := a.name
	if ns.Matrix == "s" {
		name = s.name
	}
	if ns.NotFinite() {
		return &Error{Op: op, Array: name, Err: ErrNotFinite, Msg: "the matrix holds NaN or Inf"}
	}
	return &Error{Op: op, Array: name, Err: ErrNotSymmetric,
		Msg: fmt.Sprintf("relative asymmetry %.3g exceeds the tolerance %.3g", ns.Asymmetry, ns.Tol)}
}
