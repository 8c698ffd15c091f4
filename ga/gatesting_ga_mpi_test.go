package ga_test

import (
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestGATestingGaMpi ports global/testing/ga-mpi.c of GlobalArrays/ga
// (commit dd40347): GA beside MPI on the same processes. A 100 × 100 array
// gets A(i, j) = i+j+1, row by row from every process in turn; each
// process finds the maxima of the rows of its own block, through Access;
// the communicator of the default group (GA_MPI_Comm_pgroup_default) is
// split, with goga's mpi package, into one communicator per block row of
// the process grid, whose MPI_Reduce(MAX) gives the row maxima at the
// communicator's rank 0, which puts them into a vector. The vector must
// hold the row maxima n+i exactly, as the original checks.
//
// The split needs the process grid coordinates the original reads from
// NGA_Proc_topology, which GA C gives in Fortran order: its coord[0]
// ("prow") counts column blocks and coord[1] ("pcol") row blocks. goga's
// ProcTopology is in C order, so coord[k] is c[1-k]: the split takes color
// c[0], the block row, and key c[1]. Read without the reversal, the port
// reduces over block columns and gets wrong maxima on 2, 3 and 4
// processes (checked).
func TestGATestingGaMpi(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		const n = 100
		me, nproc := ga.Nodeid(), ga.Nnodes()
		world := ga.PgroupGetDefault().Comm()

		a, err := ga.Create[float64]("A", []int{n, n}, nil)
		must(t, err)
		defer destroy(t, a)
		b, err := ga.Create[float64]("B", []int{n}, nil)
		must(t, err)
		defer destroy(t, b)
		must(t, a.Zero())

		// Each process fills every nproc-th row: A(row, i) = i+row+1.
		buf := make([]float64, n)
		for row := me; row < n; row += nproc {
			for i := range buf {
				buf[i] = float64(i + row + 1)
			}
			must(t, a.Put([]int{row, 0}, []int{row, n - 1}, buf, nil))
		}
		lo, hi, owns := a.Distribution(me)
		must(t, ga.Sync())

		var maxRow []float64
		if owns {
			maxRow = make([]float64, hi[0]-lo[0]+1)
		}
		// GA C's coord[k] is goga's c[ndim-1-k].
		color, key := mpi.Undefined, mpi.Undefined
		if c, ok := a.ProcTopology(me); ok {
			prow, pcol := c[1], c[0]
			color, key = pcol, prow
		}
		must(t, ga.Sync())

		must(t, world.Barrier())
		rowComm, err := world.Split(color, key)
		must(t, err)
		grpMe := -1
		if rowComm != nil {
			grpMe = rowComm.Rank()
			p, ld, err := a.Access(lo, hi)
			must(t, err)
			for i := range maxRow {
				for j := range hi[1] - lo[1] + 1 {
					maxRow[i] = max(maxRow[i], p[i*ld[0]+j])
				}
			}
			must(t, a.Release(lo, hi))
			must(t, mpi.Reduce(rowComm, maxRow, buf[:len(maxRow)], mpi.Max, 0))
			must(t, rowComm.Free())
		} else {
			t.Logf("process %d not participating", me)
		}
		must(t, ga.Sync())

		// The communicators' roots put their block rows' maxima into B.
		if grpMe == 0 {
			must(t, b.Put(lo[:1], hi[:1], buf[:len(maxRow)], nil))
		}
		must(t, ga.Sync())

		must(t, b.Get([]int{0}, []int{n - 1}, buf, nil))
		for i, v := range buf {
			if v != float64(n+i) {
				t.Errorf("row %d: max = %v, want %d", i, v, n+i)
			}
		}
	})
}
