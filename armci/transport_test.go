package armci_test

import (
	"math/bits"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// pairs puts the world's ranks on "nodes" of two: 0 and 1 on node 0, 2 and 3
// on node 1, and so on.
func pairs() int { return mpi.World().Rank() / 2 }

// TestNodes runs the transfer and atomicity tests on segments that span
// nodes (simulated: ranks taken as pairs sharing a node): each process maps
// the parts of its node's ranks and reaches the others through active
// messages or MPI RMA, within one segment and one operation.
func TestNodes(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		if mpitest.OverNetwork() {
			t.Skip("osc ucx over TCP makes no shared-memory windows: nothing is mapped")
		}
		for _, remote := range []armci.Remote{armci.RemoteAM, armci.RemoteRMA} {
			t.Run(remote.String(), func(t *testing.T) { testNodes(t, remote) })
		}
		t.Run("RemoteChoice", testRemoteChoice)
		t.Run("Exchanges", testExchanges)
		t.Run("ExchangesUnlinked", testExchangesUnlinked)
		// The whole suite in one job: 45 s on 4 ranks with the machine
		// loaded tenfold, past the default limit when loaded more.
	}, mpitest.Timeout(300*time.Second))
}

func testNodes(t *testing.T, remote armci.Remote) {
	for _, c := range []struct {
		name string
		f    func(t *testing.T, rt *armci.Runtime)
	}{
		{"Transports", testTransports}, {"PartsAligned", testPartsAligned},
		{"PutGet", testPutGet}, {"Acc", testAcc}, {"Strided", testStrided},
		{"StridedOdd", testStridedOdd}, {"AccS", testAccS}, {"Vector", testVector},
		{"ZeroSize", testZeroSize}, {"Group", testGroup}, {"FenceThenRead", testFenceThenRead},
		{"BarrierMax", testBarrierMax}, {"AllMaxReduce", testAllMaxReduce},
		{"MapIn", testMapIn}, {"RMW", testRMW}, {"NonBlocking", testNonBlocking},
		{"Errors", testErrors}, {"Collective", testCollectiveErrors},
		{"AccContention", testAccContention}, {"Tickets", testTickets},
		{"SwapCAS", testSwapCAS}, {"Mutexes", testMutexes}, {"MutexSets", testMutexSets},
		{"MutexesServed", testMutexesServed},
		{"Goroutines", goroutines(4, reps().threaded)},
		{"FenceGoroutines", testFenceGoroutines}, {"Finalize", testFinalize},
	} {
		t.Run(c.name, func(t *testing.T) {
			rt, err := armci.Init(mpi.World(), armci.WithNodes(pairs), armci.WithRemote(remote))
			must(t, err)
			c.f(t, rt)
			must(t, rt.Finalize())
		})
	}
}

// testMutexesServed: where the other nodes are reached by active messages,
// their servers keep the mutexes, and making them starts no progress
// goroutine (which would wake every 200 µs in every process); in an RMA
// window across nodes, the mutexes need one. Every rank then takes every
// host's mutex.
func testMutexesServed(t *testing.T, rt *armci.Runtime) {
	must(t, rt.CreateMutexes(1))
	if want := !rt.SingleNode() && rt.Remote() == armci.RemoteRMA; armci.Progressing(rt) != want {
		t.Errorf("Remote() = %v on %d ranks: progress goroutine running = %v, want %v", rt.Remote(), rt.Size(), armci.Progressing(rt), want)
	}
	for h := range rt.Size() {
		must(t, rt.Lock(0, h))
		must(t, rt.Unlock(0, h))
	}
	must(t, rt.DestroyMutexes())
}

