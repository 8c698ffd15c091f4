package ga

import (
	"slices"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/layout"
	"github.com/goga-hpc/goga/mpi"
)

// Mirrored arrays (GA's chapter 9) are one copy per node, each spread over
// its node's processes: an array made with PgroupGetMirror's handle lives on
// the group of this process's node, which every node makes at Init, so that
// one-sided operations reach the node's copy through shared memory and the
// array's collectives involve the node alone, as GA's do (its Dot sums over
// the node's copy). MergeMirrored sums the copies; Copy and CopyPatch
// between a mirrored and a distributed array are collective over the
// distributed array's group, every process reading or filling its own
// node's copy. On one node the node's group is the world group and a
// mirrored array is a distributed one that says it is mirrored.

// newMirror makes the mirror handle over w, GA on every process, given
// the nodes; it is collective over w.
func newMirror(w *group, cl cluster) (*Pgroup, error) {
	m := &Pgroup{g: w, members: w.pg.members, node: w}
	if len(cl.procs) < 2 {
		return m, nil
	}
	id := cl.node[cl.me]
	mine := cl.procs[id]
	sub, err := w.comm().Split(id, w.rank)
	if err != nil {
		return nil, err
	}
	defer sub.Free()
	rt, err := armci.Init(sub)
	if err != nil {
		return nil, err
	}
	m.node = newGroup(rt, slices.Clone(mine))
	m.node.node = true
	for _, p := range cl.procs {
		if len(p) != len(mine) {
			return m, nil
		}
	}
	// Every node the same size: the copies are laid out alike, and the
	// processes of one rank on their nodes hold the same parts.
	if m.peers, err = w.comm().Split(slices.Index(mine, cl.me), id); err != nil {
		rt.Finalize()
		return nil, err
	}
	return m, nil
}

// PgroupGetMirror returns the mirror handle (GA_Pgroup_get_mirror), or nil
// when GA is not running. Arrays made with it (Builder.Pgroup or the
// Create*Config calls) are mirrored: one copy per node. As a group it is
// every process (Nnodes, Nodeid, Sync, Brdcst, Gop and Comm answer as the
// world group's); it cannot be split, destroyed or made the default.
func PgroupGetMirror() *Pgroup {
	proc.mu.Lock()
	defer proc.mu.Unlock()
	return proc.mirror
}

// IsMirrored reports whether a is mirrored (GA_Is_mirrored): made on the
// mirror handle, on any number of nodes. GA C answers false on one node,
// where it makes an ordinary distributed array instead; here the array is
// mirrored there too, with one copy, and every mirrored call (MergeMirrored,
// MergeDistrPatch, ...) works on it as on many nodes, so code need not ask
// how many nodes it runs on. A port that branches on GA_Is_mirrored to
// merge takes the same branch on every node count.
func (a *Array[T]) IsMirrored() bool { return a != nil && a.mirrored }

// spansNodes reports whether a is a node's copy of a mirrored array on
// several nodes (and not the one copy of one node).
func (a *Array[T]) spansNodes() bool { return a != nil && a.g.node }

// MergeMirrored makes every copy of a mirrored array the sum of all the
// copies as they were (GA_Merge_mirrored). It is collective over every
// process. On one node, or for an array that is not mirrored, the one copy
// is merged already, and MergeMirrored is the array's sync, as in GA.
func (a *Array[T]) MergeMirrored() error {
	const op = "MergeMirrored"
	if !a.spansNodes() {
		return a.collective(op, nil, nil, func([]T) error { return nil })
	}
	if _, err := groupOf(op, a); err != nil {
		return err
	}
	m := PgroupGetMirror()
	return inStep(m.g, op, a.name, a.valid(op), array(newArgs(op).between(), "a", a), func() error {
		if m.peers != nil {
			return a.mergePeers(m.peers)
		}
		return a.mergeThrough(m.g)
	})
}

// mine is this process's part of a's copy: its storage, its regions, and
// their elements packed region after region.
func (a *Array[T]) mine() (local []T, rs []region, buf []T, err error) {
	if local, err = a.localData(); err != nil {
		return nil, nil, nil, err
	}
	n := 0
	lo, hi := a.whole()
	err = a.regions(lo, hi, func(r region) error {
		rs = append(rs, r)
		n += layout.Volume(r.lo, r.hi)
		return nil
	})
	buf = make([]T, n)
	pack(rs, local, buf, false)
	return local, rs, buf, err
}

// pack copies the regions of local into buf (unpack: back), packed.
func pack[T Elem](rs []region, local, buf []T, unpack bool) {
	k := 0
	for _, r := range rs {
		r.runs(func(off, at, n int) {
			if unpack {
				copy(local[off:off+n], buf[k+at:k+at+n])
			} else {
				copy(buf[k+at:k+at+n], local[off:off+n])
			}
		})
		k += layout.Volume(r.lo, r.hi)
	}
}

