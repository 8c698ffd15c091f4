package ga_test

import (
	"fmt"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

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