// testExchanges: agreements across nodes made of point-to-point exchanges
// of records, as where MPI does not yield when idle (exchange.go), give
// every process the rank-order combination and the maxima (recursive
// doubling on 4 ranks, with a fold on 3), and serve requests while they
// wait: a fetch-and-add by every process on every other, then a barrier,
// in turns.
// Without WithExchanges a runtime exchanges exactly where MPI does not yield.
func testExchanges(t *testing.T) {
	rt, err := armci.Init(mpi.World(), armci.WithNodes(pairs), armci.WithRemote(armci.RemoteAM))
	must(t, err)
	if want := !rt.SingleNode() && !armci.MPIYields(); armci.Exchanges(rt) != want {
		t.Errorf("MPI yielding %v, %d ranks: Exchanges = %v, want %v", armci.MPIYields(), rt.Size(), armci.Exchanges(rt), want)
	}
	must(t, rt.Finalize())

	rt, err = armci.Init(mpi.World(), armci.WithNodes(pairs), armci.WithRemote(armci.RemoteAM), armci.WithExchanges())
	must(t, err)
	if armci.Exchanges(rt) == rt.SingleNode() {
		t.Fatalf("WithExchanges on %d ranks: Exchanges = %v", rt.Size(), armci.Exchanges(rt))
	}
	if armci.Linked(rt) != armci.Exchanges(rt) {
		t.Errorf("Exchanges %v: Linked = %v", armci.Exchanges(rt), armci.Linked(rt))
	}
	testAllMaxReduce(t, rt)
	testBarrierMax(t, rt)
	testAgreementBurst(t, rt)
	s := malloc(t, rt, 8*rt.Size())
	clear(s.Local())
	must(t, rt.Barrier())
	for turn := range rt.Size() {
		if turn == rt.Rank() {
			for r := range rt.Size() {
				if old, err := armci.FetchAdd(s, r, 8*turn, int64(1)); err != nil || old != 0 {
					t.Fatalf("FetchAdd on %d in turn %d: %d, %v; want 0", r, turn, old, err)
				}
			}
		}
		must(t, rt.Barrier())
	}
	got := viewAs[int64](s.Local())
	for turn, v := range got {
		if v != 1 {
			t.Errorf("counter of turn %d on rank %d = %d, want 1", turn, rt.Rank(), v)
		}
	}
	must(t, s.Free())
	must(t, rt.Finalize())
}

// testExchangesUnlinked: with GOGA_ARMCI_LINKS=0 on one process (the last)
// every process's exchanges go as MPI messages, and agree as over links.
func testExchangesUnlinked(t *testing.T) {
	if w := mpi.World(); w.Rank() == w.Size()-1 {
		t.Setenv("GOGA_ARMCI_LINKS", "0")
	}
	rt, err := armci.Init(mpi.World(), armci.WithNodes(pairs), armci.WithRemote(armci.RemoteAM), armci.WithExchanges())
	must(t, err)
	defer func() { must(t, rt.Finalize()) }()
	if armci.Linked(rt) || armci.Exchanges(rt) == rt.SingleNode() {
		t.Fatalf("GOGA_ARMCI_LINKS=0 on %d ranks: Exchanges %v, Linked %v", rt.Size(), armci.Exchanges(rt), armci.Linked(rt))
	}
	testAllMaxReduce(t, rt)
	testBarrierMax(t, rt)
	testAgreementBurst(t, rt)
}

// testAgreementBurst: agreements back to back whose records alternate in
// length (none for a plain barrier, maxima, a reduction's bytes), so that a
// process that goes on to the next one sends its record before a slower
// peer has read the last; each gives every process the maxima and sums of
// that round.
func testAgreementBurst(t *testing.T, rt *armci.Runtime) {
	n, me := rt.Size(), rt.Rank()
	for i := range 300 {
		switch i % 3 {
		case 0:
			must(t, rt.AllMax(nil))
		case 1:
			v := []int64{int64(i*n + me), int64(-me)}
			must(t, rt.AllMax(v))
			if v[0] != int64(i*n+n-1) || v[1] != 0 {
				t.Fatalf("AllMax round %d: %v, want [%d 0]", i, v, i*n+n-1)
			}
		default:
			in := make([]float64, i%17+1)
			for k := range in {
				in[k] = float64(i + k + me)
			}
			out := make([]float64, len(in))
			if ok, err := armci.AllMaxReduce(rt, nil, in, out, armci.ReduceSum); err != nil || !ok {
				t.Fatalf("AllMaxReduce round %d: %v, %v", i, ok, err)
			}
			for k, x := range out {
				if want := float64(n*(i+k) + n*(n-1)/2); x != want {
					t.Fatalf("AllMaxReduce round %d element %d: %v, want %v", i, k, x, want)
				}
			}
		}
	}
}

// TestExchangePartners: the links made at start are the pairs that
// agreement.Exchange's recursive doubling (with its fold where the size is not
// a power of two) exchanges on: each pair is listed from both sides, once,
// and every rank but the folding ones exchanges with log2 of the doubling
// ranks' count.
func TestExchangePartners(t *testing.T) {
	for n := 1; n <= 33; n++ {
		p2 := 1
		for p2*2 <= n {
			p2 *= 2
		}
		for me := range n {
			ps := armci.ExchangePartners(n, me)
			seen := map[int]bool{}
			for _, p := range ps {
				if p == me || p < 0 || p >= n || seen[p] || !slices.Contains(armci.ExchangePartners(n, p), me) {
					t.Fatalf("n %d: rank %d's partners %v (%d not a partner both ways, or twice)", n, me, ps, p)
				}
				seen[p] = true
			}
			want := bits.Len(uint(p2)) - 1
			if extra := n - p2; me < 2*extra {
				want = 1 + want*(me%2)
			}
			if len(ps) != want {
				t.Errorf("n %d: rank %d has %d partners %v, want %d", n, me, len(ps), ps, want)
			}
		}
	}
}

