package peigs

import (
	"errors"
	"math"

	"github.com/goga-hpc/goga/mpi"
	"github.com/goga-hpc/goga/scalapack"
)

// Range selects the eigenpairs a solver computes: All, Index or Value.
type Range struct {
	kind   scalapack.EigenRange
	il, iu int
	vl, vu float64
}

// All selects every eigenpair.
func All() Range { return Range{kind: scalapack.AllEigen} }

// Index selects the il-th to the iu-th smallest eigenvalues, 0-based and
// inclusive; iu < il selects none.
func Index(il, iu int) Range { return Range{kind: scalapack.IndexRange, il: il, iu: iu} }

// Value selects the eigenvalues in (vl, vu]; vu <= vl selects none.
func Value(vl, vu float64) Range { return Range{kind: scalapack.ValueRange, vl: vl, vu: vu} }

// check refuses an index range outside 0..n-1 and NaN bounds, and reports
// whether the range selects nothing, so the drivers (which refuse empty
// ranges) are not called.
func (r Range) check(op string, n int) (empty bool, err error) {
	switch r.kind {
	case scalapack.AllEigen:
		return n == 0, nil
	case scalapack.IndexRange:
		if r.iu < r.il {
			return true, nil
		}
		if r.il < 0 || r.iu >= n {
			return false, &Error{Op: op, Arg: "range", Msg: indexMsg(r.il, r.iu, n)}
		}
		return false, nil
	case scalapack.ValueRange:
		if math.IsNaN(r.vl) || math.IsNaN(r.vu) {
			return false, &Error{Op: op, Arg: "range", Msg: "a bound is NaN"}
		}
		return r.vu <= r.vl || n == 0, nil
	}
	return false, &Error{Op: op, Arg: "range", Msg: "the zero Range; use All, Index or Value"}
}

// Options tune the solvers; the zero value (or nil) is the default.
type Options struct {
	// Tol is how far from symmetric (Hermitian) the matrices may be: the
	// relative asymmetry the check measures (see CheckSymmetric) must not
	// exceed it. 0 means 100 ε of the element type's precision; a negative
	// Tol accepts any asymmetry (the solvers then read one triangle), but
	// NaN and Inf are refused whatever Tol is.
	Tol float64
	// Overwrite lets a solver work in A (and Factorize in S) instead of a
	// copy, destroying it. The check is still made first, so a refused
	// matrix is unchanged.
	Overwrite bool
}

func (o *Options) tol(eps float64) float64 {
	switch {
	case o == nil || o.Tol == 0:
		return 100 * eps
	}
	return o.Tol
}

// input checks a square matrix with square blocks for symmetry and returns
// the matrix the solver may destroy: m itself, or a copy.
func input[T scalapack.Elem](op, name string, m *scalapack.Matrix[T], o *Options) (*scalapack.Matrix[T], error) {
	if m == nil {
		return nil, &Error{Op: op, Arg: name, Msg: "nil matrix"}
	}
	if m.Desc.M != m.Desc.N || m.Desc.MB != m.Desc.NB {
		return nil, &Error{Op: op, Arg: name, Msg: shapeMsg(m.Desc)}
	}
	tol := o.tol(eps[T]())
	if tol < 0 {
		// No symmetry check, but NaN and Inf are still refused: with them
		// PDSTEGR2 rejects its arguments and the solvers never return.
		tol = math.Inf(1)
	}
	if err := CheckSymmetric(op, name, m, tol); err != nil {
		return nil, err
	}
	if o != nil && o.Overwrite {
		return m, nil
	}
	c := *m
	c.Data = append([]T(nil), m.Data...)
	return &c, nil
}

// Standard computes the eigenpairs of the symmetric (Hermitian) matrix A
// that r selects: their eigenvalues ascending, and the eigenvectors,
// orthonormal, as the first columns of Z (n × n on A's grid in A's blocks;
// nil makes one). All pairs are found by divide and conquer (PxSYEVD,
// PxHEEVD), ranges by MRRR (PxSYEVR, PxHEEVR). A is checked for symmetry
// first and left unchanged unless o.Overwrite. It is collective over A's
// grid.
func Standard[T scalapack.Elem](a, z *scalapack.Matrix[T], r Range, o *Options) ([]float64, *scalapack.Matrix[T], error) {
	w, empty, err := problem("Standard", a, r, o)
	if err != nil {
		return nil, nil, err
	}
	return solve(w, z, r, empty)
}

