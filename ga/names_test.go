package ga_test

import (
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestFlatAndLocate: the flat-subscript forms of Scatter, Gather and
// ScatterAcc on a regular and a block-cyclic array, LocateNnodes against
// LocateRegion and a closed form, and misuse refused with nothing changed.
func TestFlatAndLocate(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		me, n := ga.Nodeid(), ga.Nnodes()
		reg, err := ga.Create[int64]("flat", []int{7, 5}, nil)
		must(t, err)
		defer destroy(t, reg)
		cyc, err := ga.New[int64](7, 5).Name("flatbc").BlockCyclic(2, 3).Allocate()
		must(t, err)
		defer destroy(t, cyc)
		for _, a := range []*ga.Array[int64]{reg, cyc} {
			flatCase(t, a, me, n)
		}

		// LocateNnodes: the whole regular array is on every process that
		// owns a block; any patch has as many pieces as LocateRegion lists.
		whole, err := reg.LocateNnodes([]int{0, 0}, []int{6, 4})
		must(t, err)
		if whole != reg.TotalBlocks() {
			t.Errorf("LocateNnodes of the whole array: %d, want %d", whole, reg.TotalBlocks())
		}
		for _, a := range []*ga.Array[int64]{reg, cyc} {
			for _, p := range [][2][]int{{{0, 0}, {0, 0}}, {{1, 2}, {5, 3}}, {{3, 0}, {6, 4}}, {{0, 4}, {6, 4}}} {
				got, err := a.LocateNnodes(p[0], p[1])
				must(t, err)
				regions, err := a.LocateRegion(p[0], p[1])
				must(t, err)
				if got != len(regions) {
					t.Errorf("%s: LocateNnodes(%v, %v) = %d; LocateRegion lists %d", a.Name(), p[0], p[1], got, len(regions))
				}
			}
		}
		// 2×3 blocks of a 7×5 array: 4×2 blocks in all, and [1..5]×[2..3]
		// touches block rows 0-2 and both block columns.
		if got, _ := cyc.LocateNnodes([]int{1, 2}, []int{5, 3}); got != 6 {
			t.Errorf("LocateNnodes on the block-cyclic array: %d blocks, want 6", got)
		}
		_, err = reg.LocateNnodes([]int{0, 0}, []int{7, 4})
		wantErr(t, "patch outside", err, "LocateNnodes", "flat", nil, "7")
		var none *ga.Array[int64]
		_, err = none.LocateNnodes([]int{0}, []int{0})
		wantErr(t, "nil array", err, "LocateNnodes", "", ga.ErrNil)
	})
}

// flatCase: rank 0 scatters through a flat list, every rank gathers
// through one, and every rank accumulates through one at once.
func flatCase(t *testing.T, a *ga.Array[int64], me, n int) {
	must(t, a.Fill(-1))
	subs := []int{0, 0, 6, 4, 3, 2, 1, 4, 5, 0}
	vals := []int64{10, 20, 30, 40, 50}
	if me == 0 {
		must(t, a.ScatterFlat(vals, subs))
	}
	must(t, ga.Sync())
	got := make([]int64, 5)
	must(t, a.GatherFlat(got, slices.Concat(subs[8:], subs[:8])))
	if want := []int64{50, 10, 20, 30, 40}; !slices.Equal(got, want) {
		t.Errorf("%s: GatherFlat after ScatterFlat: %v, want %v", a.Name(), got, want)
	}
	must(t, ga.Sync())
	// Every rank adds 2·(1, 1, 1) to two elements, one of them twice.
	must(t, a.ScatterAccFlat([]int64{1, 1, 1}, []int{3, 2, 0, 1, 3, 2}, 2))
	must(t, ga.Sync())
	got = make([]int64, 3)
	must(t, a.GatherFlat(got, []int{3, 2, 0, 1, 6, 4}))
	if want := []int64{30 + 4*int64(n), -1 + 2*int64(n), 20}; !slices.Equal(got, want) {
		t.Errorf("%s: after ScatterAccFlat from %d processes: %v, want %v", a.Name(), n, got, want)
	}
	must(t, ga.Sync())

	// Misuse, on every process: nothing is written.
	before := getAll(t, a)
	must(t, ga.Sync())
	wantErr(t, "short list", a.ScatterFlat([]int64{1, 2}, []int{0, 0, 1}), "ScatterFlat", a.Name(), nil, "3 subscript values", "want 4")
	wantErr(t, "long list", a.ScatterAccFlat([]int64{1}, []int{0, 0, 1}, 1), "ScatterAccFlat", a.Name(), nil, "want 2")
	wantErr(t, "outside", a.ScatterFlat([]int64{1, 2}, []int{0, 0, 7, 0}), "ScatterFlat", a.Name(), nil, "[7 0]")
	wantErr(t, "gather outside", a.GatherFlat(make([]int64, 1), []int{0, -1}), "GatherFlat", a.Name(), nil, "[0 -1]")
	must(t, a.SetProperty("read_only"))
	wantErr(t, "read_only", a.ScatterFlat([]int64{1}, []int{0, 0}), "ScatterFlat", a.Name(), nil, "read_only")
	wantErr(t, "read_only acc", a.ScatterAccFlat([]int64{1}, []int{0, 0}, 1), "ScatterAccFlat", a.Name(), nil, "read_only")
	must(t, a.UnsetProperty())
	sameElems(t, a.Name()+" after refused calls", getAll(t, a), before)
	must(t, ga.Sync())
}

