package ga_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
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

// ---- layouts ----

// TestBlockCyclicLayout checks where block-cyclic arrays keep their elements
// (against GA 5.8's own storage on 4 processes and against the model on
// every rank count), the distribution queries, and writes in place through
// AccessBlock, AccessBlockGrid, AccessBlockSegment and Access.
func TestBlockCyclicLayout(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		t.Run("Model", testBCModel)
		t.Run("GAReference", testBCReference)
		t.Run("Shapes", testBCShapes)
		t.Run("AccessWrites", testBCAccessWrites)
		t.Run("BigBlocks", testBCBigBlocks)
	})
}

// The storage that GA 5.8's NGA_Access_block_segment returned on 4 processes
// for the int32 7×9 array with element (i, j) = 10i+j.
var (
	bcGACyclic = []string{
		"0 1 2 10 11 12 23 24 25 33 34 35 46 47 48 56 57 58",
		"3 4 5 13 14 15 26 27 28 36 37 38 60 61 62",
		"6 7 8 16 17 18 40 41 42 50 51 52 63 64 65",
		"20 21 22 30 31 32 43 44 45 53 54 55 66 67 68",
	}
	bcGAGrid = []string{
		"0 1 2 6 7 8 10 11 12 16 17 18 40 41 42 46 47 48 50 51 52 56 57 58",
		"3 4 5 13 14 15 43 44 45 53 54 55",
		"20 21 22 26 27 28 30 31 32 36 37 38 60 61 62 66 67 68",
		"23 24 25 33 34 35 63 64 65",
	}
)

func bcTenIJ(sub []int) int32 { return int32(10*sub[0] + sub[1]) }

// testBCModel checks the model itself against GA's storage (pure arithmetic,
// the same on every rank count).
func testBCModel(t *testing.T) {
	for _, c := range []struct {
		l    bcLayout
		want []string
	}{
		{bcLayout{dims: []int{7, 9}, block: []int{2, 3}, nproc: 4}, bcGACyclic},
		{bcLayout{dims: []int{7, 9}, block: []int{2, 3}, grid: []int{2, 2}, nproc: 4}, bcGAGrid},
	} {
		for r := range 4 {
			var seg []int32
			for _, s := range c.l.storage(r) {
				seg = append(seg, bcTenIJ(s))
			}
			if got := bcSegmentString(seg); got != c.want[r] {
				t.Errorf("model of %v, rank %d: %q, GA stores %q", c.l, r, got, c.want[r])
			}
		}
	}
}

func testBCReference(t *testing.T) {
	me, n := ga.Nodeid(), ga.Nnodes()
	dims := []int{7, 9}
	ref := pattern[int32](dims, func(lin int) int32 { return int32(10*(lin/9) + lin%9) })
	rng := rand.New(rand.NewPCG(seedOf(t.Name()), 1))

	// BlockCyclic {2, 3}.
	l := bcLayout{dims: dims, block: []int{2, 3}, nproc: n}
	a, err := bcAllocate[int32]("ref cyclic", l)
	must(t, err)
	putAll(t, a, ref)
	bcCheckLayout(t, a, l, rng)
	bcCheckStorage(t, a, l, ref)
	if n == 4 {
		seg, err := a.AccessBlockSegment()
		must(t, err)
		if got := bcSegmentString(seg); got != bcGACyclic[me] {
			t.Errorf("BlockCyclic {2,3}: rank %d stores %q, GA stores %q", me, got, bcGACyclic[me])
		}
		must(t, a.ReleaseBlockSegment())
		if a.TotalBlocks() != 12 {
			t.Errorf("BlockCyclic {2,3}: TotalBlocks %d, GA has 12", a.TotalBlocks())
		}
		if lo, hi, ok := a.Distribution(10); !ok || !slices.Equal(lo, []int{6, 3}) || !slices.Equal(hi, []int{6, 5}) {
			t.Errorf("BlockCyclic {2,3}: Distribution(10) = %v %v %v, GA gives [6 3] [6 5]", lo, hi, ok)
		}
		if b, err := a.LocateBlock([]int{4, 5}); err != nil || b != 7 {
			t.Errorf("BlockCyclic {2,3}: LocateBlock([4 5]) = %d %v, GA gives 7", b, err)
		}
		if r, err := a.Locate([]int{4, 5}); err != nil || r != 3 {
			t.Errorf("BlockCyclic {2,3}: Locate([4 5]) = %d %v, want rank 3", r, err)
		}
	}
	must(t, ga.Sync())
	must(t, a.Destroy())

	// BlockCyclicGrid {2, 3} over every grid of this many ranks.
	grids := [][]int{{n, 1}, {1, n}}
	if n == 1 {
		grids = grids[:1]
	}
	if n == 4 {
		grids = append(grids, []int{2, 2})
	}
	for _, g := range grids {
		l := bcLayout{dims: dims, block: []int{2, 3}, grid: g, nproc: n}
		a, err := bcAllocate[int32](fmt.Sprintf("ref grid %v", g), l)
		must(t, err)
		putAll(t, a, ref)
		bcCheckLayout(t, a, l, rng)
		bcCheckStorage(t, a, l, ref)
		if slices.Equal(g, []int{2, 2}) {
			seg, err := a.AccessBlockSegment()
			must(t, err)
			if got := bcSegmentString(seg); got != bcGAGrid[me] {
				t.Errorf("BlockCyclicGrid {2,3} {2,2}: rank %d stores %q, GA stores %q", me, got, bcGAGrid[me])
			}
			must(t, a.ReleaseBlockSegment())
			regs, err := a.LocateRegion([]int{1, 2}, []int{5, 7})
			must(t, err)
			wantLo := [][]int{{1, 2}, {1, 3}, {1, 6}, {2, 2}, {2, 3}, {2, 6}, {4, 2}, {4, 3}, {4, 6}}
			wantHi := [][]int{{1, 2}, {1, 5}, {1, 7}, {3, 2}, {3, 5}, {3, 7}, {5, 2}, {5, 5}, {5, 7}}
			wantRank := []int{0, 1, 0, 2, 3, 2, 0, 1, 0}
			ok := len(regs) == 9
			for k := 0; ok && k < 9; k++ {
				ok = regs[k].Block == k && regs[k].Rank == wantRank[k] &&
					slices.Equal(regs[k].Lo, wantLo[k]) && slices.Equal(regs[k].Hi, wantHi[k])
			}
			if !ok {
				t.Errorf("BlockCyclicGrid {2,3} {2,2}: LocateRegion([1 2], [5 7]) = %v, GA gives blocks 0-8 lo %v hi %v", regs, wantLo, wantHi)
			}
			// Rank 0's local array is 4×6: its blocks' ld is 6, not 3.
			if me == 0 {
				if _, ld, err := a.AccessBlock(2); err != nil || !slices.Equal(ld, []int{6}) {
					t.Errorf("BlockCyclicGrid {2,3} {2,2}: AccessBlock(2) ld %v (%v), want [6]", ld, err)
				}
				must(t, a.ReleaseBlock(2))
			}
		}
		must(t, ga.Sync())
		must(t, a.Destroy())
	}
}

