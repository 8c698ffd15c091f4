package linalg

import (
	"errors"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/scalapack"
)

// The solvers work on M = Aᵀ and Y = Bᵀ (see the package doc). A
// BlockCyclicGrid A in square blocks is factored after one local memory
// copy (A must survive; SpdInvert works in A itself), with B in place when
// it has the same grid and row blocks; any other A is copied into a
// block-cyclic matrix on a near-square process grid by one-sided Gets,
// solved there, and the result copied back.

// Method is the factorization a solve uses: LU (LuSolve), Cholesky
// (LltSolve), or Cholesky with LU where A is not positive definite (Solve).
type Method int

const (
	ByLU Method = iota
	ByCholesky
	ByCholeskyOrLU
)

// Solve solves op(A)·X = B, overwriting B with X and leaving A as it was;
// A is n × n, B n × nrhs, as the caller has checked and agreed. Where
// Cholesky may be used, A is checked for symmetry first (check.go). It
// returns the factorization that solved it, ByCholesky or ByLU. It is
// collective, and ends with c's Close unless ScaLAPACK fails (alike on
// every process).
func Solve[T scalapack.Elem](e *Env, c Call, how Method, trans scalapack.Trans, a, b Array[T], n, nrhs int) (Method, error) {
	scanA := how == ByLU // otherwise the symmetry check reads all of A
	if how != ByLU {
		sym, err := checkSymmetric(c, a, how == ByCholesky)
		if err != nil {
			return how, err
		}
		if !sym {
			how = ByLU
		}
	}
	if inPlace(a, b) {
		return solveInPlace(e, c, how, trans, a, b, scanA)
	}
	m, y, refill, err := readSystem(e, c, a, b, n, nrhs, scanA)
	// Everyone has read B before anyone writes it, and found it sound.
	if err := c.Agree(true, a.Name(), err); err != nil {
		return how, err
	}
	// ScaLAPACK's INFO is the same on every process, so all fail alike.
	if how, err = solveTransposed(how, trans, m, y, refill); err != nil {
		return how, err
	}
	return how, c.Close(b.Name(), putTransposed(y, Leading(b, n, nrhs)))
}

// readSystem reads M = Aᵀ and Y = Bᵀ for Solve and checks that they hold no
// NaN or Inf (M only if scanA). refill reads M again.
func readSystem[T scalapack.Elem](e *Env, c Call, a, b Array[T], n, nrhs int, scanA bool) (m, y *scalapack.Matrix[T], refill func() error, err error) {
	refill = func() error { return refillTransposed(m, Leading(a, n, n)) }
	if inPlace(a, nil) {
		local, err := a.Local()
		if err != nil {
			return nil, nil, nil, err
		}
		if m, err = storageOf(e, a, workCopy(&e.scratchA, local)); err != nil {
			return nil, nil, nil, err
		}
		refill = func() error { copy(m.Data, local); return nil }
	} else {
		grid, err := e.solverGrid()
		if err != nil {
			return nil, nil, nil, err
		}
		nb := min(e.Block(), max(n, 1))
		if m, err = getTransposed(grid, Leading(a, n, n), nb, nb, &e.scratchA); err != nil {
			return nil, nil, nil, err
		}
	}
	if y, err = getTransposed(m.Grid, Leading(b, n, nrhs), min(m.Desc.MB, nrhs), m.Desc.MB, &e.scratchB); err != nil {
		return nil, nil, nil, err
	}
	if scanA {
		if err := finiteTransposed(c, a, m); err != nil {
			return nil, nil, nil, err
		}
	}
	return m, y, refill, finiteTransposed(c, b, y)
}