// mergePeers sums the copies where they are laid out alike: this process's
// part with the same part on every other node, in one reduction.
func (a *Array[T]) mergePeers(peers *mpi.Comm) error {
	local, rs, buf, err := a.mine()
	if err != nil {
		return err
	}
	if err := mpi.Allreduce(peers, nil, buf, mpi.Sum); err != nil {
		return err
	}
	pack(rs, local, buf, true)
	return nil
}

// mergeThrough sums the copies where nodes run different numbers of
// processes, so that the copies are laid out differently: every process
// accumulates its part into a distributed array of w, then reads its part
// of the sum back.
func (a *Array[T]) mergeThrough(w *group) error {
	const op = "MergeMirrored"
	local, rs, buf, err := a.mine()
	if err != nil {
		return err
	}
	sum, err := New[T](a.dims...).Name(a.name + " merged").Pgroup(w.pg).allocate(op)
	if err != nil {
		return err
	}
	err = sum.Zero()
	if err == nil {
		err = a.eachPacked(rs, buf, func(r region, part []T) error { return sum.Acc(r.lo, r.hi, part, nil, 1) })
	}
	// Every process's accumulates complete before anyone reads the sum.
	if err = agree(w, true, op, a.name, err, nil); err == nil {
		err = a.eachPacked(rs, buf, func(r region, part []T) error { return sum.Get(r.lo, r.hi, part, nil) })
	}
	if err == nil {
		pack(rs, local, buf, true)
	}
	if derr := sum.Destroy(); err == nil {
		err = derr
	}
	return err
}

// eachPacked calls f with each region and its part of buf, packed as pack
// packs them.
func (a *Array[T]) eachPacked(rs []region, buf []T, f func(r region, part []T) error) error {
	k := 0
	for _, r := range rs {
		n := layout.Volume(r.lo, r.hi)
		if err := f(r, buf[k:k+n]); err != nil {
			return err
		}
		k += n
	}
	return nil
}

// MergeDistrPatch sets b's patch [blo, bhi] to the sum of every copy of the
// mirrored a's patch [alo, ahi] (NGA_Merge_distr_patch). The patches have
// one shape; b is not mirrored and lives on every process, as the copies
// do. It is collective over every process. For an a that is not mirrored it
// is CopyPatch, as in GA.
func MergeDistrPatch[T Elem](a *Array[T], alo, ahi []int, b *Array[T], blo, bhi []int) error {
	const op = "MergeDistrPatch"
	if a != nil && !a.mirrored {
		return CopyPatch(NoTrans, a, alo, ahi, b, blo, bhi)
	}
	check := checkSides(op, side[T]{a: b, lo: blo, hi: bhi}, side[T]{a, alo, ahi, false})
	switch {
	case check != nil, a.valid(op) != nil, b.valid(op) != nil:
	case !slices.Equal(side[T]{lo: alo, hi: ahi}.shape(), side[T]{lo: blo, hi: bhi}.shape()):
		check = errorf(op, b.name, "patch %v-%v has another shape than the mirrored patch %v-%v", blo, bhi, alo, ahi)
	case b.mirrored:
		check = errorf(op, b.name, "the destination is mirrored; MergeDistrPatch merges into a distributed array")
	case b.g.size() != PgroupGetMirror().Nnodes():
		check = errorf(op, b.name, "lives on %d processes; the destination must live on all %d, which hold the mirrored array's copies", b.g.size(), PgroupGetMirror().Nnodes())
	}
	l := writing(patchArgs(patchArgs(newArgs(op).between(), "A", a, alo, ahi, 0), "B", b, blo, bhi, 0), b)
	return b.collective(op, l, check, func(local []T) error {
		err := b.regions(blo, bhi, func(r region) error {
			r.runs(func(off, _, n int) { clear(local[off : off+n]) })
			return nil
		})
		// The patch is zero everywhere before any copy lands in it.
		if err := agree(b.g, true, op, b.name, err, nil); err != nil {
			return err
		}
		src, err := a.localData()
		if err != nil {
			return err
		}
		return a.regions(alo, ahi, func(r region) error {
			part := make([]T, layout.Volume(r.lo, r.hi))
			pack([]region{r}, src, part, false)
			plo, phi := make([]int, len(r.lo)), make([]int, len(r.lo))
			for d := range r.lo {
				plo[d], phi[d] = blo[d]+r.lo[d]-alo[d], blo[d]+r.hi[d]-alo[d]
			}
			return b.Acc(plo, phi, part, nil, 1)
		})
	}, a)
}

// filler returns the array whose group makes a copy from a into b that
// reads (see pushes for the other way), and the call's other array: b and a,
// or a and b when b is a node's copy of a mirrored array and a is not, every
// process then filling its node's copy from a, which must live on every
// process; check is this process's verdict so far.
func filler[T Elem](op string, a, b *Array[T], check error) (over, other *Array[T], _ error) {
	if a == nil || !b.spansNodes() || a.spansNodes() {
		return b, a, check
	}
	if all := PgroupGetMirror().Nnodes(); check == nil && a.g.size() != all {
		check = errorf(op, a.name, "lives on %d processes; a copy into a mirrored array reads from an array on all %d", a.g.size(), all)
	}
	return a, b, check
}
