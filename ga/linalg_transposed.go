package ga

import (
	"errors"
	"slices"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/internal/layout"
	"github.com/goga-hpc/goga/scalapack"
)

// The solvers work on transposes. A process's part of a 2-D array is
// row-major; read column-major it is that process's part of the transpose.
// So a BlockCyclicGrid matrix on a P0 × P1 grid is, where it lies,
// ScaLAPACK's Aᵀ on a P1 × P0 BLACS grid whose column-major ranks are GA's
// row-major ones; and any array is copied into a block-cyclic Aᵀ by Gets of
// its patches straight into place, with no transposing. The solvers
// therefore work on M = Aᵀ: A·X = B is Xᵀ·M = Bᵀ, with Y = Bᵀ solved from the
// right by triangular solves.
//
// A BlockCyclicGrid A in square blocks is factored after one local memory
// copy (A must survive; SpdInvert works in A itself), with B in place when it
// has the same grid and row blocks.

// inPlace reports whether a (and b, unless nil) lie as ScaLAPACK can use them
// directly: 2-D BlockCyclicGrid arrays on one grid, a in square blocks and
// b's rows blocked as a's.
func inPlace[T Elem](a, b *Array[T]) bool {
	g := a.m.ProcGrid()
	if g == nil || len(a.dims) != 2 || a.m.BlockSize(0) != a.m.BlockSize(1) {
		return false
	}
	return b == nil || slices.Equal(b.m.ProcGrid(), g) && b.m.BlockSize(0) == a.m.BlockSize(0)
}

// storageOf reads x's storage (data, or x's own when data is nil) as xᵀ, on
// x's process grid transposed: P1 × P0, column-major, which holds every
// process.
func storageOf[T scalapack.Elem](x *Array[T], data []T) (*scalapack.Matrix[T], error) {
	pg := x.m.ProcGrid()
	rows, cols := pg[1], pg[0]
	g, err := x.g.grid(blacs.ColumnMajor, rows, cols)
	if err != nil {
		return nil, err
	}
	if data == nil {
		if data, err = x.localData(); err != nil {
			return nil, err
		}
	}
	if len(data) == 0 {
		data = make([]T, 1) // ScaLAPACK takes an address even with nothing local
	}
	_, _, myrow, _ := g.Info()
	m, n := x.dims[1], x.dims[0]
	mb, nb := x.m.BlockSize(1), x.m.BlockSize(0)
	d, err := scalapack.NewDesc(g, m, n, mb, nb, 0, 0, max(1, layout.Numroc(m, mb, myrow, 0, rows)))
	if err != nil {
		return nil, err
	}
	return &scalapack.Matrix[T]{Grid: g, Desc: d, Data: data}, nil
}

// workCopy copies src into the scratch s.
func workCopy[T scalapack.Elem](s *scratch, src []T) []T {
	w := scratchOf[T](s, len(src))
	copy(w, src)
	return w
}

// solveMethod is the factorization a solve uses: LU (LuSolve), Cholesky
// (LltSolve), or Cholesky with LU where A is not positive definite (Solve).
type solveMethod int

const (
	byLU solveMethod = iota
	byCholesky
	byCholeskyOrLU
)

// solveInPlace solves op(A)·X = B on the arrays' storage; B is overwritten
// by X. It checks that A (if scanA) and B hold no NaN or Inf first. It is
// collective; the caller has synchronized.
func solveInPlace[T scalapack.Elem](g *group, op string, how solveMethod, trans TransOp, a, b *Array[T], scanA bool) error {
	sa, sb, local, err := storageOfSystem(g, a, b)
	if err == nil && scanA {
		err = finiteTransposed(op, a, sa)
	}
	if err == nil {
		err = finiteTransposed(op, b, sb)
	}
	if err := agree(g, false, op, a.name, err, nil); err != nil {
		return err
	}
	refill := func() error { copy(sa.Data, local); return nil }
	if err := solveTransposed(how, trans, sa, sb, refill); err != nil {
		return err
	}
	return closing(g, op, b.name, nil)
}

