package armci_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestNodeLocality: on real nodes (the two-node tier, and one node), a
// default runtime maps exactly the parts of the ranks on its own node (by
// the host names MPI reports) where MPI makes shared-memory windows, reaches
// the others the default remote way, and one vector put to every rank and
// accumulates from every rank into one part, which span both paths, leave
// exact values.
func TestNodeLocality(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		name, err := mpi.ProcessorName()
		must(t, err)
		w := mpi.World()
		n, me := w.Size(), w.Rank()
		const width = 256
		mine := make([]byte, width)
		copy(mine, name)
		all := make([]byte, width*n)
		must(t, mpi.Allgather(w, mine, all))
		host := func(r int) string { return string(bytes.TrimRight(all[r*width:(r+1)*width], "\x00")) }
		single := true
		for r := range n {
			single = single && host(r) == host(me)
		}

		rt, err := armci.Init(w)
		must(t, err)
		if rt.SingleNode() != single {
			t.Errorf("SingleNode() = %v; host names say %v", rt.SingleNode(), single)
		}
		if !single && os.Getenv("GOGA_ARMCI_REMOTE") == "" && rt.Remote() == armci.RemoteAuto {
			t.Errorf("Remote() = %v across nodes", rt.Remote())
		}
		s, err := rt.Malloc(8 * n)
		must(t, err)
		clear(s.Local())
		for r := range n {
			want := r != me && mpitest.SharedWindows() && host(r) == host(me)
			if r != me && s.Mapped(r) != want {
				t.Errorf("rank %d on %q: Mapped(%d) on %q = %v, want %v", me, host(me), r, host(r), s.Mapped(r), want)
			}
		}
		must(t, rt.Barrier())
		// Every rank writes its number into slot me of every part, then adds
		// 1 to slot 0 of rank 0's part 100 times over.
		for r := range n {
			must(t, armci.PutV(s, r, []int64{int64(me) + 1}, []armci.IOVec{{Local: []int{0}, Remote: []int{8 * me}, Bytes: 8}}))
		}
		must(t, rt.Barrier())
		got := viewAs[int64](s.Local())
		for r := range n {
			if got[r] != int64(r)+1 {
				t.Errorf("slot %d of rank %d's part: %d, want %d", r, me, got[r], r+1)
			}
		}
		must(t, rt.Barrier())
		for range 100 {
			must(t, armci.Acc(s, 0, 0, []int64{1}, 1))
		}
		must(t, rt.Barrier())
		if me == 0 {
			if got := viewAs[int64](s.Local())[0]; got != 1+int64(100*n) {
				t.Errorf("after %d × 100 accumulates: %d, want %d", n, got, 1+100*n)
			}
		}
		must(t, rt.Finalize())
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP), mpitest.AcrossNodes(), mpitest.ManyNodes())
}
