package ga

import (
	"errors"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/mpi"
)

// Pgroup is a processor group (GA's p_handle): some of the GA processes,
// with GA of their own (see group): an armci runtime over their
// communicator, their ranks, sync, fence, mutexes and arrays. Ranks in a
// group are ranks in it (GA_Pgroup_nodeid), in the order of the processes'
// ranks in the world group.
//
// An array made on a group lives on its processes only, and only they hold
// it, as in GA, where only they allocate it: its collectives involve them
// alone, and one-sided operations on it are made by any of them, whatever
// the others do. Data crosses between groups through a process that is in
// both (a Get from one array, a Put into the other), or by Copy and
// CopyPatch where one group contains the other.
type Pgroup struct {
	g       *group // GA on the group; nil on a process outside it
	members []int  // the processes' ranks in the world group, by rank in the group
	// parent is the group that PgroupCreate was called on, every process
	// of which holds the handle, members or not; nil for the world group
	// and for Split's groups, whose processes are all members.
	parent *group
	dead   atomic.Bool
	// The mirror handle only (PgroupGetMirror), whose g is the world's:
	// node is the group of this process's node, which holds the node's copy
	// of each mirrored array; peers, when every node runs as many
	// processes, joins the processes of one rank on their nodes, which hold
	// the same part of their copies.
	node  *group
	peers *mpi.Comm
}

// mirror reports whether p is the mirror handle.
func (p *Pgroup) mirror() bool { return p != nil && p.node != nil }

// Sentinels of processor-group misuse.
var (
	ErrGroupDestroyed = errors.New("processor group has been destroyed")
	ErrNotMember      = errors.New("this process is not in the processor group")
)

// on returns p's GA for op: an error if p is nil or destroyed, or if this
// process is not in it. Every process that calls op with p answers alike
// without communicating, so a refusal needs no agreement.
func (p *Pgroup) on(op string) (*group, error) {
	switch {
	case p == nil:
		return nil, errorf(op, "", "nil processor group")
	case p.dead.Load():
		return nil, stateErr(op, "", ErrGroupDestroyed)
	case p.g == nil:
		return nil, &Error{Op: op, Err: ErrNotMember,
			Msg: fmt.Sprintf("this process is not among the group's processes (world ranks %v)", p.members)}
	}
	return p.g.running(op)
}

// PgroupCreate makes a processor group of the default group's processes
// whose ranks are listed, in any order (GA_Pgroup_create); ranks in the new
// group follow ranks in the default group. It is collective over the
// default group, as GA 5's is: every process of it calls it with the same
// list, those outside the group too, and gets a handle (on which they can
// only ask Nnodes). A list that is empty, repeats a rank or names one out of
// range is refused on every process.
func PgroupCreate(ranks []int) (*Pgroup, error) {
	const op = "PgroupCreate"
	def, err := current(op)
	if err != nil {
		return nil, err
	}
	sorted := slices.Sorted(slices.Values(ranks))
	var check error
	if len(ranks) == 0 {
		check = errorf(op, "", "no ranks")
	}
	for i, r := range sorted {
		if r < 0 || r >= def.size() {
			check = errorf(op, "", "rank %d out of range [0, %d) in %v", r, def.size(), ranks)
			break
		}
		if i > 0 && sorted[i-1] == r {
			check = errorf(op, "", "rank %d twice in %v", r, ranks)
			break
		}
	}
	if err := agree(def, false, op, "", check, newArgs(op).ints("ranks", sorted...)); err != nil {
		return nil, err
	}
	members := make([]int, len(sorted))
	for i, r := range sorted {
		members[i] = def.pg.members[r]
	}
	color := mpi.Undefined
	if _, in := slices.BinarySearch(sorted, def.rank); in {
		color = 0
	}
	c, rank, world := parentOf(def)
	p, err := split(c, rank, world, color, members)
	if err != nil {
		return nil, err
	}
	p.parent = def
	return p, nil
}

// parentOf is what split needs of g: its communicator, and this process's
// ranks in it and in the world group.
func parentOf(g *group) (*mpi.Comm, int, int) {
	return g.comm(), g.rank, g.pg.members[g.rank]
}

