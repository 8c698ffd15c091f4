package ga_test

import (
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
)

// TestMirrored covers mirrored arrays on one node and on nodes simulated
// inside this machine: the nodes' copies are separate, merge to their sum,
// merge into a distributed patch, and copy to and from distributed arrays;
// misuse is refused on every process with nothing changed.
// On one node the one copy is a distributed array; on the two- and
// four-node tiers there is a copy on each node; with a node per process the copies merge by one
// reduction among them; with nodes of two they are laid out alike on 4
// ranks, differently on 3.
func TestMirrored(t *testing.T) {
	onNodes(t, func(t *testing.T) {
		testMirroredCopies(t)
		testMirroredMisuse(t)
	})
}

// nodeValues is node k's copy in the tests: (k+1)·(i+1) at C-order
// position i.
func nodeValues(dims []int, node int) []float64 {
	return pattern(dims, func(i int) float64 { return float64((node + 1) * (i + 1)) })
}

// fillCopy writes this node's values into its copy of a, from the node's
// first process, between syncs.
func fillCopy(t *testing.T, a *ga.Array[float64]) {
	must(t, ga.Sync())
	node := ga.ClusterNodeid()
	if ga.ClusterProcid(node, 0) == ga.Nodeid() {
		lo, hi := fullPatch(a.Dims())
		must(t, a.Put(lo, hi, nodeValues(a.Dims(), node), nil))
	}
	must(t, ga.Sync())
}

func testMirroredCopies(t *testing.T) {
	me, n := ga.Nodeid(), ga.Nnodes()
	node, nodes := ga.ClusterNodeid(), ga.ClusterNnodes()
	m := ga.PgroupGetMirror()
	if m.Nnodes() != n || m.Nodeid() != me {
		t.Errorf("mirror handle: %d processes, rank %d; want %d, %d", m.Nnodes(), m.Nodeid(), n, me)
	}
	dims := []int{7, 5}
	a, err := ga.CreateConfig[float64]("mirrored", dims, nil, m)
	must(t, err)
	defer destroy(t, a)
	if !a.IsMirrored() || a.Pgroup() != m {
		t.Errorf("mirrored array: IsMirrored %v, its group the mirror handle %v", a.IsMirrored(), a.Pgroup() == m)
	}

	// Each node's copy is its own.
	fillCopy(t, a)
	sameElems(t, "the node's copy", getAll(t, a), nodeValues(dims, node))
	// A mirrored array's collectives work on the node's copy, as GA's Dot
	// sums over the node.
	dot, err := ga.Dot(a, a)
	must(t, err)
	want := 0.0
	for _, v := range nodeValues(dims, node) {
		want += v * v
	}
	if dot != want {
		t.Errorf("Dot of the node's copy: %v, want %v", dot, want)
	}

	// Merged, every copy is the sum of the copies: S·(i+1).
	s := nodes * (nodes + 1) / 2
	sum := pattern(dims, func(i int) float64 { return float64(s * (i + 1)) })
	must(t, a.MergeMirrored())
	sameElems(t, "after MergeMirrored", getAll(t, a), sum)

	// A patch of the copies merged into a distributed array's patch of one
	// shape; the rest of it is left alone.
	fillCopy(t, a)
	d, err := ga.Create[float64]("distributed", []int{6, 6}, nil)
	must(t, err)
	defer destroy(t, d)
	must(t, d.Fill(-1))
	alo, ahi, blo, bhi := []int{1, 1}, []int{4, 3}, []int{2, 0}, []int{5, 2}
	must(t, ga.MergeDistrPatch(a, alo, ahi, d, blo, bhi))
	wantD := pattern([]int{6, 6}, func(i int) float64 {
		r, c := i/6, i%6
		if r < blo[0] || r > bhi[0] || c < blo[1] || c > bhi[1] {
			return -1
		}
		return sum[(r-blo[0]+alo[0])*dims[1]+c-blo[1]+alo[1]]
	})
	sameElems(t, "after MergeDistrPatch", getAll(t, d), wantD)

	// Copy from a distributed array fills every copy; a duplicate of a
	// mirrored array is mirrored.
	b, err := a.Duplicate("duplicate")
	must(t, err)
	defer destroy(t, b)
	if !b.IsMirrored() {
		t.Errorf("a mirrored array's duplicate is not mirrored")
	}
	w, err := ga.Create[float64]("world", []int{5, 7}, nil)
	must(t, err)
	defer destroy(t, w)
	ref := pattern([]int{5, 7}, func(i int) float64 { return float64(i) + 0.5 })
	putAll(t, w, ref)
	must(t, ga.Copy(w, b))
	sameElems(t, "a mirrored copy of a distributed array", getAll(t, b), ref)
	// Copy from a mirrored array: each process takes its part from its
	// node's copy.
	must(t, ga.Copy(a, w))
	if lo, hi, ok := w.Distribution(me); ok {
		got := make([]float64, volume(lo, hi))
		must(t, w.Get(lo, hi, got, nil))
		mine := nodeValues(dims, node)
		var wantMine []float64
		eachSub(lo, hi, func(sub []int) { wantMine = append(wantMine, mine[linear([]int{5, 7}, sub)]) })
		sameElems(t, "a process's part copied from its node's copy", got, wantMine)
	}
	// CopyPatch into a mirrored array, transposed.
	must(t, ga.CopyPatch(ga.Trans, w, []int{0, 0}, []int{1, 2}, b, []int{0, 0}, []int{2, 1}))
	gotB := getAll(t, b)
	wantCorner := []float64{}
	for _, sub := range [][]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}} {
		mine := nodeValues(dims, ownerNode(t, w, sub))
		wantCorner = append(wantCorner, mine[linear([]int{5, 7}, sub)])
	}
	sameElems(t, "CopyPatch 't' into a mirrored patch", []float64{gotB[0], gotB[1], gotB[5], gotB[6], gotB[10], gotB[11]}, wantCorner)

	// Ghost cells on a mirrored array: merging sums the visible elements.
	gh, err := ga.CreateGhostsConfig[int32]("ghosts", []int{6, 4}, []int{1, 1}, nil, m)
	must(t, err)
	defer destroy(t, gh)
	must(t, gh.Fill(int32(node+1)))
	must(t, gh.MergeMirrored())
	sameElems(t, "a ghosted mirrored array merged", getAll(t, gh), slices.Repeat([]int32{int32(s)}, 24))
}

