package ga_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestMisuseSuite runs issue 9's classes of misuse over shared memory and
// the network path: every collective call with one process's argument
// changed, and sizes near MaxInt. Every process must get an error, none may
// hang (the launcher kills a job that outlives its timeout, which fails the
// test), and the arrays must be as they were.
func TestMisuseSuite(t *testing.T) {
	mpitest.Run(t, misuseSuite)
}

func TestMisuseSuiteTCP(t *testing.T) {
	mpitest.Run(t, misuseSuite, mpitest.Transports(mpitest.TCP), mpitest.Ranks(2, 4))
}

func misuseSuite(t *testing.T) {
	must(t, ga.Init())
	defer endGA(t)
	t.Run("OneProcessDiffers", testOneProcessDiffers)
	t.Run("NearMaxInt", testNearMaxInt)
}

// refusedByAll checks a collective call's error on the processes that did
// not differ: ErrPeer (the odd process refused its own arguments) or
// ErrMismatch; the odd process may get its own error.
func refusedByAll(t *testing.T, what, op string, err error) {
	t.Helper()
	var e *ga.Error
	if !errors.As(err, &e) {
		t.Errorf("%s: %v (%T), want a *ga.Error on every process", what, err, err)
		return
	}
	if e.Op != op {
		t.Errorf("%s: error %q names the call %q, want %q", what, err, e.Op, op)
	}
	odd := ga.Nodeid() == ga.Nnodes()-1
	if !odd && !errors.Is(err, ga.ErrPeer) && !errors.Is(err, ga.ErrMismatch) {
		t.Errorf("%s: %v, want an error wrapping ErrPeer or ErrMismatch", what, err)
	}
}