// testBCShapes checks layouts of 1 to 4 dimensions, with blocks that do not
// divide the extents, and with ranks that own nothing.
func testBCShapes(t *testing.T) {
	n := ga.Nnodes()
	rng := rand.New(rand.NewPCG(seedOf(t.Name()), 1))
	shapes := []struct{ dims, block []int }{
		{[]int{13}, []int{4}},
		{[]int{3}, []int{2}}, // two blocks: ranks past 1 own nothing
		{[]int{7, 9}, []int{2, 4}},
		{[]int{2, 9}, []int{2, 9}}, // one block
		{[]int{5, 6, 7}, []int{2, 4, 3}},
		{[]int{4, 3, 2, 3}, []int{3, 2, 1, 2}},
	}
	for _, s := range shapes {
		for _, grid := range []bool{false, true} {
			l := bcLayout{dims: s.dims, block: s.block, nproc: n}
			if grid {
				l.grid = bcGrid(len(s.dims), n)
			}
			a, err := bcAllocate[int64](fmt.Sprintf("shape %v %s", s.dims, bcKind(grid)), l)
			must(t, err)
			ref := pattern[int64](s.dims, func(lin int) int64 { return int64(3*lin + 1) })
			putAll(t, a, ref)
			bcCheckLayout(t, a, l, rng)
			bcCheckStorage(t, a, l, ref)
			sameElems(t, fmt.Sprintf("%s: whole array", a.Name()), getAll(t, a), ref)
			// Collectives where some ranks may own nothing.
			must(t, a.Scale(-2))
			var want int64
			for i := range ref {
				ref[i] *= -2
				want += ref[i] * ref[i]
			}
			if got, err := ga.Dot(a, a); err != nil || got != want {
				t.Errorf("%s: Dot = %d %v, want %d", a.Name(), got, err, want)
			}
			bcCheckStorage(t, a, l, ref)
			must(t, ga.Sync())
			must(t, a.Destroy())
		}
	}
}

// testBCBigBlocks: blocks larger than the array along a dimension make one
// block there. GA 5.8 (checked on this machine) reports the requested block
// size in GA_Get_block_info (7×9 in blocks of {20, 3}: num_blocks 1 3,
// block_dims 20 3), so BlockInfo must too. Kept last: the BlockInfo check
// comes after the storage checks.
func testBCBigBlocks(t *testing.T) {
	n := ga.Nnodes()
	rng := rand.New(rand.NewPCG(seedOf(t.Name()), 1))
	for _, s := range []struct{ dims, block []int }{
		{[]int{7, 9}, []int{20, 3}},
		{[]int{7, 4}, []int{3, 10}},
	} {
		for _, grid := range []bool{false, true} {
			l := bcLayout{dims: s.dims, block: s.block, nproc: n}
			if grid {
				l.grid = bcGrid(2, n)
			}
			a, err := bcAllocate[int32](fmt.Sprintf("big blocks %v %s", s.block, bcKind(grid)), l)
			must(t, err)
			ref := pattern[int32](s.dims, func(lin int) int32 { return int32(lin - 20) })
			putAll(t, a, ref)
			sameElems(t, a.Name()+": whole array", getAll(t, a), ref)
			bcCheckStorage(t, a, l, ref)
			bcCheckLayout(t, a, l, rng)
			must(t, ga.Sync())
			must(t, a.Destroy())
		}
	}
}

// testBCAccessWrites: every rank writes its blocks in place, then the whole
// array is read back with Get.
func testBCAccessWrites(t *testing.T) {
	for _, s := range []struct{ dims, block []int }{
		{[]int{7, 9}, []int{2, 4}},
		{[]int{5, 6, 7}, []int{2, 4, 3}},
	} {
		for _, grid := range []bool{false, true} {
			t.Run(fmt.Sprintf("%dd/%s", len(s.dims), bcKind(grid)), func(t *testing.T) {
				l := bcLayout{dims: s.dims, block: s.block, nproc: ga.Nnodes()}
				if grid {
					l.grid = bcGrid(len(s.dims), ga.Nnodes())
				}
				bcAccessWritesCase(t, l)
			})
		}
	}
}

func bcAccessWritesCase(t *testing.T, l bcLayout) {
	me, n := ga.Nodeid(), ga.Nnodes()
	name := "in place " + bcKind(l.grid != nil)
	a, err := bcAllocate[float64](name, l)
	must(t, err)
	defer destroy(t, a)
	must(t, a.Fill(-1))
	f := func(sub []int) float64 { return float64(linear(l.dims, sub)) + 0.5 }

	// Every block by AccessBlock or AccessBlockGrid, with its ld.
	mine := a.LocalBlocks()
	for k, i := range mine {
		lo, hi, ok := a.Distribution(i)
		if !ok {
			fatalf(t, "Distribution(%d) of an owned block", i)
		}
		var data []float64
		var ld []int
		if k%2 == 0 {
			data, ld, err = a.AccessBlock(i)
		} else {
			data, ld, err = a.AccessBlockGrid(l.coords(i))
		}
		must(t, err)
		if len(data) < bufLen(lo, hi, ld) {
			fatalf(t, "block %d: %d elements in place for lo %v hi %v ld %v", i, len(data), lo, hi, ld)
		}
		eachSub(lo, hi, func(sub []int) { data[bufPos(lo, hi, ld, sub)] = f(sub) })
		must(t, a.ReleaseUpdateBlock(i))
	}
	must(t, ga.Sync())
	ref := make([]float64, total(l.dims))
	full, fullHi := fullPatch(l.dims)
	eachSub(full, fullHi, func(sub []int) { ref[linear(l.dims, sub)] = f(sub) })
	sameElems(t, "after writes through AccessBlock", getAll(t, a), ref)
	must(t, ga.Sync())

	// The whole segment: add 1 to everything this rank stores.
	seg, err := a.AccessBlockSegment()
	must(t, err)
	if len(seg) != len(l.storage(me)) {
		t.Errorf("AccessBlockSegment has %d elements, rank %d stores %d", len(seg), me, len(l.storage(me)))
	}
	for k := range seg {
		seg[k]++
	}
	must(t, a.ReleaseUpdateBlockSegment())
	must(t, ga.Sync())
	for k := range ref {
		ref[k]++
	}
	sameElems(t, "after writes through AccessBlockSegment", getAll(t, a), ref)
	must(t, ga.Sync())

	// Access of a 2×…×2 corner of every block of mine (the whole block where
	// it is smaller): the pointer GA gives is at lo, with the storage's ld.
	for _, i := range mine {
		blo, bhi := l.patch(i)
		lo := slices.Clone(blo)
		hi := make([]int, len(blo))
		for d := range hi {
			hi[d] = min(blo[d]+1, bhi[d])
		}
		if blo[0] < bhi[0] {
			lo[0]++ // not at the block's corner
			hi[0] = lo[0]
		}
		data, ld, err := a.Access(lo, hi)
		must(t, err)
		if wld := l.blockLd(i); !slices.Equal(ld, wld) {
			t.Errorf("Access(%v, %v) in block %d: ld %v, want %v", lo, hi, i, ld, wld)
		}
		eachSub(lo, hi, func(sub []int) { data[bufPos(lo, hi, ld, sub)] *= -2 })
		must(t, a.ReleaseUpdate(lo, hi))
	}
	must(t, ga.Sync())
	for i := range l.blocks() {
		blo, bhi := l.patch(i)
		lo := slices.Clone(blo)
		hi := make([]int, len(blo))
		for d := range hi {
			hi[d] = min(blo[d]+1, bhi[d])
		}
		if blo[0] < bhi[0] {
			lo[0]++
			hi[0] = lo[0]
		}
		eachSub(lo, hi, func(sub []int) { ref[linear(l.dims, sub)] *= -2 })
	}
	sameElems(t, "after writes through Access", getAll(t, a), ref)
	bcCheckStorage(t, a, l, ref)

	// Blocks that are not this rank's, and blocks that do not exist.
	nblk := a.TotalBlocks()
	if n > 1 {
		for i := range nblk {
			if o := l.owner(i); o != me {
				_, _, err := a.AccessBlock(i)
				wantErr(t, fmt.Sprintf("AccessBlock(%d) of rank %d's block", i, o), err, "AccessBlock", name, nil, fmt.Sprint(i))
				_, _, err = a.AccessBlockGrid(l.coords(i))
				wantErr(t, fmt.Sprintf("AccessBlockGrid(%v) of rank %d's block", l.coords(i), o), err, "", name, nil)
				break
			}
		}
	}
	_, _, err = a.AccessBlock(-1)
	wantErr(t, "AccessBlock(-1)", err, "AccessBlock", name, nil, "-1")
	_, _, err = a.AccessBlock(nblk)
	wantErr(t, "AccessBlock(TotalBlocks())", err, "AccessBlock", name, nil, fmt.Sprint(nblk))
	short := make([]int, len(l.dims)-1)
	_, _, err = a.AccessBlockGrid(short)
	wantErr(t, "AccessBlockGrid with too few coordinates", err, "AccessBlockGrid", name, nil, fmt.Sprint(short))
	long := make([]int, len(l.dims)+1)
	_, _, err = a.AccessBlockGrid(long)
	wantErr(t, "AccessBlockGrid with too many coordinates", err, "AccessBlockGrid", name, nil, fmt.Sprint(long))
	past := l.nb()
	_, _, err = a.AccessBlockGrid(past)
	wantErr(t, "AccessBlockGrid past the grid of blocks", err, "AccessBlockGrid", name, nil, fmt.Sprint(past))
	neg := make([]int, len(l.dims))
	neg[len(neg)-1] = -1
	_, _, err = a.AccessBlockGrid(neg)
	wantErr(t, "AccessBlockGrid at -1", err, "AccessBlockGrid", name, nil, fmt.Sprint(neg))
	wantErr(t, "ReleaseBlock(-1)", a.ReleaseBlock(-1), "ReleaseBlock", name, nil, "-1")
	wantErr(t, "ReleaseUpdateBlock(TotalBlocks())", a.ReleaseUpdateBlock(nblk), "ReleaseUpdateBlock", name, nil, fmt.Sprint(nblk))
	wantErr(t, "ReleaseBlockGrid past the grid of blocks", a.ReleaseBlockGrid(past), "ReleaseBlockGrid", name, nil, fmt.Sprint(past))
	wantErr(t, "ReleaseUpdateBlockGrid with too many coordinates", a.ReleaseUpdateBlockGrid(long), "ReleaseUpdateBlockGrid", name, nil, fmt.Sprint(long))
	must(t, a.ReleaseBlockGrid(make([]int, len(l.dims))))
	must(t, ga.Sync())
	sameElems(t, "after refused accesses", getAll(t, a), ref)
	must(t, ga.Sync())
}

