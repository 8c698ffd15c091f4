package linalg

import (
	"slices"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/internal/layout"
	"github.com/goga-hpc/goga/scalapack"
)

// An array is handed to ScaLAPACK as its transpose (see the package doc):
// in its own storage when it is BlockCyclicGrid in square blocks (inPlace,
// storageOf), else read by Gets into a block-cyclic matrix on a grid of
// every process (getTransposed), with results written back by Puts
// (putTransposed).

// getTransposed reads the patch p into a new matrix, its transpose, on g in
// mb × nb blocks, whose local part lives in s. The transpose's local part,
// column-major, is p's elements row-major, so each local block is one Get
// of a patch of p's array straight into place, with the local part's
// leading dimension.
func getTransposed[T scalapack.Elem](g *blacs.Grid, p Patch[T], mb, nb int, s *scratch) (*scalapack.Matrix[T], error) {
	m, err := emptyTransposed[T](g, p.Rows, p.Cols, mb, nb, s)
	if err != nil {
		return nil, err
	}
	return m, refillTransposed(m, p)
}

// emptyTransposed is getTransposed of a p0 × p1 patch without the reading.
func emptyTransposed[T scalapack.Elem](g *blacs.Grid, p0, p1, mb, nb int, s *scratch) (*scalapack.Matrix[T], error) {
	pr, pc, myrow, mycol := g.Info()
	lr, lc := layout.Numroc(p1, mb, myrow, 0, pr), layout.Numroc(p0, nb, mycol, 0, pc)
	d, err := scalapack.NewDesc(g, p1, p0, mb, nb, 0, 0, max(1, lr))
	if err != nil {
		return nil, err
	}
	return &scalapack.Matrix[T]{Grid: g, Desc: d, Data: scratchOf[T](s, max(1, d.LLD*lc))}, nil
}

// refillTransposed reads p into m = pᵀ again. Other processes' parts are
// mapped in first.
func refillTransposed[T scalapack.Elem](m *scalapack.Matrix[T], p Patch[T]) error {
	x := p.X
	if err := x.MapIn(); err != nil {
		return err
	}
	// The blocks are read with non-blocking gets, a bounded number in
	// flight: across nodes each is a request to the owner, and they overlap.
	const inFlight = 256
	var pending []Waiter
	complete := func() error {
		var first error
		for _, h := range pending {
			if err := h.Wait(); err != nil && first == nil {
				first = err
			}
		}
		pending = pending[:0]
		return first
	}
	err := blocksAt(m, func(i0, j0, h, w, li, lj int) error {
		lo, hi, ld := p.Sub(j0, i0, w, h, m.Desc.LLD)
		nb, err := x.NbGet(lo, hi, m.Data[li+lj*m.Desc.LLD:], ld)
		if err != nil {
			return err
		}
		if pending = append(pending, nb); len(pending) == inFlight {
			return complete()
		}
		return nil
	})
	if werr := complete(); err == nil {
		err = werr
	}
	return err
}

// putTransposed writes m = pᵀ back into p, one Put per local block.
func putTransposed[T scalapack.Elem](m *scalapack.Matrix[T], p Patch[T]) error {
	return blocksAt(m, func(i0, j0, h, w, li, lj int) error {
		lo, hi, ld := p.Sub(j0, i0, w, h, m.Desc.LLD)
		return p.X.Put(lo, hi, m.Data[li+lj*m.Desc.LLD:], ld)
	})
}

// blocksAt calls f for every local block of m, with its global corner and
// size and its local corner; local blocks that are also neighbours in the
// global matrix go as one (on a grid of one process row, a whole column of
// blocks), so that the copies to and from arrays move longer runs.
func blocksAt[T scalapack.Elem](m *scalapack.Matrix[T], f func(i0, j0, h, w, li, lj int) error) error {
	pr, pc, myrow, mycol := m.Grid.Info()
	lr, lc := m.LocalShape()
	d := m.Desc
	for lj := 0; lj < lc; lj += d.NB {
		j0, w := scalapack.LocalToGlobal(lj, d.NB, mycol, d.CSrc, pc), min(d.NB, lc-lj)
		for li := 0; li < lr; {
			i0, h := scalapack.LocalToGlobal(li, d.MB, myrow, d.RSrc, pr), min(d.MB, lr-li)
			for li+h < lr && scalapack.LocalToGlobal(li+h, d.MB, myrow, d.RSrc, pr) == i0+h {
				h += min(d.MB, lr-li-h)
			}
			if err := f(i0, j0, h, w, li, lj); err != nil {
				return err
			}
			li += h
		}
	}
	return nil
}

// inPlace reports whether a (and b, unless nil) lie as ScaLAPACK can use them
// directly: 2-D BlockCyclicGrid arrays on one grid, a in square blocks and
// b's rows blocked as a's.
func inPlace[T any](a, b Array[T]) bool {
	g := a.ProcGrid()
	if g == nil || len(a.Dims()) != 2 || a.BlockSize(0) != a.BlockSize(1) {
		return false
	}
	return b == nil || slices.Equal(b.ProcGrid(), g) && b.BlockSize(0) == a.BlockSize(0)
}

// storageOf reads x's storage (data, or x's own when data is nil) as xᵀ, on
// x's process grid transposed: P1 × P0, column-major, which holds every
// process.
func storageOf[T scalapack.Elem](e *Env, x Array[T], data []T) (*scalapack.Matrix[T], error) {
	pg := x.ProcGrid()
	rows, cols := pg[1], pg[0]
	g, err := e.grid(blacs.ColumnMajor, rows, cols)
	if err != nil {
		return nil, err
	}
	if data == nil {
		if data, err = x.Local(); err != nil {
			return nil, err
		}
	}
	if len(data) == 0 {
		data = make([]T, 1) // ScaLAPACK takes an address even with nothing local
	}
	_, _, myrow, _ := g.Info()
	dims := x.Dims()
	m, n := dims[1], dims[0]
	mb, nb := x.BlockSize(1), x.BlockSize(0)
	d, err := scalapack.NewDesc(g, m, n, mb, nb, 0, 0, max(1, layout.Numroc(m, mb, myrow, 0, rows)))
	if err != nil {
		return nil, err
	}
	return &scalapack.Matrix[T]{Grid: g, Desc: d, Data: data}, nil
}

// workCopy copies src into the scratch s.
func workCopy[T scalapack.Elem](s *scratch, src []T) []T {
	w := scratchOf[T](s, len(src))
	copy(w, src)
	return w
}
