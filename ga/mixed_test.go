package ga_test

import (
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/ctest"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestMixedMPI checks programs that mix GA with their own MPI code, in Go and
// in C: on GA's communicator between GA calls, and with GA running on a
// sub-communicator while the other ranks do MPI work of their own.
func TestMixedMPI(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		t.Run("BetweenCalls", testBetweenCalls)
		t.Run("SubComm", testSubComm)
	})
}

// testBetweenCalls interleaves GA operations with C and Go collectives on
// ga.Comm() and on the world.
func testBetweenCalls(t *testing.T) {
	must(t, ga.Init())
	defer endGA(t)
	me, n := ga.Nodeid(), ga.Nnodes()
	c := ga.Comm()
	if c.Rank() != me || c.Size() != n {
		fatalf(t, "ga.Comm() is rank %d of %d; GA says %d of %d", c.Rank(), c.Size(), me, n)
	}
	if r, err := ctest.CommRank(c.Handle()); err != nil || r != me {
		fatalf(t, "C sees rank %d (%v) on ga.Comm(), GA says %d", r, err, me)
	}
	a, err := ga.Create[int64]("mixed", []int{3*n + 1, 2}, nil)
	must(t, err)
	defer destroy(t, a)
	must(t, a.Zero())
	// Accumulates go to rows 0..3n-1; row 3n holds a ticket counter (read_inc
	// and acc are atomic among themselves, not with each other).
	lo, hi := []int{0, 0}, []int{3*n - 1, 1}
	ones := make([]int64, volume(lo, hi))
	for i := range ones {
		ones[i] = 1
	}
	for i := range int64(3) {
		// GA: a ticket and an accumulate...
		tk, err := a.ReadInc([]int{3 * n, 1}, 1)
		must(t, err)
		must(t, a.Acc(lo, hi, ones, nil, int64(me+1)))
		// ...C on GA's communicator...
		s, err := ctest.AllreduceSum(c.Handle(), int64(me)+i)
		must(t, err)
		if want := int64(n*(n-1)/2) + int64(n)*i; s != want {
			t.Errorf("C Allreduce on ga.Comm() = %d, want %d", s, want)
		}
		// ...Go MPI on it and on the world...
		tks := make([]int64, n)
		must(t, mpi.Allgather(c, []int64{tk}, tks))
		slices.Sort(tks)
		for k, v := range tks {
			if v != int64(n)*i+int64(k) {
				t.Errorf("round %d: tickets %v, want %d..%d", i, tks, int64(n)*i, int64(n)*(i+1)-1)
				break
			}
		}
		w, err := ctest.AllreduceSum(mpi.World().Handle(), 1)
		must(t, err)
		if w != int64(mpi.World().Size()) {
			t.Errorf("C Allreduce on the world = %d, want %d", w, mpi.World().Size())
		}
		// ...and GA again, which sees everything done before its Sync.
		must(t, ga.Sync())
		got := getAll(t, a)
		per := (i + 1) * int64(n*(n+1)/2)
		for k, v := range got {
			want := per
			switch k {
			case len(got) - 2:
				want = 0
			case len(got) - 1:
				want = (i + 1) * int64(n)
			}
			if v != want {
				t.Errorf("round %d: element %d = %d, want %d", i, k, v, want)
				break
			}
		}
		must(t, ga.Sync())
	}
}

