package ga

import (
	"slices"

	"github.com/goga-hpc/goga/internal/layout"
	"github.com/goga-hpc/goga/mpi"
)

// Distribution returns the patch that rank owns (NGA_Distribution); ok is
// false when it owns nothing. On a block-cyclic array, as in GA, the argument
// is a block index and the result that block's patch.
func (a *Array[T]) Distribution(rank int) (lo, hi []int, ok bool) {
	if a == nil || a.dead {
		return nil, nil, false
	}
	if a.m.BlockCyclic() {
		if rank < 0 || rank >= a.m.Blocks() {
			return nil, nil, false
		}
		lo, hi = a.m.Patch(rank)
		return lo, hi, true
	}
	return a.m.Block(rank)
}

// Locate returns the rank that owns the element at sub (NGA_Locate; on a
// block-cyclic array GA returns the block index, which LocateBlock gives).
func (a *Array[T]) Locate(sub []int) (int, error) {
	if err := a.checkPatch("Locate", sub, sub); err != nil {
		return -1, err
	}
	return a.m.Owner(sub), nil
}

// LocateBlock returns the index of the block that holds the element at sub.
func (a *Array[T]) LocateBlock(sub []int) (int, error) {
	if err := a.checkPatch("LocateBlock", sub, sub); err != nil {
		return -1, err
	}
	return a.m.BlockAt(sub), nil
}

// Region is the part of a patch that one block holds: the block's index, the
// rank that owns it, and the part.
type Region struct {
	Rank   int
	Block  int
	Lo, Hi []int
}

// LocateRegion lists the blocks that hold parts of the patch [lo, hi], with
// their owners and the part each holds, in block order
// (NGA_Locate_region); without block-cyclic distribution that is rank order.
func (a *Array[T]) LocateRegion(lo, hi []int) ([]Region, error) {
	if err := a.checkPatch("LocateRegion", lo, hi); err != nil {
		return nil, err
	}
	var out []Region
	a.m.Owners(lo, hi, func(b int, plo, phi []int) bool {
		out = append(out, Region{Rank: a.m.BlockOwner(b), Block: b, Lo: slices.Clone(plo), Hi: slices.Clone(phi)})
		return true
	})
	return out, nil
}

// LocateNnodes returns how many pieces LocateRegion would list for the
// patch [lo, hi] (NGA_Locate_nnodes): the processes that own part of it,
// or on a block-cyclic array, as in GA, the blocks (NGA_Locate_num_blocks).
func (a *Array[T]) LocateNnodes(lo, hi []int) (int, error) {
	if err := a.checkPatch("LocateNnodes", lo, hi); err != nil {
		return 0, err
	}
	n := 0
	a.m.Owners(lo, hi, func(int, []int, []int) bool { n++; return true })
	return n, nil
}

// ProcTopology returns rank's coordinates in the array's process grid
// (NGA_Proc_topology); ok is false when rank owns no block or, for an array
// dealt with BlockCyclic, there is no process grid.
//
// The coordinates are in C order, as dims and ProcGrid are: c[d] counts
// blocks along dimension d. GA C's NGA_Proc_topology answers in Fortran
// order, the same numbers reversed (for 100 × 100 on 3 processes goga gives
// rank 1 [0 1], GA C [1 0]); GA_Get_proc_index answers in C order, as goga
// does. Code ported from GA C reads its coord[k] as c[len(c)-1-k].
func (a *Array[T]) ProcTopology(rank int) ([]int, bool) {
	if a == nil {
		return nil, false
	}
	return a.m.Coords(rank)
}

