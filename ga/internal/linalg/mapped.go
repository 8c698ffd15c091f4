package linalg

import (
	"unsafe"

	"github.com/goga-hpc/goga/cgo"
	"github.com/goga-hpc/goga/internal/layout"
	"github.com/goga-hpc/goga/scalapack"
)

// On one node every process maps every block of the operands, so each can
// compute its share of C with the BLAS straight from A's and B's storage,
// wherever those live: no copies into block-cyclic matrices and back, and no
// messages. mappable reports whether a patch allows it; Matmul takes this
// way only when every process can. Through ScaLAPACK a product of n = 2000
// on 2 processes made 84-118 GF/s against 160-166 for the BLAS alone on
// both cores.

// mappable reports whether p is a patch of a 2-D array whose blocks every
// process maps (one node, the same verdict everywhere), with a table of
// their placement, and no overlay (a process writes its share of C while
// the others still read A and B, which must not share C's memory).
func (p Patch[T]) mappable() bool {
	return len(p.X.Dims()) == 2 && p.RD == 0 && p.CD == 1 && p.X.Mappable()
}

// mappedProduct computes this process's share of C = alpha·op(A)·op(B) +
// beta·C on the patches a, b and c, every block of which it maps: an even
// slab of C's patch, by rows or by columns (byRows), whoever owns it. Each
// process
// computing its own blocks instead left one of two processes 98% of a
// 1000 × 1000 product at odd offsets (gabench's matmul_patch).
func mappedProduct[T scalapack.Elem](e *Env, ta, tb scalapack.Trans, alpha T, a, b Patch[T], beta T, c Patch[T]) error {
	k := a.Cols
	if ta == scalapack.Transpose {
		k = a.Rows
	}
	// Rows i of C are rows of op(A), columns j columns of op(B): each run
	// of them inside one block of C and one of A (of B) is one product per
	// run of k inside one block of both A and B.
	rowBounds := []bound{c.bound(0), a.bound(btoi(ta == scalapack.Transpose))}
	colBounds := []bound{c.bound(1), b.bound(btoi(tb != scalapack.Transpose))}
	np, me := e.size, e.rank
	i0, i1, j0, j1 := 0, c.Rows-1, 0, c.Cols-1
	if byRows(c.Rows, c.Cols, np, rowBounds[0], colBounds[0]) {
		i0, i1 = me*c.Rows/np, (me+1)*c.Rows/np-1
	} else {
		j0, j1 = me*c.Cols/np, (me+1)*c.Cols/np-1
	}
	return runs(i0, i1, rowBounds, func(i0, i1 int) error {
		return runs(j0, j1, colBounds, func(j0, j1 int) error {
			beta := beta
			return runs(0, k-1, []bound{a.bound(btoi(ta != scalapack.Transpose)), b.bound(btoi(tb == scalapack.Transpose))}, func(k0, k1 int) error {
				ap, lda := a.at(ta == scalapack.Transpose, i0, k0)
				bp, ldb := b.at(tb == scalapack.Transpose, k0, j0)
				cp, ldc := c.at(false, i0, j0)
				// Row-major storage is the BLAS's column-major transpose:
				// Cᵀ = op(B)ᵀ·op(A)ᵀ, as in Matmul.
				cgo.Gemm(byte(tb), byte(ta), j1-j0+1, i1-i0+1, k1-k0+1, alpha, bp, ldb, ap, lda, beta, cp, ldc)
				beta = 1
				return nil
			})
		})
	})
}

// byRows reports whether the processes share C's rows × cols patch out by
// rows rather than by columns. A share of rows is whole rows of C's
// storage; a share of columns is a piece of every row, so two processes
// write into the same pages and cache lines, unless the shares fall on the
// boundaries of C's blocks: then each share is blocks of its own. Columns
// are taken where their shares fall on block boundaries and rows' do not
// (gabench's dgemm on 2 processes, C in two column blocks: each process
// then computes the block it owns, in two products instead of four; n =
// 1000 went from 89.7 to 92.6 GF/s, medians of 5 alternating runs), or else
// where they are the longer side. Sharing gabench's matmul_patch by columns
// off the boundaries, where it makes fewer products too, cost it 10%.
func byRows(rows, cols, np int, cRows, cCols bound) bool {
	rowsOnBlocks, colsOnBlocks := cRows.splitsOnBlocks(rows, np), cCols.splitsOnBlocks(cols, np)
	switch {
	case colsOnBlocks && !rowsOnBlocks:
		return false
	case rowsOnBlocks && !colsOnBlocks:
		return true
	}
	return rows >= cols
}

// splitsOnBlocks reports whether n patch indices shared evenly by np
// processes change hands only where a block starts.
func (b bound) splitsOnBlocks(n, np int) bool {
	for p := 1; p < np; p++ {
		if i := b.base + p*n/np; b.starts[layout.BlockIndex(b.starts, i)] != i {
			return false
		}
	}
	return true
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// bound is how far a run may go along one dimension of a patch: the block
// starts of its array along that dimension and the patch's offset there.
type bound struct {
	starts []int
	base   int
}

func (p Patch[T]) bound(d int) bound { return bound{p.X.Starts(d), p.Lo[d]} }

// runs calls f with the runs of [i0, i1] (patch indices) that each lie in
// one block along every bound.
func runs(i0, i1 int, bounds []bound, f func(i0, i1 int) error) error {
	for i := i0; i <= i1; {
		end := i1
		for _, b := range bounds {
			if x := layout.BlockIndex(b.starts, b.base+i); x+1 < len(b.starts) {
				end = min(end, b.starts[x+1]-1-b.base)
			}
		}
		if err := f(i, end); err != nil {
			return err
		}
		i = end + 1
	}
	return nil
}

// at points at the element of op(p) at row i, column j (op transposes when
// trans), in its owner's storage, and returns the storage's pitch.
func (p Patch[T]) at(trans bool, i, j int) (unsafe.Pointer, int) {
	if trans {
		i, j = j, i
	}
	return p.X.At(p.Lo[0]+i, p.Lo[1]+j)
}