// split makes new groups of a group's processes, those of one color in each
// (mpi.Undefined: in none), collectively over them, and returns this
// process's group: c is the group's communicator, rank this process's rank
// in it and world its world rank; members are the new group's world ranks
// if known, else nil.
func split(c *mpi.Comm, rank, world, color int, members []int) (*Pgroup, error) {
	sub, err := c.Split(color, rank)
	if err != nil {
		return nil, err
	}
	if sub == nil {
		return &Pgroup{members: members}, nil
	}
	defer sub.Free()
	rt, err := armci.Init(sub)
	if err != nil {
		return nil, err
	}
	if members == nil {
		members = make([]int, rt.Size())
		if err := mpi.Allgather(rt.Comm(), []int{world}, members); err != nil {
			rt.Finalize()
			return nil, err
		}
	}
	g := newGroup(rt, members)
	proc.mu.Lock()
	proc.groups = append(slices.Clip(proc.groups), g)
	proc.mu.Unlock()
	return g.pg, nil
}

// Split divides p into n groups of consecutive ranks, all of one size but the
// last, and returns the one this process is in (GA_Pgroup_split); n = 0
// returns p itself, as in GA. It is collective over p.
func (p *Pgroup) Split(n int) (*Pgroup, error) {
	const op = "PgroupSplit"
	var check error
	if n < 0 {
		check = errorf(op, "", "%d groups", n)
	}
	var color func(g *group) int
	if n > 0 {
		color = func(g *group) int { return g.rank / ((g.size() + n - 1) / n) }
	}
	return p.divide(op, check, newArgs(op).ints("n", n), color)
}

// SplitIrreg divides p by color: the processes that pass one color form a
// group, and each gets its own (GA_Pgroup_split_irreg). Colors are 0 or
// more. It is collective over p.
func (p *Pgroup) SplitIrreg(color int) (*Pgroup, error) {
	const op = "PgroupSplitIrreg"
	var check error
	if color < 0 {
		check = errorf(op, "", "color %d; want 0 or more", color)
	}
	return p.divide(op, check, newArgs(op), func(*group) int { return color })
}

// divide splits p, collectively over it: once its processes agree on check
// and l, each goes into the new group of the color that color gives it (nil:
// p itself).
func (p *Pgroup) divide(op string, check error, l *args, color func(g *group) int) (*Pgroup, error) {
	g, err := p.on(op)
	if err != nil {
		return nil, err
	}
	if p.mirror() {
		// Refused without communicating: every caller sees the handle.
		return nil, errorf(op, "", "the mirror handle is not a group to split; split the world group")
	}
	if err := agree(g, false, op, "", check, l); err != nil {
		return nil, err
	}
	if color == nil {
		return p, nil
	}
	c, rank, world := parentOf(g)
	return split(c, rank, world, color(g), nil)
}

// Destroy ends the group (GA_Pgroup_destroy). It is collective over the
// processes that hold the handle: for a group made by PgroupCreate, every
// process of the group it was called on, members or not, as in GA's own
// tests; for a group of Split or SplitIrreg, its members. It is refused on
// every one of them while an array lives on the group or the group is a
// member's default, and for the world group, which Terminate ends. Where the
// group PgroupCreate was called on has been destroyed already, only the
// members take part, and a process outside marks its handle destroyed.
func (p *Pgroup) Destroy() error {
	const op = "PgroupDestroy"
	if p.mirror() {
		return errorf(op, "", "the mirror handle lasts until Terminate")
	}
	over, err := p.holders(op)
	if err != nil {
		return err
	}
	var check error
	if g := p.g; g != nil {
		proc.mu.Lock()
		world, def := g == proc.world, g == proc.def
		proc.mu.Unlock()
		g.mu.Lock()
		live := len(g.arrays)
		g.mu.Unlock()
		switch {
		case world:
			check = errorf(op, "", "the world group is ended by Terminate")
		case live > 0:
			check = errorf(op, "", "%d arrays live on the group; destroy them first", live)
		case def:
			check = errorf(op, "", "the group is this process's default; set another first")
		}
	}
	if over != nil {
		if err := agree(over, true, op, "", check, newArgs(op)); err != nil {
			return err
		}
	}
	if p.g == nil {
		p.dead.Store(true)
		return nil
	}
	return p.g.finish()
}

