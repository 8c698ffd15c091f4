package ga_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/ga"
)

// Block-cyclic arrays (BlockCyclic and BlockCyclicGrid) are checked against
// the storage that the GA C library 5.8 produced on 4 processes, and on every
// rank count against bcLayout, the test's own model of the two deals, which
// does not use internal/layout.

// ---- the model ----

// bcLayout is a block-cyclic layout: blocks of block[d] elements (the last
// ones shorter), numbered row-major over the grid of blocks. With grid nil
// (BlockCyclic) block i belongs to rank i mod nproc, which stores its blocks
// one after another in index order, each packed row-major. With a grid
// (BlockCyclicGrid) the block at block coordinates c belongs to the rank at
// grid coordinates c mod grid (ranks row-major over the grid), which stores
// all its elements as one packed row-major array.
type bcLayout struct {
	dims, block []int
	grid        []int
	nproc       int
}

func (l bcLayout) String() string {
	if l.grid == nil {
		return fmt.Sprintf("dims %v in blocks %v dealt round-robin to %d", l.dims, l.block, l.nproc)
	}
	return fmt.Sprintf("dims %v in blocks %v over grid %v", l.dims, l.block, l.grid)
}

// nb is the number of blocks along each dimension.
func (l bcLayout) nb() []int {
	g := make([]int, len(l.dims))
	for d := range g {
		g[d] = (l.dims[d] + l.block[d] - 1) / l.block[d]
	}
	return g
}

func (l bcLayout) blocks() int { return total(l.nb()) }

func (l bcLayout) coords(i int) []int { return bcUnravel(l.nb(), i) }

func (l bcLayout) patch(i int) (lo, hi []int) {
	c := l.coords(i)
	lo, hi = make([]int, len(c)), make([]int, len(c))
	for d := range c {
		lo[d] = c[d] * l.block[d]
		hi[d] = min(lo[d]+l.block[d], l.dims[d]) - 1
	}
	return lo, hi
}

func (l bcLayout) owner(i int) int {
	if l.grid == nil {
		return i % l.nproc
	}
	r := 0
	for d, c := range l.coords(i) {
		r = r*l.grid[d] + c%l.grid[d]
	}
	return r
}

// blockAt is the index of the block that holds sub.
func (l bcLayout) blockAt(sub []int) int {
	c := make([]int, len(sub))
	for d := range sub {
		c[d] = sub[d] / l.block[d]
	}
	return linear(l.nb(), c)
}

func (l bcLayout) owned(rank int) []int {
	var out []int
	for i := range l.blocks() {
		if l.owner(i) == rank {
			out = append(out, i)
		}
	}
	return out
}

// gridIndices lists, for a BlockCyclicGrid layout, the global indices along
// each dimension that rank holds, ascending.
func (l bcLayout) gridIndices(rank int) [][]int {
	pc := bcUnravel(l.grid, rank)
	idx := make([][]int, len(l.dims))
	for d := range l.dims {
		for i := range l.dims[d] {
			if (i/l.block[d])%l.grid[d] == pc[d] {
				idx[d] = append(idx[d], i)
			}
		}
	}
	return idx
}

// storage lists the subscripts of the elements rank stores, in storage order.
func (l bcLayout) storage(rank int) [][]int {
	var out [][]int
	if l.grid == nil {
		for _, i := range l.owned(rank) {
			lo, hi := l.patch(i)
			eachSub(lo, hi, func(sub []int) { out = append(out, slices.Clone(sub)) })
		}
		return out
	}
	idx := l.gridIndices(rank)
	klo, khi := make([]int, len(idx)), make([]int, len(idx))
	for d := range idx {
		if len(idx[d]) == 0 {
			return nil
		}
		khi[d] = len(idx[d]) - 1
	}
	eachSub(klo, khi, func(k []int) {
		sub := make([]int, len(k))
		for d := range k {
			sub[d] = idx[d][k[d]]
		}
		out = append(out, sub)
	})
	return out
}

// blockLd is the leading dimensions AccessBlock must report for block i on
// its owner: the block's own extents for BlockCyclic, the owner's local
// array's for BlockCyclicGrid.
func (l bcLayout) blockLd(i int) []int {
	nd := len(l.dims)
	ld := make([]int, nd-1)
	if l.grid == nil {
		lo, hi := l.patch(i)
		for d := range ld {
			ld[d] = hi[d+1] - lo[d+1] + 1
		}
		return ld
	}
	idx := l.gridIndices(l.owner(i))
	for d := range ld {
		ld[d] = len(idx[d+1])
	}
	return ld
}

