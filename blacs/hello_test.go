package blacs_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestHello is the guide's PROGRAM HELLO (App. H): a near-square grid; every
// process sends its number to {0,0}, which checks it against Pcoord.
func TestHello(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		w := mpi.World()
		rows := int(math.Sqrt(float64(w.Size())))
		cols := w.Size() / rows
		g, err := blacs.GridInit(w, blacs.RowMajor, rows, cols)
		mpitest.Must(t, err)
		if g.In() {
			_, _, myrow, mycol := g.Info()
			me, err := g.Pnum(myrow, mycol)
			mpitest.Must(t, err)
			if myrow == 0 && mycol == 0 {
				var lines []string
				for i := range rows {
					for j := range cols {
						caller := []int32{int32(me)}
						if i != 0 || j != 0 {
							mpitest.Must(t, blacs.Gerv2d(g, 1, 1, caller, 1, i, j))
						}
						r, c, err := g.Pcoord(int(caller[0]))
						mpitest.Must(t, err)
						if r != i || c != j {
							mpitest.Fatalf(t, "Grid error: process %d says it is at {%d,%d}, expected {%d,%d}", caller[0], r, c, i, j)
						}
						if int(caller[0]) != i*cols+j {
							mpitest.Fatalf(t, "node number at {%d,%d} is %d, want %d", i, j, caller[0], i*cols+j)
						}
						lines = append(lines, fmt.Sprintf("Process {%2d,%2d} (node number =%d) has checked in.", i, j, caller[0]))
					}
				}
				if len(lines) != rows*cols {
					mpitest.Fatalf(t, "%d processes checked in, want %d", len(lines), rows*cols)
				}
			} else {
				mpitest.Must(t, blacs.Gesd2d(g, 1, 1, []int32{int32(me)}, 1, 0, 0))
			}
			// The combine of the guide's App. D: 0+1+2+3... is exact everywhere.
			x := []float64{float64(me)}
			mpitest.Must(t, blacs.Gsum2d(g, blacs.All, "", 1, 1, x, 1, -1, -1))
			n := rows * cols
			if x[0] != float64(n*(n-1)/2) {
				mpitest.Fatalf(t, "Gsum2d of process numbers = %v, want %d", x[0], n*(n-1)/2)
			}
			// Named topologies give the same broadcast; unknown ones are refused.
			for _, top := range []blacs.Topology{"I", "d", "increasing ring", "S", "1", "T", "F"} {
				v := []float64{-1, -1}
				if myrow == 0 && mycol == 0 {
					v = []float64{7, 8}
					mpitest.Must(t, blacs.Gebs2d(g, blacs.All, top, 2, 1, v, 2))
				} else {
					mpitest.Must(t, blacs.Gebr2d(g, blacs.All, top, 2, 1, v, 2, 0, 0))
				}
				if v[0] != 7 || v[1] != 8 {
					mpitest.Fatalf(t, "broadcast with topology %q gave %v", top, v)
				}
			}
			var e *blacs.Error
			if err := blacs.Gebs2d(g, blacs.All, "x", 1, 1, []float64{0}, 1); !errors.As(err, &e) || e.Arg != "top" {
				mpitest.Fatalf(t, "topology \"x\" gave %v", err)
			}
		} else if w.Rank() < rows*cols {
			mpitest.Fatalf(t, "rank %d is left out of a %d×%d grid", w.Rank(), rows, cols)
		}
		mpitest.Must(t, g.Exit())
		// MPI is still running for the caller.
		mpitest.Must(t, w.Barrier())
	}, mpitest.AcrossNodes())
}