// holders returns the group whose processes all hold p and agree on its
// Destroy: the group PgroupCreate was called on while it runs, else p's
// own group, or nil on a process outside p when there is no such group.
func (p *Pgroup) holders(op string) (*group, error) {
	switch {
	case p == nil:
		return nil, errorf(op, "", "nil processor group")
	case p.dead.Load():
		return nil, stateErr(op, "", ErrGroupDestroyed)
	}
	if q := p.parent; q != nil && !q.pg.dead.Load() {
		if g, err := q.running(op); err == nil {
			return g, nil
		}
	}
	if p.g == nil {
		return nil, nil
	}
	return p.g.running(op)
}

// finish ends GA on g, a group other than the world, and forgets it. It is
// collective over g.
func (g *group) finish() error {
	// The group of its processes on this node first (Terminate, ending the
	// newest group first, has ended it already).
	if n := g.nodes; n != nil && !n.pg.dead.Load() {
		if err := n.finish(); err != nil {
			return err
		}
	}
	if err := g.end(); err != nil {
		return err
	}
	if err := g.rt.Finalize(); err != nil {
		return err
	}
	g.pg.dead.Store(true)
	proc.mu.Lock()
	proc.groups = slices.DeleteFunc(slices.Clone(proc.groups), func(h *group) bool { return h == g })
	proc.mu.Unlock()
	return nil
}

// SetDefault makes p the default group of this process (GA_Pgroup_set_default):
// the group the package functions (Sync, Nodeid, Nnodes, Brdcst, Gop,
// Create, ...) work on. Every process of p must call it. Like GA's, it does
// not communicate, so that a group's processes can go back to the world
// group without the others.
func (p *Pgroup) SetDefault() error {
	g, err := p.on("PgroupSetDefault")
	if err != nil {
		return err
	}
	if p.mirror() {
		return errorf("PgroupSetDefault", "", "the mirror handle makes mirrored arrays; it is not a default group")
	}
	proc.mu.Lock()
	proc.def = g
	proc.mu.Unlock()
	return nil
}

// PgroupGetDefault returns the default group (GA_Pgroup_get_default), or nil
// when GA is not running.
func PgroupGetDefault() *Pgroup {
	g, err := current("PgroupGetDefault")
	if err != nil {
		return nil
	}
	return g.pg
}

// PgroupGetWorld returns the group of every GA process
// (GA_Pgroup_get_world), or nil when GA is not running.
func PgroupGetWorld() *Pgroup {
	proc.mu.Lock()
	defer proc.mu.Unlock()
	if proc.world == nil {
		return nil
	}
	return proc.world.pg
}

// Nodeid returns this process's rank in p (GA_Pgroup_nodeid), or -1 if it is
// not in p or p is nil or destroyed.
func (p *Pgroup) Nodeid() int {
	if p == nil || p.g == nil || p.dead.Load() {
		return -1
	}
	return p.g.rank
}

// Nnodes returns the number of processes in p (GA_Pgroup_nnodes,
// GA_Get_pgroup_size), or 0 for nil.
func (p *Pgroup) Nnodes() int {
	if p == nil {
		return 0
	}
	return len(p.members)
}

// Comm returns p's communicator (GA_MPI_Comm_pgroup), for MPI code that
// works on the group's processes; nil on a process outside it or once it is
// destroyed.
func (p *Pgroup) Comm() *mpi.Comm {
	g, err := p.on("Comm")
	if err != nil {
		return nil
	}
	return g.comm()
}

// Sync is Sync on p's processes only (GA_Pgroup_sync): a barrier after which
// every GA operation they issued before it is complete.
func (p *Pgroup) Sync() error {
	g, err := p.on("PgroupSync")
	if err != nil {
		return err
	}
	// Sync's arguments: a Sync on the default group meets this one.
	return syncGroup(g, "PgroupSync")
}

