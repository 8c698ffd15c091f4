package linalg

import (
	"errors"
	"fmt"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/mpi"
	"github.com/goga-hpc/goga/peigs"
	"github.com/goga-hpc/goga/scalapack"
)

// The eigensolvers hand arrays to package peigs over the solvers' bridge: a
// BlockCyclicGrid A in square blocks is solved where it lies, after one
// local copy (A must survive); any other is read by one Get per block into
// a block-cyclic copy on a near-square grid. Both are Aᵀ, which has A's
// eigenvalues; its eigenvectors, ScaLAPACK's Z, are the columns of Zᵀ's
// transpose, so V = Zᵀ holds them as rows, which is how GA's C interface
// returns them (the Fortran interface's columns; checked against GA 5.8's
// GA_Diag_std_seq). Z is written into V's own storage when V lies as A
// does, else put back by one Put per block.

// Kind is the kind of eigenproblem: standard (DiagStd), generalized
// (Diag), or generalized with S's factor kept (DiagReuse).
type Kind int

const (
	Standard Kind = iota
	Generalized
	Reuse
)

// Problem is an eigenproblem as the caller has checked and agreed on it:
// A square, S (unless Standard) and V of its shape, V distinct from both.
type Problem[T any] struct {
	Kind Kind
	// Control is DiagReuse's: 0 factors S and keeps the factor, > 0 solves
	// with the kept factor of S, the array numbered SID.
	Control, SID int
	// Seq solves on the group's first process alone.
	Seq     bool
	A, S, V Array[T]
}

// Factored reports whether e keeps DiagReuse's factor of the array
// numbered s, for element type T.
func Factored[T scalapack.Elem](e *Env, s int) bool { return keptOf[T](e, s) != nil }

func keptOf[T scalapack.Elem](e *Env, s int) *peigs.Factor[T] {
	e.mu.Lock()
	k := e.kept
	e.mu.Unlock()
	if f, _ := k.f.(*peigs.Factor[T]); f != nil && k.s == s {
		return f
	}
	return nil
}

// Diag solves p and returns every eigenvalue, ascending, on every process,
// with the eigenvectors in V's rows. A and S are left as they were. It is
// collective, on the processes' near-square grid or the grid of a
// BlockCyclicGrid A, or if p.Seq on the group's first process alone.
func Diag[T scalapack.Elem](e *Env, c Call, p Problem[T]) ([]float64, error) {
	n := p.A.Dims()[0]
	var f *peigs.Factor[T]
	if p.Kind == Reuse && p.Control > 0 {
		f = keptOf[T](e, p.SID)
	}
	var vals []float64
	var z *scalapack.Matrix[T]
	var put bool
	var err error
	if p.Seq {
		one, err := e.grid(blacs.RowMajor, 1, 1)
		if err != nil {
			return nil, err
		}
		if one.In() {
			vals, z, put, _, err = diagSolve(e, c, p, one, nil)
		}
		// The one process tells the others its verdict and the eigenvalues.
		if err := c.Agree(false, p.A.Name(), err); err != nil {
			return nil, err
		}
		if !one.In() {
			vals = make([]float64, n)
		}
		if err := mpi.Bcast(e.comm, vals, 0); err != nil {
			return nil, err
		}
	} else {
		vals, z, put, f, err = diagSolve(e, c, p, nil, f)
		if err != nil {
			return nil, err
		}
		if p.Kind == Reuse && p.Control == 0 {
			e.mu.Lock()
			e.kept = keptFactor{s: p.SID, f: f}
			e.mu.Unlock()
		}
	}
	if put {
		err = putTransposed(z, Leading(p.V, n, n))
	}
	return vals, c.Close(p.V.Name(), err)
}

// diagSolve reads the problem and solves it on one (a grid of the first
// process alone, which runs this by itself) or on all the processes (one
// nil), with S factored already if f is not nil. It returns the
// eigenvalues, Z (to be put into V if put, else V's own storage) and S's
// factor.
func diagSolve[T scalapack.Elem](e *Env, c Call, p Problem[T], one *blacs.Grid, f *peigs.Factor[T]) (vals []float64, z *scalapack.Matrix[T], put bool, _ *peigs.Factor[T], err error) {
	a := p.A
	n := a.Dims()[0]
	// Arrays that lie as a does (in its blocks both ways) are used in place.
	here := func(x Array[T]) bool {
		return one == nil && inPlace(a, x) && x.BlockSize(1) == a.BlockSize(1)
	}
	read := func(x Array[T], sc *scratch, m *scalapack.Matrix[T]) (*scalapack.Matrix[T], error) {
		if here(x) {
			local, err := x.Local()
			if err != nil {
				return nil, err
			}
			return storageOf(e, x, workCopy(sc, local))
		}
		grid, nb := one, min(e.Block(), max(n, 1))
		if m != nil {
			return getTransposed(m.Grid, Leading(x, n, n), m.Desc.MB, m.Desc.NB, sc)
		}
		if grid == nil {
			var err error
			if grid, err = e.solverGrid(); err != nil {
				return nil, err
			}
		}
		return getTransposed(grid, Leading(x, n, n), nb, nb, sc)
	}
	m, err := read(a, &e.scratchA, nil)
	var sm *scalapack.Matrix[T]
	if err == nil && p.Kind != Standard && f == nil {
		sm, err = read(p.S, &e.scratchB, m)
	}
	if err == nil {
		if here(p.V) {
			z, err = storageOf(e, p.V, nil)
		} else {
			z, err = emptyTransposed[T](m.Grid, n, n, m.Desc.MB, m.Desc.NB, &e.scratchC)
			put = true
		}
	}
	if one == nil {
		// Everyone has read A and S before ScaLAPACK's collective calls.
		err = c.Agree(false, a.Name(), err)
	}
	if err != nil {
		return nil, nil, false, nil, err
	}
	o := &peigs.Options{Overwrite: true}
	if p.Kind == Standard {
		vals, z, err = peigs.Standard(m, z, peigs.All(), o)
		return vals, z, put, nil, diagErr(c, p, err)
	}
	if f == nil {
		fo := o
		if p.Kind == Reuse {
			fo = nil // a factor to keep lives in memory of its own, not in the scratch
		}
		if f, err = peigs.Factorize(sm, fo); err != nil {
			return nil, nil, false, nil, diagErr(c, p, err)
		}
	}
	vals, z, err = peigs.Generalized(1, m, f, z, peigs.All(), o)
	return vals, z, put, f, diagErr(c, p, err)
}

// diagErr gives peigs's refusal of A or S as the call's refusal of that
// array.
func diagErr[T scalapack.Elem](c Call, p Problem[T], err error) error {
	var ns *peigs.NotSymmetricError
	if !errors.As(err, &ns) {
		return err
	}
	x := p.A
	if ns.Matrix == "s" {
		x = p.S
	}
	if ns.NotFinite() {
		return c.Refuse(x.Name(), NotFinite, "the matrix holds NaN or Inf")
	}
	return c.Refuse(x.Name(), NotSymmetric,
		fmt.Sprintf("relative asymmetry %.3g exceeds the tolerance %.3g", ns.Asymmetry, ns.Tol))
}
