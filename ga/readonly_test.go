package ga_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestReadOnlyRefusesWrites covers read_only's promise: every call that
// would write the array, on it alone or as the output of a call on
// several, fails on every process with ErrReadOnly naming it, and its
// bytes do not change; halos still update; after UnsetProperty the writes
// work again and reads see them.
func TestReadOnlyRefusesWrites(t *testing.T) { onNodes(t, testReadOnlyRefuses) }

func testReadOnlyRefuses(t *testing.T) {
	const n = 6
	dims := []int{n, n}
	create := func(name string, dims ...int) *ga.Array[float64] {
		x, err := ga.Create[float64](name, dims, nil)
		must(t, err)
		return x
	}
	a, v := create("ro", n, n), create("rov", n)
	b, c, w, mask := create("b", n, n), create("c", n, n), create("w", n), create("mask", n)
	for _, x := range []*ga.Array[float64]{a, v, b, c, w, mask} {
		defer destroy(t, x)
	}
	m, err := ga.CreateConfig[float64]("mirrored", dims, nil, ga.PgroupGetMirror())
	must(t, err)
	defer destroy(t, m)
	ref := pattern(dims, func(i int) float64 { return float64(i%7 + 1) })
	vref := pattern([]int{n}, func(i int) float64 { return float64(i + 1) })
	putAll(t, a, ref)
	putAll(t, v, vref)
	must(t, b.Fill(1))
	must(t, c.Fill(2))
	must(t, w.Fill(3))
	must(t, mask.Fill(1))
	must(t, m.Fill(4))
	for _, x := range []*ga.Array[float64]{a, v, m} {
		must(t, x.SetProperty("read_only"))
	}
	refused := func(what string, err error, op, array string) {
		t.Helper()
		wantErr(t, what, err, op, array, ga.ErrReadOnly, "read_only")
		if errors.Is(err, ga.ErrPeer) {
			t.Errorf("%s: %v: this process refused it itself, not another for it", what, err)
		}
	}
	ro := func(what string, err error) { t.Helper(); refused(what, err, what, "ro") }

	// One-sided writes, refused on the process that makes them.
	lo, hi := []int{1, 1}, []int{2, 3}
	buf := make([]float64, 6)
	ro("Put", a.Put(lo, hi, buf, nil))
	ro("Acc", a.Acc(lo, hi, buf, nil, 1))
	_, err = a.NbPut(lo, hi, buf, nil)
	ro("NbPut", err)
	_, err = a.NbAcc(lo, hi, buf, nil, 1)
	ro("NbAcc", err)
	ro("StridedPut", a.StridedPut(lo, hi, []int{1, 2}, buf, nil))
	ro("StridedAcc", a.StridedAcc(lo, hi, []int{1, 2}, buf, nil, 1))
	ro("PeriodicPut", a.PeriodicPut([]int{5, 5}, []int{6, 7}, buf, nil))
	ro("PeriodicAcc", a.PeriodicAcc([]int{5, 5}, []int{6, 7}, buf, nil, 1))
	one := [][]int{{0, 0}}
	ro("Scatter", a.Scatter(buf[:1], one))
	ro("ScatterAcc", a.ScatterAcc(buf[:1], one, 1))
	ro("ScatterFlat", a.ScatterFlat(buf[:1], []int{0, 0}))
	ro("ScatterAccFlat", a.ScatterAccFlat(buf[:1], []int{0, 0}, 1))
	ro("ReleaseUpdate", a.ReleaseUpdate(lo, hi))

	// In-place access hands out writable memory: refused as a write, on
	// the process that asks, pointing to AccessRead, which reads the same
	// memory (checkLocal below).
	inPlace := func(what string, err error, array string) {
		t.Helper()
		refused(what, err, what, array)
		wantErr(t, what, err, what, array, ga.ErrReadOnly, "AccessRead")
	}
	_, _, err = a.Access(lo, hi)
	inPlace("Access", err, "ro")
	_, _, _, _, _, err = a.AccessLocal()
	inPlace("AccessLocal", err, "ro")
	_, _, err = a.AccessBlock(0)
	inPlace("AccessBlock", err, "ro")
	_, _, err = a.AccessBlockGrid([]int{0, 0})
	inPlace("AccessBlockGrid", err, "ro")
	_, err = a.AccessBlockSegment()
	inPlace("AccessBlockSegment", err, "ro")
	_, _, _, err = ga.LocalDense(a)
	inPlace("LocalDense", err, "ro")
	_, err = ga.BlockDense(a, 0)
	inPlace("BlockDense", err, "ro")
	_, _, _, err = ga.LocalVec(v)
	inPlace("LocalVec", err, "rov")
	counter, err := ga.Create[int64]("counter", []int{2}, nil)
	must(t, err)
	must(t, counter.Zero())
	must(t, counter.SetProperty("read_only"))
	_, err = counter.ReadInc([]int{1}, 1)
	refused("ReadInc", err, "ReadInc", "counter")
	must(t, counter.Destroy())

	// Collectives on the array alone, refused on every process.
	ro("Zero", a.Zero())
	ro("Fill", a.Fill(9))
	ro("Scale", a.Scale(9))
	ro("ZeroPatch", a.ZeroPatch(lo, hi))
	ro("FillPatch", a.FillPatch(lo, hi, 9))
	ro("ScalePatch", a.ScalePatch(lo, hi, 9))
	ro("AbsValue", a.AbsValue())
	ro("AbsValuePatch", a.AbsValuePatch(lo, hi))
	ro("AddConstant", a.AddConstant(9))
	ro("AddConstantPatch", a.AddConstantPatch(lo, hi, 9))
	ro("Recip", a.Recip())
	ro("RecipPatch", a.RecipPatch(lo, hi))
	ro("ShiftDiagonal", a.ShiftDiagonal(9))
	ro("ZeroDiagonal", a.ZeroDiagonal())
	ro("Symmetrize", a.Symmetrize())
	ro("Randomize", a.Randomize(9, 1))
	ro("SpdInvert", ga.SpdInvert(a))
	ro("Deallocate", a.Deallocate())
	refused("PatchEnum", v.PatchEnum(0, n-1, 1, 1), "PatchEnum", "rov")
	refused("MergeMirrored", m.MergeMirrored(), "MergeMirrored", "mirrored")

	// The array as the output of calls on several arrays.
	flo, fhi := fullPatch(dims)
	ro("Copy", ga.Copy(b, a))
	ro("CopyPatch", ga.CopyPatch(ga.Trans, b, lo, hi, a, []int{0, 0}, []int{2, 1}))
	ro("Add", ga.Add(1, b, 1, c, a))
	ro("AddPatch", ga.AddPatch(1, b, lo, hi, 1, c, lo, hi, a, lo, hi))
	ro("ElemMultiply", ga.ElemMultiply(b, c, a))
	ro("ElemMultiplyPatch", ga.ElemMultiplyPatch(b, lo, hi, c, lo, hi, a, lo, hi))
	ro("ElemDivide", ga.ElemDivide(b, c, a))
	ro("ElemDividePatch", ga.ElemDividePatch(b, lo, hi, c, lo, hi, a, lo, hi))
	ro("ElemMaximum", ga.ElemMaximum(b, c, a))
	ro("ElemMaximumPatch", ga.ElemMaximumPatch(b, lo, hi, c, lo, hi, a, lo, hi))
	ro("ElemMinimum", ga.ElemMinimum(b, c, a))
	ro("ElemMinimumPatch", ga.ElemMinimumPatch(b, lo, hi, c, lo, hi, a, lo, hi))
	ro("Median", ga.Median(b, c, b, a))
	ro("MedianPatch", ga.MedianPatch(b, lo, hi, c, lo, hi, b, lo, hi, a, lo, hi))
	ro("Transpose", ga.Transpose(b, a))
	ro("Gemm", ga.Gemm(ga.NoTrans, ga.Trans, n, n, n, 1, b, c, 0, a))
	ro("MatmulPatch", ga.MatmulPatch(ga.NoTrans, ga.NoTrans, 1, b, flo, fhi, c, flo, fhi, 1, a, flo, fhi))
	ro("SetDiagonal", a.SetDiagonal(w))
	ro("AddDiagonal", a.AddDiagonal(w))
	ro("ScaleRows", a.ScaleRows(w))
	ro("ScaleCols", a.ScaleCols(w))
	refused("GetDiag", b.GetDiag(v), "GetDiag", "rov")
	ro("LuSolve", ga.LuSolve('n', b, a))
	ro("LltSolve", ga.LltSolve(b, a))
	ro("Solve", ga.Solve(b, a))
	_, err = ga.DiagStd(b, a)
	ro("DiagStd", err)
	_, err = ga.Diag(b, c, a)
	ro("Diag", err)
	ro("MergeDistrPatch", ga.MergeDistrPatch(m, lo, hi, a, lo, hi))
	refused("Copy into a mirrored array", ga.Copy(b, m), "Copy", "mirrored")
	refused("ScanCopy", ga.ScanCopy(w, v, mask, 0, n-1), "ScanCopy", "rov")
	refused("ScanAdd", ga.ScanAdd(w, v, mask, 0, n-1, false), "ScanAdd", "rov")
	_, err = ga.Pack(w, v, mask, 0, n-1)
	refused("Pack", err, "Pack", "rov")
	_, err = ga.Unpack(w, v, mask, 0, n-1)
	refused("Unpack", err, "Unpack", "rov")
	s, err := ga.CreateSparse[float64](n, n)
	must(t, err)
	if ga.Nodeid() == 0 {
		for i := range n {
			must(t, s.AddElement(i, i, 2))
		}
	}
	must(t, s.Assemble())
	refused("MatVec", s.MatVec(w, v), "SparseMatVec", "rov")
	must(t, s.Destroy())

	// An overlay writes its parent's memory: refused while the parent is
	// read_only; an overlay is never read_only itself.
	ov, err := ga.Overlay(ga.New[float64](dims...).Name("overlay"), a)
	must(t, err)
	wantErr(t, "Put through an overlay", ov.Put(lo, hi, buf, nil), "Put", "overlay", ga.ErrReadOnly, `overlays "ro"`)
	wantErr(t, "Fill through an overlay", ov.Fill(9), "Fill", "overlay", ga.ErrReadOnly, `overlays "ro"`)
	_, _, _, _, _, err = ov.AccessLocal()
	wantErr(t, "AccessLocal through an overlay", err, "AccessLocal", "overlay", ga.ErrReadOnly, `overlays "ro"`, "AccessRead")
	wantErr(t, "read_only overlay", ov.SetProperty("read_only"), "SetProperty", "overlay", nil, "overlay")
	must(t, ov.Destroy())

	// Nothing changed: the memory of the array itself, read in place, and
	// everything read through gets (from the node's copy, if any).
	must(t, ga.Sync())
	checkLocal(t, a, ref)
	sameElems(t, "ro after refused writes", getAll(t, a), ref)
	sameElems(t, "rov after refused writes", getAll(t, v), vref)
	sameElems(t, "mirrored after refused writes", getAll(t, m), pattern(dims, func(int) float64 { return 4 }))

	// Unset, the writes work and the reads see them.
	must(t, a.UnsetProperty())
	must(t, v.UnsetProperty())
	must(t, m.UnsetProperty())
	sameElems(t, "ro unset", getAll(t, a), ref)
	must(t, a.Fill(5))
	sameElems(t, "ro filled", getAll(t, a), pattern(dims, func(int) float64 { return 5 }))
	must(t, ga.Add(1, b, 1, c, a))
	sameElems(t, "ro = b + c", getAll(t, a), pattern(dims, func(int) float64 { return 3 }))
	must(t, b.GetDiag(v))
	sameElems(t, "rov = diag(b)", getAll(t, v), pattern([]int{n}, func(int) float64 { return 1 }))
	must(t, ga.Sync())
	if ga.Nodeid() == 0 {
		must(t, a.Put(lo, hi, buf, nil))
	}
	must(t, ga.Sync())
	want := pattern(dims, func(i int) float64 {
		if r, c := i/n, i%n; r >= lo[0] && r <= hi[0] && c >= lo[1] && c <= hi[1] {
			return 0
		}
		return 3
	})
	sameElems(t, "ro after a Put", getAll(t, a), want)
	must(t, ga.Sync())
}

