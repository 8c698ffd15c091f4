package ga_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestPgroup covers processor groups on 1-4 processes: a group of the even
// ranks, its inquiries, collectives and communicator, arrays on it, copies
// to and from the world, the default group, and misuse.
func TestPgroup(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		testPgroupBasics(t)
		testPgroupArrays(t)
		testPgroupDefault(t)
		testPgroupMisuse(t)
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP), mpitest.ManyNodes())
}

// evens makes the group of the even world ranks, listed backwards: ranks
// in the group follow world ranks whatever the list's order.
func evens(t *testing.T) (*ga.Pgroup, bool) {
	var list []int
	for r := ga.Nnodes() - 1; r >= 0; r-- {
		if r%2 == 0 {
			list = append(list, r)
		}
	}
	p, err := ga.PgroupCreate(list)
	must(t, err)
	return p, ga.Nodeid()%2 == 0
}

func testPgroupBasics(t *testing.T) {
	me, n := ga.Nodeid(), ga.Nnodes()
	w := ga.PgroupGetWorld()
	if w.Nnodes() != n || w.Nodeid() != me || ga.PgroupGetDefault() != w {
		t.Errorf("world group: %d processes, rank %d, default %v; want %d, %d, the world", w.Nnodes(), w.Nodeid(), ga.PgroupGetDefault() == w, n, me)
	}
	p, in := evens(t)
	defer mpitest.Cleanup(t, p.Destroy)
	size := (n + 1) / 2
	wantRank := -1
	if in {
		wantRank = me / 2
	}
	if p.Nnodes() != size || p.Nodeid() != wantRank {
		t.Errorf("group of evens: %d processes, rank %d; want %d, %d", p.Nnodes(), p.Nodeid(), size, wantRank)
	}
	if !in {
		if p.Comm() != nil {
			t.Errorf("a process outside the group has its communicator")
		}
		wantErr(t, "Sync outside the group", p.Sync(), "PgroupSync", "", ga.ErrNotMember)
		return
	}
	c := p.Comm()
	if c == nil || c.Size() != size || c.Rank() != me/2 {
		mpitest.Fatalf(t, "group communicator %v", c)
	}
	must(t, p.Sync())
	// The group's communicator serves MPI code of its own.
	sum := []int{0}
	must(t, mpi.Allreduce(c, []int{me}, sum, mpi.Sum))
	if want := size * (size - 1); sum[0] != want {
		t.Errorf("Allreduce over the group's communicator: %d, want %d", sum[0], want)
	}
	root := size - 1
	buf := []float64{0, 0}
	if p.Nodeid() == root {
		buf = []float64{1.5, float64(me)}
	}
	must(t, ga.PgroupBrdcst(p, buf, root))
	if buf[0] != 1.5 || buf[1] != float64(2*root) {
		t.Errorf("PgroupBrdcst from group rank %d: %v", root, buf)
	}
	// Every operation, on the group's ranks r = me/2: values r+1 and -(r+1).
	r := me / 2
	for _, c := range []struct {
		op   ga.Op
		want []int64
	}{
		{ga.OpSum, []int64{int64(size * (size + 1) / 2), -int64(size * (size + 1) / 2)}},
		{ga.OpProd, []int64{fact(size), fact(size) * sign(size)}},
		{ga.OpMax, []int64{int64(size), -1}},
		{ga.OpMin, []int64{1, -int64(size)}},
		{ga.OpAbsMax, []int64{int64(size), int64(size)}},
		{ga.OpAbsMin, []int64{1, 1}},
	} {
		x := []int64{int64(r + 1), -int64(r + 1)}
		must(t, ga.PgroupGop(p, x, c.op))
		sameElems(t, "PgroupGop "+string(c.op), x, c.want)
		f := []float64{float64(r + 1), -float64(r + 1)}
		must(t, ga.PgroupGop(p, f, c.op))
		sameElems(t, "PgroupGop float64 "+string(c.op), f, []float64{float64(c.want[0]), float64(c.want[1])})
	}
	bits := []int32{1 << r}
	must(t, ga.PgroupGop(p, bits, ga.OpOr))
	if bits[0] != 1<<size-1 {
		t.Errorf("PgroupGop or: %b, want %b", bits[0], 1<<size-1)
	}
	z := []complex128{complex(1, float64(r))}
	must(t, ga.PgroupGop(p, z, ga.OpSum))
	if z[0] != complex(float64(size), float64(size*(size-1)/2)) {
		t.Errorf("PgroupGop complex +: %v", z[0])
	}
}

