package ga_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestErrors checks that misuse returns a *ga.Error naming the call, the array
// and the values, on every rank alike (nobody hangs), and changes nothing;
// and it checks the life cycle and the memory limit.
func TestErrors(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		t.Run("Lifecycle", testLifecycle)
		t.Run("Misuse", func(t *testing.T) { must(t, ga.Init()); defer endGA(t); testMisuse(t) })
		t.Run("Destroyed", func(t *testing.T) { must(t, ga.Init()); defer endGA(t); testDestroyed(t) })
		t.Run("Collective", func(t *testing.T) { must(t, ga.Init()); defer endGA(t); testCollectiveMisuse(t) })
		t.Run("Memory", testMemory)
	})
}

// ---- life cycle ----

func testLifecycle(t *testing.T) {
	w := mpi.World()
	// Before Init.
	if ga.Initialized() || ga.Nodeid() != -1 || ga.Nnodes() != 0 || ga.Comm() != nil {
		t.Errorf("before Init: Initialized %v, Nodeid %d, Nnodes %d, Comm %v", ga.Initialized(), ga.Nodeid(), ga.Nnodes(), ga.Comm())
	}
	_, err := ga.Create[float64]("early", []int{4}, nil)
	wantErr(t, "Create before Init", err, "", "", ga.ErrNotInitialized)
	wantErr(t, "Sync before Init", ga.Sync(), "Sync", "", ga.ErrNotInitialized)
	wantErr(t, "Terminate before Init", ga.Terminate(), "Terminate", "", ga.ErrNotInitialized)
	wantErr(t, "CreateMutexes before Init", ga.CreateMutexes(1), "CreateMutexes", "", ga.ErrNotInitialized)
	wantErr(t, "Gop before Init", ga.Gop([]float64{1}, ga.OpSum), "Gop", "", ga.ErrNotInitialized)

	must(t, ga.Init())
	if !ga.Initialized() || ga.Nodeid() != w.Rank() || ga.Nnodes() != w.Size() {
		t.Errorf("after Init: Initialized %v, Nodeid %d of %d, world %d of %d", ga.Initialized(), ga.Nodeid(), ga.Nnodes(), w.Rank(), w.Size())
	}
	if cmp, err := ga.Comm().Compare(w); err != nil || (cmp != mpi.Ident && cmp != mpi.Congruent) {
		t.Errorf("ga.Comm() compares %v (%v) with the world", cmp, err)
	}
	wantErr(t, "second Init", ga.Init(), "Init", "", nil, "already")
	wantErr(t, "InitComm while running", ga.InitComm(w), "InitComm", "", nil, "already")

	// Terminate destroys the arrays still alive and leaves MPI (which the
	// test launcher started) running.
	a, err := ga.Create[int64]("survivor", []int{5, 5}, nil)
	must(t, err)
	must(t, a.Fill(7))
	must(t, ga.Terminate())
	if !mpi.Initialized() || mpi.Finalized() {
		fatalf(t, "Terminate finalized an MPI that GA did not start")
	}
	if _, _, ok := a.Distribution(0); ok {
		t.Errorf("Distribution of an array that Terminate destroyed still reports a block")
	}
	wantErr(t, "Get after Terminate", a.Get([]int{0, 0}, []int{0, 0}, []int64{0}, nil), "Get", "survivor", ga.ErrDestroyed)

	// GA starts again, clean.
	must(t, ga.Init())
	if ga.InquireMemory() != 0 || ga.MemoryLimited() {
		t.Errorf("after a restart: InquireMemory %d, MemoryLimited %v", ga.InquireMemory(), ga.MemoryLimited())
	}
	b, err := ga.Create[int64]("second life", []int{5, 5}, nil)
	must(t, err)
	must(t, b.Fill(3))
	got, err := ga.Dot(b, b)
	must(t, err)
	if got != 25*9 {
		t.Errorf("Dot after a restart = %d, want %d", got, 25*9)
	}
	must(t, ga.Terminate())
	wantErr(t, "Initialized after Terminate", ga.Sync(), "Sync", "", ga.ErrNotInitialized)
}

// ---- one-sided misuse ----

