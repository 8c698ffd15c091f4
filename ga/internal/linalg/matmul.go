package linalg

import (
	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/scalapack"
)

// Matmul computes C = alpha·op(A)·op(B) + beta·C on the patches a, b and c,
// whose shapes the caller has checked and agreed on (ta and tb NoTrans or
// Trans). On one node each process computes its share of C from the
// operands' storage (mapped.go), when every process can; elsewhere the
// operands are read into block-cyclic transposes and multiplied by PxGEMM.
// C may be A or B, even overlapping them: every operand is read before C is
// written. Where beta is 0, C is not read. It is collective, and ends with
// c's Close unless ScaLAPACK fails (alike on every process).
func Matmul[T scalapack.Elem](e *Env, c Call, ta, tb scalapack.Trans, alpha T, a, b Patch[T], beta T, cp Patch[T]) error {
	// C may be A or B in MatmulPatch: then it would be read while written.
	notMapped := []int64{0}
	if !a.mappable() || !b.mappable() || !cp.mappable() || cp.X == a.X || cp.X == b.X {
		notMapped[0] = 1
	}
	if err := c.AllMax(notMapped); err != nil {
		return c.Close(cp.X.Name(), err)
	}
	if notMapped[0] == 0 {
		return c.Close(cp.X.Name(), mappedProduct(e, ta, tb, alpha, a, b, beta, cp))
	}
	grid, err := e.solverGrid()
	if err != nil {
		return err
	}
	// Cᵀ = alpha·op(B)ᵀ·op(A)ᵀ + beta·Cᵀ, on the transposes the Gets make.
	at, bt, ct, err := readProduct(e, grid, a, b, cp, beta == 0)
	// Everyone has read every operand before anyone writes C, which may
	// therefore overlap them.
	if err := c.Agree(true, cp.X.Name(), err); err != nil {
		return err
	}
	if err := scalapack.Gemm(tb, ta, alpha, bt, at, beta, ct); err != nil {
		return err
	}
	return c.Close(cp.X.Name(), putTransposed(ct, cp))
}

// readProduct reads the transposes of the product's patches (C's only if
// it is used) into block-cyclic matrices on grid, in e's scratch.
func readProduct[T scalapack.Elem](e *Env, grid *blacs.Grid, a, b, c Patch[T], emptyC bool) (at, bt, ct *scalapack.Matrix[T], err error) {
	nb := gemmBlock
	if at, err = getTransposed(grid, a, nb, nb, &e.scratchA); err != nil {
		return nil, nil, nil, err
	}
	if bt, err = getTransposed(grid, b, nb, nb, &e.scratchB); err != nil {
		return nil, nil, nil, err
	}
	if emptyC {
		ct, err = emptyTransposed[T](grid, c.Rows, c.Cols, nb, nb, &e.scratchC)
	} else {
		ct, err = getTransposed(grid, c, nb, nb, &e.scratchC)
	}
	return at, bt, ct, err
}

// gemmBlock is the block size of Gemm's copies: PxGEMM runs fastest with
// larger blocks than the factorizations (measured on 2 and 4 processes).
const gemmBlock = 64