// PgroupBrdcst is Brdcst on p's processes, root a rank in p
// (GA_Pgroup_brdcst).
func PgroupBrdcst[T mpi.Elem](p *Pgroup, buf []T, root int) error {
	g, err := p.on("PgroupBrdcst")
	if err != nil {
		return err
	}
	return brdcst(g, "PgroupBrdcst", buf, root)
}

// PgroupGop is Gop on p's processes, with Gop's operations
// (GA_Pgroup_dgop, GA_Pgroup_igop, GA_Pgroup_lgop, GA_Pgroup_fgop, ...).
func PgroupGop[T Elem](p *Pgroup, x []T, op Op) error {
	g, err := p.on("PgroupGop")
	if err != nil {
		return err
	}
	return gop(g, "PgroupGop", x, op)
}

// Pgroup returns the processor group the array lives on (GA_Get_pgroup), or
// nil for a nil array.
func (a *Array[T]) Pgroup() *Pgroup {
	if a == nil {
		return nil
	}
	if a.mirrored {
		return PgroupGetMirror()
	}
	return a.g.pg
}

// Pgroup makes the array on p's processes instead of the default group's
// (GA_Set_pgroup); only they call Allocate.
func (b *Builder[T]) Pgroup(p *Pgroup) *Builder[T] { b.pg = p; return b }

// on returns the group the array is made on.
func (b *Builder[T]) on(op string) (*group, error) {
	if b.pg == nil {
		return current(op)
	}
	g, err := b.pg.on(op)
	if err != nil || !b.pg.mirror() {
		return g, err
	}
	return b.pg.node.running(op)
}

// CreateConfig is Create on p's processes (NGA_Create_config).
func CreateConfig[T Elem](name string, dims, chunk []int, p *Pgroup) (*Array[T], error) {
	return New[T](dims...).Name(name).Chunk(chunk...).Pgroup(p).allocate("CreateConfig")
}

// CreateIrregConfig is CreateIrreg on p's processes (NGA_Create_irreg_config).
func CreateIrregConfig[T Elem](name string, dims []int, starts [][]int, p *Pgroup) (*Array[T], error) {
	return New[T](dims...).Name(name).Irregular(starts...).Pgroup(p).allocate("CreateIrregConfig")
}

// CreateGhostsConfig is CreateGhosts on p's processes
// (NGA_Create_ghosts_config).
func CreateGhostsConfig[T Elem](name string, dims, width, chunk []int, p *Pgroup) (*Array[T], error) {
	return New[T](dims...).Name(name).Chunk(chunk...).Ghosts(width...).Pgroup(p).allocate("CreateGhostsConfig")
}

// CreateGhostsIrregConfig is CreateGhostsIrreg on p's processes
// (NGA_Create_ghosts_irreg_config).
func CreateGhostsIrregConfig[T Elem](name string, dims, width []int, starts [][]int, p *Pgroup) (*Array[T], error) {
	return New[T](dims...).Name(name).Irregular(starts...).Ghosts(width...).Pgroup(p).allocate("CreateGhostsIrregConfig")
}

// contains reports whether every process of h is one of g's.
func (g *group) contains(h *group) bool {
	if g == h {
		return true
	}
	for _, r := range h.pg.members {
		if _, ok := slices.BinarySearch(g.pg.members, r); !ok {
			return false
		}
	}
	return true
}

// note records that an array of g is among a collective call's arguments.
func (l *args) note(g *group) {
	if l.g == nil {
		l.g = g
	} else if g != l.g && !slices.Contains(l.others, g) {
		l.others = append(l.others, g)
	}
}

// between marks a copy's arguments: its other array may be on a group that
// contains the call's.
func (l *args) between() *args { l.across = true; return l }