// ---- one-sided operations ----

// TestBlockCyclicOneSided checks every one-sided operation on block-cyclic
// arrays against a plain Go array, on both of the runtime's data paths.
func TestBlockCyclicOneSided(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		eachMode(t, func(t *testing.T) {
			t.Run("Random", func(t *testing.T) {
				for nd := 1; nd <= 3; nd++ {
					for _, grid := range []bool{false, true} {
						t.Run(fmt.Sprintf("%dd/%s", nd, bcKind(grid)), func(t *testing.T) {
							t.Run("int32", bcRandomCase[int32](nd, grid))
							t.Run("float64", bcRandomCase[float64](nd, grid))
							t.Run("complex128", bcRandomCase[complex128](nd, grid))
						})
					}
				}
			})
			for _, grid := range []bool{false, true} {
				t.Run("ScatterGather/"+bcKind(grid), func(t *testing.T) {
					if grid {
						bcScatterCase[complex128](t, grid)
					} else {
						bcScatterCase[float64](t, grid)
					}
				})
				t.Run("ReadInc/"+bcKind(grid), func(t *testing.T) {
					t.Run("int64", func(t *testing.T) { bcReadIncCase[int64](t, grid) })
					t.Run("int32", func(t *testing.T) { bcReadIncCase[int32](t, grid) })
				})
				t.Run("Strided/"+bcKind(grid), func(t *testing.T) {
					if grid {
						bcStridedCase[complex128](t, grid)
					} else {
						bcStridedCase[int64](t, grid)
					}
				})
				t.Run("Periodic/"+bcKind(grid), func(t *testing.T) {
					if grid {
						bcPeriodicCase[float64](t, grid)
					} else {
						bcPeriodicCase[int32](t, grid)
					}
				})
				t.Run("NonBlocking/"+bcKind(grid), func(t *testing.T) { bcNbCase(t, grid) })
			}
		})
	})
}

// bcRandomShapes are the random test's shapes, one per number of dimensions,
// with blocks that divide no extent.
var bcRandomShapes = []struct{ dims, block []int }{
	{[]int{13}, []int{4}},
	{[]int{7, 9}, []int{2, 4}},
	{[]int{5, 6, 7}, []int{2, 4, 3}},
}

// bcWideLd draws leading dimensions strictly larger than the patch.
func bcWideLd(rng *rand.Rand, lo, hi []int) []int {
	ld := make([]int, len(lo)-1)
	for d := range ld {
		ld[d] = hi[d+1] - lo[d+1] + 2 + rng.IntN(2)
	}
	return ld
}

// bcInBlock draws a patch inside one random block.
func bcInBlock(rng *rand.Rand, l bcLayout) (lo, hi []int) {
	blo, bhi := l.patch(rng.IntN(l.blocks()))
	lo, hi = make([]int, len(blo)), make([]int, len(blo))
	for d := range blo {
		x, y := blo[d]+rng.IntN(bhi[d]-blo[d]+1), blo[d]+rng.IntN(bhi[d]-blo[d]+1)
		lo[d], hi[d] = min(x, y), max(x, y)
	}
	return lo, hi
}

// bcRandomCase: in each round rank 0, then the last rank, then some rank
// inside one block put random patches, and every rank accumulates into one
// random patch at once; after each step every rank reads back and compares
// with a plain Go array kept in step from the same seed. At the end each
// rank's storage must be where the model puts it.
func bcRandomCase[T ga.Elem](nd int, grid bool) func(t *testing.T) {
	return func(t *testing.T) {
		const rounds = 3
		me, n := ga.Nodeid(), ga.Nnodes()
		sh := bcRandomShapes[nd-1]
		l := bcLayout{dims: sh.dims, block: sh.block, nproc: n}
		if grid {
			l.grid = bcGrid(nd, n)
		}
		dims := l.dims
		seed := seedOf(t.Name())
		rng := rand.New(rand.NewPCG(seed, 1))
		own := rand.New(rand.NewPCG(seed, uint64(100+me)))
		a, err := bcAllocate[T](fmt.Sprintf("random %dd %s %s", nd, bcKind(grid), typeName[T]()), l)
		must(t, err)
		defer destroy(t, a)
		ref := make([]T, total(dims))
		for i := range ref {
			ref[i] = rnd[T](rng)
		}
		putAll(t, a, ref)
		sameElems(t, "whole array after Put", getAll(t, a), ref)
		must(t, ga.Sync()) // everyone has read before anyone writes again
		alpha := mk[T](2, -1)
		for k := range rounds {
			for w, writer := range []int{0, n - 1, (k + 1) % n, n - 1} {
				var lo, hi []int
				switch w {
				case 2:
					lo, hi = bcInBlock(rng, l)
				case 3:
					lo, hi = l.patch(rng.IntN(l.blocks())) // a whole block
				default:
					lo, hi = randPatch(rng, dims)
				}
				ld := bcWideLd(rng, lo, hi)
				if w%2 == 1 {
					ld = randLd(rng, lo, hi)
				}
				what := fmt.Sprintf("round %d: Put by rank %d lo %v hi %v ld %v", k, writer, lo, hi, ld)
				buf := randBuf[T](rng, lo, hi, ld)
				if me == writer {
					keep := slices.Clone(buf)
					must(t, a.Put(lo, hi, buf, ld))
					sameElems(t, what+": buffer after Put", buf, keep)
				}
				eachSub(lo, hi, func(sub []int) { ref[linear(dims, sub)] = buf[bufPos(lo, hi, ld, sub)] })
				must(t, ga.Sync())
				checkGet(t, what, a, ref, lo, hi, nil, 0)
				checkGet(t, what, a, ref, lo, hi, bcWideLd(own, lo, hi), 1)
				must(t, ga.Sync())
			}
			lo, hi := randPatch(rng, dims)
			ld := bcWideLd(rng, lo, hi)
			for r := range n {
				buf := randBuf[T](rng, lo, hi, ld)
				if r == me {
					must(t, a.Acc(lo, hi, buf, ld, alpha))
				}
				eachSub(lo, hi, func(sub []int) { ref[linear(dims, sub)] += alpha * buf[bufPos(lo, hi, ld, sub)] })
			}
			// And one accumulate inside a block, by every rank.
			blo, bhi := bcInBlock(rng, l)
			for r := range n {
				buf := randBuf[T](rng, blo, bhi, nil)
				if r == me {
					must(t, a.Acc(blo, bhi, buf, nil, alpha))
				}
				eachSub(blo, bhi, func(sub []int) { ref[linear(dims, sub)] += alpha * buf[bufPos(blo, bhi, nil, sub)] })
			}
			must(t, ga.Sync())
			what := fmt.Sprintf("round %d: Acc by every rank", k)
			checkGet(t, what, a, ref, lo, hi, ld, 0)
			checkGet(t, what+" in a block", a, ref, blo, bhi, nil, 0)
			olo, ohi := randPatch(own, dims)
			checkGet(t, fmt.Sprintf("round %d: own patch", k), a, ref, olo, ohi, randLd(own, olo, ohi), own.IntN(3))
			must(t, ga.Sync())
		}
		sameElems(t, "whole array", getAll(t, a), ref)
		bcCheckStorage(t, a, l, ref)
		must(t, ga.Sync())
	}
}

