package armci_test

import (
	"bytes"
	"net"
	"os"
	"testing"
	"time"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestDoorbells: where other nodes are reached by active messages, the
// servers have doorbells when every process's host name resolves (their
// own: always), and a get from a process whose server has been idle long
// enough to park on its doorbell rings it, and returns the right data. With
// GOGA_ARMCI_DOORBELL=0 on one process, no process has them, and the same
// get is served by the server's own poll. On one node there is no server.
func TestDoorbells(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		if mpitest.OverNetwork() && !mpitest.OnTwoNodes() {
			t.Skip("osc ucx over TCP makes no shared-memory windows: nothing is mapped")
		}
		w := mpi.World()
		opts := []armci.Option{armci.WithRemote(armci.RemoteAM)}
		if !mpitest.OnTwoNodes() {
			opts = append(opts, armci.WithNodes(pairs))
		}
		want := resolvable(t, w)
		for _, off := range []int{-1, 0, w.Size() - 1} {
			if w.Rank() == off {
				os.Setenv("GOGA_ARMCI_DOORBELL", "0")
			}
			rt, err := armci.Init(w, opts...)
			os.Unsetenv("GOGA_ARMCI_DOORBELL")
			must(t, err)
			want := want && off < 0 && !rt.SingleNode()
			if rt.Doorbells() != want {
				t.Errorf("GOGA_ARMCI_DOORBELL=0 on rank %d, SingleNode %v: Doorbells() = %v, want %v", off, rt.SingleNode(), rt.Doorbells(), want)
			}
			pausedGet(t, rt, want)
			must(t, rt.Finalize())
		}
	}, mpitest.Transports(mpitest.SharedMemory), mpitest.AcrossNodes())
}

// pausedGet has rank 0 read a word from the last rank's part after the last
// rank's server has been idle long enough to park (it sits in a barrier
// meanwhile); rang says whether its server must have woken to a datagram.
// A server parks after 1.6 ms idle, but on a loaded machine its sleeps
// before that can stretch past a short pause: a get that finds it awake
// needs no ring. So the pause grows (20 ms, 200 ms, 2 s) until a get rings,
// and the test fails only if none of the three does.
func pausedGet(t *testing.T, rt *armci.Runtime, rang bool) {
	last := rt.Size() - 1
	s := malloc(t, rt, 8)
	copy(s.Local(), []byte{7, 0, 0, 0, 0, 0, 0, 1})
	pauses := []time.Duration{20 * time.Millisecond, 200 * time.Millisecond, 2 * time.Second}
	for i, pause := range pauses {
		must(t, rt.Barrier())
		before := armci.Rung(rt)
		if rt.Rank() == 0 {
			// No process sends the last rank's server anything meanwhile.
			time.Sleep(pause)
			got := []int64{0}
			must(t, armci.Get(s, last, 0, got))
			if want := int64(1)<<56 | 7; got[0] != want {
				t.Errorf("get after a pause: %#x, want %#x", got[0], want)
			}
		}
		must(t, rt.Barrier())
		woke := []int{1}
		if rt.Rank() == last && last != 0 && !s.Mapped(0) && rang && armci.Rung(rt)-before == 0 {
			woke[0] = 0
		}
		all := []int{0}
		must(t, mpi.Allreduce(rt.Comm(), woke, all, mpi.Min))
		if all[0] == 1 {
			break
		}
		if i == len(pauses)-1 && woke[0] == 0 {
			t.Errorf("rank %d: its server woke to no doorbell for rank 0's get after pauses of %v", last, pauses)
		}
	}
	must(t, s.Free())
}

// resolvable reports whether every process's host name resolves from every
// process (a process's own always does): the condition for doorbells.
func resolvable(t *testing.T, w *mpi.Comm) bool {
	const width = 256
	host, err := os.Hostname()
	must(t, err)
	mine := make([]byte, width)
	copy(mine, host)
	all := make([]byte, width*w.Size())
	must(t, mpi.Allgather(w, mine, all))
	ok := 1
	for r := range w.Size() {
		name := string(bytes.TrimRight(all[r*width:(r+1)*width], "\x00"))
		if _, err := net.LookupHost(name); name != host && err != nil {
			ok = 0
		}
	}
	agreed := []int{0}
	must(t, mpi.Allreduce(w, []int{ok}, agreed, mpi.Min))
	return agreed[0] == 1
}
