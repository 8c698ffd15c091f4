package mpi_test

import (
	"errors"
	"testing"
	"time"

	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestBeforeInit runs in the plain `go test` process, before anything there
// initializes MPI: World and Self must not claim rank 0 on every process.
func TestBeforeInit(t *testing.T) {
	if mpi.Initialized() {
		t.Skip("MPI is already initialized in this process")
	}
	for _, c := range []*mpi.Comm{mpi.World(), mpi.Self()} {
		if c.Rank() != -1 || c.Size() != 0 {
			t.Errorf("%v before Init: rank %d of %d, want -1 of 0", c, c.Rank(), c.Size())
		}
	}
}

func TestWorld(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		w := mpi.World()
		n := w.Size()
		got := []int{0}
		must(t, mpi.Allreduce(w, []int{w.Rank() + 1}, got, mpi.Sum))
		if want := n * (n + 1) / 2; got[0] != want {
			fatalf(t, "Allreduce Sum of rank+1 = %d, want %d", got[0], want)
		}
		// Check: the return codes of MPI calls made from C.
		if err := mpi.Check("Cfunc", 0); err != nil {
			t.Errorf("Check of MPI_SUCCESS: %v", err)
		}
		var me *mpi.Error
		err := mpi.Check("Cfunc", mpi.ErrClassNoSuchFile)
		if !errors.As(err, &me) || me.Op != "Cfunc" || me.Class != mpi.ErrClassNoSuchFile || me.Msg == "" {
			t.Errorf("Check of MPI_ERR_NO_SUCH_FILE: %#v, want an *mpi.Error of op Cfunc and that class", err)
		}
	})
}

// ---- helpers shared by the test files of this package ----

// must and fatalf abort the whole job on failures the ranks cannot survive in
// step (see mpitest.Must).
var (
	must   = mpitest.Must
	fatalf = mpitest.Fatalf
)

// wantArgErr checks that err is an *mpi.ArgError for argument arg (and, if
// sentinel is not nil, that it wraps sentinel).
func wantArgErr(t *testing.T, what string, err error, arg string, sentinel error) {
	t.Helper()
	var ae *mpi.ArgError
	if !errors.As(err, &ae) {
		t.Errorf("%s: got error %v (%T), want *mpi.ArgError for %q", what, err, err, arg)
		return
	}
	if ae.Arg != arg {
		t.Errorf("%s: ArgError names %q (%v), want %q", what, ae.Arg, err, arg)
	}
	if sentinel != nil && !errors.Is(err, sentinel) {
		t.Errorf("%s: error %v does not wrap %v", what, err, sentinel)
	}
}

// gatherInts returns every rank's x in rank order.
func gatherInts(t *testing.T, c *mpi.Comm, x int) []int {
	t.Helper()
	out := make([]int, c.Size())
	must(t, mpi.Allgather(c, []int{x}, out))
	return out
}

// allAgree returns whether ok holds on every rank of World.
func allAgree(t *testing.T, ok bool) bool {
	t.Helper()
	v, all := 0, []int{0}
	if ok {
		v = 1
	}
	must(t, mpi.Allreduce(mpi.World(), []int{v}, all, mpi.Min))
	return all[0] == 1
}

// ---- communicators ----

func TestComm(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		t.Run("RankSize", testCommRankSize)
		t.Run("Compare", testCommCompare)
		t.Run("Dup", testCommDup)
		t.Run("Split", testCommSplit)
		t.Run("SplitType", testCommSplitType)
		t.Run("Create", testCommCreate)
		t.Run("Free", testCommFree)
		t.Run("Handle", testCommHandle)
		t.Run("Environment", testCommEnvironment)
	})
}