// solve runs the driver r needs on a, which it destroys.
func solve[T scalapack.Elem](a, z *scalapack.Matrix[T], r Range, empty bool) ([]float64, *scalapack.Matrix[T], error) {
	var vals []float64
	var err error
	switch {
	case empty:
		if z == nil {
			z, err = scalapack.NewMatrix[T](a.Grid, a.Desc.N, a.Desc.N, a.Desc.MB, a.Desc.NB)
		}
		return []float64{}, z, err
	case r.kind == scalapack.AllEigen:
		vals, z, err = scalapack.Syevd(scalapack.Lower, a, z)
	default:
		vals, z, err = scalapack.Syevr(scalapack.Lower, a, z, r.kind, r.vl, r.vu, r.il, r.iu)
	}
	if err != nil {
		return nil, nil, err
	}
	// PxSYEVD leaves the processes that hold none of A (n at most the block
	// size, say) with the unsorted diagonal in W: process (0, 0)'s values
	// are the ones to keep.
	c, err := a.Grid.Comm()
	if err != nil {
		return nil, nil, err
	}
	return vals, z, mpi.Bcast(c, vals, 0)
}

// Factor is the Cholesky factorization S = L·Lᴴ of a symmetric (Hermitian)
// positive definite S, kept for any number of Generalized solves with S.
type Factor[T scalapack.Elem] struct {
	l *scalapack.Matrix[T]
}

// Factorize checks S for symmetry and factors it (PxPOTRF). An S that is
// not positive definite returns a *scalapack.NotPositiveDefiniteError with
// the order of the first leading minor that is not, and S unchanged (unless
// o.Overwrite). It is collective over S's grid.
func Factorize[T scalapack.Elem](s *scalapack.Matrix[T], o *Options) (*Factor[T], error) {
	const op = "Factorize"
	l, err := input(op, "s", s, o)
	if err != nil {
		return nil, err
	}
	err = scalapack.Potrf(scalapack.Lower, l)
	if npd := (*scalapack.NotPositiveDefiniteError)(nil); errors.As(err, &npd) {
		return nil, &scalapack.NotPositiveDefiniteError{Op: "peigs." + op, Order: npd.Order}
	}
	if err != nil {
		return nil, err
	}
	return &Factor[T]{l: l}, nil
}

// Generalized computes the eigenpairs that r selects of a generalized
// symmetric-definite (Hermitian-definite) problem with S factored by f:
// ibtype 1 is A·x = λ·S·x, 2 is A·S·x = λ·x, 3 is S·A·x = λ·x. The
// eigenvalues are ascending; the eigenvectors are the first columns of Z
// (as for Standard), normalized so that Zᴴ·S·Z = I for ibtype 1 and 2 and
// Zᴴ·S⁻¹·Z = I for 3. A is reduced to a standard problem (PxSYGST,
// PxHEGST), solved as by Standard, and the eigenvectors transformed back
// with f's factor. A is checked for symmetry first and left unchanged
// unless o.Overwrite. It is collective over A's grid.
func Generalized[T scalapack.Elem](ibtype int, a *scalapack.Matrix[T], f *Factor[T], z *scalapack.Matrix[T], r Range, o *Options) ([]float64, *scalapack.Matrix[T], error) {
	const op = "Generalized"
	switch {
	case ibtype < 1 || ibtype > 3:
		return nil, nil, &Error{Op: op, Arg: "ibtype", Msg: ibtypeMsg(ibtype)}
	case f == nil:
		return nil, nil, &Error{Op: op, Arg: "f", Msg: "nil factor"}
	case a != nil && (a.Desc.Ctxt != f.l.Desc.Ctxt || a.Desc.N != f.l.Desc.N || a.Desc.NB != f.l.Desc.NB):
		return nil, nil, &Error{Op: op, Arg: "a", Msg: "not on the grid, of the order and in the blocks of the factored S"}
	}
	w, empty, err := problem(op, a, r, o)
	if err != nil {
		return nil, nil, err
	}
	scale, err := scalapack.Sygst(ibtype, scalapack.Lower, w, f.l)
	if err != nil {
		return nil, nil, err
	}
	if r.kind == scalapack.ValueRange {
		r.vl, r.vu = r.vl/scale, r.vu/scale
	}
	vals, z, err := solve(w, z, r, empty)
	if err != nil || len(vals) == 0 {
		return vals, z, err
	}
	for i := range vals {
		vals[i] *= scale
	}
	// x = L⁻ᴴ·y for ibtype 1 and 2, L·y for 3 (LAPACK's xSYGV).
	if ibtype == 3 {
		err = scalapack.Trmm(scalapack.Left, scalapack.Lower, scalapack.NoTrans, scalapack.NonUnit, 1, f.l, z)
	} else {
		err = scalapack.Trsm(scalapack.Left, scalapack.Lower, scalapack.ConjTrans, scalapack.NonUnit, 1, f.l, z)
	}
	return vals, z, err
}

// problem checks r and A and returns the matrix to destroy (see input) and
// whether r selects nothing.
func problem[T scalapack.Elem](op string, a *scalapack.Matrix[T], r Range, o *Options) (w *scalapack.Matrix[T], empty bool, err error) {
	n := 0
	if a != nil {
		n = a.Desc.N
	}
	if empty, err = r.check(op, n); err != nil {
		return nil, false, err
	}
	w, err = input(op, "a", a, o)
	return w, empty, err
}