// solveInPlace solves op(A)·X = B on the arrays' storage; B is overwritten
// by X. It checks that A (if scanA) and B hold no NaN or Inf first. It is
// collective; the caller has synchronized.
func solveInPlace[T scalapack.Elem](e *Env, c Call, how Method, trans scalapack.Trans, a, b Array[T], scanA bool) (Method, error) {
	sa, sb, local, err := storageOfSystem(e, a, b)
	if err == nil && scanA {
		err = finiteTransposed(c, a, sa)
	}
	if err == nil {
		err = finiteTransposed(c, b, sb)
	}
	if err := c.Agree(false, a.Name(), err); err != nil {
		return how, err
	}
	refill := func() error { copy(sa.Data, local); return nil }
	if how, err = solveTransposed(how, trans, sa, sb, refill); err != nil {
		return how, err
	}
	return how, c.Close(b.Name(), nil)
}

// storageOfSystem gives M, a copy of A's storage, and Y, B's storage
// itself, and A's storage, from which M is refilled.
func storageOfSystem[T scalapack.Elem](e *Env, a, b Array[T]) (m, y *scalapack.Matrix[T], local []T, err error) {
	if local, err = a.Local(); err != nil {
		return nil, nil, nil, err
	}
	if m, err = storageOf(e, a, workCopy(&e.scratchA, local)); err != nil {
		return nil, nil, nil, err
	}
	y, err = storageOf(e, b, nil)
	return m, y, local, err
}

// solveTransposed solves with M = Aᵀ and Y = Bᵀ, overwriting Y with Xᵀ. refill
// puts Aᵀ back into M when Cholesky fails and LU takes over. The transposes
// are plain ones in every type: for a Hermitian A, M is conj(A), Hermitian
// too, and ConjTrans is Transpose for real types. It returns the
// factorization that solved, ByCholesky or ByLU.
func solveTransposed[T scalapack.Elem](how Method, trans scalapack.Trans, m, y *scalapack.Matrix[T], refill func() error) (Method, error) {
	if how != ByLU {
		err := scalapack.Potrf(scalapack.Lower, m)
		var npd *scalapack.NotPositiveDefiniteError
		if how == ByCholesky || !errors.As(err, &npd) {
			if err != nil {
				return ByCholesky, err
			}
			// Y·L·Lᴴ = Bᵀ.
			if err := scalapack.Trsm(scalapack.Right, scalapack.Lower, scalapack.ConjTrans, scalapack.NonUnit, 1, m, y); err != nil {
				return ByCholesky, err
			}
			return ByCholesky, scalapack.Trsm(scalapack.Right, scalapack.Lower, scalapack.NoTrans, scalapack.NonUnit, 1, m, y)
		}
		if err := refill(); err != nil { // not positive definite: start again by LU
			return ByLU, err
		}
	}
	ipiv, err := scalapack.Getrf(m)
	if err != nil {
		return ByLU, err
	}
	piv, err := scalapack.ColumnPivots(m, ipiv, y)
	if err != nil {
		return ByLU, err
	}
	// M = P·L·U. A·X = B is Y·P·L·U = Bᵀ; Aᵀ·X = B is Y·Uᵀ·Lᵀ·Pᵀ = Bᵀ, and
	// Aᴴ·X = B is Y·Uᴴ·Lᴴ·Pᵀ = Bᵀ.
	if trans == scalapack.NoTrans {
		if err := scalapack.Trsm(scalapack.Right, scalapack.Upper, scalapack.NoTrans, scalapack.NonUnit, 1, m, y); err != nil {
			return ByLU, err
		}
		if err := scalapack.Trsm(scalapack.Right, scalapack.Lower, scalapack.NoTrans, scalapack.Unit, 1, m, y); err != nil {
			return ByLU, err
		}
		return ByLU, scalapack.Lapiv(scalapack.Backward, blacs.Column, y, piv)
	}
	if err := scalapack.Lapiv(scalapack.Forward, blacs.Column, y, piv); err != nil {
		return ByLU, err
	}
	if err := scalapack.Trsm(scalapack.Right, scalapack.Lower, trans, scalapack.Unit, 1, m, y); err != nil {
		return ByLU, err
	}
	return ByLU, scalapack.Trsm(scalapack.Right, scalapack.Upper, trans, scalapack.NonUnit, 1, m, y)
}