func testCommRankSize(t *testing.T) {
	w := mpi.World()
	n, me := w.Size(), w.Rank()
	if n < 1 || me < 0 || me >= n {
		fatalf(t, "World rank %d of %d", me, n)
	}
	ranks := gatherInts(t, w, me)
	for r, got := range ranks {
		if got != r {
			t.Errorf("rank at index %d says %d", r, got)
		}
	}
	sizes := gatherInts(t, w, n)
	for r, got := range sizes {
		if got != n {
			t.Errorf("rank %d sees size %d, rank %d sees %d", r, got, me, n)
		}
	}
	s := mpi.Self()
	if s.Rank() != 0 || s.Size() != 1 {
		t.Errorf("Self: rank %d of %d, want 0 of 1", s.Rank(), s.Size())
	}
	if w.String() != "MPI_COMM_WORLD" || s.String() != "MPI_COMM_SELF" {
		t.Errorf("String: %q, %q", w.String(), s.String())
	}
	var nilc *mpi.Comm
	if nilc.Rank() != -1 || nilc.Size() != 0 || nilc.String() != "MPI_COMM_NULL" {
		t.Errorf("nil Comm: rank %d size %d %q", nilc.Rank(), nilc.Size(), nilc.String())
	}
	wantArgErr(t, "nil Comm Barrier", nilc.Barrier(), "comm", mpi.ErrNil)
	_, err := nilc.Dup()
	wantArgErr(t, "nil Comm Dup", err, "comm", mpi.ErrNil)
	g, err := w.Group()
	must(t, err)
	if g.Size() != n || g.Rank() != me {
		t.Errorf("World group: rank %d of %d, want %d of %d", g.Rank(), g.Size(), me, n)
	}
	must(t, g.Free())
}

func testCommCompare(t *testing.T) {
	w := mpi.World()
	n, me := w.Size(), w.Rank()
	c, err := w.Compare(w)
	must(t, err)
	if c != mpi.Ident {
		t.Errorf("World vs World: %v, want Ident", c)
	}
	c, err = mpi.Self().Compare(w)
	must(t, err)
	want := mpi.Unequal
	if n == 1 {
		want = mpi.Congruent
	}
	if c != want {
		t.Errorf("Self vs World on %d ranks: %v, want %v", n, c, want)
	}
	// The same processes in reverse order.
	rev, err := w.Split(0, -me)
	must(t, err)
	c, err = rev.Compare(w)
	must(t, err)
	want = mpi.Similar
	if n == 1 {
		want = mpi.Congruent
	}
	if c != want {
		t.Errorf("reversed World vs World: %v, want %v", c, want)
	}
	if rev.Rank() != n-1-me || rev.Size() != n {
		t.Errorf("reversed: rank %d of %d, want %d of %d", rev.Rank(), rev.Size(), n-1-me, n)
	}
	must(t, rev.Free())
	for _, k := range []mpi.Comparison{mpi.Ident, mpi.Congruent, mpi.Similar, mpi.Unequal} {
		if k.String() == "" {
			t.Errorf("Comparison %d has no name", int(k))
		}
	}
}

func testCommDup(t *testing.T) {
	w := mpi.World()
	n, me := w.Size(), w.Rank()
	d, err := w.Dup()
	must(t, err)
	if d.Rank() != me || d.Size() != n {
		t.Errorf("Dup: rank %d of %d, want %d of %d", d.Rank(), d.Size(), me, n)
	}
	if d == w || d.Handle() == w.Handle() {
		t.Errorf("Dup returned World's handle")
	}
	c, err := d.Compare(w)
	must(t, err)
	if c != mpi.Congruent {
		t.Errorf("Dup vs World: %v, want Congruent", c)
	}
	c, err = d.Compare(d)
	must(t, err)
	if c != mpi.Ident {
		t.Errorf("Dup vs itself: %v, want Ident", c)
	}
	// A dup of a dup is congruent to both.
	d2, err := d.Dup()
	must(t, err)
	c, err = d2.Compare(d)
	must(t, err)
	if c != mpi.Congruent {
		t.Errorf("Dup of Dup vs Dup: %v, want Congruent", c)
	}
	// The dup carries traffic of its own.
	got := []int{0}
	must(t, mpi.Allreduce(d, []int{me}, got, mpi.Sum))
	if got[0] != n*(n-1)/2 {
		t.Errorf("Allreduce on Dup: %d, want %d", got[0], n*(n-1)/2)
	}
	must(t, d2.Free())
	must(t, d.Free())
}