// testRemoteChoice: a runtime whose ranks span nodes reaches the other
// nodes as WithRemote, else GOGA_ARMCI_REMOTE, else the machine says (RMA
// only where it has RDMA devices); on one node there is nothing to choose.
func testRemoteChoice(t *testing.T) {
	rdma := false
	if d, err := os.ReadDir("/sys/class/infiniband"); err == nil && len(d) > 0 {
		rdma = true
	}
	auto := armci.RemoteAM
	if rdma {
		auto = armci.RemoteRMA
	}
	for _, c := range []struct {
		env  string
		opts []armci.Option
		want armci.Remote
	}{
		{"", nil, auto},
		{"rma", nil, armci.RemoteRMA},
		{"am", nil, armci.RemoteAM},
		{"am", []armci.Option{armci.WithRemote(armci.RemoteRMA)}, armci.RemoteRMA},
		{"", []armci.Option{armci.WithRemote(armci.RemoteAM)}, armci.RemoteAM},
	} {
		if c.env != "" {
			os.Setenv("GOGA_ARMCI_REMOTE", c.env)
		}
		rt, err := armci.Init(mpi.World(), append(c.opts, armci.WithNodes(pairs))...)
		os.Unsetenv("GOGA_ARMCI_REMOTE")
		must(t, err)
		want := c.want
		if rt.SingleNode() {
			want = armci.RemoteAuto
		}
		if rt.Remote() != want {
			t.Errorf("GOGA_ARMCI_REMOTE=%q, %d options: Remote() = %v, want %v", c.env, len(c.opts), rt.Remote(), want)
		}
		must(t, rt.Finalize())
	}
	// An unknown way is refused on every process where the ranks span nodes.
	if mpi.World().Size() > 2 {
		_, err := armci.Init(mpi.World(), armci.WithNodes(pairs), armci.WithRemote(armci.Remote(7)))
		wantErr(t, "Init with WithRemote(7)", err, "remote", nil)
		os.Setenv("GOGA_ARMCI_REMOTE", "carrier-pigeon")
		_, err = armci.Init(mpi.World(), armci.WithNodes(pairs))
		os.Unsetenv("GOGA_ARMCI_REMOTE")
		wantErr(t, "Init with GOGA_ARMCI_REMOTE=carrier-pigeon", err, "remote", nil)
		// The world is usable after the refusals.
		rt, err := armci.Init(mpi.World(), armci.WithNodes(pairs))
		must(t, err)
		must(t, rt.Finalize())
	}
}

// testTransports checks that a segment over simulated nodes maps exactly
// the parts of this process's node.
func testTransports(t *testing.T, rt *armci.Runtime) {
	np, me := rt.Size(), rt.Rank()
	if rt.SingleNode() != (np <= 2) {
		t.Errorf("SingleNode() = %v on %d ranks in pairs", rt.SingleNode(), np)
	}
	if !rt.SharedMemory() {
		t.Errorf("SharedMemory() = false: node parts should be mapped")
	}
	s, err := rt.Malloc(64)
	must(t, err)
	if s.SharedMemory() != (np <= 2) {
		t.Errorf("segment SharedMemory() = %v on %d ranks in pairs", s.SharedMemory(), np)
	}
	for r := range np {
		if want := r/2 == me/2; s.Mapped(r) != want {
			t.Errorf("Mapped(%d) = %v on rank %d, want %v", r, s.Mapped(r), me, want)
		}
	}
	must(t, s.Free())
}

// testPartsAligned: every part a process maps starts on a page, whatever the
// sizes of the parts before it in their window (ranks' sizes differ here) and
// wherever MPI put the window's memory: received into at 80 bytes past a
// page, 8 MiB transfers across the nodes ran at 0.65-0.7 of their rate.
func testPartsAligned(t *testing.T, rt *armci.Runtime) {
	for _, size := range []int{1, 100, 4096 + 8, 1 << 20} {
		s, err := rt.Malloc(size + 24*rt.Rank())
		must(t, err)
		mapped := 0
		for r := range rt.Size() {
			if a := armci.PartAddr(s, r); a != 0 {
				mapped++
				if a%4096 != 0 {
					t.Errorf("rank %d maps rank %d's part of a %d-byte segment at %#x, %d bytes past a page", rt.Rank(), r, size, a, a%4096)
				}
			}
		}
		if s.SharedMemory() && mapped != rt.Size() {
			t.Errorf("%d parts mapped on one node of %d ranks", mapped, rt.Size())
		}
		must(t, s.Free())
	}
}