func testOneProcessDiffers(t *testing.T) {
	if ga.Nnodes() < 2 {
		t.Skip("one process cannot differ from the others")
	}
	odd := ga.Nodeid() == ga.Nnodes()-1
	mkf := func(name string, dims ...int) *ga.Array[float64] {
		x, err := ga.Create[float64](name, dims, nil)
		must(t, err)
		putAll(t, x, pattern(dims, func(l int) float64 { return float64(l) + float64(len(name))/8 }))
		return x
	}
	a, b, c := mkf("a", 6, 4), mkf("b", 6, 4), mkf("c", 4, 6)
	defer destroy(t, a)
	defer destroy(t, b)
	defer destroy(t, c)
	arrays := []*ga.Array[float64]{a, b, c}
	before := make([][]float64, len(arrays))
	for i, x := range arrays {
		before[i] = getAll(t, x)
	}
	unchanged := func(what string) {
		t.Helper()
		for i, x := range arrays {
			sameElems(t, what+": "+x.Name(), getAll(t, x), before[i])
		}
		must(t, ga.Sync())
	}
	used := ga.InquireMemory()
	created := func(what string, err error) {
		t.Helper()
		var e *ga.Error
		if errors.As(err, &e) && e.Op != "Create" && e.Op != "CreateIrreg" && e.Op != "Allocate" && e.Op != "Duplicate" {
			t.Errorf("%s: error %q names the call %q", what, err, e.Op)
		}
		refusedByAll(t, what, e.Op, err)
		if ga.InquireMemory() != used {
			t.Errorf("%s: %d bytes left allocated", what, ga.InquireMemory()-used)
		}
	}

	// Creation: dims, type, chunk, distributions.
	_, err := ga.Create[float64]("T", oddOne([]int{6, 4}, []int{4, 6}), nil)
	created("Create with transposed dims", err)
	_, err = ga.Create[float64]("Z", oddOne([]int{6}, []int{0}), nil)
	created("Create with dims {0} on one process", err)
	if odd {
		_, err := ga.Create[int64]("typed", []int{6}, nil)
		created("Create of another type", err)
	} else {
		_, err = ga.Create[float64]("typed", []int{6}, nil)
		created("Create of another type", err)
	}
	_, err = ga.Create[float64]("chunked", []int{8, 8}, oddOne([]int{2, 2}, []int{4, 4}))
	created("Create with another chunk", err)
	_, err = ga.CreateIrreg[float64]("irr", []int{8}, [][]int{oddOne([]int{0, 4}, []int{0, 5})})
	created("CreateIrreg with other starts", err)
	_, err = ga.New[float64](8, 8).Name("bc").BlockCyclic(oddOne([]int{2, 2}, []int{2, 4})...).Allocate()
	created("BlockCyclic with other blocks", err)
	_, err = ga.New[float64](8, 8).Name("bcg").BlockCyclicGrid([]int{2, 2}, oddOne([]int{1, ga.Nnodes()}, []int{ga.Nnodes(), 1})).Allocate()
	created("BlockCyclicGrid with another grid", err)
	_, err = oddOne(a, b).Duplicate("dup")
	created("Duplicate of another array", err)

	// Collective operations on arrays.
	refusedByAll(t, "Zero of another array", "Zero", oddOne(a, b).Zero())
	unchanged("Zero")
	refusedByAll(t, "Scale of another array", "Scale", oddOne(a, b).Scale(3))
	unchanged("Scale")
	refusedByAll(t, "Fill of another array", "Fill", oddOne(a, b).Fill(3))
	unchanged("Fill")
	refusedByAll(t, "Copy from another array", "Copy", ga.Copy(oddOne(a, c), b))
	unchanged("Copy")
	refusedByAll(t, "Copy from nil", "Copy", ga.Copy(oddOne(a, nil), b))
	unchanged("Copy from nil")
	refusedByAll(t, "Add into another array", "Add", ga.Add(1, a, 1, a, oddOne(b, a)))
	unchanged("Add")
	_, err = ga.Dot(a, oddOne(b, a))
	refusedByAll(t, "Dot with another array", "Dot", err)
	unchanged("Dot")
	refusedByAll(t, "Destroy of another array", "Destroy", oddOne(a, b).Destroy())
	unchanged("Destroy")
	refusedByAll(t, "Sync against Zero", oddOne("Zero", "Sync"), func() error {
		if odd {
			return ga.Sync()
		}
		return a.Zero()
	}())
	unchanged("Sync against Zero")

	// Message passing and mutexes.
	buf := []float64{1, 2, 3}
	err = ga.Gop(buf[:oddOne(3, 2)], ga.OpSum)
	refusedByAll(t, "Gop of another length", "Gop", err)
	sameElems(t, "Gop buffer", buf, []float64{1, 2, 3})
	refusedByAll(t, "Brdcst with every process its own root", "Brdcst", ga.Brdcst(buf, ga.Nodeid()))
	sameElems(t, "Brdcst buffer", buf, []float64{1, 2, 3})
	// One process small enough to ride on the agreement's collective (on
	// one node), the others not: they meet in it all the same.
	big := make([]float64, 200)
	for i := range big {
		big[i] = float64(i)
	}
	keep := slices.Clone(big)
	refusedByAll(t, "Gop of 100 against 200 elements", "Gop", ga.Gop(big[:oddOne(200, 100)], ga.OpSum))
	sameElems(t, "Gop buffer", big, keep)
	refusedByAll(t, "Brdcst of 100 against 200 elements", "Brdcst", ga.Brdcst(big[:oddOne(200, 100)], 0))
	sameElems(t, "Brdcst buffer", big, keep)
	// The same across nodes, where at most armci.RecordCap bytes ride on
	// the agreement's MPI_Allreduce.
	refusedByAll(t, "Gop of 20 against 40 elements", "Gop", ga.Gop(big[:oddOne(40, 20)], ga.OpSum))
	sameElems(t, "Gop buffer", big, keep)
	refusedByAll(t, "Brdcst of 20 against 40 elements", "Brdcst", ga.Brdcst(big[:oddOne(40, 20)], 0))
	sameElems(t, "Brdcst buffer", big, keep)
	// One process refuses its own op: it only agrees, the others reduce.
	refusedByAll(t, "Gop with an unknown op on one process", "Gop", ga.Gop(buf, oddOne[ga.Op](ga.OpSum, "avg")))
	sameElems(t, "Gop buffer", buf, []float64{1, 2, 3})
	refusedByAll(t, "CreateMutexes with another count", "CreateMutexes", ga.CreateMutexes(oddOne(2, 3)))
	must(t, ga.CreateMutexes(2)) // none were created
	must(t, ga.DestroyMutexes())
	unchanged("the end")
}

