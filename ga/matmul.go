package ga

import (
	"github.com/goga-hpc/goga/ga/internal/linalg"
	"github.com/goga-hpc/goga/scalapack"
)

// MatmulPatch computes C[clo:chi] = alpha·op(A[alo:ahi])·op(B[blo:bhi]) +
// beta·C[clo:chi] (GA_Matmul_patch, NGA_Matmul_patch, and through them
// GA_Sgemm, GA_Dgemm, GA_Cgemm and GA_Zgemm on patches), where op(X) is X for
// NoTrans and Xᵀ for Trans (GA's 'n' and 't', either case). It is
// collective, and honours MaskSync.
//
// Every patch is given in C order as it lies in its array, transposed or
// not: op is applied to it. A patch is 2-D: its dimensions of more than one
// element are its rows and columns, in that order, so an n-D array takes
// part through any 2-D slice of it. A patch along one dimension is read as
// GA reads it (global/src/matmul.c, gai_setup_2d_patch): along the array's
// first dimension a column, along its last a row, and along any other
// dimension a row unless a column makes the shapes agree. op(A) must be
// m × k, op(B) k × n and C m × n. Where these do not agree with such a row,
// it becomes a column as in GA: if only one patch is such a row, that one;
// if A and B are, B where op(B) has not C's columns and A where op(A) has
// not C's rows; if B and C are, B where op(B)'s rows are not op(A)'s columns,
// then C where its rows are not op(A)'s; if A and C are, A where op(A)'s
// columns are not op(B)'s rows, then C where its columns are not op(B)'s;
// if all three are, it is an error. A transposed row or column is that
// vector: transposing a patch turns the row into a column and back. The
// arrays may be distributed in any way, and C may be one of A and B, even
// overlapping them: every operand is read before C is written. Where beta
// is 0, C is not read.
//
// GA's two calls take their bounds differently, and map onto this one so:
//   - NGA_Matmul_patch(ta, tb, ..., a, alo, ahi, ...) gives a transposed
//     operand's bounds in op() coordinates: pass them with the ranges of its
//     two dimensions swapped (for a 2-D array, the dimensions reversed). A
//     transposed patch along one dimension of an array of more than two
//     dimensions has no such pair: GA reads it along the dimension after the
//     one its bounds span (before, for the last), and refuses it where it
//     would have to turn it into a column (it takes a 1 × 1 patch instead);
//     MatmulPatch reads such a vector where it lies, and turns it as any other.
//   - GA_Matmul_patch(ta, tb, alpha, beta, a, ailo, aihi, ajlo, ajhi, b, ...,
//     c, cilo, cihi, cjlo, cjhi) (the 2-D C call) sees every array in
//     Fortran order, that is transposed, with the ranges of op(A) and op(B):
//     it is MatmulPatch(tb, ta, alpha, b, ..., a, ..., beta, c, clo, chi),
//     B first, with clo = {cjlo, cilo}, chi = {cjhi, cihi}, and each
//     operand's patch {jlo, ilo}..{jhi, ihi} for 'n', {ilo, jlo}..{ihi, jhi}
//     for 't'.
//
// Integer arrays are not multiplied, as in GA.
func MatmulPatch[T scalapack.Elem](ta, tb TransOp, alpha T, a *Array[T], alo, ahi []int, b *Array[T], blo, bhi []int, beta T, c *Array[T], clo, chi []int) error {
	const op = "MatmulPatch"
	pa, pb, pc, check := matmulShape(op, ta, tb, a, alo, ahi, b, blo, bhi, c, clo, chi)
	l := patchArgs(patchArgs(patchArgs(newArgs(op), "A", a, alo, ahi, ta), "B", b, blo, bhi, tb), "C", c, clo, chi, NoTrans)
	return matmul(op, upperTrans(ta), upperTrans(tb), alpha, pa, pb, beta, pc, c, check, l)
}