// bcScatterCase: Scatter from the last rank, Gather everywhere (duplicates
// included), and ScatterAcc from every rank at once.
func bcScatterCase[T ga.Elem](t *testing.T, grid bool) {
	me, n := ga.Nodeid(), ga.Nnodes()
	l := bcLayout{dims: []int{7, 9}, block: []int{3, 2}, nproc: n}
	if grid {
		l.grid = bcGrid(2, n)
	}
	dims := l.dims
	rng := rand.New(rand.NewPCG(seedOf(t.Name()), 1))
	own := rand.New(rand.NewPCG(seedOf(t.Name()), uint64(100+me)))
	a, err := bcAllocate[T]("scatter "+bcKind(grid), l)
	must(t, err)
	defer destroy(t, a)
	must(t, a.Zero())
	ref := make([]T, total(dims))
	subsOf := func(lins []int) [][]int {
		subs := make([][]int, len(lins))
		for k, x := range lins {
			subs[k] = bcUnravel(dims, x)
		}
		return subs
	}

	lins := rng.Perm(total(dims))[:30]
	vals := make([]T, len(lins))
	for k := range vals {
		vals[k] = rnd[T](rng)
		ref[lins[k]] = vals[k]
	}
	if me == n-1 {
		must(t, a.Scatter(vals, subsOf(lins)))
	}
	must(t, ga.Sync())
	sameElems(t, "after Scatter", getAll(t, a), ref)

	var g []int
	for range 40 {
		g = append(g, own.IntN(total(dims)))
	}
	got := make([]T, len(g))
	must(t, a.Gather(got, subsOf(g)))
	want := make([]T, len(g))
	for k, x := range g {
		want[k] = ref[x]
	}
	sameElems(t, "Gather", got, want)
	must(t, ga.Sync())

	alpha := mk[T](3, 1)
	for r := range n {
		var acc []int
		for range 25 {
			acc = append(acc, rng.IntN(total(dims))) // duplicates likely
		}
		v := make([]T, len(acc))
		for k := range v {
			v[k] = rnd[T](rng)
			ref[acc[k]] += alpha * v[k]
		}
		if r == me {
			must(t, a.ScatterAcc(v, subsOf(acc), alpha))
		}
	}
	must(t, ga.Sync())
	sameElems(t, "after ScatterAcc", getAll(t, a), ref)
	bcCheckStorage(t, a, l, ref)
	must(t, ga.Sync())
}

// bcReadIncCase: every rank draws k tickets from several counters of an
// integer 1-D block-cyclic array; each counter's tickets are 0 to k·N-1,
// each drawn once, each rank's ascending, and the counters end at k·N.
func bcReadIncCase[T int32 | int64](t *testing.T, grid bool) {
	me, n := ga.Nodeid(), ga.Nnodes()
	l := bcLayout{dims: []int{11}, block: []int{2}, nproc: n}
	if grid {
		l.block, l.grid = []int{3}, []int{n}
	}
	a, err := bcAllocate[T]("tickets "+bcKind(grid), l)
	must(t, err)
	defer destroy(t, a)
	must(t, a.Zero())
	counters := []int{0, 3, 4, 7, 10}
	const k = 30
	drawn := make([][]int, len(counters))
	for range k {
		for c, x := range counters {
			old, err := a.ReadInc([]int{x}, 1)
			must(t, err)
			if d := drawn[c]; len(d) > 0 && int(old) <= d[len(d)-1] {
				t.Errorf("counter %d: rank %d drew %d after %d", x, me, old, d[len(d)-1])
			}
			drawn[c] = append(drawn[c], int(old))
		}
	}
	for c, x := range counters {
		all := allgather(t, drawn[c])
		slices.Sort(all)
		want := make([]int, k*n)
		for i := range want {
			want[i] = i
		}
		sameElems(t, fmt.Sprintf("tickets of counter %d", x), all, want)
	}
	must(t, ga.Sync())
	ref := make([]T, 11)
	for _, x := range counters {
		ref[x] = T(k * n)
	}
	sameElems(t, "counters", getAll(t, a), ref)
	bcCheckStorage(t, a, l, ref)
	must(t, ga.Sync())
}

// bcStridedCase: StridedPut from rank 0 with ld, StridedGet everywhere into a
// wider buffer, StridedAcc from every rank, with and without a unit skip
// along the last dimension.
func bcStridedCase[T ga.Elem](t *testing.T, grid bool) {
	me, n := ga.Nodeid(), ga.Nnodes()
	l := bcLayout{dims: []int{5, 6, 7}, block: []int{2, 4, 3}, nproc: n}
	if grid {
		l.grid = bcGrid(3, n)
	}
	dims := l.dims
	rng := rand.New(rand.NewPCG(seedOf(t.Name()), 1))
	a, err := bcAllocate[T]("strided "+bcKind(grid), l)
	must(t, err)
	defer destroy(t, a)
	must(t, a.Zero())
	ref := make([]T, total(dims))
	alpha := mk[T](-2, 1)
	for _, c := range []struct{ lo, hi, skip []int }{
		{[]int{0, 1, 0}, []int{4, 5, 6}, []int{2, 2, 3}},
		{[]int{1, 0, 2}, []int{4, 5, 6}, []int{3, 4, 1}},
		{[]int{0, 0, 0}, []int{4, 5, 6}, []int{1, 5, 2}},
	} {
		what := fmt.Sprintf("lo %v hi %v skip %v", c.lo, c.hi, c.skip)
		clo, chi := make([]int, 3), make([]int, 3)
		for d := range chi {
			chi[d] = (c.hi[d] - c.lo[d]) / c.skip[d]
		}
		at := func(s []int) int {
			g := make([]int, 3)
			for d := range g {
				g[d] = c.lo[d] + s[d]*c.skip[d]
			}
			return linear(dims, g)
		}
		ld := bcWideLd(rng, clo, chi)
		buf := randBuf[T](rng, clo, chi, ld)
		if me == 0 {
			must(t, a.StridedPut(c.lo, c.hi, c.skip, buf, ld))
		}
		eachSub(clo, chi, func(s []int) { ref[at(s)] = buf[bufPos(clo, chi, ld, s)] })
		must(t, ga.Sync())
		sameElems(t, what+": after StridedPut", getAll(t, a), ref)

		gld := bcWideLd(rng, clo, chi)
		back := make([]T, bufLen(clo, chi, gld)+1)
		for i := range back {
			back[i] = sentinel[T]()
		}
		want := slices.Clone(back)
		eachSub(clo, chi, func(s []int) { want[bufPos(clo, chi, gld, s)] = ref[at(s)] })
		must(t, a.StridedGet(c.lo, c.hi, c.skip, back, gld))
		sameElems(t, what+": StridedGet", back, want)
		must(t, ga.Sync())

		for r := range n {
			buf := randBuf[T](rng, clo, chi, nil)
			if r == me {
				must(t, a.StridedAcc(c.lo, c.hi, c.skip, buf, nil, alpha))
			}
			eachSub(clo, chi, func(s []int) { ref[at(s)] += alpha * buf[bufPos(clo, chi, nil, s)] })
		}
		must(t, ga.Sync())
		sameElems(t, what+": after StridedAcc", getAll(t, a), ref)
		must(t, ga.Sync())
	}
	bcCheckStorage(t, a, l, ref)
	must(t, ga.Sync())
}