// SpdInvert replaces the symmetric (Hermitian) positive definite n × n A by
// its inverse, as the caller has checked and agreed; A that is not
// symmetric, holds NaN or Inf, or is not positive definite is left as it
// was. It is collective.
func SpdInvert[T scalapack.Elem](e *Env, c Call, a Array[T], n int) error {
	if _, err := checkSymmetric(c, a, true); err != nil {
		return err
	}
	if inPlace(a, nil) {
		return spdInvertInPlace(e, c, a)
	}
	grid, err := e.solverGrid()
	if err != nil {
		return err
	}
	nb := min(e.Block(), max(n, 1))
	m, err := getTransposed[T](grid, Leading(a, n, n), nb, nb, &e.scratchA)
	// Everyone has read A before anyone writes it.
	if err := c.Agree(true, a.Name(), err); err != nil {
		return err
	}
	if err := invertTransposed(m); err != nil {
		return err
	}
	return mirrorUpper(c, a, putTransposed(m, Leading(a, n, n)))
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
func spdInvertInPlace[T scalapack.Elem](e *Env, c Call, a Array[T]) error {
	sa, err := storageOf(e, a, nil)
	if err := c.Agree(false, a.Name(), err); err != nil {
		return err
	}
	keep := workCopy(&e.scratchA, sa.Data)
	if err := invertTransposed(sa); err != nil {
		copy(sa.Data, keep)
		return err
	}
	return mirrorUpper(c, a, nil)
}

// mirrorUpper completes A from its upper triangle, once every process has
// written its part of that triangle (local: whether this one could).
func mirrorUpper[T scalapack.Elem](c Call, a Array[T], local error) error {
	if err := c.Agree(true, a.Name(), local); err != nil {
		return err
	}
	return c.Close(a.Name(), mirror(a, true))
}

// mirror makes the square array a symmetric (complex: Hermitian) from one
// triangle (the upper one if upper, else the lower): every process fills
// the other triangle's entries of its blocks from the mirror patches.
// Nobody writes the triangle that is read. It is collective; the caller has
// synchronized.
func mirror[T scalapack.Elem](a Array[T], upper bool) error {
	conj := conjOf[T]()
	return withMirrors(a, func(i, j int, v *T, mirror T) {
		if (upper && j < i) || (!upper && j > i) {
			*v = conj(mirror)
		}
	})
}

// conjOf is T's complex conjugation; the identity for real T.
func conjOf[T scalapack.Elem]() func(T) T {
	switch any(*new(T)).(type) {
	case complex64:
		return func(v T) T { c := any(v).(complex64); return any(complex(real(c), -imag(c))).(T) }
	case complex128:
		return func(v T) T { c := any(v).(complex128); return any(complex(real(c), -imag(c))).(T) }
	}
	return func(v T) T { return v }
}

// withMirrors calls f for every element (i, j) this process stores of the
// square array a, in place, with a[j][i], read in one Get per block.
func withMirrors[T scalapack.Elem](a Array[T], f func(i, j int, v *T, mirror T)) error {
	local, err := a.Local()
	if err != nil {
		return err
	}
	return a.StoredBlocks(func(lo, hi []int, off int, ext []int) error {
		h := hi[0] - lo[0] + 1
		tr := make([]T, (hi[1]-lo[1]+1)*h)
		if err := a.Get([]int{lo[1], lo[0]}, []int{hi[1], hi[0]}, tr, nil); err != nil {
			return err
		}
		for i := lo[0]; i <= hi[0]; i++ {
			for j := lo[1]; j <= hi[1]; j++ {
				f(i, j, &local[off+(i-lo[0])*ext[1]+(j-lo[1])], tr[(j-lo[1])*h+(i-lo[0])])
			}
		}
		return nil
	})
}
