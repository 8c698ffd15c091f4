package ga

import (
	"fmt"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/scalapack"
)

// Gemm computes C = alpha·op(A)·op(B) + beta·C (GA_Dgemm, GA_Zgemm), where
// op(X) is X for NoTrans and Xᵀ for Trans, op(A) is m × k, op(B) k × n and
// C m × n.
// The arrays are 2-D and at least that large; the operation uses their
// leading patches, as GA does. C must be another array than A and B. It is
// collective, and honours MaskSync as GA's matmul does.
//
// On one node, where every process maps every block of A, B and C, each
// process multiplies its blocks of C in place with the BLAS, reading A's
// and B's blocks where they live. Elsewhere the operands are read by Gets
// into block-cyclic matrices on a near-square grid of every process, as the
// solvers do, multiplied there by PxGEMM, and C written back. Where beta is
// 0, C is not read.
func Gemm[T scalapack.Elem](ta, tb TransOp, m, n, k int, alpha T, a, b *Array[T], beta T, c *Array[T]) error {
	const op = "Gemm"
	ta, tb = upperTrans(ta), upperTrans(tb)
	ar, ac, br, bc, check := gemmShape(ta, tb, m, n, k, a, b, c)
	l := array(array(array(newArgs(op).ints("trans", int(ta), int(tb)).ints("mnk", m, n, k), "A", a), "B", b), "C", c)
	return matmul(op, ta, tb, alpha, leading(a, ar, ac), leading(b, br, bc), beta, leading(c, m, n), check, l)
}

// matmul computes C = alpha·op(A)·op(B) + beta·C on the patches a, b and c,
// whose shapes the caller has checked (check: its verdict; l: the text of
// its arguments, the arrays among them). It is collective, and honours
// MaskSync.
func matmul[T scalapack.Elem](op string, ta, tb TransOp, alpha T, a, b patch2[T], beta T, c patch2[T], check error, l *args) error {
	g, err := groupOf(op, c.x)
	if err != nil {
		return err
	}
	l = writing(l.str("alpha", fmt.Sprint(alpha)).str("beta", fmt.Sprint(beta)), c.x)
	if err := opening(g, op, c.x.Name(), check, l); err != nil {
		return err
	}
	// On one node each process computes its blocks of C from the operands'
	// storage (gemm_mapped.go), when every process can. C may be A or B in
	// MatmulPatch: then it would be read while written.
	notMapped := []int64{0}
	if !a.mappable() || !b.mappable() || !c.mappable() || c.x == a.x || c.x == b.x {
		notMapped[0] = 1
	}
	if err := g.rt.AllMax(notMapped); err != nil {
		return closing(g, op, c.x.name, err)
	}
	if notMapped[0] == 0 {
		return closing(g, op, c.x.name, mappedProduct(ta, tb, alpha, a, b, beta, c))
	}
	grid, err := g.solverGrid()
	if err != nil {
		return err
	}
	// Cᵀ = alpha·op(B)ᵀ·op(A)ᵀ + beta·Cᵀ, on the transposes the Gets make.
	at, bt, ct, err := readProduct(g, grid, a, b, c, beta == 0)
	// Everyone has read every operand before anyone writes C, which may
	// therefore overlap them.
	if err := agree(g, true, op, c.x.name, err, nil); err != nil {
		return err
	}
	if err := scalapack.Gemm(tb, ta, alpha, bt, at, beta, ct); err != nil {
		return err
	}
	return closing(g, op, c.x.name, putTransposed(ct, c))
}

// gemmShape checks Gemm's arguments and returns the shapes of the leading
// patches of A (ar × ac) and B (br × bc) that it uses.
func gemmShape[T scalapack.Elem](ta, tb TransOp, m, n, k int, a, b, c *Array[T]) (ar, ac, br, bc int, err error) {
	const op = "Gemm"
	for _, x := range []*Array[T]{a, b, c} {
		if err := x.valid(op); err != nil {
			return 0, 0, 0, 0, err
		}
	}
	if ta != NoTrans && ta != Trans {
		return 0, 0, 0, 0, errorf(op, a.name, "ta %q; want NoTrans ('N') or Trans ('T')", ta)
	}
	if tb != NoTrans && tb != Trans {
		return 0, 0, 0, 0, errorf(op, b.name, "tb %q; want NoTrans ('N') or Trans ('T')", tb)
	}
	if m < 1 || n < 1 || k < 1 {
		return 0, 0, 0, 0, errorf(op, c.name, "m, n, k = %d, %d, %d; each must be at least 1", m, n, k)
	}
	if c == a || c == b {
		return 0, 0, 0, 0, errorf(op, c.name, "C is also an operand")
	}
	// The leading patches: A is m × k (k × m for Trans), B k × n (n × k).
	ar, ac = m, k
	if ta == Trans {
		ar, ac = k, m
	}
	br, bc = k, n
	if tb == Trans {
		br, bc = n, k
	}
	for _, s := range []struct {
		x    *Array[T]
		r, c int
		what string
	}{{a, ar, ac, "op(A) is m × k"}, {b, br, bc, "op(B) is k × n"}, {c, m, n, "C is m × n"}} {
		if len(s.x.dims) != 2 || s.x.dims[0] < s.r || s.x.dims[1] < s.c {
			return 0, 0, 0, 0, errorf(op, s.x.name, "dims %v: %s with m, n, k = %d, %d, %d, so it needs %d × %d", s.x.dims, s.what, m, n, k, s.r, s.c)
		}
	}
	return ar, ac, br, bc, nil
}

// readProduct reads the transposes of the product's patches (C's only if
// it is used) into block-cyclic matrices on grid, in g's scratch.
func readProduct[T scalapack.Elem](g *group, grid *blacs.Grid, a, b, c patch2[T], emptyC bool) (at, bt, ct *scalapack.Matrix[T], err error) {
	nb := gemmBlock
	if at, err = getTransposed(grid, a, nb, nb, &g.scratchA); err != nil {
		return nil, nil, nil, err
	}
	if bt, err = getTransposed(grid, b, nb, nb, &g.scratchB); err != nil {
		return nil, nil, nil, err
	}
	if emptyC {
		ct, err = emptyTransposed[T](grid, c.rows, c.cols, nb, nb, &g.scratchC)
	} else {
		ct, err = getTransposed(grid, c, nb, nb, &g.scratchC)
	}
	return at, bt, ct, err
}

// gemmBlock is the block size of Gemm's copies: PxGEMM runs fastest with
// larger blocks than the factorizations (measured on 2 and 4 processes).
const gemmBlock = 64