// testSubComm runs GA on the first half of the world (in reverse order, so
// that GA ranks are not world ranks) while the other half does MPI work of
// its own; then everyone meets in a world barrier, and GA starts again on the
// whole world.
func testSubComm(t *testing.T) {
	w := mpi.World()
	wn := w.Size()
	g := (wn + 1) / 2
	color := 0
	if w.Rank() >= g {
		color = 1
	}
	sub, err := w.Split(color, -w.Rank())
	must(t, err)
	if color == 0 {
		must(t, ga.InitComm(sub))
		me, n := ga.Nodeid(), ga.Nnodes()
		if n != g || me != g-1-w.Rank() || me != sub.Rank() {
			t.Errorf("GA on the sub-communicator: rank %d of %d; world rank %d, want %d of %d", me, n, w.Rank(), g-1-w.Rank(), g)
		}
		if cmp, err := ga.Comm().Compare(sub); err != nil || (cmp != mpi.Ident && cmp != mpi.Congruent) {
			t.Errorf("ga.Comm() compares %v (%v) with the sub-communicator", cmp, err)
		}
		a, err := ga.Create[float64]("sub", []int{5*n + 2, 3}, nil)
		must(t, err)
		must(t, a.Zero())
		// Tickets among the GA ranks only.
		cnt, err := ga.Create[int32]("sub counter", []int{1}, nil)
		must(t, err)
		must(t, cnt.Zero())
		const tasks = 30
		var mine []int
		for {
			k, err := cnt.ReadInc([]int{0}, 1)
			must(t, err)
			if k >= tasks {
				break
			}
			mine = append(mine, int(k))
			// Each task adds its number to row k mod rows.
			row := int(k) % (5*n + 2)
			must(t, a.Acc([]int{row, 0}, []int{row, 2}, []float64{float64(k), 1, -float64(k)}, nil, 1))
		}
		all := allgather(t, mine)
		slices.Sort(all)
		want := make([]int, tasks)
		for i := range want {
			want[i] = i
		}
		sameElems(t, "tickets on the sub-communicator", all, want)
		must(t, ga.Sync())
		ref := make([]float64, (5*n+2)*3)
		for k := range tasks {
			row := k % (5*n + 2)
			ref[3*row] += float64(k)
			ref[3*row+1]++
			ref[3*row+2] -= float64(k)
		}
		sameElems(t, "accumulates on the sub-communicator", getAll(t, a), ref)
		ones, err := a.Duplicate("sub ones")
		must(t, err)
		must(t, ones.Fill(1))
		d, err := ga.Dot(a, ones)
		must(t, err)
		if want := float64(tasks); d != want {
			t.Errorf("Dot on the sub-communicator = %v, want %v", d, want)
		}
		x := []int64{int64(me + 1)}
		must(t, ga.Gop(x, ga.OpProd))
		fact := int64(1)
		for i := 2; i <= n; i++ {
			fact *= int64(i)
		}
		if x[0] != fact {
			t.Errorf("Gop * over %d GA ranks = %d, want %d", n, x[0], fact)
		}
		must(t, ga.Terminate())
		if !mpi.Initialized() || mpi.Finalized() {
			fatalf(t, "Terminate of GA on a sub-communicator finalized MPI")
		}
	} else {
		// The other ranks: collectives of their own, in Go and in C.
		for i := range 20 {
			s := []int{0}
			must(t, mpi.Allreduce(sub, []int{w.Rank() * i}, s, mpi.Sum))
			want := 0
			for r := g; r < wn; r++ {
				want += r * i
			}
			if s[0] != want {
				t.Errorf("Allreduce among the non-GA ranks = %d, want %d", s[0], want)
			}
			cs, err := ctest.AllreduceSum(sub.Handle(), 1)
			must(t, err)
			if cs != int64(wn-g) {
				t.Errorf("C Allreduce among the non-GA ranks = %d, want %d", cs, wn-g)
			}
		}
		if ga.Initialized() || ga.Nodeid() != -1 {
			t.Errorf("GA reports itself running on a rank outside its communicator")
		}
	}
	must(t, w.Barrier())
	must(t, sub.Free())

	// GA again, on the whole world.
	must(t, ga.Init())
	if ga.Nnodes() != wn || ga.Nodeid() != w.Rank() {
		t.Errorf("GA after a sub-communicator run: rank %d of %d, want %d of %d", ga.Nodeid(), ga.Nnodes(), w.Rank(), wn)
	}
	b, err := ga.Create[int64]("world again", []int{wn + 2}, nil)
	must(t, err)
	must(t, b.Fill(int64(wn)))
	d, err := ga.Dot(b, b)
	must(t, err)
	if want := int64((wn + 2) * wn * wn); d != want {
		t.Errorf("Dot on the world after the sub-communicator run = %d, want %d", d, want)
	}
	must(t, ga.Terminate())
}
