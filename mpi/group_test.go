package mpi_test

import (
	"testing"

	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// wantGroup checks a group's size and this process's rank in it.
func wantGroup(t *testing.T, what string, g *mpi.Group, size, rank int) {
	t.Helper()
	if g.Size() != size || g.Rank() != rank {
		t.Errorf("%s: rank %d of %d, want %d of %d", what, g.Rank(), g.Size(), rank, size)
	}
}

// wantTranslate checks TranslateRanks of every rank of from into to against
// want(r).
func wantTranslate(t *testing.T, what string, from, to *mpi.Group, want func(r int) int) {
	t.Helper()
	ranks := make([]int, from.Size())
	for i := range ranks {
		ranks[i] = i
	}
	got, err := from.TranslateRanks(ranks, to)
	must(t, err)
	if len(got) != len(ranks) {
		fatalf(t, "%s: %d ranks translated, want %d", what, len(got), len(ranks))
	}
	for r, g := range got {
		if w := want(r); g != w {
			t.Errorf("%s: rank %d -> %d, want %d", what, r, g, w)
		}
	}
}

func identity(r int) int { return r }

// parities returns the even and the odd ranks of n, and the n ranks from the
// last down.
func parities(n int) (evens, odds, rev []int) {
	for r := 0; r < n; r++ {
		if r%2 == 0 {
			evens = append(evens, r)
		} else {
			odds = append(odds, r)
		}
		rev = append(rev, n-1-r)
	}
	return evens, odds, rev
}

// inHalf is the rank of r in a group of the evens (parity 0) or the odds
// (parity 1), Undefined if not a member.
func inHalf(r, parity int) int {
	if r%2 != parity {
		return mpi.Undefined
	}
	return r / 2
}

func TestGroup(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		w := mpi.World()
		n, me := w.Size(), w.Rank()
		wg, err := w.Group()
		must(t, err)
		wantGroup(t, "World group", wg, n, me)

		t.Run("Incl", func(t *testing.T) { testGroupIncl(t, wg) })
		t.Run("Excl", func(t *testing.T) { testGroupExcl(t, wg) })
		t.Run("UnionIntersection", func(t *testing.T) { testGroupUnionIntersection(t, wg) })
		t.Run("BadRanks", func(t *testing.T) { testGroupBadRanks(t, wg) })
		t.Run("Freed", func(t *testing.T) { testGroupFreed(t, wg) })

		must(t, wg.Free())
	})
}

func testGroupIncl(t *testing.T, wg *mpi.Group) {
	w := mpi.World()
	n, me := w.Size(), w.Rank()
	evens, _, rev := parities(n)
	ne := (n + 1) / 2
	eg, err := wg.Incl(evens...)
	must(t, err)
	wantGroup(t, "Incl(evens)", eg, ne, inHalf(me, 0))
	wantTranslate(t, "World -> evens", wg, eg, func(r int) int { return inHalf(r, 0) })
	wantTranslate(t, "evens -> World", eg, wg, func(i int) int { return 2 * i })
	must(t, eg.Free())

	rg, err := wg.Incl(rev...)
	must(t, err)
	wantGroup(t, "Incl(reversed)", rg, n, n-1-me)
	wantTranslate(t, "World -> reversed", wg, rg, func(r int) int { return n - 1 - r })
	wantTranslate(t, "reversed -> reversed", rg, rg, identity)
	must(t, rg.Free())

	// The last rank alone.
	lg, err := wg.Incl(n - 1)
	must(t, err)
	want := mpi.Undefined
	if me == n-1 {
		want = 0
	}
	wantGroup(t, "Incl(n-1)", lg, 1, want)
	must(t, lg.Free())

	// Nobody.
	empty, err := wg.Incl()
	must(t, err)
	wantGroup(t, "Incl()", empty, 0, mpi.Undefined)
	must(t, empty.Free())
}

func testGroupExcl(t *testing.T, wg *mpi.Group) {
	w := mpi.World()
	n, me := w.Size(), w.Rank()
	evens, _, _ := parities(n)
	no := n / 2
	og, err := wg.Excl(evens...)
	must(t, err)
	wantGroup(t, "Excl(evens)", og, no, inHalf(me, 1))
	wantTranslate(t, "World -> odds", wg, og, func(r int) int { return inHalf(r, 1) })
	must(t, og.Free())

	// Excluding nobody keeps everybody in order.
	all, err := wg.Excl()
	must(t, err)
	wantGroup(t, "Excl()", all, n, me)
	wantTranslate(t, "World -> Excl()", wg, all, identity)
	must(t, all.Free())

	// Excluding rank 0 shifts the others down.
	g, err := wg.Excl(0)
	must(t, err)
	want := me - 1
	if me == 0 {
		want = mpi.Undefined
	}
	wantGroup(t, "Excl(0)", g, n-1, want)
	wantTranslate(t, "World -> Excl(0)", wg, g, func(r int) int {
		if r == 0 {
			return mpi.Undefined
		}
		return r - 1
	})
	must(t, g.Free())
}