func fact(n int) int64 {
	f := int64(1)
	for i := 2; i <= n; i++ {
		f *= int64(i)
	}
	return f
}

func sign(n int) int64 {
	if n%2 == 1 {
		return -1
	}
	return 1
}

func testPgroupArrays(t *testing.T) {
	n := ga.Nnodes()
	dims := []int{6, 5}
	ref := pattern(dims, func(i int) float64 { return float64(i) + 0.25 })
	w, err := ga.Create[float64]("w", dims, nil)
	must(t, err)
	defer destroy(t, w)
	w2, err := ga.Create[float64]("w2", []int{5, 6}, nil)
	must(t, err)
	defer destroy(t, w2)
	putAll(t, w, ref)
	must(t, w2.Zero())
	p, in := evens(t)
	defer mpitest.Cleanup(t, p.Destroy)
	if in {
		a, err := ga.New[float64](dims...).Name("a").Pgroup(p).Allocate()
		must(t, err)
		b, err := ga.CreateConfig[float64]("b", dims, []int{1, 5}, p)
		must(t, err)
		if a.Pgroup() != p || w.Pgroup() != ga.PgroupGetWorld() {
			t.Errorf("arrays' groups are not the group they were made on")
		}
		// The blocks go to the group's processes only.
		for r := range n {
			if _, _, ok := a.Distribution(r); ok != (r < p.Nnodes()) {
				t.Errorf("group rank %d owns a block: %v", r, ok)
			}
		}
		// World to group: the group's processes get their parts.
		must(t, ga.Copy(w, a))
		sameElems(t, "world array copied into the group's", getAll(t, a), ref)
		if ga.CompareDistr(a, w) {
			t.Errorf("CompareDistr: arrays of different groups have the same distribution")
		}
		must(t, b.Fill(2))
		d, err := ga.Dot(a, b)
		must(t, err)
		want := 0.0
		for _, v := range ref {
			want += 2 * v
		}
		if d != want {
			t.Errorf("Dot on the group: %v, want %v", d, want)
		}
		// Group to world: the group's processes put their parts, one patch
		// of b transposed into w2.
		must(t, b.Scale(3))
		must(t, ga.Copy(b, w))
		must(t, ga.CopyPatch(ga.Trans, a, []int{1, 0}, []int{5, 4}, w2, []int{0, 1}, []int{4, 5}))
		// An operation other than a copy refuses arrays of other groups.
		wantErr(t, "Add across groups", ga.Add(1, w, 1, a, a), "Add", "a", nil, "only Copy and CopyPatch")
		// One-sided operations reach the group's array from any of its
		// processes.
		if p.Nodeid() == p.Nnodes()-1 {
			must(t, a.Put([]int{0, 0}, []int{0, 1}, []float64{-1, -2}, nil))
		}
		must(t, p.Sync())
		got := make([]float64, 2)
		must(t, a.Get([]int{0, 0}, []int{0, 1}, got, nil))
		sameElems(t, "Put by the last group process", got, []float64{-1, -2})
		must(t, a.Destroy())
		must(t, b.Destroy())
		testPgroupGhosts(t, p)
		testPgroupGemm(t, p)
	}
	must(t, ga.Sync())
	sameElems(t, "group array copied into the world's", getAll(t, w), pattern(dims, func(int) float64 { return 6 }))
	// w2 (5 x 6) rows 0-4, columns 1-5 hold a's rows 1-5, columns 0-4,
	// transposed.
	want := make([]float64, 30)
	for i := range 5 {
		for j := 1; j < 6; j++ {
			want[i*6+j] = ref[j*5+i]
		}
	}
	sameElems(t, "transposed CopyPatch into the world's array", getAll(t, w2), want)
}