// testNearMaxInt: leading dimensions and sizes whose products overflow an
// int are refused, on a patch with one owner (the fast path) and on one
// spanning owners, by every one-sided call; arrays that cannot exist are
// refused by every process with nothing allocated.
func testNearMaxInt(t *testing.T) {
	a, err := ga.Create[float64]("big ld", []int{8, 8}, nil)
	must(t, err)
	defer destroy(t, a)
	ref := pattern([]int{8, 8}, func(l int) float64 { return float64(l) })
	putAll(t, a, ref)
	buf := make([]float64, 64)
	for i := range buf {
		buf[i] = -1
	}
	keep := slices.Clone(buf)
	lo0, hi0, ok := a.Distribution(0)
	if !ok {
		fatalf(t, "rank 0 holds no block")
	}
	one := [2][]int{lo0, {lo0[0] + min(2, hi0[0]-lo0[0]), lo0[1] + min(2, hi0[1]-lo0[1])}}
	patches := map[string][2][]int{"one owner": one, "all owners": {{0, 0}, {7, 7}}}
	for _, name := range []string{"one owner", "all owners"} {
		lo, hi := patches[name][0], patches[name][1]
		for _, ld := range [][]int{{1 << 62}, {math.MaxInt}, {math.MaxInt / 7}, {0}, {1, 1}, {}} {
			what := func(op string) string { return fmt.Sprintf("%s %s ld %v", op, name, ld) }
			wantErr(t, what("Put"), a.Put(lo, hi, buf, ld), "Put", "big ld", nil, "ld")
			wantErr(t, what("Get"), a.Get(lo, hi, buf, ld), "Get", "big ld", nil, "ld")
			wantErr(t, what("Acc"), a.Acc(lo, hi, buf, ld, 1), "Acc", "big ld", nil, "ld")
			_, err := a.NbPut(lo, hi, buf, ld)
			wantErr(t, what("NbPut"), err, "NbPut", "big ld", nil, "ld")
			_, err = a.NbGet(lo, hi, buf, ld)
			wantErr(t, what("NbGet"), err, "NbGet", "big ld", nil, "ld")
			_, err = a.NbAcc(lo, hi, buf, ld, 1)
			wantErr(t, what("NbAcc"), err, "NbAcc", "big ld", nil, "ld")
			wantErr(t, what("StridedPut"), a.StridedPut(lo, hi, []int{1, 1}, buf, ld), "StridedPut", "big ld", nil, "ld")
			wantErr(t, what("StridedGet"), a.StridedGet(lo, hi, []int{1, 1}, buf, ld), "StridedGet", "big ld", nil, "ld")
			wantErr(t, what("PeriodicPut"), a.PeriodicPut(lo, hi, buf, ld), "PeriodicPut", "big ld", nil, "ld")
		}
	}
	sameElems(t, "buffer after refused transfers", buf, keep)
	must(t, ga.Sync())
	sameElems(t, "array after refused transfers", getAll(t, a), ref)

	used := ga.InquireMemory()
	_, err = ga.Create[int32]("X", []int{1 << 32, 1<<32 + 1}, nil)
	wantErr(t, "Create of 2^64 int32", err, "Create", "X", nil, "[4294967296 4294967297]")
	_, err = ga.Create[float64]("H", []int{1 << 40}, nil)
	wantErr(t, "Create of 2^40 float64", err, "Create", "H", nil, "[1099511627776]", "8796093022208 bytes")
	if !errors.Is(err, armci.ErrNoRoom) {
		t.Errorf("Create of 2^40 float64: %v, want an error wrapping armci.ErrNoRoom", err)
	}
	_, err = ga.Create[float64]("M", []int{math.MaxInt, 2}, nil)
	wantErr(t, "Create of MaxInt × 2", err, "Create", "M", nil)
	if ga.InquireMemory() != used {
		t.Errorf("refused creations left %d bytes allocated", ga.InquireMemory()-used)
	}
	must(t, ga.Sync())
}
