package ga

import (
	"slices"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/layout"
)

// stridedPieces splits a strided patch (every skip[d]-th element of [lo, hi]
// along each dimension d, starting at lo) by owner. The buffer holds the
// selected elements packed by ld like an ordinary patch of their count.
func (a *Array[T]) stridedPieces(op string, lo, hi, skip, ld []int, n int, stat opKind, f func(pc piece) error) error {
	if err := a.checkPatch(op, lo, hi); err != nil {
		return err
	}
	nd := len(a.dims)
	if len(skip) != nd {
		return errorf(op, a.name, "skip %v for a %d-dimensional array", skip, nd)
	}
	counts := make([]int, nd)
	skip = slices.Clone(skip)
	for d := range nd {
		if skip[d] < 1 {
			return errorf(op, a.name, "skip %v: every skip must be at least 1", skip)
		}
		// A skip past the patch selects only lo; clamping it keeps the
		// owner's strides (pitch · skip) within its storage.
		skip[d] = min(skip[d], hi[d]-lo[d]+1)
		counts[d] = (hi[d]-lo[d])/skip[d] + 1
	}
	var b layout.Buffer
	if err := a.bufferOf(op, counts, ld, n, lo, hi, &b); err != nil {
		return err
	}
	pitch := b.Pitch[:nd]
	a.countCall(stat)
	var ferr error
	var spare corner
	first := make([]int, nd)
	a.m.Owners(lo, hi, func(blk int, plo, phi []int) bool {
		// One level per dimension, over single elements; the last dimension
		// folds into the contiguous count when its skip is 1.
		var pc piece
		cnt := make([]int, nd)
		for d := range nd {
			first[d] = lo[d] + (plo[d]-lo[d]+skip[d]-1)/skip[d]*skip[d]
			if first[d] > phi[d] {
				return true // this block holds none of the selected elements
			}
			cnt[d] = (phi[d]-first[d])/skip[d] + 1
			pc.local += (first[d] - lo[d]) / skip[d] * pitch[d]
		}
		c := a.cornerOf(blk, &spare)
		pc.rank, pc.remote = c.rank, c.at(first)*a.es
		fold := skip[nd-1] == 1
		pc.p.Count = []int{a.es}
		if fold {
			pc.p.Count[0] = cnt[nd-1] * a.es
		}
		for d := nd - 1; d >= 0; d-- {
			if d == nd-1 && fold {
				continue
			}
			pc.p.Count = append(pc.p.Count, cnt[d])
			pc.p.LocalStride = append(pc.p.LocalStride, pitch[d]*a.es)
			pc.p.RemoteStride = append(pc.p.RemoteStride, c.pitch[d]*skip[d]*a.es)
		}
		ferr = f(pc)
		return ferr == nil
	})
	return ferr
}

// StridedPut copies buf into every skip[d]-th element of [lo, hi] along each
// dimension (NGA_Strided_put). buf holds those elements like an ordinary patch
// of their count, with leading dimensions ld (nil: packed).
func (a *Array[T]) StridedPut(lo, hi, skip []int, buf []T, ld []int) error {
	return a.stridedPieces("StridedPut", lo, hi, skip, ld, len(buf), statPut, func(pc piece) error {
		st := a.notePiece(pc.rank, statPut, pc.p.Bytes())
		err := armci.PutS(a.seg, pc.rank, pc.remote, buf[pc.local:], pc.p)
		a.g.took(st, pc.rank, statPut)
		return err
	})
}

// StridedGet is the reverse of StridedPut (NGA_Strided_get).
func (a *Array[T]) StridedGet(lo, hi, skip []int, buf []T, ld []int) error {
	a = a.source()
	return a.stridedPieces("StridedGet", lo, hi, skip, ld, len(buf), statGet, func(pc piece) error {
		st := a.notePiece(pc.rank, statGet, pc.p.Bytes())
		err := armci.GetS(a.seg, pc.rank, pc.remote, buf[pc.local:], pc.p)
		a.g.took(st, pc.rank, statGet)
		return err
	})
}

// StridedAcc adds alpha·buf to the elements StridedPut would write
// (NGA_Strided_acc), atomically per element.
func (a *Array[T]) StridedAcc(lo, hi, skip []int, buf []T, ld []int, alpha T) error {
	return a.stridedPieces("StridedAcc", lo, hi, skip, ld, len(buf), statAcc, func(pc piece) error {
		st := a.notePiece(pc.rank, statAcc, pc.p.Bytes())
		err := armci.AccS(a.seg, pc.rank, pc.remote, buf[pc.local:], pc.p, alpha)
		a.g.took(st, pc.rank, statAcc)
		return err
	})
}