// testMisuse: every refused call must name the array and the offending
// values, and leave the array (and a Get's buffer) as it was.
func testMisuse(t *testing.T) {
	me, n := ga.Nodeid(), ga.Nnodes()
	a, err := ga.Create[int32]("errs", []int{6, 7}, nil)
	must(t, err)
	defer destroy(t, a)
	ref := pattern[int32](a.Dims(), func(l int) int32 { return int32(3*l + 1) })
	putAll(t, a, ref)
	buf := make([]int32, 100)
	for i := range buf {
		buf[i] = -5
	}
	keep := slices.Clone(buf)
	type call struct {
		what   string
		err    error
		op     string
		values []string
	}
	for _, c := range []call{
		{"Put past the end", a.Put([]int{0, 0}, []int{2, 7}, buf, nil), "Put", []string{"[2 7]", "[6 7]"}},
		{"Put below 0", a.Put([]int{-1, 0}, []int{1, 1}, buf, nil), "Put", []string{"[-1 0]"}},
		{"Put with lo > hi", a.Put([]int{3, 0}, []int{2, 1}, buf, nil), "Put", []string{"[3 0]", "[2 1]"}},
		{"Put with 1 subscript", a.Put([]int{0}, []int{1}, buf, nil), "Put", []string{"[0]", "[1]"}},
		{"Put with 3 subscripts", a.Put([]int{0, 0, 0}, []int{1, 1, 1}, buf, nil), "Put", []string{"[1 1 1]"}},
		{"Put from a short buffer", a.Put([]int{0, 0}, []int{2, 2}, buf[:8], nil), "Put", []string{"8", "9"}},
		{"Put with ld too small", a.Put([]int{0, 0}, []int{2, 3}, buf, []int{3}), "Put", []string{"ld", "3", "4"}},
		{"Put with 2 ld", a.Put([]int{0, 0}, []int{2, 3}, buf, []int{7, 7}), "Put", []string{"[7 7]"}},
		{"Put from a short buffer with ld", a.Put([]int{1, 1}, []int{3, 2}, buf[:21], []int{10}), "Put", []string{"21", "22"}},
		{"Acc past the end", a.Acc([]int{5, 5}, []int{6, 6}, buf, nil, 1), "Acc", []string{"[6 6]"}},
		{"Acc from a short buffer", a.Acc([]int{0, 0}, []int{5, 6}, buf[:41], nil, 1), "Acc", []string{"41", "42"}},
		{"Acc with ld too small", a.Acc([]int{0, 0}, []int{1, 6}, buf, []int{6}, 1), "Acc", []string{"ld", "6", "7"}},
		{"Get past the end", a.Get([]int{0, 0}, []int{6, 0}, buf, nil), "Get", []string{"[6 0]"}},
		{"Get into a short buffer", a.Get([]int{0, 0}, []int{1, 6}, buf[:13], nil), "Get", []string{"13", "14"}},
		{"Get with ld too small", a.Get([]int{0, 0}, []int{1, 1}, buf, []int{1}), "Get", []string{"ld", "1", "2"}},
	} {
		wantErr(t, c.what, c.err, c.op, "errs", nil, c.values...)
	}
	sameElems(t, "buffer after refused Gets", buf, keep)

	_, err = a.ReadInc([]int{6, 0}, 1)
	wantErr(t, "ReadInc past the end", err, "ReadInc", "errs", nil, "[6 0]")
	_, err = a.ReadInc([]int{0}, 1)
	wantErr(t, "ReadInc with 1 subscript", err, "ReadInc", "errs", nil, "[0]")
	_, err = a.ReadInc([]int{0, 0}, 1<<32)
	wantErr(t, "ReadInc past int32", err, "ReadInc", "errs", nil, "4294967296")
	f, err := ga.Create[float64]("floats", []int{3}, nil)
	must(t, err)
	defer destroy(t, f)
	must(t, f.Fill(1.5))
	_, err = f.ReadInc([]int{1}, 1)
	wantErr(t, "ReadInc on float64", err, "ReadInc", "floats", nil, "float64")
	z, err := ga.Create[complex64]("complexes", []int{3}, nil)
	must(t, err)
	defer destroy(t, z)
	_, err = z.ReadInc([]int{1}, 1)
	wantErr(t, "ReadInc on complex64", err, "ReadInc", "complexes", nil, "complex64")

	// Locality calls.
	r, err := a.Locate([]int{0, 7})
	wantErr(t, "Locate past the end", err, "Locate", "errs", nil, "[0 7]")
	if r != -1 {
		t.Errorf("Locate past the end returned rank %d, want -1", r)
	}
	_, err = a.LocateRegion([]int{2, 2}, []int{1, 3})
	wantErr(t, "LocateRegion with lo > hi", err, "LocateRegion", "errs", nil, "[2 2]", "[1 3]")
	wantErr(t, "Release past the end", a.Release([]int{0, 0}, []int{9, 9}), "Release", "errs", nil, "[9 9]")
	wantErr(t, "ReleaseUpdate below 0", a.ReleaseUpdate([]int{0, -2}, []int{0, 0}), "ReleaseUpdate", "errs", nil, "[0 -2]")
	if lo, hi, ok := a.Distribution(me); ok && n > 1 {
		// A patch that reaches into a neighbour's block.
		flo, fhi := fullPatch(a.Dims())
		_, _, err := a.Access(flo, fhi)
		wantErr(t, "Access beyond the own block", err, "Access", "errs", nil, fmt.Sprint(lo), fmt.Sprint(hi))
	}
	// A rank that owns nothing cannot access anything.
	one, err := ga.CreateIrreg[int32]("one block", []int{4, 4}, [][]int{{0}, {0}})
	must(t, err)
	if me > 0 {
		_, _, err := one.Access([]int{0, 0}, []int{0, 0})
		wantErr(t, "Access on a rank with no block", err, "Access", "one block", nil, fmt.Sprint(me))
		if _, _, _, _, ok, err := one.AccessLocal(); ok || err != nil {
			t.Errorf("AccessLocal on a rank with no block: ok %v, err %v", ok, err)
		}
	}
	must(t, one.Destroy())

	// Mutexes and fences.
	wantErr(t, "Lock with no mutexes", ga.Lock(0), "Lock", "", nil, "0")
	must(t, ga.CreateMutexes(2))
	wantErr(t, "Lock past the set", ga.Lock(2), "Lock", "", nil, "2")
	wantErr(t, "Unlock below 0", ga.Unlock(-1), "Unlock", "", nil, "-1")
	// GA calls these fatal; here they are errors, and the mutex still works.
	wantErr(t, "Unlock of a mutex not held", ga.Unlock(1), "Unlock", "", nil, "1")
	must(t, ga.Lock(1))
	// A second Lock by this process cannot be told from another goroutine's:
	// it waits for the holder, as with sync.Mutex.
	second := make(chan error, 1)
	go func() { second <- ga.Lock(1) }()
	select {
	case err := <-second:
		fatalf(t, "a second Lock returned (%v) while this process held the mutex", err)
	case <-time.After(50 * time.Millisecond):
	}
	must(t, ga.Unlock(1))
	must(t, <-second)
	must(t, ga.Unlock(1))
	wantErr(t, "second Unlock", ga.Unlock(1), "Unlock", "", nil, "1")
	must(t, ga.Sync())
	must(t, ga.DestroyMutexes())
	wantErr(t, "CreateMutexes(-1)", ga.CreateMutexes(-1), "CreateMutexes", "", nil, "-1")

	must(t, ga.Sync())
	sameElems(t, "array after refused calls", getAll(t, a), ref)
	checkLocal(t, a, ref)
	sameElems(t, "floats after a refused ReadInc", getAll(t, f), []float64{1.5, 1.5, 1.5})
	must(t, ga.Sync())
}