// TestReadOnlyGhosts: UpdateGhosts writes halos, not elements, and stays
// allowed on a read_only array; the elements stay as they were.
func TestReadOnlyGhosts(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		dims := []int{6, 5}
		a, err := ga.CreateGhosts[float64]("haloed", dims, []int{1, 1}, nil)
		must(t, err)
		defer destroy(t, a)
		ref := pattern(dims, func(i int) float64 { return float64(i) })
		putAll(t, a, ref)
		must(t, a.SetProperty("read_only"))
		must(t, a.UpdateGhosts())
		wantErr(t, "ReleaseUpdateGhosts", a.ReleaseUpdateGhosts(), "ReleaseUpdateGhosts", "haloed", ga.ErrReadOnly)
		_, _, _, _, err = a.AccessGhosts()
		wantErr(t, "AccessGhosts", err, "AccessGhosts", "haloed", ga.ErrReadOnly, "AccessRead")
		_, _, err = a.AccessGhostElement([]int{1, 1})
		wantErr(t, "AccessGhostElement", err, "AccessGhostElement", "haloed", ga.ErrReadOnly, "AccessRead")
		sameElems(t, "after UpdateGhosts", getAll(t, a), ref)
		must(t, a.UnsetProperty())
		_, _, _, _, err = a.AccessGhosts()
		must(t, err)
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

// TestReadOnlyNodeCopy covers the copy per node: made only when the
// array's processes span several nodes, it serves every kind of get with
// the array's values and no count against the array's group; UnsetProperty
// and Destroy free it, and gets then read the array again.
func TestReadOnlyNodeCopy(t *testing.T) {
	onNodes(t, func(t *testing.T) {
		testNodeCopy(t)
		testNodeCopySubgroup(t)
	})
}

func testNodeCopy(t *testing.T) {
	dims := []int{7, 5}
	ref := pattern(dims, func(i int) float64 { return float64(3*i + 1) })
	several := ga.ClusterNnodes() > 1
	mem0 := ga.InquireMemory()
	regular, cyclic := twoLayouts(t, dims)
	for _, a := range []*ga.Array[float64]{regular, cyclic} {
		putAll(t, a, ref)
		mem := ga.InquireMemory()
		must(t, a.SetProperty("read_only"))
		if got := ga.NodeCopied(a); got != several {
			t.Errorf("%s: a copy on this node %v, want %v (%d nodes)", a.Name(), got, several, ga.ClusterNnodes())
		}
		if grew := ga.InquireMemory() > mem; grew != several {
			t.Errorf("%s: memory in use %d after SetProperty, %d before: a copy counted %v, want %v", a.Name(), ga.InquireMemory(), mem, grew, several)
		}
		s0 := ga.ReadStats()
		readEvery(t, a, ref)
		s1 := ga.ReadStats()
		if several && (s1.Get != s0.Get || s1.Gather != s0.Gather) {
			t.Errorf("%s: the gets counted against the array's group (get %+v, was %+v; gather %+v, was %+v): they did not read the node's copy", a.Name(), s1.Get, s0.Get, s1.Gather, s0.Gather)
		}
		if !several && (s1.Get.Calls == s0.Get.Calls || s1.Gather.Calls == s0.Gather.Calls) {
			t.Errorf("%s: on one node the gets did not count against the array's group (get %+v, gather %+v)", a.Name(), s1.Get, s1.Gather)
		}
		// Collective calls read it through the copy too.
		b, err := ga.Create[float64]("other", []int{5, 7}, nil)
		must(t, err)
		must(t, ga.Transpose(a, b))
		sameElems(t, a.Name()+" transposed", getAll(t, b), pattern([]int{5, 7}, func(i int) float64 { return ref[(i%7)*5+i/7] }))
		must(t, b.Destroy())

		// Unset: the copy is gone and gets read the array's new values.
		must(t, a.UnsetProperty())
		if ga.NodeCopied(a) || ga.InquireMemory() != mem {
			t.Errorf("%s: after UnsetProperty a copy %v, memory %d (was %d)", a.Name(), ga.NodeCopied(a), ga.InquireMemory(), mem)
		}
		must(t, a.Scale(2))
		twice := pattern(dims, func(i int) float64 { return 2 * ref[i] })
		readEvery(t, a, twice)
		must(t, a.SetProperty("read_only"))
		readEvery(t, a, twice)
		ref = twice
	}
	// Destroy while read_only frees the copy with the array.
	must(t, cyclic.Destroy())
	must(t, regular.Destroy())
	if ga.InquireMemory() != mem0 {
		t.Errorf("memory in use %d after Destroy of read_only arrays, %d before", ga.InquireMemory(), mem0)
	}
	// Terminate destroys a read_only array and its copy.
	left, err := ga.Create[float64]("left for Terminate", dims, nil)
	must(t, err)
	must(t, left.Fill(1))
	must(t, left.SetProperty("read_only"))
}

// twoLayouts makes a regular and a block-cyclic (blocks of 2 × 2) array of
// float64 of dims, for the tests of the copies and caches per node.
func twoLayouts(t *testing.T, dims []int) (regular, cyclic *ga.Array[float64]) {
	regular, err := ga.Create[float64]("regular", dims, nil)
	must(t, err)
	cyclic, err = ga.New[float64](dims...).BlockCyclic(2, 2).Name("cyclic").Allocate()
	must(t, err)
	return regular, cyclic
}

// readEvery reads a by every kind of get and checks the values against
// ref, the whole array in C order. It is collective (it syncs).
func readEvery(t *testing.T, a *ga.Array[float64], ref []float64) {
	t.Helper()
	dims := a.Dims()
	at := func(r, c int) float64 { return ref[r*dims[1]+c] }
	sameElems(t, a.Name()+" by Get", getAll(t, a), ref)
	// A patch with a leading dimension wider than it.
	lo, hi, ld := []int{1, 1}, []int{5, 3}, []int{4}
	got := make([]float64, bufLen(lo, hi, ld))
	must(t, a.Get(lo, hi, got, ld))
	var want, picked []float64
	eachSub(lo, hi, func(sub []int) {
		want = append(want, at(sub[0], sub[1]))
		picked = append(picked, got[bufPos(lo, hi, ld, sub)])
	})
	sameElems(t, a.Name()+" patch by Get", picked, want)
	nb := make([]float64, volume(lo, hi))
	h, err := a.NbGet(lo, hi, nb, nil)
	must(t, err)
	must(t, h.Wait())
	sameElems(t, a.Name()+" by NbGet", nb, want)
	st := make([]float64, 6)
	must(t, a.StridedGet([]int{0, 0}, []int{5, 4}, []int{3, 2}, st, nil))
	sameElems(t, a.Name()+" by StridedGet", st, []float64{at(0, 0), at(0, 2), at(0, 4), at(3, 0), at(3, 2), at(3, 4)})
	per := make([]float64, 4)
	must(t, a.PeriodicGet([]int{6, 4}, []int{7, 5}, per, nil))
	sameElems(t, a.Name()+" by PeriodicGet", per, []float64{at(6, 4), at(6, 0), at(0, 4), at(0, 0)})
	g := make([]float64, 3)
	must(t, a.Gather(g, [][]int{{6, 4}, {0, 0}, {3, 2}}))
	sameElems(t, a.Name()+" by Gather", g, []float64{at(6, 4), at(0, 0), at(3, 2)})
	must(t, a.GatherFlat(g, []int{2, 1, 5, 0, 1, 3}))
	sameElems(t, a.Name()+" by GatherFlat", g, []float64{at(2, 1), at(5, 0), at(1, 3)})
	must(t, ga.Sync())
}

// testNodeCopySubgroup: an array on a group of the first and last
// processes has a copy on each of its nodes when they differ; the group
// of its processes on the node ends with the group.
func testNodeCopySubgroup(t *testing.T) {
	size := ga.Nnodes()
	if size < 2 {
		return
	}
	members := []int{0, size - 1}
	p, err := ga.PgroupCreate(members)
	must(t, err)
	if slices.Contains(members, ga.Nodeid()) {
		dims := []int{4, 6}
		ref := pattern(dims, func(i int) float64 { return float64(i) - 7.5 })
		a, err := ga.CreateConfig[float64]("on two", dims, nil, p)
		must(t, err)
		if p.Nodeid() == 0 {
			lo, hi := fullPatch(dims)
			must(t, a.Put(lo, hi, ref, nil))
		}
		must(t, p.Sync())
		must(t, a.SetProperty("read_only"))
		several := ga.ClusterProcNodeid(members[0]) != ga.ClusterProcNodeid(members[1])
		if ga.NodeCopied(a) != several {
			t.Errorf("array on processes %v: a copy on this node %v, want %v", members, ga.NodeCopied(a), several)
		}
		sameElems(t, "array on two processes, read_only", getAll(t, a), ref)
		wantErr(t, "Zero", a.Zero(), "Zero", "on two", ga.ErrReadOnly)
		must(t, a.Destroy())
	}
	must(t, p.Destroy())
	must(t, ga.Sync())
}
