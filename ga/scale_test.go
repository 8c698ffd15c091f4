package ga_test

import (
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestArrayCostsAtScale: an array keeps in each process the Directs of the
// ranks from the lowest to the highest it maps, as doc.go's "Costs at
// scale" says: every rank's on one node over shared memory, none on one
// node where MPI makes no shared-memory windows (every part over MPI RMA),
// its node's ranks' on the two-node tier; and a corner per block up to 4096 blocks, none beyond.
// Puts and ReadIncs into every rank's block, through a Direct or not, land.
func TestArrayCostsAtScale(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		p, me := ga.Nnodes(), ga.Nodeid()
		a, err := ga.Create[int64]("a", []int{4 * p}, nil)
		must(t, err)
		defer destroy(t, a)
		want := p
		switch {
		case mpitest.OnTwoNodes():
			want = ga.ClusterNprocs(ga.ClusterNodeid())
		case mpitest.OverNetwork():
			want = 0 // one node over MPI RMA: every part, its own too
		}
		if got := ga.DirectEntries(a); got != want {
			t.Errorf("rank %d of %d: Directs of %d ranks, want %d", me, p, got, want)
		}
		if got := ga.CornerEntries(a); got != p {
			t.Errorf("rank %d of %d: corners of %d blocks, want %d", me, p, got, p)
		}
		must(t, a.Zero())
		for r := range p {
			if _, err := a.ReadInc([]int{4 * r}, 1); err != nil {
				t.Errorf("ReadInc of rank %d's block: %v", r, err)
			}
		}
		to := (me + 1) % p
		must(t, a.Put([]int{4*to + 1}, []int{4*to + 1}, []int64{int64(me + 1)}, nil))
		must(t, ga.Sync())
		got := make([]int64, 4*p)
		must(t, a.Get([]int{0}, []int{4*p - 1}, got, nil))
		for r := range p {
			if got[4*r] != int64(p) || got[4*r+1] != int64((r-1+p)%p+1) {
				t.Errorf("rank %d's block: %v, want [%d %d 0 0]", r, got[4*r:4*r+4], p, (r-1+p)%p+1)
			}
		}

		many, err := ga.New[float64](2 * 4096).BlockCyclic(1).Allocate()
		must(t, err)
		defer destroy(t, many)
		if got := ga.CornerEntries(many); got != 0 {
			t.Errorf("rank %d of %d: corners of %d blocks for an array of 8192, want none", me, p, got)
		}
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}
