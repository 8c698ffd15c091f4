package ga_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

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