// ---- a destroyed array ----

func testDestroyed(t *testing.T) {
	a, err := ga.Create[int64]("doomed", []int{5, 4}, nil)
	must(t, err)
	other, err := ga.Create[int64]("bystander", []int{5, 4}, nil)
	must(t, err)
	defer destroy(t, other)
	must(t, other.Fill(4))
	must(t, a.Destroy())
	lo, hi := []int{0, 0}, []int{1, 1}
	buf := []int64{9, 9, 9, 9}
	e := ga.ErrDestroyed
	wantErr(t, "Put", a.Put(lo, hi, buf, nil), "Put", "doomed", e)
	wantErr(t, "Get", a.Get(lo, hi, buf, nil), "Get", "doomed", e)
	wantErr(t, "Acc", a.Acc(lo, hi, buf, nil, 1), "Acc", "doomed", e)
	_, err = a.ReadInc(lo, 1)
	wantErr(t, "ReadInc", err, "ReadInc", "doomed", e)
	_, err = a.Locate(lo)
	wantErr(t, "Locate", err, "Locate", "doomed", e)
	_, err = a.LocateRegion(lo, hi)
	wantErr(t, "LocateRegion", err, "LocateRegion", "doomed", e)
	_, _, err = a.Access(lo, hi)
	wantErr(t, "Access", err, "Access", "doomed", e)
	_, _, _, _, _, err = a.AccessLocal()
	wantErr(t, "AccessLocal", err, "AccessLocal", "doomed", e)
	// Collective calls fail on every rank alike, before communicating.
	wantErr(t, "Destroy", a.Destroy(), "Destroy", "doomed", e)
	_, err = a.Duplicate("ghost")
	wantErr(t, "Duplicate", err, "Duplicate", "doomed", e)
	wantErr(t, "Zero", a.Zero(), "Zero", "doomed", e)
	wantErr(t, "Fill", a.Fill(1), "Fill", "doomed", e)
	wantErr(t, "Scale", a.Scale(2), "Scale", "doomed", e)
	wantErr(t, "Copy from", ga.Copy(a, other), "Copy", "doomed", e)
	wantErr(t, "Copy to", ga.Copy(other, a), "Copy", "doomed", e)
	wantErr(t, "Add", ga.Add(1, other, 1, other, a), "Add", "doomed", e)
	_, err = ga.Dot(other, a)
	wantErr(t, "Dot", err, "Dot", "doomed", e)
	wantErr(t, "Print", a.Fprint(nil), "Print", "doomed", e)
	if _, _, ok := a.Distribution(0); ok {
		t.Errorf("Distribution of a destroyed array reports a block")
	}
	must(t, ga.Sync())
	want := make([]int64, 20)
	for i := range want {
		want[i] = 4
	}
	sameElems(t, "bystander after calls on a destroyed array", getAll(t, other), want)
	must(t, ga.Sync())
}