// testPgroupGhosts fills the halos of a ghosted array on p, made by the
// config creates, and checks them against the array, wrapped around.
func testPgroupGhosts(t *testing.T, p *ga.Pgroup) {
	dims := []int{5, 6}
	ref := pattern(dims, func(i int) int32 { return int32(i) })
	// A block for every process, up to 2 x 2.
	starts := [][]int{{0}, {0}}
	if p.Nnodes() > 1 {
		starts = [][]int{{0, 3}, {0}}
	}
	if p.Nnodes() > 3 {
		starts[1] = []int{0, 3}
	}
	a, err := ga.CreateGhostsConfig[int32]("ghosts", dims, []int{1, 2}, nil, p)
	must(t, err)
	b, err := ga.CreateGhostsIrregConfig[int32]("ghosts irreg", dims, []int{2, 1}, starts, p)
	must(t, err)
	for _, x := range []*ga.Array[int32]{a, b} {
		if p.Nodeid() == 0 {
			lo, hi := fullPatch(dims)
			must(t, x.Put(lo, hi, ref, nil))
		}
		must(t, p.Sync())
		must(t, x.UpdateGhosts())
		data, lo, hi, ld, err := x.AccessGhosts()
		if _, owns := x.GhostDims(); !owns {
			// More processes than blocks: this one has none to access.
			wantErr(t, x.Name()+": AccessGhosts on a process without a block", err, "AccessGhosts", x.Name(), nil, "owns no block")
		} else {
			must(t, err)
			wrap := func(i, n int) int { return ((i % n) + n) % n }
			for i := lo[0]; i <= hi[0]; i++ {
				for j := lo[1]; j <= hi[1]; j++ {
					got, want := data[(i-lo[0])*ld[0]+j-lo[1]], ref[wrap(i, 5)*6+wrap(j, 6)]
					if got != want {
						t.Errorf("%s on the group: element (%d, %d) with its halo is %d, want %d", x.Name(), i, j, got, want)
					}
				}
			}
		}
		must(t, x.ReleaseGhosts())
		must(t, x.Destroy())
	}
}

// testPgroupGemm multiplies matrices on p, whose ScaLAPACK grid is p's.
func testPgroupGemm(t *testing.T, p *ga.Pgroup) {
	a, err := ga.CreateConfig[float64]("A", []int{4, 3}, nil, p)
	must(t, err)
	b, err := ga.CreateConfig[float64]("B", []int{3, 5}, nil, p)
	must(t, err)
	c, err := ga.CreateConfig[float64]("C", []int{4, 5}, nil, p)
	must(t, err)
	av := pattern([]int{4, 3}, func(i int) float64 { return float64(i%5) - 1 })
	bv := pattern([]int{3, 5}, func(i int) float64 { return float64(i%4) + 0.5 })
	if p.Nodeid() == 0 {
		must(t, a.Put([]int{0, 0}, []int{3, 2}, av, nil))
		must(t, b.Put([]int{0, 0}, []int{2, 4}, bv, nil))
	}
	must(t, c.Zero())
	must(t, ga.Gemm('n', 'n', 4, 5, 3, 1.0, a, b, 0.0, c))
	want := make([]float64, 20)
	for i := range 4 {
		for j := range 5 {
			for k := range 3 {
				want[i*5+j] += av[i*3+k] * bv[k*5+j]
			}
		}
	}
	sameElems(t, "Gemm on the group", getAll(t, c), want)
	for _, x := range []*ga.Array[float64]{a, b, c} {
		must(t, x.Destroy())
	}
}

// testPgroupDefault runs code written for the default group on a group:
// the even ranks make it their default, the odd ones their own group's.
func testPgroupDefault(t *testing.T) {
	me := ga.Nodeid()
	world := ga.PgroupGetWorld()
	p, in := evens(t)
	var odd []int
	for r := 1; r < ga.Nnodes(); r += 2 {
		odd = append(odd, r)
	}
	var q *ga.Pgroup
	if len(odd) > 0 {
		var err error
		q, err = ga.PgroupCreate(odd)
		must(t, err)
	}
	mine := q
	if in {
		mine = p
	}
	must(t, mine.SetDefault())
	if ga.PgroupGetDefault() != mine || ga.Nodeid() != me/2 || ga.Nnodes() != mine.Nnodes() {
		t.Errorf("default group: rank %d of %d, want %d of %d", ga.Nodeid(), ga.Nnodes(), me/2, mine.Nnodes())
	}
	a, err := ga.Create[int64]("on default", []int{10}, nil)
	must(t, err)
	if a.Pgroup() != mine {
		t.Errorf("Create did not make the array on the default group")
	}
	must(t, a.Fill(int64(me%2+1)))
	s := []int64{0}
	if ga.Nodeid() == 0 {
		all := make([]int64, 10)
		must(t, a.Get([]int{0}, []int{9}, all, nil))
		for _, v := range all {
			s[0] += v
		}
	}
	must(t, ga.Brdcst(s, 0))
	if s[0] != int64(10*(me%2+1)) {
		t.Errorf("sum over the default group's array: %d", s[0])
	}
	// The mutexes and the atomics are the default group's too: a counter
	// under a lock and one read-incremented, by each of its processes.
	must(t, ga.CreateMutexes(1))
	must(t, a.Zero())
	must(t, ga.Lock(0))
	v := []int64{0}
	must(t, a.Get([]int{1}, []int{1}, v, nil))
	v[0]++
	must(t, a.Put([]int{1}, []int{1}, v, nil))
	must(t, ga.Unlock(0))
	_, err = a.ReadInc([]int{2}, 1)
	must(t, err)
	must(t, ga.Sync())
	got := make([]int64, 2)
	must(t, a.Get([]int{1}, []int{2}, got, nil))
	sameElems(t, "counters of the default group's processes", got, []int64{int64(ga.Nnodes()), int64(ga.Nnodes())})
	must(t, ga.DestroyMutexes())
	must(t, a.Destroy())
	wantErr(t, "destroying the default group", mine.Destroy(), "PgroupDestroy", "", nil, "default")
	// Back to the world, without the other group.
	must(t, world.SetDefault())
	if ga.Nodeid() != me {
		t.Errorf("back in the world group: rank %d, want %d", ga.Nodeid(), me)
	}
	must(t, p.Destroy())
	if q != nil {
		must(t, q.Destroy())
	}
}