// storageOfSystem gives M, a copy of A's storage, and Y, B's storage
// itself, and A's storage, from which M is refilled.
func storageOfSystem[T scalapack.Elem](g *group, a, b *Array[T]) (m, y *scalapack.Matrix[T], local []T, err error) {
	if local, err = a.localData(); err != nil {
		return nil, nil, nil, err
	}
	if m, err = storageOf(a, workCopy(&g.scratchA, local)); err != nil {
		return nil, nil, nil, err
	}
	y, err = storageOf(b, nil)
	return m, y, local, err
}

// solveTransposed solves with M = Aᵀ and Y = Bᵀ, overwriting Y with Xᵀ. refill
// puts Aᵀ back into M when Cholesky fails and LU takes over. The transposes
// are plain ones in every type: for a Hermitian A, M is conj(A), Hermitian
// too, and ConjTrans is Transpose for real types.
func solveTransposed[T scalapack.Elem](how solveMethod, trans TransOp, m, y *scalapack.Matrix[T], refill func() error) error {
	if how != byLU {
		err := scalapack.Potrf(scalapack.Lower, m)
		var npd *scalapack.NotPositiveDefiniteError
		if how == byCholesky || !errors.As(err, &npd) {
			if err != nil {
				return err
			}
			// Y·L·Lᴴ = Bᵀ.
			if err := scalapack.Trsm(scalapack.Right, scalapack.Lower, scalapack.ConjTrans, scalapack.NonUnit, 1, m, y); err != nil {
				return err
			}
			return scalapack.Trsm(scalapack.Right, scalapack.Lower, scalapack.NoTrans, scalapack.NonUnit, 1, m, y)
		}
		if err := refill(); err != nil { // not positive definite: start again by LU
			return err
		}
	}
	ipiv, err := scalapack.Getrf(m)
	if err != nil {
		return err
	}
	piv, err := scalapack.ColumnPivots(m, ipiv, y)
	if err != nil {
		return err
	}
	// M = P·L·U. A·X = B is Y·P·L·U = Bᵀ; Aᵀ·X = B is Y·Uᵀ·Lᵀ·Pᵀ = Bᵀ, and
	// Aᴴ·X = B is Y·Uᴴ·Lᴴ·Pᵀ = Bᵀ.
	if trans == scalapack.NoTrans {
		if err := scalapack.Trsm(scalapack.Right, scalapack.Upper, scalapack.NoTrans, scalapack.NonUnit, 1, m, y); err != nil {
			return err
		}
		if err := scalapack.Trsm(scalapack.Right, scalapack.Lower, scalapack.NoTrans, scalapack.Unit, 1, m, y); err != nil {
			return err
		}
		return scalapack.Lapiv(scalapack.Backward, blacs.Column, y, piv)
	}
	if err := scalapack.Lapiv(scalapack.Forward, blacs.Column, y, piv); err != nil {
		return err
	}
	if err := scalapack.Trsm(scalapack.Right, scalapack.Lower, trans, scalapack.Unit, 1, m, y); err != nil {
		return err
	}
	return scalapack.Trsm(scalapack.Right, scalapack.Upper, trans, scalapack.NonUnit, 1, m, y)
}

// invertTransposed replaces M = Aᵀ (A symmetric, or Hermitian: then M is
// conj(A)) by its inverse's lower triangle, which is A's inverse's upper one.
func invertTransposed[T scalapack.Elem](m *scalapack.Matrix[T]) error {
	if err := scalapack.Potrf(scalapack.Lower, m); err != nil {
		return err
	}
	return scalapack.Potri(scalapack.Lower, m)
}

// spdInvertInPlace inverts A in its storage; on failure A is restored. It
// is collective; the caller has synchronized.
func spdInvertInPlace[T scalapack.Elem](g *group, a *Array[T]) error {
	sa, err := storageOf(a, nil)
	if err := agree(g, false, "SpdInvert", a.name, err, nil); err != nil {
		return err
	}
	keep := workCopy(&g.scratchA, sa.Data)
	if err := invertTransposed(sa); err != nil {
		copy(sa.Data, keep)
		return err
	}
	return mirrorUpper(g, a, nil)
}

// mirrorUpper completes A from its upper triangle, once every process has
// written its part of that triangle (local: whether this one could).
func mirrorUpper[T scalapack.Elem](g *group, a *Array[T], local error) error {
	if err := agree(g, true, "SpdInvert", a.name, local, nil); err != nil {
		return err
	}
	return closing(g, "SpdInvert", a.name, mirror(a, true))
}
