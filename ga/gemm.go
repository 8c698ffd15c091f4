package ga

import (
	"fmt"

	"github.com/goga-hpc/goga/ga/internal/linalg"
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
	return matmul(op, ta, tb, alpha, leading(a, ar, ac), leading(b, br, bc), beta, leading(c, m, n), c, check, l)
}

// matmul computes C = alpha·op(A)·op(B) + beta·C on the patches a, b and c
// (c a patch of cx), whose shapes the caller has checked
// (check: its verdict; l: the text of its arguments, the arrays among
// them): it agrees, then multiplies in the bridge (linalg.Matmul). It is
// collective, and honours MaskSync.
func matmul[T scalapack.Elem](op string, ta, tb TransOp, alpha T, a, b linalg.Patch[T], beta T, c linalg.Patch[T], cx *Array[T], check error, l *args) error {
	g, err := groupOf(op, cx)
	if err != nil {
		return err
	}
	l = writing(l.str("alpha", fmt.Sprint(alpha)).str("beta", fmt.Sprint(beta)), cx)
	if err := opening(g, op, cx.Name(), check, l); err != nil {
		return err
	}
	return linalg.Matmul(g.la, &bridgeCall{g, op}, ta, tb, alpha, a, b, beta, c)
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
