package armci_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestCostsAtScale: the tables that a runtime and a segment keep in each
// process grow with the number of processes P as doc.go's "Costs at scale"
// says, entry for entry and byte for byte. On one node: a lock per process,
// and the shared-memory barrier's lines and slots; a segment's four tables
// and a mapped transport per part. Across nodes (ranks taken as pairs on a
// node, active messages, exchanges): 28 bytes per process, 88 more for the
// doorbells, a link per exchange partner (log2 P of them) and the node's
// ranks; a segment's four tables, a mapped transport per part of the node
// and one of 32 bytes per other part. Over more processes than doorbells
// serve, there are none and their tables with them.
func TestCostsAtScale(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		if mpitest.OverNetwork() {
			t.Skip("osc ucx over TCP makes no shared-memory windows: nothing is mapped")
		}
		w := mpi.World()
		p, me := w.Size(), w.Rank()

		rt, err := armci.Init(w)
		must(t, err)
		want := map[string]armci.Table{"turns": {p, 8}}
		if rt.SharedMemory() {
			rounds := 0
			for 1<<rounds < p {
				rounds++
			}
			want["barrier.lines"] = armci.Table{Entries: 2 * rounds * p, Bytes: 64}
			want["barrier.slots"] = armci.Table{Entries: 2 * p, Bytes: 64 + armci.GatherCap}
		}
		sameTables(t, "one node: runtime", armci.RuntimeTables(rt), want)
		s := malloc(t, rt, 64)
		want = perRank(p)
		if rt.SharedMemory() {
			want["mapped"] = armci.Table{Entries: p, Bytes: 48}
			if p > 1 {
				want["entered"] = armci.Table{Entries: p - 1, Bytes: 56}
				want["entered.bits"] = armci.Table{Entries: p - 1, Bytes: 8}
			}
		} else {
			want["overMPI"] = armci.Table{Entries: p, Bytes: 16}
			want["issued"], want["flushed"] = armci.Table{Entries: p, Bytes: 8}, armci.Table{Entries: p, Bytes: 8}
		}
		sameTables(t, "one node: segment", armci.SegmentTables(s), want)
		must(t, s.Free())
		must(t, rt.Finalize())

		if !rt.SharedMemory() {
			return
		}
		bells := resolvable(t, w)
		for _, maxBells := range []int{p, p - 1} {
			restore := armci.SetMaxDoorbells(maxBells)
			rt, err := armci.Init(w, armci.WithNodes(pairs), armci.WithRemote(armci.RemoteAM), armci.WithExchanges())
			restore()
			must(t, err)
			if rt.SingleNode() {
				must(t, rt.Finalize())
				return
			}
			node := min(2, p-me/2*2) // this process's node's ranks
			name := fmt.Sprintf("nodes, at most %d doorbells", maxBells)
			if want := bells && maxBells >= p; rt.Doorbells() != want {
				t.Errorf("%s: Doorbells() %v, want %v", name, rt.Doorbells(), want)
			}
			want := map[string]armci.Table{"turns": {p, 8}, "am.sent": {p, 8}, "am.fenced": {p, 8}, "am.listed": {p, 4},
				"node.ranks": {node, 8}}
			if rt.Doorbells() {
				for _, k := range []string{"peers", "last", "count", "heard"} {
					want["doorbell."+k] = armci.Table{Entries: p, Bytes: 8}
				}
				want["doorbell.addrs"] = armci.Table{Entries: p, Bytes: 56}
			}
			if !armci.Linked(rt) {
				t.Errorf("%s: no links", name)
			}
			k := len(armci.ExchangePartners(p, me))
			want["links.ranks"], want["links.peers"] = armci.Table{Entries: k, Bytes: 8}, armci.Table{Entries: k, Bytes: 8}
			want["links.link"] = armci.Table{Entries: k, Bytes: 2064}
			got := armci.RuntimeTables(rt)
			sameTables(t, name+": runtime", got, want)
			if perP, bytes := 28+88*b2i(rt.Doorbells()), total(got); bytes != perP*p+2080*k+8*node {
				t.Errorf("%s: runtime tables of %d bytes, want %d·P + 2080·partners + 8·node = %d", name, bytes, perP, perP*p+2080*k+8*node)
			}
			s := malloc(t, rt, 64)
			want = perRank(p)
			want["mapped"] = armci.Table{Entries: node, Bytes: 48}
			if node > 1 {
				want["entered"] = armci.Table{Entries: node - 1, Bytes: 56}
				want["entered.bits"] = armci.Table{Entries: node - 1, Bytes: 8}
			}
			want["viaAM"] = armci.Table{Entries: p - node, Bytes: 32}
			got = armci.SegmentTables(s)
			sameTables(t, name+": segment", got, want)
			if bytes := total(got); bytes != 80*p+16*node+64*(node-1) {
				t.Errorf("%s: segment tables of %d bytes, want 80·P + 16·node + 64·(node-1) = %d", name, bytes, 80*p+16*node+64*(node-1))
			}
			fenceVisitsWritten(t, rt, s)
			must(t, s.Free())
			must(t, rt.Finalize())
		}
	}, mpitest.Transports(mpitest.SharedMemory))
}

// fenceVisitsWritten: AllFence across nodes visits the targets written since
// the last fence, not every process: a put to one process of another node
// lists that process alone, and the fence that sees it done takes it off.
func fenceVisitsWritten(t *testing.T, rt *armci.Runtime, s *armci.Segment) {
	p, me := rt.Size(), rt.Rank()
	to := (me/2*2 + 2) % p // the first process of the next node (pairs)
	if to/2 == me/2 {
		return // one node: no part is reached by active messages
	}
	if got := armci.Written(rt); len(got) != 0 {
		t.Errorf("rank %d: written before any put: %v", me, got)
	}
	must(t, armci.Put(s, to, 8*(me%2), []int64{int64(me)}))
	if got := armci.Written(rt); !slices.Equal(got, []int{to}) {
		t.Errorf("rank %d: written after a put to %d: %v, want [%d]", me, to, got, to)
	}
	must(t, rt.AllFence())
	if got := armci.Written(rt); len(got) != 0 {
		t.Errorf("rank %d: written after AllFence: %v, want none", me, got)
	}
	must(t, rt.Barrier())
}

// perRank is a segment's four tables by rank, 48 bytes per rank.
func perRank(p int) map[string]armci.Table {
	return map[string]armci.Table{"sizes": {p, 8}, "to": {p, 16}, "at": {p, 16}, "near": {p, 8}}
}

func sameTables(t *testing.T, what string, got, want map[string]armci.Table) {
	t.Helper()
	for k, g := range got {
		if g != want[k] {
			t.Errorf("%s: table %s: %+v, want %+v", what, k, g, want[k])
		}
	}
	for k, w := range want {
		if _, ok := got[k]; !ok {
			t.Errorf("%s: no table %s, want %+v", what, k, w)
		}
	}
}

func total(ts map[string]armci.Table) int {
	n := 0
	for _, t := range ts {
		n += t.Entries * t.Bytes
	}
	return n
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