// ---- collective misuse ----

func testCollectiveMisuse(t *testing.T) {
	n := ga.Nnodes()
	a, err := ga.Create[float64]("src", []int{6, 7}, nil)
	must(t, err)
	defer destroy(t, a)
	ref := pattern[float64](a.Dims(), func(l int) float64 { return float64(l) / 2 })
	putAll(t, a, ref)
	b, err := ga.Create[float64]("dst", []int{5, 5}, nil)
	must(t, err)
	defer destroy(t, b)
	must(t, b.Fill(-1))
	c, err := ga.Create[float64]("transposed", []int{7, 6}, nil)
	must(t, err)
	defer destroy(t, c)
	must(t, c.Fill(-2))

	wantErr(t, "Copy of 42 elements into 25", ga.Copy(a, b), "Copy", "dst", nil, "25", "42", "src")
	wantErr(t, "Copy onto itself", ga.Copy(a, a), "Copy", "src", nil)
	// Add and Dot pair arrays of one element count, whatever their shapes
	// (TestReshaped); other counts are refused.
	wantErr(t, "Add of 42 and 25 elements", ga.Add(1, a, 1, b, a), "Add", "dst", nil, "[5 5]", "25", "42")
	wantErr(t, "Add into 25 elements", ga.Add(1, a, 1, a, b), "Add", "dst", nil, "[5 5]", "25", "42")
	_, err = ga.Dot(a, b)
	wantErr(t, "Dot of 42 and 25 elements", err, "Dot", "dst", nil, "[5 5]", "25", "42")

	// Creation: every rank refuses alike.
	_, err = ga.Create[float64]("flat", []int{0, 3}, nil)
	wantErr(t, "Create with a zero dimension", err, "Create", "flat", nil, "[0 3]")
	_, err = ga.Create[float64]("deep", []int{1, 1, 1, 1, 1, 1, 1, 1}, nil)
	wantErr(t, "Create with 8 dimensions", err, "Create", "deep", nil, "8")
	_, err = ga.Create[float64]("nodims", nil, nil)
	wantErr(t, "Create with no dimensions", err, "Create", "nodims", nil, "0")
	_, err = ga.Create[float64]("chunky", []int{4, 4}, []int{2})
	wantErr(t, "Create with 1 chunk for 2 dimensions", err, "Create", "chunky", nil, "[2]")
	for _, s := range []struct {
		name   string
		starts [][]int
		values []string
	}{
		{"irr late start", [][]int{{1}}, []string{"[1]"}},
		{"irr descending", [][]int{{0, 5, 3}}, []string{"[0 5 3]"}},
		{"irr past the end", [][]int{{0, 10}}, []string{"[0 10]"}},
		{"irr missing dim", [][]int{}, []string{"0"}},
	} {
		_, err = ga.CreateIrreg[int32](s.name, []int{10}, s.starts)
		wantErr(t, "CreateIrreg "+s.name, err, "CreateIrreg", s.name, nil, s.values...)
	}
	tooMany := make([]int, n+1)
	for i := range tooMany {
		tooMany[i] = i
	}
	_, err = ga.New[int32](n + 2).Name("crowded").Irregular(tooMany).Allocate()
	wantErr(t, "more blocks than ranks", err, "Allocate", "crowded", nil, fmt.Sprint(n+1), fmt.Sprint(n))

	// Message passing.
	buf := []float64{1, 2}
	wantErr(t, "Brdcst from rank N", ga.Brdcst(buf, n), "Brdcst", "", nil, fmt.Sprint(n))
	wantErr(t, "Brdcst from rank -1", ga.Brdcst(buf, -1), "Brdcst", "", nil, "-1")
	wantErr(t, "Gop with an unknown op", ga.Gop(buf, ga.OpOr), "Gop", "", nil, `"or"`)
	sameElems(t, "buffer after refused Brdcst and Gop", buf, []float64{1, 2})

	must(t, ga.Sync())
	sameElems(t, "src after refused collectives", getAll(t, a), ref)
	want := make([]float64, 25)
	for i := range want {
		want[i] = -1
	}
	sameElems(t, "dst after a refused Copy", getAll(t, b), want)
	want = make([]float64, 42)
	for i := range want {
		want[i] = -2
	}
	sameElems(t, "transposed after a refused Add", getAll(t, c), want)
	if ga.InquireMemory() != memOf(a)+memOf(b)+memOf(c) {
		t.Errorf("InquireMemory = %d after refused creations, want %d", ga.InquireMemory(), memOf(a)+memOf(b)+memOf(c))
	}
	must(t, ga.Sync())
}