// bcPeriodicCase: PeriodicGet with ld of a patch that wraps at both ends,
// PeriodicPut from the last rank across a corner, PeriodicAcc of a whole
// period from every rank.
func bcPeriodicCase[T ga.Elem](t *testing.T, grid bool) {
	me, n := ga.Nodeid(), ga.Nnodes()
	l := bcLayout{dims: []int{7, 9}, block: []int{3, 4}, nproc: n}
	if grid {
		l.grid = bcGrid(2, n)
	}
	dims := l.dims
	rng := rand.New(rand.NewPCG(seedOf(t.Name()), 1))
	a, err := bcAllocate[T]("periodic "+bcKind(grid), l)
	must(t, err)
	defer destroy(t, a)
	ref := make([]T, total(dims))
	for i := range ref {
		ref[i] = rnd[T](rng)
	}
	putAll(t, a, ref)

	lo, hi, ld := []int{-3, 5}, []int{2, 12}, []int{10}
	buf := make([]T, bufLen(lo, hi, ld)+2)
	for i := range buf {
		buf[i] = sentinel[T]()
	}
	want := slices.Clone(buf)
	eachSub(lo, hi, func(sub []int) { want[bufPos(lo, hi, ld, sub)] = ref[linear(dims, bcWrap(dims, sub))] })
	must(t, a.PeriodicGet(lo, hi, buf, ld))
	sameElems(t, "PeriodicGet", buf, want)
	must(t, ga.Sync())

	lo, hi = []int{5, -2}, []int{8, 3}
	pbuf := randBuf[T](rng, lo, hi, nil)
	if me == n-1 {
		must(t, a.PeriodicPut(lo, hi, pbuf, nil))
	}
	eachSub(lo, hi, func(sub []int) { ref[linear(dims, bcWrap(dims, sub))] = pbuf[bufPos(lo, hi, nil, sub)] })
	must(t, ga.Sync())
	sameElems(t, "after PeriodicPut", getAll(t, a), ref)
	must(t, ga.Sync())

	lo, hi, ld = []int{-1, -1}, []int{5, 7}, []int{11}
	alpha := mk[T](2, 2)
	for r := range n {
		b := randBuf[T](rng, lo, hi, ld)
		if r == me {
			must(t, a.PeriodicAcc(lo, hi, b, ld, alpha))
		}
		eachSub(lo, hi, func(sub []int) { ref[linear(dims, bcWrap(dims, sub))] += alpha * b[bufPos(lo, hi, ld, sub)] })
	}
	must(t, ga.Sync())
	sameElems(t, "after PeriodicAcc", getAll(t, a), ref)
	bcCheckStorage(t, a, l, ref)
	must(t, ga.Sync())
}

// bcNbCase: every rank NbPuts its own row, NbAccs into row 0 and into a
// patch across blocks, waits out of order; then NbGet of the whole array.
func bcNbCase(t *testing.T, grid bool) {
	me, n := ga.Nodeid(), ga.Nnodes()
	l := bcLayout{dims: []int{2*n + 3, 9}, block: []int{2, 4}, nproc: n}
	if grid {
		l.grid = bcGrid(2, n)
	}
	dims := l.dims
	rng := rand.New(rand.NewPCG(seedOf(t.Name()), 1))
	a, err := bcAllocate[float64]("nb "+bcKind(grid), l)
	must(t, err)
	defer destroy(t, a)
	must(t, a.Fill(1.5))
	ref := make([]float64, total(dims))
	for i := range ref {
		ref[i] = 1.5
	}
	rowOf := func(r int) []float64 {
		row := make([]float64, 9)
		for j := range row {
			row[j] = float64(100*r + j)
		}
		return row
	}
	alo, ahi, ald := []int{n + 1, 1}, []int{n + 2, 7}, []int{9}
	accs := make([][]float64, n)
	for r := range n {
		accs[r] = randBuf[float64](rng, alo, ahi, ald)
	}
	row := rowOf(me)
	h1, err := a.NbPut([]int{me + 1, 0}, []int{me + 1, 8}, row, nil)
	must(t, err)
	h2, err := a.NbAcc([]int{0, 0}, []int{0, 8}, row, nil, 2)
	must(t, err)
	h3, err := a.NbAcc(alo, ahi, accs[me], ald, 0.5)
	must(t, err)
	must(t, h3.Wait())
	must(t, h2.Wait())
	if ok, err := h1.Test(); err != nil || !ok {
		must(t, err)
		must(t, h1.Wait())
	}
	for r := range n {
		for j, v := range rowOf(r) {
			ref[linear(dims, []int{r + 1, j})] = v
			ref[linear(dims, []int{0, j})] += 2 * v
		}
		eachSub(alo, ahi, func(sub []int) { ref[linear(dims, sub)] += 0.5 * accs[r][bufPos(alo, ahi, ald, sub)] })
	}
	must(t, ga.Sync())

	lo, hi := fullPatch(dims)
	gld := []int{11}
	buf := make([]float64, bufLen(lo, hi, gld))
	for i := range buf {
		buf[i] = -999
	}
	want := slices.Clone(buf)
	eachSub(lo, hi, func(sub []int) { want[bufPos(lo, hi, gld, sub)] = ref[linear(dims, sub)] })
	h, err := a.NbGet(lo, hi, buf, gld)
	must(t, err)
	must(t, h.Wait())
	sameElems(t, "NbGet of the whole array", buf, want)
	// One block's worth, from the last block.
	blo, bhi := l.patch(l.blocks() - 1)
	small := make([]float64, volume(blo, bhi))
	h, err = a.NbGet(blo, bhi, small, nil)
	must(t, err)
	must(t, h.Wait())
	var exp []float64
	eachSub(blo, bhi, func(sub []int) { exp = append(exp, ref[linear(dims, sub)]) })
	sameElems(t, "NbGet of the last block", small, exp)
	bcCheckStorage(t, a, l, ref)
	must(t, ga.Sync())
}

// ---- collectives ----

// TestBlockCyclicCollectives checks Zero, Fill, Scale, Add, Dot, Copy,
// Duplicate, CompareDistr and printing on block-cyclic arrays, alone and
// mixed with regular ones.
func TestBlockCyclicCollectives(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		t.Run("int32", bcCollectiveCase[int32])
		t.Run("float64", bcCollectiveCase[float64])
		t.Run("complex128", bcCollectiveCase[complex128])
		t.Run("CopyShapes", testBCCopyShapes)
		t.Run("Duplicate", testBCDuplicate)
		t.Run("Print", testBCPrint)
	})
}