func bcUnravel(g []int, i int) []int {
	c := make([]int, len(g))
	for d := len(g) - 1; d >= 0; d-- {
		c[d] = i % g[d]
		i /= g[d]
	}
	return c
}

// bcWrap maps a periodic subscript back into dims.
func bcWrap(dims, sub []int) []int {
	w := make([]int, len(sub))
	for d := range sub {
		w[d] = (sub[d]%dims[d] + dims[d]) % dims[d]
	}
	return w
}

// bcGrid is a process grid of nd dimensions for n processes, with the
// factors of n spread over different dimensions.
func bcGrid(nd, n int) []int {
	p := n
	for f := 2; f*f <= n; f++ {
		if n%f == 0 {
			p = f
			break
		}
	}
	g := make([]int, nd)
	for d := range g {
		g[d] = 1
	}
	switch nd {
	case 1:
		g[0] = n
	case 2:
		g[0], g[1] = p, n/p
	case 3:
		g[0], g[2] = n/p, p
	default:
		g[1], g[nd-1] = p, n/p
	}
	return g
}

func bcKind(grid bool) string {
	if grid {
		return "grid"
	}
	return "cyclic"
}

// bcAllocate makes an array with layout l.
func bcAllocate[T ga.Elem](name string, l bcLayout) (*ga.Array[T], error) {
	b := ga.New[T](l.dims...).Name(name)
	if l.grid == nil {
		b.BlockCyclic(l.block...)
	} else {
		b.BlockCyclicGrid(l.block, l.grid)
	}
	return b.Allocate()
}

// bcSegmentString is a segment as GA's reference listing prints it.
func bcSegmentString[T ga.Elem](seg []T) string {
	return strings.Trim(fmt.Sprint(seg), "[]")
}

// ---- checks against the model ----

// bcCheckLayout checks every query of the distribution against l.
func bcCheckLayout[T ga.Elem](t *testing.T, a *ga.Array[T], l bcLayout, rng *rand.Rand) {
	t.Helper()
	me, n := ga.Nodeid(), ga.Nnodes()
	nb, nblk := l.nb(), l.blocks()
	if !a.BlockCyclic() {
		t.Errorf("%s (%v): BlockCyclic() is false", a.Name(), l)
	}
	if got := a.TotalBlocks(); got != nblk {
		t.Errorf("%s (%v): TotalBlocks %d, want %d", a.Name(), l, got, nblk)
	}
	if blocks, size := a.BlockInfo(); !slices.Equal(blocks, nb) || !slices.Equal(size, l.block) {
		t.Errorf("%s (%v): BlockInfo %v %v, want %v %v", a.Name(), l, blocks, size, nb, l.block)
	}
	if got, want := a.LocalBlocks(), l.owned(me); !slices.Equal(got, want) {
		t.Errorf("%s (%v): rank %d LocalBlocks %v, want %v", a.Name(), l, me, got, want)
	}
	for i := -1; i <= nblk; i++ {
		in := i >= 0 && i < nblk
		want := -1
		if in {
			want = l.owner(i)
		}
		if got := a.BlockOwner(i); got != want {
			t.Errorf("%s (%v): BlockOwner(%d) = %d, want %d", a.Name(), l, i, got, want)
		}
		lo, hi, ok := a.Distribution(i)
		if !in {
			if ok {
				t.Errorf("%s (%v): Distribution(%d) of no block = %v %v", a.Name(), l, i, lo, hi)
			}
			continue
		}
		wlo, whi := l.patch(i)
		if !ok || !slices.Equal(lo, wlo) || !slices.Equal(hi, whi) {
			t.Errorf("%s (%v): Distribution(%d) = %v %v %v, want block %v %v", a.Name(), l, i, lo, hi, ok, wlo, whi)
		}
	}
	if l.grid == nil {
		if g := a.ProcGrid(); g != nil {
			t.Errorf("%s (%v): ProcGrid %v, want nil", a.Name(), l, g)
		}
		for r := range n {
			if c, ok := a.ProcTopology(r); ok {
				t.Errorf("%s (%v): ProcTopology(%d) = %v without a process grid", a.Name(), l, r, c)
			}
		}
	} else {
		if g := a.ProcGrid(); !slices.Equal(g, l.grid) {
			t.Errorf("%s (%v): ProcGrid %v, want %v", a.Name(), l, g, l.grid)
		}
		for r := range n + 1 {
			c, ok := a.ProcTopology(r)
			if r == n {
				if ok {
					t.Errorf("%s (%v): ProcTopology(%d) = %v past the last rank", a.Name(), l, r, c)
				}
				continue
			}
			if want := bcUnravel(l.grid, r); !ok || !slices.Equal(c, want) {
				t.Errorf("%s (%v): ProcTopology(%d) = %v %v, want %v", a.Name(), l, r, c, ok, want)
			}
		}
	}
	lo, hi := fullPatch(l.dims)
	eachSub(lo, hi, func(sub []int) {
		b := l.blockAt(sub)
		if got, err := a.LocateBlock(sub); err != nil || got != b {
			t.Errorf("%s (%v): LocateBlock(%v) = %d %v, want %d", a.Name(), l, sub, got, err, b)
		}
		if got, err := a.Locate(sub); err != nil || got != l.owner(b) {
			t.Errorf("%s (%v): Locate(%v) = %d %v, want rank %d", a.Name(), l, sub, got, err, l.owner(b))
		}
	})
	bcCheckRegion(t, a, l, lo, hi)
	for k := 0; rng != nil && k < 4; k++ {
		plo, phi := randPatch(rng, l.dims)
		bcCheckRegion(t, a, l, plo, phi)
	}
}