// memOf is the bytes of a float64 array's block on this rank.
func memOf(a *ga.Array[float64]) int {
	if lo, hi, ok := a.Distribution(ga.Nodeid()); ok {
		return 8 * volume(lo, hi)
	}
	return 0
}

// ---- the memory limit ----

func testMemory(t *testing.T) {
	must(t, ga.Init())
	me, n := ga.Nodeid(), ga.Nnodes()
	if ga.MemoryLimited() || ga.MemoryAvail() != -1 || ga.InquireMemory() != 0 {
		t.Errorf("fresh GA: MemoryLimited %v, MemoryAvail %d, InquireMemory %d", ga.MemoryLimited(), ga.MemoryAvail(), ga.InquireMemory())
	}
	dims := []int{10*n + 3}
	x, err := ga.Create[float64]("x", dims, nil)
	must(t, err)
	mine := memOf(x)
	if mine == 0 || ga.InquireMemory() != mine {
		t.Errorf("InquireMemory = %d with a block of %d bytes", ga.InquireMemory(), mine)
	}
	sum := []int{0}
	must(t, mpi.Allreduce(ga.Comm(), []int{ga.InquireMemory()}, sum, mpi.Sum))
	if sum[0] != 8*dims[0] {
		t.Errorf("InquireMemory sums to %d over the ranks, want %d", sum[0], 8*dims[0])
	}

	const margin = 40 // less than any block of x (at least 80 bytes)
	ga.SetMemoryLimit(mine + margin)
	if !ga.MemoryLimited() || ga.MemoryAvail() != margin {
		t.Errorf("limit of used+%d: MemoryLimited %v, MemoryAvail %d", margin, ga.MemoryLimited(), ga.MemoryAvail())
	}
	_, err = ga.Create[float64]("too big", dims, nil)
	wantErr(t, "Create past the limit", err, "Create", "too big", ga.ErrMemoryLimit, fmt.Sprint(mine), fmt.Sprint(mine+margin))
	_, err = x.Duplicate("twin")
	wantErr(t, "Duplicate past the limit", err, "Duplicate", "twin", ga.ErrMemoryLimit)
	if ga.InquireMemory() != mine || ga.MemoryAvail() != margin {
		t.Errorf("after refused creations: InquireMemory %d, MemoryAvail %d, want %d, %d", ga.InquireMemory(), ga.MemoryAvail(), mine, margin)
	}
	small, err := ga.Create[int32]("small", []int{3 * n}, nil)
	must(t, err)
	smallBytes := 0
	if lo, hi, ok := small.Distribution(me); ok {
		smallBytes = 4 * volume(lo, hi)
	}
	if ga.MemoryAvail() != margin-smallBytes || ga.InquireMemory() != mine+smallBytes {
		t.Errorf("after a small array: MemoryAvail %d, InquireMemory %d, want %d, %d", ga.MemoryAvail(), ga.InquireMemory(), margin-smallBytes, mine+smallBytes)
	}
	must(t, x.Destroy())
	if ga.MemoryAvail() != mine+margin-smallBytes || ga.InquireMemory() != smallBytes {
		t.Errorf("after Destroy: MemoryAvail %d, InquireMemory %d, want %d, %d", ga.MemoryAvail(), ga.InquireMemory(), mine+margin-smallBytes, smallBytes)
	}
	// Now it fits.
	y, err := ga.Create[float64]("fits now", dims, nil)
	must(t, err)
	must(t, y.Destroy())

	// One rank's limit stops everyone, without a hang.
	ga.SetMemoryLimit(-1)
	if me == 0 {
		ga.SetMemoryLimit(ga.InquireMemory() + 8)
	}
	_, err = ga.Create[float64]("lopsided", dims, nil)
	wantErr(t, "Create past rank 0's limit", err, "Create", "lopsided", ga.ErrMemoryLimit)
	// A rank at its limit can still join an array it holds nothing of.
	ga.SetMemoryLimit(-1)
	if me == n-1 {
		ga.SetMemoryLimit(ga.InquireMemory())
	}
	// Blocks on ranks below n-1 only (on one rank, on rank 0 = n-1).
	starts := [][]int{[]int{0, 2}[:max(1, min(n-1, 2))]}
	z, err := ga.CreateIrreg[float64]("elsewhere", []int{5}, starts)
	if n > 1 {
		must(t, err)
		must(t, z.Destroy())
	} else {
		wantErr(t, "Create at the limit on one rank", err, "CreateIrreg", "elsewhere", ga.ErrMemoryLimit)
	}
	ga.SetMemoryLimit(-1)
	if ga.MemoryLimited() || ga.MemoryAvail() != -1 {
		t.Errorf("limit removed: MemoryLimited %v, MemoryAvail %d", ga.MemoryLimited(), ga.MemoryAvail())
	}
	must(t, small.Destroy())
	if ga.InquireMemory() != 0 {
		t.Errorf("InquireMemory = %d with no arrays", ga.InquireMemory())
	}
	must(t, ga.Terminate())

	// InitLimited sets the limit from the start.
	must(t, ga.InitLimited(4096))
	if !ga.MemoryLimited() || ga.MemoryAvail() != 4096 {
		t.Errorf("InitLimited(4096): MemoryLimited %v, MemoryAvail %d", ga.MemoryLimited(), ga.MemoryAvail())
	}
	_, err = ga.Create[float64]("4800 bytes", []int{600 * n}, nil)
	wantErr(t, "Create of 4800 bytes a rank under 4096", err, "Create", "4800 bytes", ga.ErrMemoryLimit)
	w, err := ga.Create[float64]("4000 bytes", []int{500 * n}, nil)
	must(t, err)
	if ga.MemoryAvail() != 4096-memOf(w) {
		t.Errorf("MemoryAvail = %d, want %d", ga.MemoryAvail(), 4096-memOf(w))
	}
	must(t, ga.Terminate())
	must(t, ga.Init())
	if ga.MemoryLimited() {
		t.Errorf("Init after InitLimited keeps a limit")
	}
	must(t, ga.Terminate())
}