func testPgroupMisuse(t *testing.T) {
	n := ga.Nnodes()
	for _, c := range []struct {
		list []int
		msg  string
	}{
		{nil, "no ranks"},
		{[]int{0, 0}, "twice"},
		{[]int{0, n}, "out of range"},
		{[]int{-1}, "out of range"},
	} {
		p, err := ga.PgroupCreate(c.list)
		wantErr(t, "PgroupCreate", err, "PgroupCreate", "", nil, c.msg)
		if p != nil {
			t.Errorf("PgroupCreate(%v) made a group", c.list)
		}
	}
	// One process's bad list is an error on every process.
	list := []int{0}
	if ga.Nodeid() == n-1 {
		list = []int{0, 0}
	}
	_, err := ga.PgroupCreate(list)
	if err == nil {
		t.Errorf("PgroupCreate with a bad list on process %d: no error", n-1)
	}
	if ga.Nodeid() != n-1 && n > 1 && !errors.Is(err, ga.ErrPeer) {
		t.Errorf("PgroupCreate refused by another process: %v, want ErrPeer", err)
	}
	wantErr(t, "destroying the world", ga.PgroupGetWorld().Destroy(), "PgroupDestroy", "", nil, "Terminate")
	// A group with a live array is not destroyed; a destroyed one refuses.
	// Every process that holds the handle takes part in Destroy, members
	// or not, so a refusal by a member is an error outside the group too.
	p, err := ga.PgroupCreate([]int{0})
	must(t, err)
	var live *ga.Array[float32]
	if ga.Nodeid() == 0 {
		live, err = ga.CreateConfig[float32]("live", []int{3}, nil, p)
		must(t, err)
	} else {
		_, err := ga.CreateConfig[float32]("outside", []int{3}, nil, p)
		wantErr(t, "an array made outside its group", err, "CreateConfig", "", ga.ErrNotMember)
	}
	err = p.Destroy()
	wantErr(t, "destroying a group with an array", err, "PgroupDestroy", "", nil, "1 arrays")
	if ga.Nodeid() != 0 && !errors.Is(err, ga.ErrPeer) {
		t.Errorf("destroying a group with an array, outside it: %v, want ErrPeer", err)
	}
	if live != nil {
		must(t, live.Fill(1))
		must(t, live.Destroy())
	}
	must(t, p.Destroy())
	wantErr(t, "Destroy twice", p.Destroy(), "PgroupDestroy", "", ga.ErrGroupDestroyed)
	wantErr(t, "Sync on a destroyed group", p.Sync(), "PgroupSync", "", ga.ErrGroupDestroyed)
	wantErr(t, "SetDefault to a destroyed group", p.SetDefault(), "PgroupSetDefault", "", ga.ErrGroupDestroyed)
	_, err = ga.CreateConfig[float32]("late", []int{3}, nil, p)
	wantErr(t, "array on a destroyed group", err, "CreateConfig", "", ga.ErrGroupDestroyed)
	if p.Nodeid() != -1 || p.Comm() != nil {
		t.Errorf("a destroyed group still has rank %d and communicator %v", p.Nodeid(), p.Comm())
	}
	must(t, ga.Sync())
	if n < 3 {
		return
	}
	// Overlapping groups, neither inside the other: a copy between them is
	// refused on the one process that holds both, without communicating.
	me := ga.Nodeid()
	x, err := ga.PgroupCreate([]int{0, 1})
	must(t, err)
	y, err := ga.PgroupCreate([]int{1, 2})
	must(t, err)
	var a, b *ga.Array[int32]
	if me <= 1 {
		a, err = ga.CreateConfig[int32]("a", []int{4}, nil, x)
		must(t, err)
		must(t, a.Fill(7))
	}
	if me == 1 || me == 2 {
		b, err = ga.CreateConfig[int32]("b", []int{4}, nil, y)
		must(t, err)
		must(t, b.Fill(3))
	}
	if me == 1 {
		wantErr(t, "Copy between unrelated groups", ga.Copy(a, b), "Copy", "b", nil, "does not contain")
		wantErr(t, "CopyPatch between unrelated groups", ga.CopyPatch(ga.NoTrans, b, []int{0}, []int{1}, a, []int{2}, []int{3}), "CopyPatch", "a", nil, "does not contain")
	}
	if b != nil {
		sameElems(t, "b after the refused copy", getAll(t, b), []int32{3, 3, 3, 3})
		must(t, b.Destroy())
	}
	if a != nil {
		sameElems(t, "a after the refused copy", getAll(t, a), []int32{7, 7, 7, 7})
		must(t, a.Destroy())
	}
	must(t, x.Destroy())
	must(t, y.Destroy())
	if !slices.Equal([]int{ga.Nodeid(), ga.Nnodes()}, []int{me, n}) {
		t.Errorf("the default group changed")
	}
}

