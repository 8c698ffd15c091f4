package scalapack

import (
	"unsafe"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/cgo"
)

// Side selects the side op(A) multiplies from in Trsm.
type Side byte

// Sides.
const (
	Left  Side = 'L'
	Right Side = 'R'
)

// Diag says whether a triangular matrix has a unit diagonal.
type Diag byte

// Diagonals.
const (
	NonUnit Diag = 'N'
	Unit    Diag = 'U'
)

// Trsm solves a triangular system with many right-hand sides in place
// (PxTRSM): B = alpha·op(A)⁻¹·B for side Left, B = alpha·B·op(A)⁻¹ for Right,
// using A's uplo triangle (with a unit diagonal if diag is Unit).
func Trsm[T Elem](side Side, uplo Uplo, trans Trans, diag Diag, alpha T, a, b *Matrix[T]) error {
	if err := checkTriangular("Trsm", side, uplo, trans, diag, a, b); err != nil {
		return err
	}
	cgo.Ptrsm(typeOf[T](), byte(side), byte(uplo), byte(trans), byte(diag), b.Desc.M, b.Desc.N,
		unsafe.Pointer(&alpha), a.ptr(), a.desc32(), b.ptr(), b.desc32())
	return nil
}

// Trmm multiplies by a triangular matrix in place (PxTRMM): B =
// alpha·op(A)·B for side Left, B = alpha·B·op(A) for Right, using A's uplo
// triangle (with a unit diagonal if diag is Unit).
func Trmm[T Elem](side Side, uplo Uplo, trans Trans, diag Diag, alpha T, a, b *Matrix[T]) error {
	if err := checkTriangular("Trmm", side, uplo, trans, diag, a, b); err != nil {
		return err
	}
	cgo.Ptrmm(typeOf[T](), byte(side), byte(uplo), byte(trans), byte(diag), b.Desc.M, b.Desc.N,
		unsafe.Pointer(&alpha), a.ptr(), a.desc32(), b.ptr(), b.desc32())
	return nil
}

// checkTriangular checks the arguments of Trsm and Trmm.
func checkTriangular[T Elem](op string, side Side, uplo Uplo, trans Trans, diag Diag, a, b *Matrix[T]) error {
	if a == nil || b == nil {
		return errf(op, "a", "nil matrix")
	}
	if side != Left && side != Right {
		return errf(op, "side", "%q; want Left or Right", byte(side))
	}
	if err := checkUplo(op, uplo); err != nil {
		return err
	}
	if trans != NoTrans && trans != Transpose && trans != ConjTrans {
		return errf(op, "trans", "%q; want NoTrans, Transpose or ConjTrans", byte(trans))
	}
	if diag != NonUnit && diag != Unit {
		return errf(op, "diag", "%q; want NonUnit or Unit", byte(diag))
	}
	if a.Desc.Ctxt != b.Desc.Ctxt {
		return errf(op, "b", "on another grid than a")
	}
	if a.Desc.M != a.Desc.N {
		return errf(op, "a", "%d×%d is not square", a.Desc.M, a.Desc.N)
	}
	k, blk := b.Desc.M, b.Desc.MB
	if side == Right {
		k, blk = b.Desc.N, b.Desc.NB
	}
	if k != a.Desc.N {
		return errf(op, "b", "is %d×%d; A is %d×%d", b.Desc.M, b.Desc.N, a.Desc.M, a.Desc.N)
	}
	if a.Desc.MB != a.Desc.NB || blk != a.Desc.MB {
		return errf(op, "b", "A's blocks %d×%d must be square and match B's %d along the shared dimension", a.Desc.MB, a.Desc.NB, blk)
	}
	return nil
}

// Direction is the order in which Lapiv applies interchanges.
type Direction byte

// Directions.
const (
	Forward  Direction = 'F' // the first interchange first: P·A, or A·P for columns
	Backward Direction = 'B' // the last interchange first: P⁻¹·A, or A·P⁻¹
)

