package ga_test

import (
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// placedNodes returns how many of the n processes each node runs, in the
// order of their first ranks: those of the simulated nodes the job was
// placed on (mpitest.Placed; 3+2+2+1 and 2+2+2+2 in the four-node pass,
// halves in the two-node pass), else all n on this one.
func placedNodes(n int) []int {
	p := mpitest.Placed()
	if p == nil {
		return []int{n}
	}
	return slices.DeleteFunc(slices.Clone(p), func(r int) bool { return r == 0 })
}

// firstRanks returns the first rank of each node of counts.
func firstRanks(counts []int) []int {
	first := make([]int, len(counts))
	for k := 1; k < len(counts); k++ {
		first[k] = first[k-1] + counts[k-1]
	}
	return first
}

// TestClusterPlacement checks the cluster queries against the nodes the job
// was placed on, exactly: each process's node, each node's processes in
// rank order, and out-of-range queries; and against MPI's own grouping by
// node (testCluster).
func TestClusterPlacement(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		testCluster(t)
		me, n := ga.Nodeid(), ga.Nnodes()
		counts := placedNodes(n)
		first := firstRanks(counts)
		nodeOf := make([]int, 0, n)
		for k, c := range counts {
			nodeOf = append(nodeOf, slices.Repeat([]int{k}, c)...)
		}
		if len(nodeOf) != n {
			fatalf(t, "placement %v for %d processes", counts, n)
		}
		if got := ga.ClusterNnodes(); got != len(counts) {
			t.Errorf("ClusterNnodes = %d, want %d (placed %v)", got, len(counts), counts)
		}
		if got := ga.ClusterNodeid(); got != nodeOf[me] {
			t.Errorf("ClusterNodeid on process %d = %d, want %d (placed %v)", me, got, nodeOf[me], counts)
		}
		for r := range n {
			if got := ga.ClusterProcNodeid(r); got != nodeOf[r] {
				t.Errorf("ClusterProcNodeid(%d) = %d, want %d (placed %v)", r, got, nodeOf[r], counts)
			}
		}
		for k, c := range counts {
			if got := ga.ClusterNprocs(k); got != c {
				t.Errorf("ClusterNprocs(%d) = %d, want %d (placed %v)", k, got, c, counts)
			}
			for i := range c {
				if got := ga.ClusterProcid(k, i); got != first[k]+i {
					t.Errorf("ClusterProcid(%d, %d) = %d, want %d (placed %v)", k, i, got, first[k]+i, counts)
				}
			}
			if got := ga.ClusterProcid(k, c); got != -1 {
				t.Errorf("ClusterProcid(%d, %d) past the node's processes = %d, want -1", k, c, got)
			}
		}
		for _, k := range []int{-1, len(counts)} {
			if got := ga.ClusterNprocs(k); got != 0 {
				t.Errorf("ClusterNprocs(%d) of %d nodes = %d, want 0", k, len(counts), got)
			}
			if got := ga.ClusterProcid(k, 0); got != -1 {
				t.Errorf("ClusterProcid(%d, 0) of %d nodes = %d, want -1", k, len(counts), got)
			}
		}
		for _, r := range []int{-1, n} {
			if got := ga.ClusterProcNodeid(r); got != -1 {
				t.Errorf("ClusterProcNodeid(%d) of %d processes = %d, want -1", r, n, got)
			}
		}
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP), mpitest.ManyNodes())
}