func bcCollectiveCase[T ga.Elem](t *testing.T) {
	n := ga.Nnodes()
	dims := []int{7, 9}
	lc := bcLayout{dims: dims, block: []int{2, 3}, nproc: n}
	lg := bcLayout{dims: dims, block: []int{3, 2}, grid: bcGrid(2, n), nproc: n}
	cyc, err := bcAllocate[T]("coll cyclic", lc)
	must(t, err)
	defer destroy(t, cyc)
	grd, err := bcAllocate[T]("coll grid", lg)
	must(t, err)
	defer destroy(t, grd)
	reg, err := ga.Create[T]("coll regular", dims, nil)
	must(t, err)
	defer destroy(t, reg)
	layouts := map[*ga.Array[T]]bcLayout{cyc: lc, grd: lg}

	N := total(dims)
	p := pattern[T](dims, func(lin int) T { return mk[T](lin+1, 1) })
	const0 := func(v T) []T {
		out := make([]T, N)
		for i := range out {
			out[i] = v
		}
		return out
	}
	for _, x := range []*ga.Array[T]{cyc, grd} {
		l := layouts[x]
		v := mk[T](3, -2)
		must(t, x.Fill(v))
		sameElems(t, x.Name()+": after Fill", getAll(t, x), const0(v))
		bcCheckStorage(t, x, l, const0(v))
		must(t, x.Zero())
		sameElems(t, x.Name()+": after Zero", getAll(t, x), const0(0))
		bcCheckStorage(t, x, l, const0(0))
		must(t, ga.Sync())
		putAll(t, x, p)
		s := mk[T](2, 1)
		must(t, x.Scale(s))
		want := make([]T, N)
		for i := range want {
			want[i] = p[i] * s
		}
		sameElems(t, x.Name()+": after Scale", getAll(t, x), want)
		bcCheckStorage(t, x, l, want)
		must(t, ga.Sync())
	}

	// Dot against closed forms: p·p and p·1 with p = (l+1) (+ i).
	putAll(t, cyc, p)
	putAll(t, grd, p)
	must(t, reg.Fill(mk[T](1, 0)))
	s1, s2 := N*(N+1)/2, N*(N+1)*(2*N+1)/6
	pp, p1 := mk[T](s2, 0), mk[T](s1, 0)
	if isComplex[T]() {
		pp, p1 = mk[T](s2-N, N*(N+1)), mk[T](s1, N)
	}
	for _, c := range []struct {
		what string
		a, b *ga.Array[T]
		want T
	}{
		{"cyclic·cyclic", cyc, cyc, pp},
		{"grid·grid", grd, grd, pp},
		{"cyclic·grid", cyc, grd, pp},
		{"grid·cyclic", grd, cyc, pp},
		{"cyclic·regular", cyc, reg, p1},
		{"regular·grid", reg, grd, p1},
	} {
		got, err := ga.Dot(c.a, c.b)
		must(t, err)
		if got != c.want {
			t.Errorf("Dot %s = %v, want %v", c.what, got, c.want)
		}
	}

	// Add, mixing distributions, and in place.
	al, be := mk[T](2, 0), mk[T](-1, 1)
	must(t, ga.Add(al, cyc, be, reg, grd)) // grd = 2p + (-1+i)
	want := make([]T, N)
	for i := range want {
		want[i] = al*p[i] + be*mk[T](1, 0)
	}
	sameElems(t, "Add(cyclic, regular) into grid", getAll(t, grd), want)
	bcCheckStorage(t, grd, lg, want)
	must(t, ga.Add(mk[T](1, 0), cyc, mk[T](3, 0), grd, reg)) // reg = p + 3·grd
	want2 := make([]T, N)
	for i := range want2 {
		want2[i] = p[i] + mk[T](3, 0)*want[i]
	}
	sameElems(t, "Add(cyclic, grid) into regular", getAll(t, reg), want2)
	must(t, ga.Add(mk[T](1, 0), cyc, mk[T](1, 0), cyc, cyc)) // cyc = 2p
	want3 := make([]T, N)
	for i := range want3 {
		want3[i] = p[i] + p[i]
	}
	sameElems(t, "Add in place", getAll(t, cyc), want3)
	bcCheckStorage(t, cyc, lc, want3)
	must(t, ga.Add(mk[T](1, 0), reg, mk[T](-1, 0), grd, cyc)) // cyc = reg - grd
	want4 := make([]T, N)
	for i := range want4 {
		want4[i] = want2[i] - want[i]
	}
	sameElems(t, "Add(regular, grid) into cyclic", getAll(t, cyc), want4)
	bcCheckStorage(t, cyc, lc, want4)

	// Copy regular → cyclic → grid → regular.
	must(t, ga.Sync())
	putAll(t, reg, p)
	must(t, cyc.Zero())
	must(t, grd.Zero())
	must(t, ga.Copy(reg, cyc))
	sameElems(t, "Copy regular → cyclic", getAll(t, cyc), p)
	bcCheckStorage(t, cyc, lc, p)
	must(t, ga.Copy(cyc, grd))
	sameElems(t, "Copy cyclic → grid", getAll(t, grd), p)
	bcCheckStorage(t, grd, lg, p)
	must(t, reg.Zero())
	must(t, ga.Copy(grd, reg))
	sameElems(t, "Copy grid → regular", getAll(t, reg), p)
	must(t, ga.Sync())
}

// testBCCopyShapes copies 60 values around arrays of shapes 6×10, 10×6 and
// 60, regular and block-cyclic, matched in C order.
func testBCCopyShapes(t *testing.T) {
	n := ga.Nnodes()
	p := pattern[float64]([]int{60}, func(lin int) float64 { return float64(lin)*1.25 - 7 })
	r610, err := ga.Create[float64]("r 6x10", []int{6, 10}, nil)
	must(t, err)
	defer destroy(t, r610)
	r106, err := ga.Create[float64]("r 10x6", []int{10, 6}, nil)
	must(t, err)
	defer destroy(t, r106)
	ls := []bcLayout{
		{dims: []int{10, 6}, block: []int{3, 4}, nproc: n},
		{dims: []int{60}, block: []int{7}, grid: []int{n}, nproc: n},
		{dims: []int{6, 10}, block: []int{4, 3}, grid: bcGrid(2, n), nproc: n},
		{dims: []int{60}, block: []int{7}, nproc: n},
		{dims: []int{10, 6}, block: []int{2, 5}, grid: bcGrid(2, n), nproc: n},
		{dims: []int{3, 4, 5}, block: []int{2, 3, 2}, nproc: n},
	}
	arrays := make([]*ga.Array[float64], len(ls))
	for k, l := range ls {
		arrays[k], err = bcAllocate[float64](fmt.Sprintf("copy %v %s", l.dims, bcKind(l.grid != nil)), l)
		must(t, err)
		defer destroy(t, arrays[k])
		must(t, arrays[k].Fill(-1))
	}
	putAll(t, r610, p)
	src := r610
	for k, dst := range arrays {
		must(t, ga.Copy(src, dst))
		sameElems(t, fmt.Sprintf("Copy %s → %s", src.Name(), dst.Name()), getAll(t, dst), p)
		bcCheckStorage(t, dst, ls[k], p)
		src = dst
	}
	must(t, ga.Copy(src, r106))
	sameElems(t, fmt.Sprintf("Copy %s → %s", src.Name(), r106.Name()), getAll(t, r106), p)
	must(t, r610.Zero())
	must(t, ga.Copy(arrays[0], r610))
	sameElems(t, fmt.Sprintf("Copy %s → %s", arrays[0].Name(), r610.Name()), getAll(t, r610), p)
	must(t, ga.Sync())
}