func testCommSplit(t *testing.T) {
	w := mpi.World()
	n, me := w.Size(), w.Rank()
	// color = rank%2, key = -rank: each half in reverse order.
	color := me % 2
	s, err := w.Split(color, -me)
	must(t, err)
	wantSize := (n - color + 1) / 2 // ranks r < n with r%2 == color
	wantRank := (n - 1 - me) / 2    // same-colour ranks above me come first
	if s.Size() != wantSize || s.Rank() != wantRank {
		t.Errorf("Split(%d, %d): rank %d of %d, want %d of %d", color, -me, s.Rank(), s.Size(), wantRank, wantSize)
	}
	// Gathering world ranks over the new communicator shows the order.
	members := gatherInts(t, s, me)
	for i, r := range members {
		if want := color + 2*(wantSize-1-i); r != want {
			t.Errorf("Split colour %d: member %d is world rank %d, want %d", color, i, r, want)
		}
	}
	g, err := s.Group()
	must(t, err)
	if g.Size() != wantSize || g.Rank() != wantRank {
		t.Errorf("Split group: rank %d of %d", g.Rank(), g.Size())
	}
	must(t, g.Free())
	must(t, s.Free())

	// Undefined: rank 0 opts out; the others keep their order.
	c := 0
	if me == 0 {
		c = mpi.Undefined
	}
	u, err := w.Split(c, me)
	must(t, err)
	if me == 0 {
		if u != nil {
			t.Errorf("Split(Undefined) gave %v, want nil", u)
		}
		wantArgErr(t, "Barrier on nil from Split", u.Barrier(), "comm", mpi.ErrNil)
	} else {
		if u == nil {
			fatalf(t, "Split: rank %d got nil", me)
		}
		if u.Size() != n-1 || u.Rank() != me-1 {
			t.Errorf("Split without rank 0: rank %d of %d, want %d of %d", u.Rank(), u.Size(), me-1, n-1)
		}
		must(t, u.Barrier())
		must(t, u.Free())
	}

	// Everyone opts out.
	none, err := w.Split(mpi.Undefined, 0)
	must(t, err)
	if none != nil {
		t.Errorf("Split(Undefined) on every rank gave %v", none)
	}

	// Bad colour: refused before any MPI call, on every rank alike.
	_, err = w.Split(-3, 0)
	wantArgErr(t, "Split(-3)", err, "color", nil)
	must(t, w.Barrier())
}

func testCommSplitType(t *testing.T) {
	w := mpi.World()
	n, me := w.Size(), w.Rank()
	// All ranks share this node.
	s, err := w.SplitType(mpi.SplitShared, me)
	must(t, err)
	if s.Size() != n || s.Rank() != me {
		t.Errorf("SplitType(Shared): rank %d of %d, want %d of %d", s.Rank(), s.Size(), me, n)
	}
	c, err := s.Compare(w)
	must(t, err)
	if c != mpi.Congruent {
		t.Errorf("SplitType(Shared) vs World: %v, want Congruent", c)
	}
	must(t, s.Free())
	// key = -rank reverses the order.
	r, err := w.SplitType(mpi.SplitShared, -me)
	must(t, err)
	if r.Size() != n || r.Rank() != n-1-me {
		t.Errorf("SplitType(Shared, -rank): rank %d of %d, want %d of %d", r.Rank(), r.Size(), n-1-me, n)
	}
	must(t, r.Free())
	u, err := w.SplitType(mpi.SplitKind(mpi.Undefined), 0)
	must(t, err)
	if u != nil {
		t.Errorf("SplitType(Undefined) gave %v, want nil", u)
	}
	_, err = w.SplitType(mpi.SplitKind(12345), 0)
	wantArgErr(t, "SplitType(12345)", err, "kind", nil)
}