// TestNodeGroups runs processor groups laid along the nodes and across
// them: a group per node, a group of one process from each node, and two
// groups that split every node of several processes (even and odd ranks).
// Each copies the world's array into arrays of its own, works on them and
// reduces over itself, and the totals are exact; the one of a process per
// node counts tickets with ReadInc from every node at once.
func TestNodeGroups(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		me, n := ga.Nodeid(), ga.Nnodes()
		counts := placedNodes(n)
		first := firstRanks(counts)
		node := ga.ClusterNodeid()
		world := ga.PgroupGetWorld()
		dims := []int{n + 3, 5}
		ref := pattern(dims, func(i int) int64 { return int64(7*i - 11) })
		times := func(k int64) []int64 {
			out := slices.Clone(ref)
			for i := range out {
				out[i] *= k
			}
			return out
		}
		w, err := ga.Create[int64]("world", dims, nil)
		must(t, err)
		defer destroy(t, w)
		putAll(t, w, ref)

		// A group per node: its processes in rank order.
		own, err := world.SplitIrreg(node)
		must(t, err)
		if own.Nnodes() != counts[node] || own.Nodeid() != me-first[node] {
			t.Errorf("process %d's node group: rank %d of %d, want %d of %d", me, own.Nodeid(), own.Nnodes(), me-first[node], counts[node])
		}
		a, err := ga.CreateConfig[int64]("node's", dims, nil, own)
		must(t, err)
		must(t, ga.Copy(w, a))
		must(t, a.Scale(int64(node+1)))
		sameElems(t, "the world's array copied into the node's group and scaled", getAll(t, a), times(int64(node+1)))
		x := []int64{int64(me)}
		must(t, ga.PgroupGop(own, x, ga.OpSum))
		c := int64(counts[node])
		if want := c*int64(first[node]) + c*(c-1)/2; x[0] != want {
			t.Errorf("node %d's group: sum of its ranks %d, want %d", node, x[0], want)
		}
		must(t, a.Destroy())
		must(t, own.Destroy())

		// A process from each node: a group across all of them.
		lead, err := ga.PgroupCreate(first)
		must(t, err)
		if _, leader := slices.BinarySearch(first, me); leader {
			if lead.Nnodes() != len(counts) || lead.Nodeid() != node {
				t.Errorf("node leaders' group: rank %d of %d, want %d of %d", lead.Nodeid(), lead.Nnodes(), node, len(counts))
			}
			testLeaderTickets(t, lead)
		}
		must(t, ga.Sync())
		must(t, lead.Destroy())

		// Even and odd ranks: groups that split the nodes. Each copies the
		// world's array, and its process 0 adds its copy to the world's.
		half, err := world.SplitIrreg(me % 2)
		must(t, err)
		if want := (n - me%2 + 1) / 2; half.Nnodes() != want || half.Nodeid() != me/2 {
			t.Errorf("process %d's half: rank %d of %d, want %d of %d", me, half.Nodeid(), half.Nnodes(), me/2, want)
		}
		h, err := ga.CreateConfig[int64]("half's", dims, nil, half)
		must(t, err)
		must(t, ga.Copy(w, h))
		sameElems(t, "the world's array copied into a half", getAll(t, h), ref)
		must(t, ga.Sync())
		if half.Nodeid() == 0 {
			lo, hi := fullPatch(dims)
			got := getAll(t, h)
			must(t, w.Acc(lo, hi, got, nil, 1))
		}
		must(t, ga.Sync())
		sameElems(t, "the world's array with each half's copy added", getAll(t, w), times(int64(1+min(n, 2))))
		must(t, h.Destroy())
		must(t, half.Destroy())
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP), mpitest.ManyNodes())
}

// testLeaderTickets: the processes of lead, one on each node, take
// tickets from a counter on the group's first process and add to a total
// on its last, all at once; every ticket is taken once and the total is
// exact.
func testLeaderTickets(t *testing.T, lead *ga.Pgroup) {
	const k = 50
	m := lead.Nnodes()
	starts := []int{0}
	if m > 1 {
		starts = append(starts, m)
	}
	c, err := ga.CreateIrregConfig[int64]("tickets", []int{2 * m}, [][]int{starts}, lead)
	must(t, err)
	must(t, c.Zero())
	var sum int64
	for range k {
		tk, err := c.ReadInc([]int{0}, 1)
		must(t, err)
		sum += tk
		must(t, c.Acc([]int{2*m - 1}, []int{2*m - 1}, []int64{tk}, nil, 1))
	}
	must(t, lead.Sync())
	x := []int64{sum}
	must(t, ga.PgroupGop(lead, x, ga.OpSum))
	total := int64(k * m)
	if want := total * (total - 1) / 2; x[0] != want {
		t.Errorf("%d processes took %d tickets each: their sum %d, want %d", m, k, x[0], want)
	}
	got := make([]int64, 2*m)
	must(t, c.Get([]int{0}, []int{2*m - 1}, got, nil))
	if got[0] != total || got[2*m-1] != total*(total-1)/2 {
		t.Errorf("counter %d and total %d after %d tickets, want %d and %d", got[0], got[2*m-1], total, total, total*(total-1)/2)
	}
	must(t, lead.Sync())
	must(t, c.Destroy())
}
