package mpi

import "github.com/goga-hpc/goga/cgo"

// Group is an MPI group: an ordered set of processes. Free it when done.
type Group struct {
	h          cgo.Group
	rank, size int
	freed      bool
}

func newGroup(op string, h cgo.Group) (*Group, error) {
	r, s, rc := cgo.GroupRankSize(h)
	if err := check(op, rc); err != nil {
		return nil, err
	}
	return &Group{h: h, rank: r, size: s}, nil
}

func (g *Group) valid(op string) error {
	if err := running(op); err != nil {
		return err
	}
	if g == nil {
		return stateErr(op, "group", ErrNil)
	}
	if g.freed {
		return stateErr(op, "group", ErrFreed)
	}
	return nil
}

// Size returns the number of processes in g.
func (g *Group) Size() int { return g.size }

// Rank returns this process's rank in g, or Undefined if it is not a member.
func (g *Group) Rank() int { return g.rank }

func (g *Group) checkRanks(op string, ranks []int) error {
	seen := make(map[int]bool, len(ranks))
	for i, r := range ranks {
		if r < 0 || r >= g.size {
			return argErr(op, "ranks", "ranks[%d] = %d out of range [0, %d)", i, r, g.size)
		}
		if seen[r] {
			return argErr(op, "ranks", "rank %d appears twice", r)
		}
		seen[r] = true
	}
	return nil
}

// Incl is MPI_Group_incl: the processes of g at the given ranks, in that order.
func (g *Group) Incl(ranks ...int) (*Group, error) {
	if err := g.valid("Incl"); err != nil {
		return nil, err
	}
	if err := g.checkRanks("Incl", ranks); err != nil {
		return nil, err
	}
	h, rc := cgo.GroupIncl(g.h, ranks)
	if err := check("Incl", rc); err != nil {
		return nil, err
	}
	return newGroup("Incl", h)
}

// Excl is MPI_Group_excl: the processes of g other than those ranks.
func (g *Group) Excl(ranks ...int) (*Group, error) {
	if err := g.valid("Excl"); err != nil {
		return nil, err
	}
	if err := g.checkRanks("Excl", ranks); err != nil {
		return nil, err
	}
	h, rc := cgo.GroupExcl(g.h, ranks)
	if err := check("Excl", rc); err != nil {
		return nil, err
	}
	return newGroup("Excl", h)
}

// Union is MPI_Group_union.
func (g *Group) Union(o *Group) (*Group, error) {
	if err := g.valid("Union"); err != nil {
		return nil, err
	}
	if err := o.valid("Union"); err != nil {
		return nil, err
	}
	h, rc := cgo.GroupUnion(g.h, o.h)
	if err := check("Union", rc); err != nil {
		return nil, err
	}
	return newGroup("Union", h)
}

// Intersection is MPI_Group_intersection.
func (g *Group) Intersection(o *Group) (*Group, error) {
	if err := g.valid("Intersection"); err != nil {
		return nil, err
	}
	if err := o.valid("Intersection"); err != nil {
		return nil, err
	}
	h, rc := cgo.GroupIntersection(g.h, o.h)
	if err := check("Intersection", rc); err != nil {
		return nil, err
	}
	return newGroup("Intersection", h)
}

// TranslateRanks is MPI_Group_translate_ranks: the ranks in o of the processes
// at the given ranks of g; Undefined where a process is not in o.
func (g *Group) TranslateRanks(ranks []int, o *Group) ([]int, error) {
	if err := g.valid("TranslateRanks"); err != nil {
		return nil, err
	}
	if err := o.valid("TranslateRanks"); err != nil {
		return nil, err
	}
	for i, r := range ranks {
		if r != ProcNull && (r < 0 || r >= g.size) {
			return nil, argErr("TranslateRanks", "ranks", "ranks[%d] = %d out of range [0, %d)", i, r, g.size)
		}
	}
	out, rc := cgo.GroupTranslateRanks(g.h, ranks, o.h)
	return out, check("TranslateRanks", rc)
}

// Free is MPI_Group_free.
func (g *Group) Free() error {
	if err := g.valid("Free"); err != nil {
		return err
	}
	if g.h == cgo.GroupEmpty {
		g.freed = true
		return nil
	}
	if err := check("Free", cgo.GroupFree(g.h)); err != nil {
		return err
	}
	g.freed = true
	return nil
}