// TestPgroupIds: Duplicate, PgroupSelf and AbsoluteId, with arrays on the
// groups they make, and misuse.
func TestPgroupIds(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		me, n := ga.Nodeid(), ga.Nnodes()
		w := ga.PgroupGetWorld()
		d, err := w.Duplicate()
		must(t, err)
		if d == w || d.Nnodes() != n || d.Nodeid() != me {
			t.Errorf("duplicate of the world: the same handle %v, %d processes, rank %d", d == w, d.Nnodes(), d.Nodeid())
		}
		for r := range n {
			if d.AbsoluteId(r) != r || w.AbsoluteId(r) != r {
				t.Errorf("AbsoluteId(%d) = %d in the duplicate, %d in the world", r, d.AbsoluteId(r), w.AbsoluteId(r))
			}
		}
		a, err := ga.New[float64](6).Name("ondup").Pgroup(d).Allocate()
		must(t, err)
		must(t, a.Fill(float64(n)))
		if a.Pgroup() != d {
			t.Errorf("an array made on the duplicate is on another group")
		}
		must(t, d.Sync())
		v := make([]float64, 6)
		must(t, a.Get([]int{0}, []int{5}, v, nil))
		if v[5] != float64(n) {
			t.Errorf("array on the duplicate holds %v", v)
		}
		must(t, a.Destroy())
		must(t, d.Destroy())
		_, err = d.Duplicate()
		wantErr(t, "destroyed", err, "PgroupDuplicate", "", ga.ErrGroupDestroyed)

		p, in := evens(t)
		for k := range p.Nnodes() {
			if p.AbsoluteId(k) != 2*k {
				t.Errorf("evens: AbsoluteId(%d) = %d, want %d", k, p.AbsoluteId(k), 2*k)
			}
		}
		if p.AbsoluteId(-1) != -1 || p.AbsoluteId(p.Nnodes()) != -1 || (*ga.Pgroup)(nil).AbsoluteId(0) != -1 {
			t.Errorf("AbsoluteId of no rank: %d, %d, nil %d; want -1", p.AbsoluteId(-1), p.AbsoluteId(p.Nnodes()), (*ga.Pgroup)(nil).AbsoluteId(0))
		}
		pd, err := p.Duplicate()
		if in {
			must(t, err)
			if pd.Nnodes() != p.Nnodes() || pd.Nodeid() != p.Nodeid() || pd.AbsoluteId(pd.Nnodes()-1) != p.AbsoluteId(p.Nnodes()-1) {
				t.Errorf("duplicate of the evens: %d processes, rank %d", pd.Nnodes(), pd.Nodeid())
			}
			must(t, pd.Destroy())
			must(t, p.Destroy())
		} else {
			wantErr(t, "outside", err, "PgroupDuplicate", "", ga.ErrNotMember)
			must(t, p.Destroy())
		}

		s, err := ga.PgroupSelf()
		must(t, err)
		if s.Nnodes() != 1 || s.Nodeid() != 0 || s.AbsoluteId(0) != me {
			t.Errorf("PgroupSelf: %d processes, rank %d, world rank %d; want 1, 0, %d", s.Nnodes(), s.Nodeid(), s.AbsoluteId(0), me)
		}
		b, err := ga.New[int32](3, 3).Name("mine").Pgroup(s).Allocate()
		must(t, err)
		must(t, b.Fill(int32(me)))
		x, err := ga.Dot(b, b)
		must(t, err)
		if x != int32(9*me*me) {
			t.Errorf("Dot on this process's own group: %d, want %d", x, 9*me*me)
		}
		must(t, b.Destroy())
		must(t, s.Destroy())
	})
}