// foreign checks the groups of a collective call's arrays against g, the
// group whose processes make the call. Only Copy and CopyPatch mix groups,
// and only with a group that contains g. An array on a group that does not
// contain g is refused now, before any communication (now is true): some of
// g's processes cannot hold it, so they are not in this call, but every
// process that is sees the same groups and refuses alike. Any other
// mismatch is an error for the processes to agree on.
func (l *args) foreign(g *group, op, array string) (now bool, err error) {
	if l == nil || l.g == nil {
		return false, nil
	}
	for i := -1; i < len(l.others); i++ {
		h := l.g
		if i >= 0 {
			h = l.others[i]
		}
		switch {
		case h == g:
		case h.node:
			// A mirrored array: every process holds its node's copy.
			if !l.across {
				err = errorf(op, array, "a mirrored array meets an array of another group only in Copy, CopyPatch, MergeMirrored and MergeDistrPatch")
			}
		case !h.contains(g):
			return true, errorf(op, array, "an array is on a processor group of %d processes that does not contain the %d of this call's group; Copy and CopyPatch work between groups when one contains the other", h.size(), g.size())
		case !l.across:
			err = errorf(op, array, "an array is on another processor group; only Copy and CopyPatch work between groups")
		}
	}
	return false, err
}

// pushes reports whether a copy from a to b is made by a's processes,
// putting their parts into b: when b's group contains a's and is larger.
// Otherwise b's processes get their parts from a.
func pushes[T Elem](a, b *Array[T]) bool {
	return a != nil && b != nil && a.g != b.g && b.g.contains(a.g) && !a.g.contains(b.g) &&
		!a.spansNodes() && !b.spansNodes()
}

// spread puts this process's part of a's patch [alo, ahi] into b's patch
// [blo, bhi], the elements paired in linear order as CopyPatch pairs them
// (a's read column-major if trans, b's row-major): a copy made by a's
// processes into an array of a larger group.
func spread[T Elem](a *Array[T], alo, ahi []int, trans bool, b *Array[T], blo, bhi []int) error {
	local, err := a.localData()
	if err != nil {
		return err
	}
	ash := side[T]{lo: alo, hi: ahi}.shape()
	bsh := side[T]{lo: blo, hi: bhi}.shape()
	nd := len(ash)
	return a.regions(alo, ahi, func(r region) error {
		if !trans && slices.Equal(ash, bsh) {
			// The region's own place in b's patch, in one Put.
			plo, phi := make([]int, nd), make([]int, nd)
			for d := range nd {
				plo[d], phi[d] = blo[d]+r.lo[d]-alo[d], blo[d]+r.hi[d]-alo[d]
			}
			return b.Put(plo, phi, local[r.off:], r.ext[1:])
		}
		// Any other pairing: each run of the region along a's fastest
		// dimension in linear order is a range of b's linear positions.
		fast := nd - 1
		if trans {
			fast = 0
		}
		pitch := make([]int, nd)
		pitch[nd-1] = 1
		for d := nd - 2; d >= 0; d-- {
			pitch[d] = pitch[d+1] * r.ext[d+1]
		}
		run := make([]T, r.hi[fast]-r.lo[fast]+1)
		sub := slices.Clone(r.lo)
		for {
			off := r.off
			for d := range nd {
				off += (sub[d] - r.lo[d]) * pitch[d]
			}
			for i := range run {
				run[i] = local[off+i*pitch[fast]]
			}
			l := 0
			for k := range nd {
				d := k
				if trans {
					d = nd - 1 - k
				}
				l = l*ash[d] + sub[d] - alo[d]
			}
			if err := linearRuns(blo, bsh, false, l, len(run), func(plo, phi []int, at, n int) error {
				return b.Put(plo, phi, run[at:at+n], nil)
			}); err != nil {
				return err
			}
			d := nd - 1
			for ; d >= 0; d-- {
				if d == fast {
					continue
				}
				if sub[d]++; sub[d] <= r.hi[d] {
					break
				}
				sub[d] = r.lo[d]
			}
			if d < 0 {
				return nil
			}
		}
	})
}

// fenceOthers completes this process's operations on the arrays of its
// other groups before a sync on g: a sync completes every operation its
// processes issued, as GA_Pgroup_sync's ARMCI_AllFence does, Copy's Puts
// into a larger group's array among them.
func fenceOthers(g *group) error {
	proc.mu.Lock()
	groups := proc.groups
	proc.mu.Unlock()
	if len(groups) < 2 {
		return nil
	}
	for _, h := range groups {
		if h != g {
			if err := h.rt.AllFence(); err != nil {
				return err
			}
		}
	}
	return nil
}
