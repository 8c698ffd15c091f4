package ga

import (
	"sync/atomic"

	"github.com/goga-hpc/goga/internal/layout"
)

// The read_cache property (GA 5.8.2's GA_Set_property(g_a, "read_cache")).
// GA C keeps, in each process, a list of the patches it has read and
// serves a Get that lies inside one of them from it. goga keeps one cache
// per node, shared by the node's processes: an array of the array's shape
// on the node's group (laid out as read_only's copy is), into which a
// block that lives on another node is copied whole the first time any
// process of the node reads from it, with a flag per block that says so,
// set atomically once the block is there. Get reads the blocks of its own
// node from their owners, as always, and the others from the cache: after
// the first, repeated gets of remote data move nothing between nodes.
// The cache takes the memory of the whole array on each node, as
// read_only's copy does, but moves only what is read. On one node there is
// no cache. The other reads (NbGet, StridedGet, Gather, the collectives)
// read the array itself. Writes are refused as on a read_only array: a
// cache of an array that changes would serve old values.

// readCache is a read_cache array's cache on this process's node.
type readCache[T Elem] struct {
	copy   *Array[T]     // the array's shape on the node's processes
	filled *Array[int32] // per block of the array: not 0 once copy holds it
	seen   []atomic.Bool // per block: this process has seen its flag set
	near   []bool        // per rank of the array's group: on this node
}

// cacheOnNodes makes the cache of a on this process's node, empty,
// collectively over a's group, or returns nil when a's processes share one
// node. Every node has its cache, or none does.
func (a *Array[T]) cacheOnNodes(op string) (*readCache[T], error) {
	n, m, check, err := a.onNode(op, "cache")
	if err != nil || n == nil {
		return nil, err
	}
	c := &readCache[T]{}
	c.copy, err = allocate[T](n, op, a.name, m, check, newArgs(op).ints("dims", a.dims...))
	if err == nil {
		fm, ferr := layout.Regular([]int{a.m.Blocks()}, nil, n.size())
		c.filled, err = allocate[int32](n, op, a.name, fm, ferr, newArgs(op).ints("blocks", a.m.Blocks()))
	}
	if err == nil {
		err = c.filled.Zero()
	}
	if err := agree(a.g, true, op, a.name, err, nil); err != nil {
		c.free()
		return nil, err
	}
	c.seen = make([]atomic.Bool, a.m.Blocks())
	cl := nodes()
	c.near = make([]bool, a.g.size())
	for r, w := range a.g.pg.members {
		c.near[r] = cl.node[w] == cl.node[cl.me]
	}
	return c, nil
}

// free destroys what c holds, collectively over its node's processes. An
// array that Terminate destroyed with its node's group is gone already.
func (c *readCache[T]) free() error {
	var err error
	if c.copy != nil && !c.copy.dead {
		err = c.copy.Destroy()
	}
	if c.filled != nil && !c.filled.dead {
		if e := c.filled.Destroy(); err == nil {
			err = e
		}
	}
	return err
}

// dropCache frees a's cache on this node, if it has one. It is collective
// over a's group.
func (a *Array[T]) dropCache() error {
	c := a.cache
	a.cache = nil
	if c == nil {
		return nil
	}
	return c.free()
}

// cachedGet is Get of a read_cache array on several nodes: block by block,
// from the owner where it is on this node, else from the node's cache.
func (a *Array[T]) cachedGet(lo, hi []int, buf []T, ld []int) error {
	var b layout.Buffer
	if err := a.transfer("Get", lo, hi, ld, len(buf), &b); err != nil {
		return err
	}
	nd := len(lo)
	if ld == nil {
		ld = make([]int, nd-1)
		for d := range ld {
			ld[d] = hi[d+1] - lo[d+1] + 1
		}
	}
	var err error
	a.m.Owners(lo, hi, func(blk int, plo, phi []int) bool {
		off := 0
		for d := range nd {
			off += (plo[d] - lo[d]) * b.Pitch[d]
		}
		if a.cache.near[a.m.BlockOwner(blk)] {
			err = a.get(plo, phi, buf[off:], ld)
		} else if err = a.cache.fill(a, blk); err == nil {
			err = a.cache.copy.Get(plo, phi, buf[off:], ld)
		}
		return err == nil
	})
	return err
}

// fill makes sure the cache holds block blk of a: if no process of the
// node has copied it yet, this one does. Two that copy it at once write
// the same values.
func (c *readCache[T]) fill(a *Array[T], blk int) error {
	if c.seen[blk].Load() {
		return nil
	}
	flag := []int{blk}
	v, err := c.filled.ReadInc(flag, 0)
	if err != nil {
		return err
	}
	if v == 0 {
		lo, hi := a.m.Patch(blk)
		tmp := make([]T, layout.Volume(lo, hi))
		if err := a.get(lo, hi, tmp, nil); err != nil {
			return err
		}
		if err := c.copy.Put(lo, hi, tmp, nil); err != nil {
			return err
		}
		// The block is whole in the cache before its flag says so.
		if err := c.copy.g.rt.AllFence(); err != nil {
			return err
		}
		if _, err := c.filled.ReadInc(flag, 1); err != nil {
			return err
		}
	}
	c.seen[blk].Store(true)
	return nil
}