// Lapiv applies the interchanges of ipiv to the rows (rc blacs.Row) or the
// columns (blacs.Column) of A (PxLAPIV): ipiv[k] is the global index (1-based)
// that the k-th local row or column was swapped with. Row pivots are tied to
// A's rows, as Getrf returns them; column pivots to A's columns, as
// ColumnPivots returns them. It is collective over the grid.
func Lapiv[T Elem](dir Direction, rc blacs.Scope, a *Matrix[T], ipiv []int32) error {
	if a == nil {
		return errf("Lapiv", "a", "nil matrix")
	}
	if dir != Forward && dir != Backward {
		return errf("Lapiv", "dir", "%q; want Forward or Backward", byte(dir))
	}
	lr, lc := a.LocalShape()
	pr, pc, myrow, mycol := a.Grid.Info()
	d := a.Desc
	// The pivot vector's descriptor has a block per process more than A:
	// PxLAPV2 receives other processes' pivots into that last block.
	var ip [9]int32
	need := 0
	switch rc {
	case blacs.Row:
		// A column vector beside A's rows, held by every process column.
		need = lr + d.MB
		ip = [9]int32{1, int32(d.Ctxt), int32(d.M + d.MB*pr), 1, int32(d.MB), 1, int32(d.RSrc), int32(mycol), int32(need)}
	case blacs.Column:
		// A row vector under A's columns, held by every process row.
		need = lc + d.NB
		ip = [9]int32{1, int32(d.Ctxt), 1, int32(d.N + d.NB*pc), 1, int32(d.NB), int32(myrow), int32(d.CSrc), 1}
	default:
		return errf("Lapiv", "rc", "%q; want blacs.Row or blacs.Column", byte(rc))
	}
	if len(ipiv) < need {
		return errf("Lapiv", "ipiv", "holds %d pivots; %d needed", len(ipiv), need)
	}
	cgo.Plapiv(typeOf[T](), byte(dir), byte(rc), d.M, d.N, a.ptr(), a.desc32(), ipiv, &ip)
	return nil
}

// ColumnPivots turns the pivots Getrf gave for the rows of A into pivots for
// the columns of B, whose columns are blocked as A's rows, so that Lapiv can
// apply the same interchanges to B's columns. It is collective over the grid.
func ColumnPivots[T, U Elem](a *Matrix[T], ipiv []int32, b *Matrix[U]) ([]int32, error) {
	if a == nil || b == nil {
		return nil, errf("ColumnPivots", "a", "nil matrix")
	}
	if a.Desc.Ctxt != b.Desc.Ctxt || b.Desc.N != a.Desc.M || b.Desc.NB != a.Desc.MB {
		return nil, errf("ColumnPivots", "b", "has %d columns in blocks of %d on context %d; A has %d rows in blocks of %d on %d",
			b.Desc.N, b.Desc.NB, b.Desc.Ctxt, a.Desc.M, a.Desc.MB, a.Desc.Ctxt)
	}
	lr, _ := a.LocalShape()
	if len(ipiv) < lr {
		return nil, errf("ColumnPivots", "ipiv", "holds %d pivots; A has %d local rows", len(ipiv), lr)
	}
	// Every process column holds the same pivots: column 0 contributes its
	// rows' to one global vector, summed over the grid.
	pr, pc, myrow, mycol := a.Grid.Info()
	global := make([]int32, a.Desc.M)
	if mycol == 0 {
		for li := range lr {
			global[LocalToGlobal(li, a.Desc.MB, myrow, a.Desc.RSrc, pr)] = ipiv[li]
		}
	}
	if err := blacs.Gsum2d(a.Grid, blacs.All, blacs.DefaultTopology, len(global), 1, global, len(global), -1, -1); err != nil {
		return nil, err
	}
	_, lc := b.LocalShape()
	out := make([]int32, lc+b.Desc.NB)
	for lj := range lc {
		out[lj] = global[LocalToGlobal(lj, b.Desc.NB, mycol, b.Desc.CSrc, pc)]
	}
	return out, nil
}

// Gemr2d copies the m × n matrix a into b, whose blocks and grid may differ
// (PxGEMR2D). On a process outside a's grid a is nil, and likewise b. all is
// a grid that holds every process of both; the call is collective over it,
// and a size that does not fit fails on every process.
func Gemr2d[T Elem](m, n int, a, b *Matrix[T], all *blacs.Grid) error {
	if all == nil || !all.In() {
		return errf("Gemr2d", "all", "this process is not in the grid of every process")
	}
	outside := [9]int32{1, -1}
	da, db := &outside, &outside
	var dummy [1]T
	pa, pb := unsafe.Pointer(&dummy[0]), unsafe.Pointer(&dummy[0])
	var bad error
	if a != nil {
		if a.Desc.M < m || a.Desc.N < n {
			bad = errf("Gemr2d", "a", "is %d×%d; %d×%d are copied", a.Desc.M, a.Desc.N, m, n)
		}
		da, pa = a.desc32(), a.ptr()
	}
	if b != nil {
		if b.Desc.M < m || b.Desc.N < n {
			bad = errf("Gemr2d", "b", "is %d×%d; %d×%d are copied", b.Desc.M, b.Desc.N, m, n)
		}
		db, pb = b.desc32(), b.ptr()
	}
	// Processes outside a grid cannot check it: agree before the copy.
	flag := []int32{0}
	if bad != nil || m < 0 || n < 0 {
		flag[0] = 1
	}
	if err := blacs.Gsum2d(all, blacs.All, blacs.DefaultTopology, 1, 1, flag, 1, -1, -1); err != nil {
		return err
	}
	if flag[0] != 0 {
		if bad == nil {
			bad = errf("Gemr2d", "m", "%d×%d does not fit a or b on another process", m, n)
		}
		return bad
	}
	cgo.Pgemr2d(typeOf[T](), m, n, pa, da, pb, db, all.Context())
	return nil
}