func testGroupUnionIntersection(t *testing.T, wg *mpi.Group) {
	w := mpi.World()
	n, me := w.Size(), w.Rank()
	evens, odds, rev := parities(n)
	ne, no := (n+1)/2, n/2
	eg, err := wg.Incl(evens...)
	must(t, err)
	og, err := wg.Incl(odds...)
	must(t, err)
	rg, err := wg.Incl(rev...)
	must(t, err)

	// Union: the first group's processes, then the second's that are new.
	u, err := og.Union(eg)
	must(t, err)
	unionRank := func(r int) int {
		if r%2 == 1 {
			return r / 2
		}
		return no + r/2
	}
	wantGroup(t, "odds ∪ evens", u, n, unionRank(me))
	wantTranslate(t, "World -> odds ∪ evens", wg, u, unionRank)
	must(t, u.Free())

	u2, err := eg.Union(rg)
	must(t, err)
	// evens, then the odds in descending order
	u2Rank := func(r int) int {
		if r%2 == 0 {
			return r / 2
		}
		return ne + (no - 1 - r/2)
	}
	wantGroup(t, "evens ∪ reversed", u2, n, u2Rank(me))
	wantTranslate(t, "World -> evens ∪ reversed", wg, u2, u2Rank)
	must(t, u2.Free())

	// Intersection keeps the first group's order.
	x, err := rg.Intersection(eg)
	must(t, err)
	// evens in descending order
	xRank := func(r int) int {
		if r%2 == 1 {
			return mpi.Undefined
		}
		return ne - 1 - r/2
	}
	wantGroup(t, "reversed ∩ evens", x, ne, xRank(me))
	wantTranslate(t, "World -> reversed ∩ evens", wg, x, xRank)
	must(t, x.Free())

	none, err := eg.Intersection(og)
	must(t, err)
	wantGroup(t, "evens ∩ odds", none, 0, mpi.Undefined)
	must(t, none.Free())

	same, err := wg.Intersection(wg)
	must(t, err)
	wantGroup(t, "World ∩ World", same, n, me)
	must(t, same.Free())

	// Translating through a reversed group and back is the identity.
	wantTranslate(t, "reversed -> odds", rg, og, func(i int) int { return inHalf(n-1-i, 1) })
	got, err := wg.TranslateRanks([]int{mpi.ProcNull}, rg)
	must(t, err)
	if len(got) != 1 || got[0] != mpi.ProcNull {
		t.Errorf("TranslateRanks(ProcNull) = %v, want [%d]", got, mpi.ProcNull)
	}
	got, err = wg.TranslateRanks(nil, rg)
	must(t, err)
	if len(got) != 0 {
		t.Errorf("TranslateRanks(nil) = %v", got)
	}
	must(t, eg.Free())
	must(t, og.Free())
	must(t, rg.Free())
}

func testGroupBadRanks(t *testing.T, wg *mpi.Group) {
	w := mpi.World()
	n, me := w.Size(), w.Rank()
	evens, _, _ := parities(n)
	ne := (n + 1) / 2
	for _, tc := range []struct {
		name  string
		ranks []int
	}{
		{"n", []int{n}},
		{"-1", []int{-1}},
		{"ProcNull", []int{mpi.ProcNull}},
		{"duplicate", []int{0, 0}},
		{"later bad", []int{0, n + 7}},
	} {
		g, err := wg.Incl(tc.ranks...)
		wantArgErr(t, "Incl "+tc.name, err, "ranks", nil)
		if g != nil {
			t.Errorf("Incl %s returned a group", tc.name)
		}
		g, err = wg.Excl(tc.ranks...)
		wantArgErr(t, "Excl "+tc.name, err, "ranks", nil)
		if g != nil {
			t.Errorf("Excl %s returned a group", tc.name)
		}
	}
	// -7: negative and no MPI constant (-1 is MPICH's MPI_PROC_NULL).
	for _, bad := range [][]int{{n}, {-7}, {0, n}} {
		_, err := wg.TranslateRanks(bad, wg)
		wantArgErr(t, "TranslateRanks", err, "ranks", nil)
	}
	// In a smaller group the bound is smaller.
	eg, err := wg.Incl(evens...)
	must(t, err)
	_, err = eg.Incl(ne)
	wantArgErr(t, "Incl past a subgroup", err, "ranks", nil)
	_, err = eg.TranslateRanks([]int{ne}, wg)
	wantArgErr(t, "TranslateRanks past a subgroup", err, "ranks", nil)
	must(t, eg.Free())
	// The world group still works.
	wantGroup(t, "World group after bad calls", wg, n, me)
}

func testGroupFreed(t *testing.T, wg *mpi.Group) {
	g, err := wg.Incl(0)
	must(t, err)
	must(t, g.Free())
	_, e1 := g.Incl(0)
	_, e2 := g.Excl(0)
	_, e3 := g.Union(wg)
	_, e4 := wg.Union(g)
	_, e5 := g.Intersection(wg)
	_, e6 := wg.TranslateRanks([]int{0}, g)
	e7 := g.Free()
	for i, err := range []error{e1, e2, e3, e4, e5, e6, e7} {
		wantArgErr(t, "freed group use", err, "group", mpi.ErrFreed)
		_ = i
	}
	var nilg *mpi.Group
	_, err = wg.Union(nilg)
	wantArgErr(t, "Union(nil)", err, "group", mpi.ErrNil)
}