func testCommCreate(t *testing.T) {
	w := mpi.World()
	n, me := w.Size(), w.Rank()
	wg, err := w.Group()
	must(t, err)
	// The even ranks.
	var evens []int
	for r := 0; r < n; r += 2 {
		evens = append(evens, r)
	}
	eg, err := wg.Incl(evens...)
	must(t, err)
	c, err := w.Create(eg)
	must(t, err)
	if me%2 == 1 {
		if c != nil {
			t.Errorf("Create: odd rank %d got %v, want nil", me, c)
		}
	} else {
		if c == nil {
			fatalf(t, "Create: even rank %d got nil", me)
		}
		if c.Size() != (n+1)/2 || c.Rank() != me/2 {
			t.Errorf("Create(evens): rank %d of %d, want %d of %d", c.Rank(), c.Size(), me/2, (n+1)/2)
		}
		sum := []int{0}
		must(t, mpi.Allreduce(c, []int{me}, sum, mpi.Sum))
		want := 0
		for _, r := range evens {
			want += r
		}
		if sum[0] != want {
			t.Errorf("Allreduce over evens: %d, want %d", sum[0], want)
		}
		must(t, c.Free())
	}
	// The ranks in reverse order, from a dup: Create keeps the group's order.
	rev := make([]int, n)
	for i := range rev {
		rev[i] = n - 1 - i
	}
	rg, err := wg.Incl(rev...)
	must(t, err)
	d, err := w.Dup()
	must(t, err)
	rc, err := d.Create(rg)
	must(t, err)
	if rc == nil || rc.Size() != n || rc.Rank() != n-1-me {
		t.Errorf("Create(reversed): %v, want rank %d of %d", rc, n-1-me, n)
	}
	if rc != nil {
		must(t, rc.Free())
	}
	must(t, d.Free())
	// A freed group is refused.
	must(t, rg.Free())
	_, err = w.Create(rg)
	wantArgErr(t, "Create(freed group)", err, "group", mpi.ErrFreed)
	_, err = w.Create(nil)
	wantArgErr(t, "Create(nil)", err, "group", mpi.ErrNil)
	must(t, eg.Free())
	must(t, wg.Free())
}

func testCommFree(t *testing.T) {
	w := mpi.World()
	n, me := w.Size(), w.Rank()
	d, err := w.Dup()
	must(t, err)
	must(t, d.Free())
	if d.Rank() != -1 || d.Size() != 0 {
		t.Errorf("freed Comm: rank %d size %d, want -1 and 0", d.Rank(), d.Size())
	}
	// Every use of the freed communicator is refused without MPI.
	_, e1 := d.Dup()
	_, e2 := d.Split(0, 0)
	_, e3 := d.SplitType(mpi.SplitShared, 0)
	_, e4 := d.Compare(w)
	_, e5 := w.Compare(d)
	_, e6 := d.Group()
	_, e7 := d.Create(nil)
	e8 := d.Barrier()
	e9 := d.Free()
	e10 := mpi.Allreduce(d, []int{1}, []int{0}, mpi.Sum)
	e11 := mpi.Bcast(d, []int{1}, 0)
	e12 := mpi.Send(d, []int{1}, 0, 0)
	_, e13 := mpi.WinAllocate(d, 8, 8)
	_, e14 := mpi.WinAllocateShared(d, 8, 8)
	e15 := d.Abort(3)
	for i, err := range []error{e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12, e13, e14, e15} {
		if !errors.Is(err, mpi.ErrFreed) {
			t.Errorf("use %d of a freed Comm: %v, want ErrFreed", i+1, err)
		}
		var ae *mpi.ArgError
		if !errors.As(err, &ae) {
			t.Errorf("use %d of a freed Comm: %T, want *mpi.ArgError", i+1, err)
		}
	}
	// World and Self cannot be freed, and still work after trying.
	wantArgErr(t, "World.Free", w.Free(), "comm", nil)
	wantArgErr(t, "Self.Free", mpi.Self().Free(), "comm", nil)
	must(t, w.Barrier())
	must(t, mpi.Self().Barrier())
	if w.Size() != n || w.Rank() != me {
		t.Errorf("World after refused Free: rank %d of %d", w.Rank(), w.Size())
	}
}