// testBCDuplicate: Duplicate keeps the distribution; CompareDistr tells
// block-cyclic layouts apart from each other and from regular ones.
func testBCDuplicate(t *testing.T) {
	n := ga.Nnodes()
	rng := rand.New(rand.NewPCG(seedOf(t.Name()), 1))
	dims := []int{7, 9}
	lc := bcLayout{dims: dims, block: []int{2, 3}, nproc: n}
	lg := bcLayout{dims: dims, block: []int{2, 3}, grid: bcGrid(2, n), nproc: n}
	cyc, err := bcAllocate[float64]("dup cyclic", lc)
	must(t, err)
	defer destroy(t, cyc)
	grd, err := bcAllocate[float64]("dup grid", lg)
	must(t, err)
	defer destroy(t, grd)
	reg, err := ga.Create[float64]("dup regular", dims, nil)
	must(t, err)
	defer destroy(t, reg)
	p := pattern[float64](dims, func(lin int) float64 { return float64(lin) })
	putAll(t, cyc, p)
	putAll(t, grd, p)

	for _, c := range []struct {
		a *ga.Array[float64]
		l bcLayout
	}{{cyc, lc}, {grd, lg}} {
		d, err := c.a.Duplicate(c.a.Name() + " copy")
		must(t, err)
		if d.Name() != c.a.Name()+" copy" || !slices.Equal(d.Dims(), dims) {
			t.Errorf("Duplicate of %s: name %q dims %v", c.a.Name(), d.Name(), d.Dims())
		}
		if !ga.CompareDistr(c.a, d) || !ga.CompareDistr(d, c.a) {
			t.Errorf("CompareDistr of %s and its duplicate is false", c.a.Name())
		}
		bcCheckLayout(t, d, c.l, rng)
		must(t, d.Fill(5))
		bcCheckStorage(t, d, c.l, pattern[float64](dims, func(int) float64 { return 5 }))
		sameElems(t, c.a.Name()+" after its duplicate was filled", getAll(t, c.a), p)
		must(t, ga.Copy(c.a, d))
		sameElems(t, "duplicate after Copy", getAll(t, d), p)
		bcCheckStorage(t, d, c.l, p)
		must(t, ga.Sync())
		must(t, d.Destroy())
	}

	other := func(name string, l bcLayout) *ga.Array[float64] {
		x, err := bcAllocate[float64](name, l)
		must(t, err)
		return x
	}
	cycInt, err := bcAllocate[int32]("dup cyclic int32", lc)
	must(t, err)
	defer destroy(t, cycInt)
	if !ga.CompareDistr(cyc, cycInt) {
		t.Errorf("CompareDistr of two cyclic {2,3} arrays of different types is false")
	}
	cyc32 := other("cyclic {3,2}", bcLayout{dims: dims, block: []int{3, 2}, nproc: n})
	defer destroy(t, cyc32)
	grid32 := other("grid {3,2}", bcLayout{dims: dims, block: []int{3, 2}, grid: lg.grid, nproc: n})
	defer destroy(t, grid32)
	sameCut := other("grid {2,3} same cut", bcLayout{dims: dims, block: []int{2, 3}, grid: lg.grid, nproc: n})
	defer destroy(t, sameCut)
	if !ga.CompareDistr(grd, sameCut) {
		t.Errorf("CompareDistr of two grid arrays with the same blocks and grid is false")
	}
	for _, c := range []struct {
		what string
		a, b *ga.Array[float64]
	}{
		{"cyclic and regular", cyc, reg},
		{"regular and grid", reg, grd},
		{"cyclic and grid with the same blocks", cyc, grd},
		{"cyclic {2,3} and cyclic {3,2}", cyc, cyc32},
		{"grid {2,3} and grid {3,2}", grd, grid32},
	} {
		if ga.CompareDistr(c.a, c.b) || ga.CompareDistr(c.b, c.a) {
			t.Errorf("CompareDistr of %s is true", c.what)
		}
	}
	if n > 1 {
		gn1 := other("grid n×1", bcLayout{dims: dims, block: []int{2, 3}, grid: []int{n, 1}, nproc: n})
		defer destroy(t, gn1)
		g1n := other("grid 1×n", bcLayout{dims: dims, block: []int{2, 3}, grid: []int{1, n}, nproc: n})
		defer destroy(t, g1n)
		if ga.CompareDistr(gn1, g1n) {
			t.Errorf("CompareDistr of grids %v and %v is true", []int{n, 1}, []int{1, n})
		}
	}
	must(t, ga.Sync())
}

// testBCPrint: Print shows the values in C order; PrintDistribution lists
// every block with its owner and patch.
func testBCPrint(t *testing.T) {
	me, n := ga.Nodeid(), ga.Nnodes()
	for _, grid := range []bool{false, true} {
		l := bcLayout{dims: []int{5, 4}, block: []int{2, 3}, nproc: n}
		if grid {
			l.grid = bcGrid(2, n)
		}
		name := "print " + bcKind(grid)
		a, err := bcAllocate[int32](name, l)
		must(t, err)
		putAll(t, a, pattern[int32](l.dims, func(lin int) int32 { return int32(10*lin - 3) }))
		var out bytes.Buffer
		must(t, a.Fprint(&out))
		if me != 0 {
			if out.Len() != 0 {
				t.Errorf("%s: rank %d printed %q", name, me, out.String())
			}
		} else {
			lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
			if len(lines) != 6 || !strings.Contains(lines[0], name) {
				t.Errorf("%s: Print gave %q, want a heading and 5 rows", name, out.String())
			} else {
				for r, line := range lines[1:] {
					_, vals, ok := strings.Cut(line, ":")
					want := fmt.Sprint(10*(4*r)-3, 10*(4*r+1)-3, 10*(4*r+2)-3, 10*(4*r+3)-3)
					if !ok || strings.Join(strings.Fields(vals), " ") != want {
						t.Errorf("%s: Print row %d is %q, want values %s", name, r, line, want)
					}
				}
			}
		}
		out.Reset()
		must(t, a.FprintDistribution(&out))
		if me == 0 {
			lines := strings.Split(out.String(), "\n")
			for i := range l.blocks() {
				lo, hi := l.patch(i)
				found := false
				for _, line := range lines {
					if strings.Contains(line, fmt.Sprintf("block %d:", i)) &&
						strings.Contains(line, fmt.Sprintf("process %d", l.owner(i))) &&
						strings.Contains(line, fmt.Sprintf("lo %v hi %v", lo, hi)) {
						found = true
					}
				}
				if !found {
					t.Errorf("%s: PrintDistribution %q lacks block %d of process %d, lo %v hi %v", name, out.String(), i, l.owner(i), lo, hi)
				}
			}
		} else if out.Len() != 0 {
			t.Errorf("%s: rank %d printed the distribution", name, me)
		}
		must(t, ga.Sync())
		must(t, a.Destroy())
	}
}

// ---- misuse ----

// TestBlockCyclicMisuse checks that bad block-cyclic distributions fail
// Allocate alike on every rank, naming the array, and that in-place access
// refuses what GA refuses.
func TestBlockCyclicMisuse(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		t.Run("Allocate", testBCBadAllocate)
		t.Run("Access", testBCBadAccess)
		t.Run("NoBlockSizes", testBCNoBlockSizes)
	})
}