// TestPgroup9 is the manual's chapter 10 on 9 processes: the world split
// into non-overlapping default groups, each running GA code of its own with
// its own process 0; nested groups, and copies between their arrays; and
// two groups working at once, one while the other sleeps or does MPI work
// of its own.
func TestPgroup9(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		testPgroupCover(t)
		testPgroupNested(t)
		testPgroupConcurrent(t)
	}, mpitest.Ranks(9), mpitest.Transports(mpitest.SharedMemory, mpitest.TCP), mpitest.ManyNodes(mpitest.Placement{3, 2, 2, 2}))
}

// testPgroupCover splits the world into groups of 4, 3 and 2 processes that
// cover it (the figure of the GA user manual's section 10.1), makes each the default of its processes, and
// runs the same code in each.
func testPgroupCover(t *testing.T) {
	me := ga.Nodeid()
	world := ga.PgroupGetWorld()
	color := 0
	switch {
	case me >= 7:
		color = 2
	case me >= 4:
		color = 1
	}
	sizes := []int{4, 3, 2}
	p, err := world.SplitIrreg(color)
	must(t, err)
	if p.Nnodes() != sizes[color] {
		t.Errorf("SplitIrreg color %d: %d processes, want %d", color, p.Nnodes(), sizes[color])
	}
	must(t, p.SetDefault())
	// The same code on each group: its own array, its own process 0.
	n := ga.Nnodes()
	a, err := ga.Create[float64]("cover", []int{n, 3}, nil)
	must(t, err)
	must(t, a.Fill(float64(color+1)))
	sum := []float64{0}
	if lo, hi, ok := a.Distribution(ga.Nodeid()); ok {
		sum[0] = float64(volume(lo, hi)) * float64(color+1)
	}
	must(t, ga.Gop(sum, ga.OpSum))
	if sum[0] != float64(3*n*(color+1)) {
		t.Errorf("group %d: sum %v, want %v", color, sum[0], 3*n*(color+1))
	}
	must(t, a.Destroy())
	zero := []int{0}
	if ga.Nodeid() == 0 {
		zero[0] = 1
	}
	must(t, world.SetDefault())
	must(t, mpi.Allreduce(ga.Comm(), nil, zero, mpi.Sum))
	if zero[0] != 3 {
		t.Errorf("%d processes are process 0 of their default group, want 3", zero[0])
	}
	must(t, p.Destroy())
	// Split into 4 groups: ceil(9/4) = 3 processes each, so 3 groups.
	q, err := world.Split(4)
	must(t, err)
	if q.Nnodes() != 3 || q.Nodeid() != me%3 {
		t.Errorf("Split(4): rank %d of %d, want %d of 3", q.Nodeid(), q.Nnodes(), me%3)
	}
	x := []int32{int32(me)}
	must(t, ga.PgroupGop(q, x, ga.OpSum))
	if b := me / 3 * 3; x[0] != int32(3*b+3) {
		t.Errorf("Split(4): group sum %d, want %d", x[0], 3*b+3)
	}
	// Left to Terminate, with an array on it.
	left, err := ga.CreateConfig[int64]("left to Terminate", []int{5}, nil, q)
	must(t, err)
	must(t, left.Fill(1))
	same, err := world.Split(0)
	must(t, err)
	if same != world {
		t.Errorf("Split(0) is not the group itself")
	}
}

