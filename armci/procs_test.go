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

// TestYieldsWhenIdle reads Open MPI's settings as mpirun passes them: an
// explicit mpi_yield_when_idle wins, else oversubscription turns it on (as
// Open MPI 4.1 itself does). In the two-node tier, whose jobs ask for it
// on the command line, every process must see it on.
func TestYieldsWhenIdle(t *testing.T) {
	const y, o = "OMPI_MCA_mpi_yield_when_idle", "OMPI_MCA_mpi_oversubscribe"
	for _, c := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, false},
		{map[string]string{y: "1"}, true},
		{map[string]string{y: "0"}, false},
		{map[string]string{y: "true"}, true},
		{map[string]string{y: "No"}, false},
		{map[string]string{o: "1"}, true},
		{map[string]string{o: "0"}, false},
		{map[string]string{o: "1", y: "0"}, false},
		{map[string]string{o: "0", y: "yes"}, true},
	} {
		if got := armci.YieldsWhenIdle(c.env); got != c.want {
			t.Errorf("yields when idle with %v: %v, want %v", c.env, got, c.want)
		}
	}
	mpitest.Run(t, func(t *testing.T) {
		if mpitest.OnTwoNodes() && !armci.MPIYields() {
			t.Errorf("on the two simulated nodes (mpi_yield_when_idle 1): the runtime says MPI does not yield")
		}
	}, mpitest.Ranks(2), mpitest.AcrossNodes())
}
