package ga

import (
	"errors"
	"slices"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/internal/dist"
	"github.com/goga-hpc/goga/scalapack"
)

// The in-place path. A BlockCyclicGrid matrix on a P0 × P1 grid in nb × nb
// blocks stores, on the process at (p0, p1), the rows of block row p0 mod
// P0 and the columns of block column p1 mod P1, row-major. Read column-major,
// that storage is ScaLAPACK's local part of Aᵀ on a P1 × P0 BLACS grid whose
// column-major ranks are GA's row-major ones. So ScaLAPACK works on M = Aᵀ
// where the array lies, with no redistribution, and the solvers are written
// for it: A·X = B is Xᵀ·M = Bᵀ, and B's storage, read the same way, is
// Y = Bᵀ, solved from the right with triangular solves.
//
// The factorization still needs a copy of A's storage, made locally in a
// reused workspace, because A must stay as it was (SpdInvert keeps one to
// restore A on failure).

// inPlace reports whether a (and b, unless nil) lie as ScaLAPACK can use them
// directly: 2-D BlockCyclicGrid arrays on one grid, a in square blocks and
// b's rows blocked as a's.
func inPlace(a, b *Array[float64]) bool {
	g := a.m.ProcGrid
	if g == nil || len(a.dims) != 2 || a.m.BlockSize(0) != a.m.BlockSize(1) {
		return false
	}
	return b == nil || slices.Equal(b.m.ProcGrid, g) && b.m.BlockSize(0) == a.m.BlockSize(0)
}

// transposedGrid makes the BLACS grid on which a's storage is Aᵀ's.
func transposedGrid(op string, a *Array[float64]) (*blacs.Grid, error) {
	if _, err := runtime(op); err != nil {
		return nil, err
	}
	return blacs.GridInit(Comm(), blacs.ColumnMajor, a.m.ProcGrid[1], a.m.ProcGrid[0])
}

// transposedMatrix is x's storage (data, or x's own when data is nil) seen by
// ScaLAPACK as xᵀ on g.
func transposedMatrix(g *blacs.Grid, x *Array[float64], data []float64) (*scalapack.Matrix[float64], error) {
	if data == nil {
		var err error
		if data, err = x.localData(); err != nil {
			return nil, err
		}
	}
	if len(data) == 0 {
		data = make([]float64, 1) // ScaLAPACK takes an address even with nothing local
	}
	_, _, myrow, _ := g.Info()
	rows, cols := x.dims[1], x.dims[0]
	mb, nb := x.m.BlockSize(1), x.m.BlockSize(0)
	d, err := scalapack.NewDesc(g, rows, cols, mb, nb, 0, 0, max(1, dist.Numroc(rows, mb, myrow, x.m.ProcGrid[1])))
	if err != nil {
		return nil, err
	}
	return &scalapack.Matrix[float64]{Grid: g, Desc: d, Data: data}, nil
}

// workCopy copies src into the solvers' scratch for A.
func workCopy(src []float64) []float64 {
	w := scratchA.floats(len(src))
	copy(w, src)
	return w
}

// kind of in-place solve.
const (
	byLU = iota
	byCholesky
	byCholeskyOrLU
)

// solveInPlace solves op(A)·X = B on the arrays' storage; B is overwritten
// by X. It is collective; the caller has synchronized.
func solveInPlace(op string, how int, trans scalapack.Trans, a, b *Array[float64]) error {
	g, err := transposedGrid(op, a)
	if err != nil {
		return err
	}
	defer g.Exit()
	local, err := a.localData()
	if err != nil {
		return err
	}
	m, err := transposedMatrix(g, a, workCopy(local))
	if err != nil {
		return err
	}
	y, err := transposedMatrix(g, b, nil)
	if err != nil {
		return err
	}
	if how != byLU {
		err := scalapack.Potrf(scalapack.Lower, m)
		var npd *scalapack.NotPositiveDefiniteError
		if how == byCholesky || !errors.As(err, &npd) {
			if err != nil {
				return err
			}
			// Y·L·Lᵀ = Bᵀ.
			if err := scalapack.Trsm(scalapack.Right, scalapack.Lower, scalapack.Transpose, scalapack.NonUnit, 1, m, y); err != nil {
				return err
			}
			if err := scalapack.Trsm(scalapack.Right, scalapack.Lower, scalapack.NoTrans, scalapack.NonUnit, 1, m, y); err != nil {
				return err
			}
			return Sync()
		}
		copy(m.Data, local) // not positive definite: start again by LU
	}
	ipiv, err := scalapack.Getrf(m)
	if err != nil {
		return err
	}
	piv, err := scalapack.ColumnPivots(m, ipiv, y)
	if err != nil {
		return err
	}
	// M = P·L·U. A·X = B is Y·P·L·U = Bᵀ; Aᵀ·X = B is Y·Uᵀ·Lᵀ·Pᵀ = Bᵀ.
	if trans == scalapack.NoTrans {
		if err := scalapack.Trsm(scalapack.Right, scalapack.Upper, scalapack.NoTrans, scalapack.NonUnit, 1, m, y); err != nil {
			return err
		}
		if err := scalapack.Trsm(scalapack.Right, scalapack.Lower, scalapack.NoTrans, scalapack.Unit, 1, m, y); err != nil {
			return err
		}
		if err := scalapack.Lapiv(scalapack.Backward, blacs.Column, y, piv); err != nil {
			return err
		}
		return Sync()
	}
	if err := scalapack.Lapiv(scalapack.Forward, blacs.Column, y, piv); err != nil {
		return err
	}
	if err := scalapack.Trsm(scalapack.Right, scalapack.Lower, scalapack.Transpose, scalapack.Unit, 1, m, y); err != nil {
		return err
	}
	if err := scalapack.Trsm(scalapack.Right, scalapack.Upper, scalapack.Transpose, scalapack.NonUnit, 1, m, y); err != nil {
		return err
	}
	return Sync()
}

// spdInvertInPlace inverts A in its storage; on failure A is restored. It
// is collective; the caller has synchronized.
func spdInvertInPlace(a *Array[float64]) error {
	g, err := transposedGrid("SpdInvert", a)
	if err != nil {
		return err
	}
	defer g.Exit()
	m, err := transposedMatrix(g, a, nil)
	if err != nil {
		return err
	}
	keep := workCopy(m.Data)
	err = scalapack.Potrf(scalapack.Lower, m)
	if err == nil {
		err = scalapack.Potri(scalapack.Lower, m)
	}
	if err != nil {
		copy(m.Data, keep)
		return err
	}
	if err := Sync(); err != nil {
		return err
	}
	// M's lower triangle is A's upper one.
	if err := mirror(a, true); err != nil {
		return err
	}
	return Sync()
}