// bcCheckRegion compares LocateRegion with the model's blocks in index order.
func bcCheckRegion[T ga.Elem](t *testing.T, a *ga.Array[T], l bcLayout, lo, hi []int) {
	t.Helper()
	regs, err := a.LocateRegion(lo, hi)
	must(t, err)
	var want []ga.Region
	for i := range l.blocks() {
		blo, bhi := l.patch(i)
		if plo, phi, ok := intersect(lo, hi, blo, bhi); ok {
			want = append(want, ga.Region{Rank: l.owner(i), Block: i, Lo: plo, Hi: phi})
		}
	}
	same := len(regs) == len(want)
	for k := 0; same && k < len(regs); k++ {
		same = regs[k].Rank == want[k].Rank && regs[k].Block == want[k].Block &&
			slices.Equal(regs[k].Lo, want[k].Lo) && slices.Equal(regs[k].Hi, want[k].Hi)
	}
	if !same {
		t.Errorf("%s (%v): LocateRegion(%v, %v) = %v, want %v", a.Name(), l, lo, hi, regs, want)
	}
}

// bcCheckStorage checks this rank's storage, read in place, against ref (the
// whole array in C order): AccessBlockSegment must hold the elements in the
// model's storage order, and AccessBlock(i) must start at the block's corner
// in that storage, with the model's leading dimensions.
func bcCheckStorage[T ga.Elem](t *testing.T, a *ga.Array[T], l bcLayout, ref []T) {
	t.Helper()
	me := ga.Nodeid()
	subs := l.storage(me)
	seg, err := a.AccessBlockSegment()
	must(t, err)
	want := make([]T, len(subs))
	pos := map[int]int{}
	for k, s := range subs {
		want[k] = ref[linear(l.dims, s)]
		pos[linear(l.dims, s)] = k
	}
	if !sameElems(t, fmt.Sprintf("%s (%v): rank %d AccessBlockSegment", a.Name(), l, me), seg, want) {
		must(t, a.ReleaseBlockSegment())
		return
	}
	for _, i := range l.owned(me) {
		data, ld, err := a.AccessBlock(i)
		must(t, err)
		lo, hi := l.patch(i)
		if wld := l.blockLd(i); !slices.Equal(ld, wld) {
			t.Errorf("%s (%v): AccessBlock(%d) ld %v, want %v", a.Name(), l, i, ld, wld)
			continue
		}
		if len(data) == 0 || &data[0] != &seg[pos[linear(l.dims, lo)]] {
			t.Errorf("%s (%v): AccessBlock(%d) does not start at element %d of the segment, the block's corner %v",
				a.Name(), l, i, pos[linear(l.dims, lo)], lo)
			continue
		}
		var got, exp []T
		eachSub(lo, hi, func(sub []int) {
			if p := bufPos(lo, hi, ld, sub); p < len(data) {
				got = append(got, data[p])
			}
			exp = append(exp, ref[linear(l.dims, sub)])
		})
		sameElems(t, fmt.Sprintf("%s (%v): block %d by AccessBlock", a.Name(), l, i), got, exp)
		must(t, a.ReleaseBlock(i))
	}
	must(t, a.ReleaseBlockSegment())
}