func testCommHandle(t *testing.T) {
	w := mpi.World()
	n, me := w.Size(), w.Rank()
	d, err := w.Dup()
	must(t, err)
	h := d.Handle()
	c, err := mpi.CommFromHandle(h)
	must(t, err)
	if c == nil || c.Handle() != h {
		fatalf(t, "CommFromHandle(%#x) = %v", h, c)
	}
	if c.Rank() != me || c.Size() != n {
		t.Errorf("CommFromHandle: rank %d of %d, want %d of %d", c.Rank(), c.Size(), me, n)
	}
	k, err := c.Compare(d)
	must(t, err)
	if k != mpi.Ident {
		t.Errorf("CommFromHandle vs original: %v, want Ident", k)
	}
	// The wrapped handle carries traffic.
	must(t, c.Barrier())
	// Predefined handles come back as the predefined Comms.
	if c, err := mpi.CommFromHandle(w.Handle()); err != nil || c != w {
		t.Errorf("CommFromHandle(World) = %v, %v", c, err)
	}
	if c, err := mpi.CommFromHandle(mpi.Self().Handle()); err != nil || c != mpi.Self() {
		t.Errorf("CommFromHandle(Self) = %v, %v", c, err)
	}
	var nilc *mpi.Comm
	if c, err := mpi.CommFromHandle(nilc.Handle()); err != nil || c != nil {
		t.Errorf("CommFromHandle(COMM_NULL) = %v, %v", c, err)
	}
	_, err = mpi.CommFromHandle(0)
	wantArgErr(t, "CommFromHandle(0)", err, "h", nil)

	// Fortran handles.
	f := d.Fortran()
	if f == w.Fortran() {
		t.Errorf("Dup and World share Fortran handle %d", f)
	}
	cf, err := mpi.CommFromFortran(f)
	must(t, err)
	if cf == nil {
		fatalf(t, "CommFromFortran(%d) = nil", f)
	}
	k, err = cf.Compare(d)
	must(t, err)
	if k != mpi.Ident {
		t.Errorf("CommFromFortran vs original: %v, want Ident", k)
	}
	if cf.Fortran() != f || cf.Handle() != h {
		t.Errorf("CommFromFortran round trip: Fortran %d Handle %#x, want %d %#x", cf.Fortran(), cf.Handle(), f, h)
	}
	if c, err := mpi.CommFromFortran(w.Fortran()); err != nil || c != w {
		t.Errorf("CommFromFortran(World) = %v, %v", c, err)
	}
	must(t, d.Free())
}

func testCommEnvironment(t *testing.T) {
	w := mpi.World()
	me := w.Rank()
	if !mpi.Initialized() || mpi.Finalized() {
		t.Errorf("Initialized %v, Finalized %v", mpi.Initialized(), mpi.Finalized())
	}
	if p := mpi.Provided(); p < mpi.ThreadSingle || p > mpi.ThreadMultiple || p.String() == "MPI_THREAD_?" {
		t.Errorf("Provided: %v", p)
	}
	// Init again is harmless and reports the same level.
	if p, err := mpi.Init(); err != nil || p != mpi.Provided() {
		t.Errorf("second Init: %v, %v", p, err)
	}
	name, err := mpi.ProcessorName()
	must(t, err)
	if name == "" {
		t.Errorf("ProcessorName is empty")
	}
	// One node: every rank reports the same name.
	lens := gatherInts(t, w, len(name))
	for r, l := range lens {
		if l != len(name) {
			t.Errorf("rank %d's processor name has %d bytes, rank %d's %q has %d", r, l, me, name, len(name))
		}
	}
	t0 := mpi.Wtime()
	time.Sleep(20 * time.Millisecond)
	t1 := mpi.Wtime()
	if d := t1 - t0; d < 0.015 || d > 5 {
		t.Errorf("Wtime advanced %g s over a 20 ms sleep", d)
	}
	if tick := mpi.Wtick(); tick <= 0 || tick > 0.01 {
		t.Errorf("Wtick = %g", tick)
	}
}
