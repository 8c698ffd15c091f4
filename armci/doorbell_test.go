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
func pausedGet(t *testing.T, rt *armci.Runtime, rang bool) {
	last := rt.Size() - 1
	s := malloc(t, rt, 8)
	copy(s.Local(), []byte{7, 0, 0, 0, 0, 0, 0, 1})
	must(t, rt.Barrier())
	before := armci.Rung(rt)
	if rt.Rank() == 0 {
		// The server parks once its sleeps reach 200 µs, an eighth of its
		// idle time: after 1.6 ms. No process sends it anything meanwhile.
		time.Sleep(20 * time.Millisecond)
		got := []int64{0}
		must(t, armci.Get(s, last, 0, got))
		if want := int64(1)<<56 | 7; got[0] != want {
			t.Errorf("get after a pause: %#x, want %#x", got[0], want)
		}
	}
	must(t, rt.Barrier())
	if rt.Rank() == last && last != 0 && !s.Mapped(0) {
		if n := armci.Rung(rt) - before; rang && n == 0 {
			t.Errorf("rank %d: its server woke to no doorbell for rank 0's get after a pause", last)
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