// ownerNode is the node of the process that owns w's element sub.
func ownerNode(t *testing.T, w *ga.Array[float64], sub []int) int {
	owner, err := w.Locate(sub)
	must(t, err)
	return ga.ClusterProcNodeid(owner)
}

func testMirroredMisuse(t *testing.T) {
	m := ga.PgroupGetMirror()
	nodes := ga.ClusterNnodes()
	a, err := ga.CreateConfig[float64]("mirrored", []int{4, 4}, nil, m)
	must(t, err)
	defer destroy(t, a)
	d, err := ga.Create[float64]("distributed", []int{4, 4}, nil)
	must(t, err)
	defer destroy(t, d)
	must(t, d.Fill(3))
	must(t, a.Fill(1))

	wantErr(t, "MergeDistrPatch, patches of other shapes", ga.MergeDistrPatch(a, []int{0, 0}, []int{1, 3}, d, []int{0, 0}, []int{3, 1}),
		"MergeDistrPatch", "distributed", nil, "another shape")
	wantErr(t, "MergeDistrPatch into a mirrored array", ga.MergeDistrPatch(a, []int{0, 0}, []int{1, 1}, a, []int{2, 2}, []int{3, 3}),
		"MergeDistrPatch", "mirrored", nil, "the destination is mirrored")
	sameElems(t, "the destination after refused merges", getAll(t, d), slices.Repeat([]float64{3}, 16))
	wantErr(t, "PgroupDestroy of the mirror handle", m.Destroy(), "PgroupDestroy", "", nil, "mirror")
	wantErr(t, "PgroupSetDefault to the mirror handle", m.SetDefault(), "PgroupSetDefault", "", nil, "mirror")
	_, err = m.Split(2)
	wantErr(t, "PgroupSplit of the mirror handle", err, "PgroupSplit", "", nil, "mirror")
	if ga.PgroupGetDefault() != ga.PgroupGetWorld() {
		t.Errorf("the default group changed")
	}
	// A sync only, for an array that is not mirrored.
	must(t, d.MergeMirrored())
	sameElems(t, "a distributed array after MergeMirrored", getAll(t, d), slices.Repeat([]float64{3}, 16))
	if nodes > 1 {
		// Between nodes' copies and a distributed array only copies work.
		err := ga.Add(1, a, 1, d, d)
		wantErr(t, "Add of a mirrored and a distributed array", err, "Add", "distributed", nil, "mirrored array")
		sameElems(t, "the distributed array after a refused Add", getAll(t, d), slices.Repeat([]float64{3}, 16))
	}
}
