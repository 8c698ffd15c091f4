package scalapack

import (
	"errors"
	"testing"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/internal/scalapackref"
	"github.com/goga-hpc/goga/mpi"
)

// TestNewDesc checks NewDesc against DESCINIT on real grids: the same
// descriptor where DESCINIT accepts, and an error naming the argument whose
// position DESCINIT's INFO gives where it refuses.
func TestNewDesc(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		w := mpi.World()
		rows := 1
		if w.Size() >= 4 {
			rows = 2
		}
		cols := w.Size() / rows
		g, err := blacs.GridInit(w, blacs.RowMajor, rows, cols)
		mpitest.Must(t, err)
		defer mpitest.Cleanup(t, g.Exit)
		if !g.In() {
			return
		}
		_, _, myrow, _ := g.Info()
		argAt := map[int]string{-2: "m", -3: "n", -4: "mb", -5: "nb", -6: "rsrc", -7: "csrc", -9: "lld"}
		for _, c := range []struct{ m, n, mb, nb, rsrc, csrc, lld int }{
			{10, 7, 2, 3, 0, 0, 10},
			{1000, 999, 64, 64, 0, cols - 1, 1000},
			{5, 5, 1, 1, rows - 1, 0, 5},
			{0, 0, 4, 4, 0, 0, 1},
			{-1, 5, 2, 2, 0, 0, 5},
			{5, -1, 2, 2, 0, 0, 5},
			{5, 5, 0, 2, 0, 0, 5},
			{5, 5, 2, 0, 0, 0, 5},
			{5, 5, 2, 2, rows, 0, 5},
			{5, 5, 2, 2, 0, cols, 5},
			{50, 5, 2, 2, 0, 0, 1},
		} {
			d, err := NewDesc(g, c.m, c.n, c.mb, c.nb, c.rsrc, c.csrc, c.lld)
			want, info := scalapackref.Descinit(c.m, c.n, c.mb, c.nb, c.rsrc, c.csrc, g.Context(), c.lld)
			if info == 0 {
				if err != nil {
					mpitest.Fatalf(t, "%+v: NewDesc refused (%v) what DESCINIT accepts", c, err)
				}
				if d.Array() != want {
					mpitest.Fatalf(t, "%+v: NewDesc = %v, DESCINIT = %v", c, d.Array(), want)
				}
				continue
			}
			var e *Error
			if !errors.As(err, &e) || e.Arg != argAt[info] {
				mpitest.Fatalf(t, "%+v on row %d: DESCINIT says INFO %d (%s), NewDesc says %v", c, myrow, info, argAt[info], err)
			}
		}
	}, mpitest.AcrossNodes())
}