// testPgroupNested makes groups inside groups: processes 0-5, and in it
// processes 1, 3 and 5 (group ranks), made with it as the default; copies
// between arrays of the three levels, driven by the smaller group.
func testPgroupNested(t *testing.T) {
	me := ga.Nodeid()
	world := ga.PgroupGetWorld()
	dims := []int{7, 4}
	ref := pattern(dims, func(i int) int64 { return int64(3*i - 20) })
	twice := pattern(dims, func(i int) int64 { return 2 * int64(3*i-20) })
	w, err := ga.Create[int64]("w", dims, nil)
	must(t, err)
	defer destroy(t, w)
	putAll(t, w, ref)
	outer, err := ga.PgroupCreate([]int{5, 4, 3, 2, 1, 0})
	must(t, err)
	if me < 6 {
		must(t, outer.SetDefault())
		inner, err := ga.PgroupCreate([]int{1, 3, 5})
		must(t, err)
		o, err := ga.Create[int64]("o", []int{4, 7}, nil)
		must(t, err)
		must(t, o.Zero())
		if me%2 == 1 {
			if inner.Nodeid() != me/2 || inner.Nnodes() != 3 {
				t.Errorf("inner group: rank %d of %d", inner.Nodeid(), inner.Nnodes())
			}
			in, err := ga.CreateIrregConfig[int64]("in", dims, [][]int{{0, 2, 5}, {0}}, inner)
			must(t, err)
			// World to inner; inner to outer, 7 x 4 into 4 x 7.
			must(t, ga.Copy(w, in))
			sameElems(t, "world copied into the inner group", getAll(t, in), ref)
			must(t, in.Scale(2))
			must(t, ga.Copy(in, o))
			must(t, in.Destroy())
		}
		must(t, ga.Sync())
		sameElems(t, "inner copied into the outer group", getAll(t, o), twice)
		// Outer into the world, by the outer group's processes, in the
		// world's shape again.
		must(t, ga.Copy(o, w))
		must(t, o.Destroy())
		must(t, inner.Destroy())
		must(t, world.SetDefault())
	}
	must(t, ga.Sync())
	sameElems(t, "outer copied into the world", getAll(t, w), twice)
	must(t, outer.Destroy())
}

// testPgroupConcurrent runs two disjoint groups at once: processes 0-3 do
// MPI work of their own on their group's communicator, then sleep, while
// processes 4-8 run a series of collectives on their array. The second
// group must be done before the first wakes.
func testPgroupConcurrent(t *testing.T) {
	const sleep = 3 * time.Second
	me := ga.Nodeid()
	color := 0
	if me >= 4 {
		color = 1
	}
	p, err := ga.PgroupGetWorld().SplitIrreg(color)
	must(t, err)
	var a *ga.Array[float64]
	if color == 1 {
		a, err = ga.CreateConfig[float64]("busy", []int{50, 50}, nil, p)
		must(t, err)
	}
	must(t, ga.Sync())
	start := time.Now()
	var took time.Duration
	if color == 0 {
		x := []int{1}
		for range 20 {
			must(t, mpi.Allreduce(p.Comm(), nil, x, mpi.Sum))
		}
		if x[0] != 1<<40 {
			t.Errorf("MPI work on the sleeping group: %d, want %d", x[0], 1<<40)
		}
		time.Sleep(sleep)
	} else {
		for i := range 30 {
			must(t, a.Fill(float64(i)))
			must(t, a.Scale(2))
			d, err := ga.Dot(a, a)
			must(t, err)
			if want := float64(2500 * 4 * i * i); d != want {
				t.Errorf("Dot %d: %v, want %v", i, d, want)
			}
			must(t, p.Sync())
		}
		took = time.Since(start)
		must(t, a.Destroy())
	}
	ms := []int64{took.Milliseconds()}
	must(t, mpi.Allreduce(ga.Comm(), nil, ms, mpi.Max))
	t.Logf("the busy group took %d ms while the other slept %v", ms[0], sleep)
	if ms[0] >= (sleep - time.Second).Milliseconds() {
		t.Errorf("the busy group took %d ms while the other slept %v: it waited", ms[0], sleep)
	}
	must(t, ga.Sync())
	must(t, p.Destroy())
}