// ProcGrid returns the extents of the process grid (GA_Get_proc_grid): the
// number of blocks along each dimension, or for BlockCyclicGrid the grid it
// was given; nil for an array dealt with BlockCyclic.
//
// The extents are in C order, as dims are: g[d] blocks along dimension d.
// GA C's GA_Get_proc_grid answers in Fortran order, the same numbers
// reversed (for 100 × 100 on 3 processes goga gives [1 3], GA C [3 1], and
// a grid set as [2 1] comes back from GA C as [1 2]). Code ported from GA C
// reads its dims[k] as g[len(g)-1-k].
func (a *Array[T]) ProcGrid() []int {
	if a == nil {
		return nil
	}
	switch d := a.m.BaseDeal().(type) {
	case *layout.ProcGrid:
		return slices.Clone(d.Grid)
	case *layout.RoundRobin:
		return nil
	}
	return a.m.Grid()
}

// CompareDistr reports whether b has the same shape and distribution as a
// (NGA_Compare_distr); arrays of different processor groups never do.
func CompareDistr[T, U Elem](a *Array[T], b *Array[U]) bool {
	if a == nil || b == nil || a.g != b.g || !slices.Equal(a.dims, b.dims) ||
		!a.m.SameDeal(b.m) {
		return false
	}
	for d := range a.m.Starts {
		if !slices.Equal(a.m.Starts[d], b.m.Starts[d]) {
			return false
		}
	}
	return true
}

// Access returns this process's own elements of the patch [lo, hi] in place
// (NGA_Access): a slice that starts at lo, and ld, the leading dimensions of
// the local storage (element (i, j, …) of the patch is at
// ((i-lo0)·ld[0] + (j-lo1))·ld[1] + …). On a block-cyclic array the patch
// must lie in one block. Writes go straight into the array; Release or
// ReleaseUpdate ends the access.
//
// A read_only array refuses it (ErrReadOnly): see AccessRead.
func (a *Array[T]) Access(lo, hi []int) ([]T, []int, error) { return a.access("Access", lo, hi) }

// AccessRead is Access for reading: the same memory, on any array,
// read_only ones included, which refuse Access. The caller must not write
// through it: on a read_only array such a write would change what every
// process reads with no call to refuse it. Release ends the access.
func (a *Array[T]) AccessRead(lo, hi []int) ([]T, []int, error) {
	return a.access("AccessRead", lo, hi)
}

func (a *Array[T]) access(op string, lo, hi []int) ([]T, []int, error) {
	off, ld, err := a.accessAt(op, lo, hi)
	if err != nil {
		return nil, nil, err
	}
	local, err := a.localData()
	if err != nil {
		return nil, nil, err
	}
	return local[off:], ld, nil
}

// accessAt checks that this process stores the patch [lo, hi] in one block
// and returns the storage offset of its corner, in elements, and the
// storage's leading dimensions.
func (a *Array[T]) accessAt(op string, lo, hi []int) (int, []int, error) {
	if err := a.checkPatch(op, lo, hi); err != nil {
		return 0, nil, err
	}
	blk, one := singleBlock(a.dims, a.m.Starts, lo, hi)
	var spare corner
	var c *corner
	if one {
		c = a.cornerOf(blk, &spare)
	}
	if !one || c.rank != a.g.rank {
		if a.m.BlockCyclic() {
			return 0, nil, errorf(op, a.name, "patch lo %v hi %v is not inside one block of process %d", lo, hi, a.g.rank)
		}
		if a.lo == nil {
			return 0, nil, errorf(op, a.name, "process %d owns no block", a.g.rank)
		}
		return 0, nil, errorf(op, a.name, "patch lo %v hi %v is not inside this process's block lo %v hi %v", lo, hi, a.lo, a.hi)
	}
	ld := make([]int, len(lo)-1)
	for d := range ld {
		ld[d] = c.extent(d + 1)
	}
	return c.at(lo), ld, nil
}

