package ga

import (
	"github.com/goga-hpc/goga/scalapack"
)

// MatmulPatch computes C[clo:chi] = alpha·op(A[alo:ahi])·op(B[blo:bhi]) +
// beta·C[clo:chi] (GA_Matmul_patch, NGA_Matmul_patch, and through them
// GA_Sgemm, GA_Dgemm, GA_Cgemm and GA_Zgemm on patches), where op(X) is X for
// 'n' and Xᵀ for 't' (either case). It is collective, and honours MaskSync.
//
// Every patch is given in C order as it lies in its array, transposed or
// not: op is applied to it. A patch is 2-D: its dimensions of more than one
// element are its rows and columns, in that order (a patch with one such
// dimension is a row if that is the array's last dimension, else a column),
// so an n-D array takes part through any 2-D slice of it. op(A) must be
// m × k, op(B) k × n and C m × n. The arrays may be distributed in any way,
// and C may be one of A and B, even overlapping them: every operand is read
// before C is written. Where beta is 0, C is not read.
//
// GA's two calls take their bounds differently, and map onto this one so:
//   - NGA_Matmul_patch(ta, tb, ..., a, alo, ahi, ...) gives a transposed
//     operand's bounds in op() coordinates: pass them with the dimensions
//     reversed.
//   - GA_Matmul_patch(ta, tb, alpha, beta, a, ailo, aihi, ajlo, ajhi, b, ...,
//     c, cilo, cihi, cjlo, cjhi) (the 2-D C call) sees every array in
//     Fortran order, that is transposed, with the ranges of op(A) and op(B):
//     it is MatmulPatch(tb, ta, alpha, b, ..., a, ..., beta, c, clo, chi),
//     B first, with clo = {cjlo, cilo}, chi = {cjhi, cihi}, and each
//     operand's patch {jlo, ilo}..{jhi, ihi} for 'n', {ilo, jlo}..{ihi, jhi}
//     for 't'.
//
// Integer arrays are not multiplied, as in GA.
func MatmulPatch[T scalapack.Elem](ta, tb byte, alpha T, a *Array[T], alo, ahi []int, b *Array[T], blo, bhi []int, beta T, c *Array[T], clo, chi []int) error {
	const op = "MatmulPatch"
	pa, pb, pc, check := matmulShape(op, ta, tb, a, alo, ahi, b, blo, bhi, c, clo, chi)
	l := patchArgs(patchArgs(patchArgs(newArgs(op), "A", a, alo, ahi, ta), "B", b, blo, bhi, tb), "C", c, clo, chi, 'n')
	return matmul(op, upper(ta), upper(tb), alpha, pa, pb, beta, pc, check, l)
}

// matmulShape checks MatmulPatch's arguments and returns its three patches.
// An invalid array is left to collective's agreement to name, with the
// others' shapes unchecked.
func matmulShape[T scalapack.Elem](op string, ta, tb byte, a *Array[T], alo, ahi []int, b *Array[T], blo, bhi []int, c *Array[T], clo, chi []int) (pa, pb, pc patch2[T], err error) {
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
	if pa, err = matrixPatch(op, a, alo, ahi); err != nil {
		return pa, pb, pc, err
	}
	if pb, err = matrixPatch(op, b, blo, bhi); err != nil {
		return pa, pb, pc, err
	}
	if pc, err = matrixPatch(op, c, clo, chi); err != nil {
		return pa, pb, pc, err
	}
	m, k := pa.rows, pa.cols
	if at {
		m, k = k, m
	}
	kb, n := pb.rows, pb.cols
	if bt {
		kb, n = n, kb
	}
	switch {
	case k != kb:
		return pa, pb, pc, errorf(op, b.name, "op(B) is %d × %d: its %d rows do not match op(A)'s %d columns", kb, n, kb, k)
	case pc.rows != m || pc.cols != n:
		return pa, pb, pc, errorf(op, c.name, "patch lo %v hi %v is %d × %d; op(A)·op(B) is %d × %d", clo, chi, pc.rows, pc.cols, m, n)
	}
	return pa, pb, pc, nil
}

// matrixPatch checks that [lo, hi] is a 2-D patch of x and returns it as one.
func matrixPatch[T Elem](op string, x *Array[T], lo, hi []int) (patch2[T], error) {
	nd := len(x.dims)
	if nd < 2 {
		return patch2[T]{}, errorf(op, x.name, "dims %v: a matrix needs an array of at least 2 dimensions", x.dims)
	}
	if err := x.checkPatch(op, lo, hi); err != nil {
		return patch2[T]{}, err
	}
	var wide []int
	for d := range nd {
		if hi[d] > lo[d] {
			wide = append(wide, d)
		}
	}
	p := patch2[T]{x: x, lo: lo}
	switch len(wide) {
	case 0:
		p.rd, p.cd = nd-2, nd-1
	case 1:
		if p.cd = wide[0]; p.cd == nd-1 {
			p.rd = p.cd - 1
		} else {
			p.rd, p.cd = wide[0], nd-1
		}
	case 2:
		p.rd, p.cd = wide[0], wide[1]
	default:
		return patch2[T]{}, errorf(op, x.name, "patch lo %v hi %v spans %d dimensions; a matrix spans at most 2", lo, hi, len(wide))
	}
	p.rows, p.cols = hi[p.rd]-lo[p.rd]+1, hi[p.cd]-lo[p.cd]+1
	return p, nil
}
