package ga

import "github.com/goga-hpc/goga/internal/layout"

// The copies of a read_only array, one per node (see Properties in
// handles.go): an array of the same shape on the processes of the node,
// regularly distributed among them, as a mirrored array's copy is, so that
// a get from it is a copy from shared memory.

// source is the array that a's gets read: its node's copy while it is
// read_only on several nodes, else a itself.
func (a *Array[T]) source() *Array[T] {
	if a != nil && a.nodeCopy != nil {
		return a.nodeCopy
	}
	return a
}

// copyToNodes makes this node's copy of a and fills it from a,
// collectively over a's group, or returns nil when a's processes share one
// node. Every node keeps its copy, or none does.
func (a *Array[T]) copyToNodes(op string) (*Array[T], error) {
	n, m, check, err := a.onNode(op, "copy")
	if err != nil || n == nil {
		return nil, err
	}
	c, err := allocate[T](n, op, a.name, m, check, newArgs(op).ints("dims", a.dims...))
	if err == nil {
		err = c.fillFrom(a)
	}
	// Every copy is whole before any is read.
	if err := agree(a.g, true, op, a.name, err, nil); err != nil {
		if c != nil {
			c.Destroy()
		}
		return nil, err
	}
	return c, nil
}

// onNode returns the group of a's processes on this process's node, nil
// when they all share one, and a's shape laid out regularly over it for
// the what (copy or cache) a keeps there, or the check that refuses it.
func (a *Array[T]) onNode(op, what string) (n *group, m layout.Map, check, err error) {
	if n, err = a.g.perNode(); err != nil || n == nil {
		return nil, m, nil, err
	}
	if m, check = layout.Regular(a.dims, nil, n.size()); check != nil {
		check = errorf(op, a.name, "the %s on this node: %v", what, check)
	}
	return n, m, check, nil
}

// fillFrom copies this process's part of c from a, of c's shape.
func (c *Array[T]) fillFrom(a *Array[T]) error {
	local, err := c.localData()
	if err != nil {
		return err
	}
	lo, hi := c.whole()
	return c.regions(lo, hi, func(r region) error {
		return a.Get(r.lo, r.hi, local[r.off:], r.ext[1:])
	})
}

// dropNodeCopy frees a's copy on this node, if it has one. It is
// collective over a's group. A copy that Terminate destroyed with its
// node's group is gone already.
func (a *Array[T]) dropNodeCopy() error {
	c := a.nodeCopy
	a.nodeCopy = nil
	if c == nil || c.dead {
		return nil
	}
	return c.Destroy()
}

// perNode returns the group of g's processes on this process's node, or
// nil when all of g's processes run on one node. For the world group it is
// the node's group that mirrored arrays live on; for another group it is
// made at the first call, collectively over g, and ends with g.
func (g *group) perNode() (*group, error) {
	cl := nodes()
	node := cl.node[cl.me]
	var mine []int
	spans := false
	for _, r := range g.pg.members {
		if cl.node[r] == node {
			mine = append(mine, r)
		} else {
			spans = true
		}
	}
	if !spans {
		return nil, nil
	}
	if m := PgroupGetMirror(); m != nil && m.g == g {
		return m.node, nil
	}
	g.mu.Lock()
	n := g.nodes
	g.mu.Unlock()
	if n != nil {
		return n, nil
	}
	c, rank, world := parentOf(g)
	p, err := split(c, rank, world, node, mine)
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	g.nodes = p.g
	g.mu.Unlock()
	return p.g, nil
}