// AccessLocal returns this process's whole block in place, with its patch and
// leading dimensions; ok is false if it owns nothing. A block-cyclic array has
// no one local block: AccessBlock and AccessBlockSegment reach its pieces.
// A read_only array refuses it (ErrReadOnly): AccessRead(lo, hi) of the
// block that Distribution names reads it in place.
func (a *Array[T]) AccessLocal() (data []T, lo, hi, ld []int, ok bool, err error) {
	if err := a.valid("AccessLocal"); err != nil {
		return nil, nil, nil, nil, false, err
	}
	if a.m.BlockCyclic() {
		return nil, nil, nil, nil, false, errorf("AccessLocal", a.name, "the array is block-cyclic; use AccessBlock or AccessBlockSegment")
	}
	if a.lo == nil {
		return nil, nil, nil, nil, false, nil
	}
	data, ld, err = a.Access(a.lo, a.hi)
	return data, slices.Clone(a.lo), slices.Clone(a.hi), ld, err == nil, err
}

// Release ends an access that only read (NGA_Release).
func (a *Array[T]) Release(lo, hi []int) error { return a.checkPatch("Release", lo, hi) }

// ReleaseUpdate ends an access that wrote (NGA_Release_update).
func (a *Array[T]) ReleaseUpdate(lo, hi []int) error {
	return a.checkPatch("ReleaseUpdate", lo, hi)
}

// cluster describes which node each GA process runs on, by rank in the world
// group.
type cluster struct {
	me    int     // this process's rank
	node  []int   // node id of each rank
	procs [][]int // ranks on each node, ascending
}

// simulatedNodes, set by tests only, places the processes on nodes instead
// of asking MPI: rank r of a job of n processes runs on node
// simulatedNodes(r, n), so that one machine can test what several nodes do.
var simulatedNodes func(rank, size int) int

// learnCluster finds the nodes; it is collective over c.
func learnCluster(c *mpi.Comm) (cluster, error) {
	// key names this process's node: the lowest rank on it.
	key := []int{0}
	if simulatedNodes != nil {
		key[0] = simulatedNodes(c.Rank(), c.Size())
	} else {
		node, err := c.SplitType(mpi.SplitShared, 0)
		if err != nil {
			return cluster{}, err
		}
		err = mpi.Allreduce(node, []int{c.Rank()}, key, mpi.Min)
		node.Free()
		if err != nil {
			return cluster{}, err
		}
	}
	keys := make([]int, c.Size())
	if err := mpi.Allgather(c, key, keys); err != nil {
		return cluster{}, err
	}
	distinct := slices.Compact(slices.Sorted(slices.Values(keys)))
	cl := cluster{me: c.Rank(), node: make([]int, c.Size()), procs: make([][]int, len(distinct))}
	for r, k := range keys {
		id, _ := slices.BinarySearch(distinct, k)
		cl.node[r] = id
		cl.procs[id] = append(cl.procs[id], r)
	}
	return cl, nil
}

// nodes returns the cluster GA runs on (empty before Init).
func nodes() cluster {
	proc.mu.Lock()
	defer proc.mu.Unlock()
	return proc.cluster
}

// ClusterNnodes returns the number of nodes (GA_Cluster_nnodes).
func ClusterNnodes() int { return len(nodes().procs) }

// ClusterNodeid returns the node this process runs on (GA_Cluster_nodeid).
func ClusterNodeid() int { return ClusterProcNodeid(nodes().me) }

// ClusterProcNodeid returns the node rank runs on (GA_Cluster_proc_nodeid).
func ClusterProcNodeid(rank int) int {
	cl := nodes()
	if rank < 0 || rank >= len(cl.node) {
		return -1
	}
	return cl.node[rank]
}

// ClusterNprocs returns the number of processes on node (GA_Cluster_nprocs).
func ClusterNprocs(node int) int {
	cl := nodes()
	if node < 0 || node >= len(cl.procs) {
		return 0
	}
	return len(cl.procs[node])
}

// ClusterProcid returns the GA rank of the i-th process on node
// (GA_Cluster_procid), or -1.
func ClusterProcid(node, i int) int {
	cl := nodes()
	if node < 0 || node >= len(cl.procs) || i < 0 || i >= len(cl.procs[node]) {
		return -1
	}
	return cl.procs[node][i]
}
