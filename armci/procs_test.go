package armci_test

import (
	"runtime"
	"testing"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestBackgroundProcs: a process whose runtime runs a goroutine in the
// background (the active-message server across nodes, the progress
// goroutine beside MPI RMA) has two Ps even when it started with one, as a
// rank bound to one core does, and has its one P back after Finalize; a
// runtime without one leaves GOMAXPROCS alone.
func TestBackgroundProcs(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		for _, m := range modes() {
			t.Run(m.name, func(t *testing.T) {
				prev := runtime.GOMAXPROCS(1)
				defer runtime.GOMAXPROCS(prev)
				rt := m.init(t)
				s := malloc(t, rt, 64)
				background := rt.Remote() == armci.RemoteAM && !rt.SingleNode() || !s.SharedMemory()
				got := runtime.GOMAXPROCS(0)
				must(t, rt.Finalize())
				after := runtime.GOMAXPROCS(0)
				switch {
				case background && got < 2:
					t.Errorf("GOMAXPROCS %d with a background goroutine (remote %v, single node %v, segment in shared memory %v); want 2", got, rt.Remote(), rt.SingleNode(), s.SharedMemory())
				case !background && got != 1:
					t.Errorf("GOMAXPROCS %d without a background goroutine; want 1, as set", got)
				}
				if after != 1 {
					t.Errorf("GOMAXPROCS %d after Finalize; want 1 again", after)
				}
			})
		}
	}, mpitest.Ranks(2), bothTransports)
}