// matmulShape checks MatmulPatch's arguments and returns its three patches.
// An invalid array is left to collective's agreement to name, with the
// others' shapes unchecked.
func matmulShape[T scalapack.Elem](op string, ta, tb TransOp, a *Array[T], alo, ahi []int, b *Array[T], blo, bhi []int, c *Array[T], clo, chi []int) (pa, pb, pc linalg.Patch[T], err error) {
	for _, x := range []*Array[T]{a, b, c} {
		if err := x.valid(op); err != nil {
			return pa, pb, pc, err
		}
	}
	at, err := transFlag(op, a.name, ta)
	if err != nil {
		return pa, pb, pc, err
	}
	bt, err := transFlag(op, b.name, tb)
	if err != nil {
		return pa, pb, pc, err
	}
	pa, ai, err := gaPatch(op, a, alo, ahi)
	if err != nil {
		return pa, pb, pc, err
	}
	pb, bi, err := gaPatch(op, b, blo, bhi)
	if err != nil {
		return pa, pb, pc, err
	}
	pc, ci, err := gaPatch(op, c, clo, chi)
	if err != nil {
		return pa, pb, pc, err
	}
	// A vector along an inner dimension is a row; it becomes a column where
	// that makes the shapes agree.
	if m, k, kb, n, cm, cn := productShape(at, bt, pa, pb, pc); k != kb || m != cm || n != cn {
		if ai && bi && ci {
			return pa, pb, pc, errorf(op, c.name, "patches A lo %v hi %v, B lo %v hi %v and C lo %v hi %v each lie along an inner dimension, so each may be a row or a column; as rows op(A) is %d × %d, op(B) %d × %d and C %d × %d", alo, ahi, blo, bhi, clo, chi, m, k, kb, n, cm, cn)
		}
		turnInner(at, bt, ai, bi, ci, &pa, &pb, &pc)
	}
	m, k, kb, n, _, _ := productShape(at, bt, pa, pb, pc)
	switch {
	case k != kb:
		return pa, pb, pc, errorf(op, b.name, "op(B) is %d × %d: its %d rows do not match op(A)'s %d columns", kb, n, kb, k)
	case pc.Rows != m || pc.Cols != n:
		return pa, pb, pc, errorf(op, c.name, "patch lo %v hi %v is %d × %d; op(A)·op(B) is %d × %d", clo, chi, pc.Rows, pc.Cols, m, n)
	}
	return pa, pb, pc, nil
}

// productShape returns the shapes of op(A) (m × k), op(B) (kb × n) and C
// (cm × cn), A and B transposed where at and bt are set.
func productShape[T Elem](at, bt bool, pa, pb, pc linalg.Patch[T]) (m, k, kb, n, cm, cn int) {
	m, k = pa.Rows, pa.Cols
	if at {
		m, k = k, m
	}
	kb, n = pb.Rows, pb.Cols
	if bt {
		kb, n = n, kb
	}
	return m, k, kb, n, pc.Rows, pc.Cols
}

// turnInner turns the patches that lie along an inner dimension (ai, bi,
// ci: not all three), rows so far, into columns where that makes the
// product's shapes agree, by GA's rule (gai_matmul_patch), which looks at
// one condition per vector and never tries both shapes.
func turnInner[T Elem](at, bt, ai, bi, ci bool, pa, pb, pc *linalg.Patch[T]) {
	m, k, kb, n, cm, cn := productShape(at, bt, *pa, *pb, *pc)
	switch {
	case ai && bi:
		if n != cn {
			*pb = pb.Column()
		}
		if m != cm {
			*pa = pa.Column()
		}
	case bi && ci:
		if kb != k {
			*pb = pb.Column()
		}
		if m, _, _, _, cm, _ := productShape(at, bt, *pa, *pb, *pc); m != cm {
			*pc = pc.Column()
		}
	case ai && ci:
		if kb != k {
			*pa = pa.Column()
		}
		if _, _, _, n, _, cn := productShape(at, bt, *pa, *pb, *pc); n != cn {
			*pc = pc.Column()
		}
	case ai:
		*pa = pa.Column()
	case bi:
		*pb = pb.Column()
	case ci:
		*pc = pc.Column()
	}
}

// matrixPatch checks that [lo, hi] is a 2-D patch of x and returns it as
// one, a patch along one inner dimension as a column.
func matrixPatch[T Elem](op string, x *Array[T], lo, hi []int) (linalg.Patch[T], error) {
	p, inner, err := gaPatch(op, x, lo, hi)
	if inner {
		p = p.Column()
	}
	return p, err
}

// gaPatch checks that [lo, hi] is a 2-D patch of x and returns it as one,
// as GA's gai_setup_2d_patch reads it: rows and columns along the
// dimensions of more than one element, in C order; along one dimension, a
// column for x's first dimension and a row otherwise, inner reporting a row
// along neither the first nor the last, which may be a column instead; a
// single element as one in x's last two dimensions.
func gaPatch[T Elem](op string, x *Array[T], lo, hi []int) (p linalg.Patch[T], inner bool, err error) {
	nd := len(x.dims)
	if nd < 2 {
		return p, false, errorf(op, x.name, "dims %v: a matrix needs an array of at least 2 dimensions", x.dims)
	}
	if err := x.checkPatch(op, lo, hi); err != nil {
		return p, false, err
	}
	var wide []int
	for d := range nd {
		if hi[d] > lo[d] {
			wide = append(wide, d)
		}
	}
	p = linalg.Patch[T]{X: bridged[T]{x}, Lo: lo}
	switch len(wide) {
	case 0:
		p.RD, p.CD = nd-2, nd-1
	case 1:
		if w := wide[0]; w == 0 {
			p.RD, p.CD = 0, 1
		} else {
			p.RD, p.CD = w-1, w
			inner = w < nd-1
		}
	case 2:
		p.RD, p.CD = wide[0], wide[1]
	default:
		return p, false, errorf(op, x.name, "patch lo %v hi %v spans %d dimensions; a matrix spans at most 2", lo, hi, len(wide))
	}
	p.Rows, p.Cols = hi[p.RD]-lo[p.RD]+1, hi[p.CD]-lo[p.CD]+1
	return p, inner, nil
}