func testBCBadAllocate(t *testing.T) {
	n := ga.Nnodes()
	before := ga.InquireMemory()
	type build func(name string) (*ga.Array[float64], error)
	nb := func(name string) *ga.Builder[float64] { return ga.New[float64](7, 9).Name(name) }
	for _, c := range []struct {
		name   string
		build  build
		values []string
	}{
		{"bc zero block", func(s string) (*ga.Array[float64], error) { return nb(s).BlockCyclic(0, 3).Allocate() }, []string{"[0 3]"}},
		{"bc negative block", func(s string) (*ga.Array[float64], error) { return nb(s).BlockCyclic(2, -1).Allocate() }, []string{"[2 -1]"}},
		{"bc one size", func(s string) (*ga.Array[float64], error) { return nb(s).BlockCyclic(2).Allocate() }, []string{"[2]"}},
		{"bc three sizes", func(s string) (*ga.Array[float64], error) { return nb(s).BlockCyclic(2, 3, 4).Allocate() }, []string{"[2 3 4]"}},
		{"grid zero block", func(s string) (*ga.Array[float64], error) {
			return nb(s).BlockCyclicGrid([]int{2, 0}, []int{n, 1}).Allocate()
		}, []string{"[2 0]"}},
		{"grid one size", func(s string) (*ga.Array[float64], error) {
			return nb(s).BlockCyclicGrid([]int{2}, []int{n, 1}).Allocate()
		}, []string{"[2]"}},
		{"grid too many processes", func(s string) (*ga.Array[float64], error) {
			return nb(s).BlockCyclicGrid([]int{2, 3}, []int{n + 1, 1}).Allocate()
		}, []string{fmt.Sprint([]int{n + 1, 1})}},
		{"grid twice the processes", func(s string) (*ga.Array[float64], error) {
			return nb(s).BlockCyclicGrid([]int{2, 3}, []int{n, 2}).Allocate()
		}, []string{fmt.Sprint([]int{n, 2})}},
		{"grid with a zero", func(s string) (*ga.Array[float64], error) {
			return nb(s).BlockCyclicGrid([]int{2, 3}, []int{0, n}).Allocate()
		}, []string{fmt.Sprint([]int{0, n})}},
		{"grid of one dimension", func(s string) (*ga.Array[float64], error) {
			return nb(s).BlockCyclicGrid([]int{2, 3}, []int{n}).Allocate()
		}, []string{fmt.Sprint([]int{n})}},
		{"grid nil", func(s string) (*ga.Array[float64], error) {
			return nb(s).BlockCyclicGrid([]int{2, 3}, nil).Allocate()
		}, nil},
		{"bc then chunk", func(s string) (*ga.Array[float64], error) { return nb(s).BlockCyclic(2, 3).Chunk(3, 3).Allocate() }, nil},
		{"chunk then bc", func(s string) (*ga.Array[float64], error) { return nb(s).Chunk(3, 3).BlockCyclic(2, 3).Allocate() }, nil},
		{"grid then chunk", func(s string) (*ga.Array[float64], error) {
			return nb(s).BlockCyclicGrid([]int{2, 3}, []int{n, 1}).Chunk(7, 1).Allocate()
		}, nil},
		{"bc then irregular", func(s string) (*ga.Array[float64], error) {
			return nb(s).BlockCyclic(2, 3).Irregular([]int{0}, []int{0}).Allocate()
		}, nil},
		{"irregular then grid", func(s string) (*ga.Array[float64], error) {
			return nb(s).Irregular([]int{0}, []int{0}).BlockCyclicGrid([]int{2, 3}, []int{n, 1}).Allocate()
		}, nil},
	} {
		a, err := c.build(c.name)
		wantErr(t, c.name, err, "Allocate", c.name, nil, c.values...)
		if err == nil && a != nil {
			must(t, a.Destroy())
		}
	}
	// Nobody was left waiting, and nothing was allocated.
	must(t, ga.Sync())
	if got := ga.InquireMemory(); got != before {
		t.Errorf("InquireMemory %d after refused creations, was %d", got, before)
	}
	a, err := nb("fine after refusals").BlockCyclic(2, 3).Allocate()
	must(t, err)
	must(t, a.Fill(1))
	if s, err := ga.Dot(a, a); err != nil || s != 63 {
		t.Errorf("Dot after refused creations = %v %v, want 63", s, err)
	}
	must(t, a.Destroy())
	must(t, ga.Sync())
}

func testBCBadAccess(t *testing.T) {
	me, n := ga.Nodeid(), ga.Nnodes()
	for _, grid := range []bool{false, true} {
		l := bcLayout{dims: []int{7, 9}, block: []int{2, 3}, nproc: n}
		if grid {
			l.grid = bcGrid(2, n)
		}
		name := "access " + bcKind(grid)
		a, err := bcAllocate[int32](name, l)
		must(t, err)
		must(t, a.Fill(4))

		data, lo, hi, ld, ok, err := a.AccessLocal()
		wantErr(t, "AccessLocal of a block-cyclic array", err, "AccessLocal", name, nil)
		if ok || data != nil || lo != nil || hi != nil || ld != nil {
			t.Errorf("%s: refused AccessLocal returned ok %v, %d elements, lo %v hi %v ld %v", name, ok, len(data), lo, hi, ld)
		}
		// Across two blocks, along either dimension, whoever owns them.
		for _, p := range []struct{ lo, hi []int }{
			{[]int{0, 2}, []int{0, 3}},
			{[]int{1, 0}, []int{2, 0}},
			{[]int{0, 0}, []int{6, 8}},
		} {
			_, _, err := a.Access(p.lo, p.hi)
			wantErr(t, fmt.Sprintf("%s: Access(%v, %v) across blocks", name, p.lo, p.hi), err, "Access", name, nil, fmt.Sprint(p.lo), fmt.Sprint(p.hi))
		}
		// Inside one block of another rank.
		if n > 1 {
			for i := range l.blocks() {
				if l.owner(i) != me {
					blo, bhi := l.patch(i)
					_, _, err := a.Access(blo, bhi)
					wantErr(t, fmt.Sprintf("%s: Access of block %d of rank %d", name, i, l.owner(i)), err, "Access", name, nil)
					break
				}
			}
		}
		// Inside one block of mine: fine, and the block's values.
		for _, i := range a.LocalBlocks() {
			blo, bhi := l.patch(i)
			d, ld, err := a.Access(blo, bhi)
			must(t, err)
			eachSub(blo, bhi, func(sub []int) {
				if v := d[bufPos(blo, bhi, ld, sub)]; v != 4 {
					t.Errorf("%s: Access of block %d: element %v = %d, want 4", name, i, sub, v)
				}
			})
			must(t, a.Release(blo, bhi))
		}
		must(t, ga.Sync())
		must(t, a.Destroy())

		// The block calls on a destroyed array.
		_, _, err = a.AccessBlock(0)
		wantErr(t, name+": AccessBlock after Destroy", err, "AccessBlock", name, ga.ErrDestroyed)
		_, _, err = a.AccessBlockGrid([]int{0, 0})
		wantErr(t, name+": AccessBlockGrid after Destroy", err, "AccessBlockGrid", name, ga.ErrDestroyed)
		_, err = a.AccessBlockSegment()
		wantErr(t, name+": AccessBlockSegment after Destroy", err, "AccessBlockSegment", name, ga.ErrDestroyed)
		wantErr(t, name+": ReleaseBlock after Destroy", a.ReleaseBlock(0), "ReleaseBlock", name, ga.ErrDestroyed)
		wantErr(t, name+": ReleaseUpdateBlock after Destroy", a.ReleaseUpdateBlock(0), "ReleaseUpdateBlock", name, ga.ErrDestroyed)
		wantErr(t, name+": ReleaseBlockSegment after Destroy", a.ReleaseBlockSegment(), "ReleaseBlockSegment", name, ga.ErrDestroyed)
		if _, _, ok := a.Distribution(0); ok {
			t.Errorf("%s: Distribution(0) of a destroyed array reports a block", name)
		}
	}
}

// testBCNoBlockSizes: a block-cyclic request with no block sizes at all is a
// wrong number of block sizes like any other, and must be refused too (not
// silently become a regular distribution). Kept last: it aborts the job if
// the request is accepted.
func testBCNoBlockSizes(t *testing.T) {
	n := ga.Nnodes()
	a, err := ga.New[float64](7, 9).Name("bc no sizes").BlockCyclic().Allocate()
	wantErr(t, "BlockCyclic() with no block sizes", err, "Allocate", "bc no sizes", nil)
	if err == nil {
		t.Errorf("BlockCyclic() with no block sizes made an array with BlockCyclic() = %v, ProcGrid %v", a.BlockCyclic(), a.ProcGrid())
		must(t, a.Destroy())
	}
	b, err := ga.New[float64](7, 9).Name("grid no sizes").BlockCyclicGrid(nil, []int{n, 1}).Allocate()
	wantErr(t, "BlockCyclicGrid(nil, grid)", err, "Allocate", "grid no sizes", nil)
	if err == nil {
		t.Errorf("BlockCyclicGrid(nil, %v) made an array with BlockCyclic() = %v, ProcGrid %v", []int{n, 1}, b.BlockCyclic(), b.ProcGrid())
		must(t, b.Destroy())
	}
	must(t, ga.Sync())
}
