package ga_test

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestCollectives checks the collective array operations, the message-passing
// wrappers, MaskSync, printing, process topology and cluster information
// against closed forms.
func TestCollectives(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		t.Run("ArrayOps", func(t *testing.T) {
			eachType(t, testArrayOps[int32], testArrayOps[int64], testArrayOps[float32],
				testArrayOps[float64], testArrayOps[complex64], testArrayOps[complex128])
		})
		t.Run("Gop", func(t *testing.T) {
			eachType(t, testGop[int32], testGop[int64], testGop[float32],
				testGop[float64], testGop[complex64], testGop[complex128])
		})
		t.Run("Brdcst", testBrdcst)
		t.Run("MaskSync", testMaskSync)
		t.Run("Print", testPrint)
		t.Run("T11Topology", testTopology)
		t.Run("Cluster", testCluster)
		t.Run("CompareDistr", testCompareDistr)
	}, mpitest.AcrossNodes(), mpitest.ManyNodes())
}

// TestTopology9 is the GA user manual's topology example (section 7.1.1): on 9
// processes in a 3x3 grid, process 7 is at (2,1) in C order.
func TestTopology9(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		irr, err := ga.CreateIrreg[float64]("3x3", []int{9, 9}, [][]int{{0, 3, 6}, {0, 3, 6}})
		must(t, err)
		reg, err := ga.Create[float64]("9x9", []int{9, 9}, nil)
		must(t, err)
		for _, a := range []*ga.Array[float64]{irr, reg} {
			if g := a.ProcGrid(); !slices.Equal(g, []int{3, 3}) {
				t.Errorf("%s: process grid %v, want [3 3]", a.Name(), g)
			}
			if c, ok := a.ProcTopology(7); !ok || !slices.Equal(c, []int{2, 1}) {
				t.Errorf("%s: ProcTopology(7) = %v %v, want [2 1]", a.Name(), c, ok)
			}
			if lo, hi, _ := a.Distribution(7); !slices.Equal(lo, []int{6, 3}) || !slices.Equal(hi, []int{8, 5}) {
				t.Errorf("%s: Distribution(7) = %v %v, want [6 3] [8 5]", a.Name(), lo, hi)
			}
		}
	}, mpitest.Ranks(9))
}

// ---- Zero, Fill, Scale, Copy, Add, Dot ----

func testArrayOps[T ga.Elem](t *testing.T) {
	n := ga.Nnodes()
	dims := []int{7, 11}
	a, err := ga.Create[T]("a", dims, nil)
	must(t, err)
	defer destroy(t, a)
	// b: the same shape distributed along dimension 1 only.
	b, err := ga.New[T](dims...).Name("b").Chunk(7, 1).Allocate()
	must(t, err)
	defer destroy(t, b)
	starts := [][]int{{0}, {0}}
	if n >= 2 {
		starts = [][]int{{0, 6}, {0}} // a block of one row
	}
	c, err := ga.CreateIrreg[T]("c", dims, starts)
	must(t, err)
	defer destroy(t, c)
	if lo, _, ok := b.Distribution(0); ok && n > 1 && (lo[0] != 0 || b.ProcGrid()[0] != 1) {
		t.Errorf("b with chunk {7, 1} is split along dimension 0: grid %v", b.ProcGrid())
	}
	f := pattern[T](dims, func(l int) T { return mk[T](l%13-6, l%5-2) })
	g := pattern[T](dims, func(l int) T { return mk[T](3-l%7, l%3) })
	apply := func(v []T, h func(T) T) []T {
		out := make([]T, len(v))
		for i := range v {
			out[i] = h(v[i])
		}
		return out
	}
	check := func(what string, x *ga.Array[T], want []T) {
		t.Helper()
		sameElems(t, what, getAll(t, x), want)
		checkLocal(t, x, want)
		must(t, ga.Sync())
	}

	v := mk[T](-4, 9)
	must(t, a.Fill(v))
	check("Fill", a, apply(f, func(T) T { return v }))
	must(t, a.Zero())
	check("Zero", a, make([]T, total(dims)))

	putAll(t, a, f)
	s := mk[T](-3, 2)
	must(t, a.Scale(s))
	fs := apply(f, func(x T) T { return x * s })
	check("Scale", a, fs)

	// Copy between distributions of one shape.
	must(t, ga.Copy(a, b))
	check("Copy to another distribution", b, fs)
	must(t, ga.Copy(b, c))
	check("Copy to an irregular distribution", c, fs)

	// Copy between shapes with one element count: C linear order.
	for _, shape := range [][]int{{11, 7}, {77}, {7, 1, 11}, {1, 77}} {
		d, err := ga.Create[T](fmt.Sprint("reshaped ", shape), shape, nil)
		must(t, err)
		must(t, ga.Copy(a, d))
		check(fmt.Sprintf("Copy %v to %v", dims, shape), d, fs)
		must(t, d.Scale(mk[T](-1, 0)))
		must(t, ga.Copy(d, c))
		check(fmt.Sprintf("Copy %v back to %v", shape, dims), c, apply(fs, func(x T) T { return -x }))
		must(t, d.Destroy())
	}

	// Add into a third array, and in place into an operand.
	putAll(t, a, f)
	putAll(t, b, g)
	alpha, beta := mk[T](2, 1), mk[T](-3, 0)
	sum := make([]T, len(f))
	for i := range f {
		sum[i] = alpha*f[i] + beta*g[i]
	}
	must(t, ga.Add(alpha, a, beta, b, c))
	check("Add into c", c, sum)
	must(t, ga.Add(alpha, a, beta, b, a))
	check("Add into a", a, sum)
	must(t, ga.Add(alpha, c, beta, b, b))
	sum2 := make([]T, len(f))
	for i := range f {
		sum2[i] = alpha*sum[i] + beta*g[i]
	}
	check("Add into b", b, sum2)

	// Dot: no conjugation.
	putAll(t, a, f)
	putAll(t, b, g)
	var want, wantSelf T
	for i := range f {
		want += f[i] * g[i]
		wantSelf += f[i] * f[i]
	}
	for _, pair := range [][2]*ga.Array[T]{{a, b}, {b, a}} {
		got, err := ga.Dot(pair[0], pair[1])
		must(t, err)
		if got != want {
			t.Errorf("Dot(%s, %s) = %v, want %v", pair[0].Name(), pair[1].Name(), got, want)
		}
	}
	got, err := ga.Dot(a, a)
	must(t, err)
	if got != wantSelf {
		t.Errorf("Dot(a, a) = %v, want %v", got, wantSelf)
	}
	// c has ranks with no block from 3 ranks on.
	must(t, ga.Copy(a, c))
	for _, pair := range [][2]*ga.Array[T]{{c, b}, {b, c}} {
		got, err := ga.Dot(pair[0], pair[1])
		must(t, err)
		if got != want {
			t.Errorf("Dot(%s, %s) = %v, want %v", pair[0].Name(), pair[1].Name(), got, want)
		}
	}
	// Collectives leave their inputs alone.
	check("a after Dot", a, f)
	check("b after Dot", b, g)
}

// ---- Gop and Brdcst ----

// testGop: small (carried by the agreement's collective), past
// armci.RecordCap bytes (carried on one node only) and past armci.GatherCap
// (MPI_Allreduce after the agreement everywhere).
func testGop[T ga.Elem](t *testing.T) {
	for _, m := range []int{6, 40, 300} {
		testGopOf[T](t, m)
	}
}

func testGopOf[T ga.Elem](t *testing.T, m int) {
	me, n := ga.Nodeid(), ga.Nnodes()
	ops := []ga.Op{ga.OpSum, ga.OpProd, ga.OpMax, ga.OpMin, ga.OpAbsMax, ga.OpAbsMin}
	re := func(v T) float64 { return real(complexOf(v)) }
	for _, op := range ops {
		x := func(r, i int) T { return mk[T](3*r-4+i%7, i%5-r) }
		if op == ga.OpProd {
			// Factors of at most 2 in each part, so that the product over
			// 8 processes stays exact in float32 in any order of combining.
			x = func(r, i int) T { return mk[T](1+(r+i)%2, (r+i)%3-1) }
		}
		mine := make([]T, m)
		for i := range mine {
			mine[i] = x(me, i)
		}
		if isComplex[T]() && op != ga.OpSum && op != ga.OpProd {
			keep := slices.Clone(mine)
			wantErr(t, "Gop "+string(op)+" on "+typeName[T](), ga.Gop(mine, op), "Gop", "", nil, string(op))
			sameElems(t, "x after a refused Gop", mine, keep)
			continue
		}
		must(t, ga.Gop(mine, op))
		want := make([]T, m)
		for i := range want {
			w := x(0, i)
			if (op == ga.OpAbsMax || op == ga.OpAbsMin) && re(w) < 0 {
				w = -w
			}
			for r := 1; r < n; r++ {
				v := x(r, i)
				switch op {
				case ga.OpSum:
					w += v
				case ga.OpProd:
					w *= v
				case ga.OpMax:
					if re(v) > re(w) {
						w = v
					}
				case ga.OpMin:
					if re(v) < re(w) {
						w = v
					}
				case ga.OpAbsMax, ga.OpAbsMin:
					if re(v) < 0 {
						v = -v
					}
					if (op == ga.OpAbsMax) == (re(v) > re(w)) && re(v) != re(w) {
						w = v
					}
				}
			}
			want[i] = w
		}
		sameElems(t, "Gop "+string(op), mine, want)
	}
	wantErr(t, "Gop with an unknown op", ga.Gop([]T{1}, "avg"), "Gop", "", nil, "avg")
}

func complexOf[T ga.Elem](v T) complex128 {
	switch x := any(v).(type) {
	case int32:
		return complex(float64(x), 0)
	case int64:
		return complex(float64(x), 0)
	case float32:
		return complex(float64(x), 0)
	case float64:
		return complex(x, 0)
	case complex64:
		return complex128(x)
	case complex128:
		return x
	}
	panic("unreachable")
}

// testBrdcst: buffers of a few bytes and, for bytes, past armci.RecordCap
// and past armci.GatherCap.
func testBrdcst(t *testing.T) {
	for _, nb := range []int{13, 600, 3000} {
		testBrdcstOf(t, nb)
	}
}

func testBrdcstOf(t *testing.T, nb int) {
	me, n := ga.Nodeid(), ga.Nnodes()
	for _, root := range []int{0, n - 1} {
		b := make([]byte, nb)
		f := make([]float64, 5)
		z := make([]complex128, 3)
		k := make([]int32, 4)
		for i := range b {
			b[i] = byte(i*7 + me)
		}
		for i := range f {
			f[i] = float64(me*100) + float64(i)/4
		}
		for i := range z {
			z[i] = complex(float64(me), float64(-i))
		}
		for i := range k {
			k[i] = int32(me*1000 - i)
		}
		must(t, ga.Brdcst(b, root))
		must(t, ga.Brdcst(f, root))
		must(t, ga.Brdcst(z, root))
		must(t, ga.Brdcst(k, root))
		for i := range b {
			if b[i] != byte(i*7+root) {
				t.Errorf("Brdcst from %d: bytes %v", root, b)
				break
			}
		}
		for i := range f {
			if f[i] != float64(root*100)+float64(i)/4 {
				t.Errorf("Brdcst from %d: float64s %v", root, f)
				break
			}
		}
		for i := range z {
			if z[i] != complex(float64(root), float64(-i)) {
				t.Errorf("Brdcst from %d: complex128s %v", root, z)
				break
			}
		}
		for i := range k {
			if k[i] != int32(root*1000-i) {
				t.Errorf("Brdcst from %d: int32s %v", root, k)
				break
			}
		}
	}
}

// ---- MaskSync ----

// testMaskSync: with both synchronizations masked, rank 0 finishes a
// collective operation before rank 1 even starts it (rank 1 starts only when
// rank 0's message says it has finished: any synchronization would deadlock,
// and rank 1 gives up after a while). The mask applies once; with one side
// masked, the other still waits for a late rank.
func testMaskSync(t *testing.T) {
	me, n := ga.Nodeid(), ga.Nnodes()
	a, err := ga.Create[float64]("masked", []int{4 * n, 3}, nil)
	must(t, err)
	defer destroy(t, a)
	if n < 2 {
		MaskOnly(t, a)
		return
	}
	c := ga.Comm()
	ga.MaskSync(false, false)
	switch me {
	case 0:
		must(t, a.Fill(1))
		must(t, mpi.Send(c, []int{1}, 1, 5))
	case 1:
		deadline := time.Now().Add(20 * time.Second)
		for {
			ok, _, err := mpi.Iprobe[int](c, 0, 5)
			must(t, err)
			if ok {
				break
			}
			if time.Now().After(deadline) {
				fatalf(t, "rank 0 is still inside a Fill with both synchronizations masked: it waits for rank 1")
			}
			time.Sleep(time.Millisecond)
		}
		_, err := mpi.Recv(c, []int{0}, 0, 5)
		must(t, err)
		must(t, a.Fill(1))
	default:
		must(t, a.Fill(1))
	}
	must(t, ga.Sync())
	want := make([]float64, 12*n)
	for i := range want {
		want[i] = 1
	}
	sameElems(t, "masked Fill", getAll(t, a), want)
	must(t, ga.Sync())

	// Rank 1 comes late, after a put into rank 0's block. Whenever one side
	// is on, rank 0 must wait for it; when the start is on, rank 0 must also
	// scale the value rank 1 put (the sync completes the put first).
	const late = 300 * time.Millisecond
	at, _, _ := a.Distribution(0)
	scaled := 1.0
	for k, m := range []struct {
		name       string
		begin, end bool
		mask       bool
	}{{"after a mask (applies once)", true, true, false}, {"begin only", true, false, true}, {"end only", false, true, true}} {
		v := float64(100 * (k + 1))
		if m.mask {
			ga.MaskSync(m.begin, m.end)
		}
		if me == 1 {
			time.Sleep(late)
			must(t, a.Put(at, at, []float64{v}, nil))
		}
		start := time.Now()
		must(t, a.Scale(2))
		if took := time.Since(start); me == 0 && took < late*3/4 {
			t.Errorf("%s: Scale returned in %v on rank 0 while rank 1 came %v late", m.name, took, late)
		}
		must(t, ga.Sync())
		scaled *= 2
		got := []float64{0}
		must(t, a.Get(at, at, got, nil))
		if m.begin && got[0] != 2*v {
			t.Errorf("%s: element %v = %v; Scale did not wait for rank 1's put of %v", m.name, at, got[0], v)
		}
		must(t, ga.Sync())
	}
	for i := range want {
		want[i] = scaled
	}
	got := getAll(t, a)
	got[linear(a.Dims(), at)] = scaled // checked above
	sameElems(t, "after three Scale(2)", got, want)
	must(t, ga.Sync())
}

// MaskOnly is the one-rank part of testMaskSync: masked operations still do
// their work.
func MaskOnly(t *testing.T, a *ga.Array[float64]) {
	ga.MaskSync(false, false)
	must(t, a.Fill(3))
	ga.MaskSync(true, false)
	must(t, a.Scale(2))
	want := make([]float64, total(a.Dims()))
	for i := range want {
		want[i] = 6
	}
	sameElems(t, "masked Fill and Scale", getAll(t, a), want)
}

// ---- printing ----

func testPrint(t *testing.T) {
	me, n := ga.Nodeid(), ga.Nnodes()
	a, err := ga.Create[int32]("small", []int{3, 4}, nil)
	must(t, err)
	defer destroy(t, a)
	putAll(t, a, pattern[int32](a.Dims(), func(l int) int32 { return int32(10*l - 7) }))
	var out bytes.Buffer
	must(t, a.Fprint(&out))
	if me != 0 {
		if out.Len() != 0 {
			t.Errorf("rank %d printed %q; only rank 0 prints", me, out.String())
		}
	} else {
		lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
		if len(lines) != 4 || !strings.Contains(lines[0], "small") {
			t.Errorf("Print: %q, want a heading naming the array and 3 rows", out.String())
		} else {
			for r, line := range lines[1:] {
				_, vals, ok := strings.Cut(line, ":")
				want := fmt.Sprint(10*(4*r)-7, 10*(4*r+1)-7, 10*(4*r+2)-7, 10*(4*r+3)-7)
				if !ok || strings.Join(strings.Fields(vals), " ") != strings.Join(strings.Fields(want), " ") {
					t.Errorf("Print row %d: %q, want values %s", r, line, want)
				}
			}
		}
	}
	out.Reset()
	must(t, a.FprintDistribution(&out))
	if me == 0 {
		for r := range n {
			want := "no data"
			if lo, hi, ok := a.Distribution(r); ok {
				want = fmt.Sprintf("lo %v hi %v", lo, hi)
			}
			if !strings.Contains(out.String(), fmt.Sprintf("process %d: %s", r, want)) {
				t.Errorf("PrintDistribution: %q lacks rank %d's %q", out.String(), r, want)
			}
		}
	}
	must(t, ga.Sync())
}

// ---- topology and cluster ----

// testTopology: processes are numbered row-major over the C-order process
// grid (GA user manual, section 7.1.1: in a 3x3 grid process 7 is at (2,1)); checked on the grids
// that fit the ranks at hand.
func testTopology(t *testing.T) {
	n := ga.Nnodes()
	type want struct {
		rank   int
		coords []int
	}
	cases := []struct {
		starts [][]int
		wants  []want
	}{
		{[][]int{{0}, {0}}, []want{{0, []int{0, 0}}}},
	}
	if n >= 2 {
		cases = append(cases,
			struct {
				starts [][]int
				wants  []want
			}{[][]int{{0, 3}, {0}}, []want{{0, []int{0, 0}}, {1, []int{1, 0}}}},
			struct {
				starts [][]int
				wants  []want
			}{[][]int{{0}, {0, 2}}, []want{{0, []int{0, 0}}, {1, []int{0, 1}}}})
	}
	if n >= 3 {
		cases = append(cases, struct {
			starts [][]int
			wants  []want
		}{[][]int{{0}, {0, 2, 4}}, []want{{1, []int{0, 1}}, {2, []int{0, 2}}}})
	}
	if n >= 4 {
		cases = append(cases, struct {
			starts [][]int
			wants  []want
		}{[][]int{{0, 3}, {0, 2}}, []want{{0, []int{0, 0}}, {1, []int{0, 1}}, {2, []int{1, 0}}, {3, []int{1, 1}}}})
	}
	for _, c := range cases {
		a, err := ga.CreateIrreg[float32]("grid", []int{6, 6}, c.starts)
		must(t, err)
		for _, w := range c.wants {
			got, ok := a.ProcTopology(w.rank)
			if !ok || !slices.Equal(got, w.coords) {
				t.Errorf("starts %v: ProcTopology(%d) = %v %v, want %v", c.starts, w.rank, got, ok, w.coords)
			}
		}
		if _, ok := a.ProcTopology(n); ok {
			t.Errorf("ProcTopology(%d) of %d ranks reports coordinates", n, n)
		}
		must(t, a.Destroy())
	}
	// The default distribution of a square array on 4 ranks is the 2x2 grid.
	a, err := ga.Create[float32]("square", []int{10, 10}, nil)
	must(t, err)
	defer destroy(t, a)
	checkDistribution(t, a, nil)
	if n == 4 {
		if g := a.ProcGrid(); !slices.Equal(g, []int{2, 2}) {
			t.Errorf("10x10 on 4 ranks: grid %v, want [2 2]", g)
		}
		if c, _ := a.ProcTopology(2); !slices.Equal(c, []int{1, 0}) {
			t.Errorf("10x10 on 4 ranks: ProcTopology(2) = %v, want [1 0]", c)
		}
		if lo, hi, _ := a.Distribution(2); !slices.Equal(lo, []int{5, 0}) || !slices.Equal(hi, []int{9, 4}) {
			t.Errorf("10x10 on 4 ranks: Distribution(2) = %v %v, want [5 0] [9 4]", lo, hi)
		}
	}
}

// testCluster compares the cluster calls with MPI's own grouping by node.
func testCluster(t *testing.T) {
	me, n := ga.Nodeid(), ga.Nnodes()
	node, err := ga.Comm().SplitType(mpi.SplitShared, 0)
	must(t, err)
	defer mpitest.Cleanup(t, node.Free)
	// The node's lowest GA rank names it; number nodes by that leader.
	leader := []int{0}
	must(t, mpi.Allreduce(node, []int{me}, leader, mpi.Min))
	leaders := make([]int, n)
	must(t, mpi.Allgather(ga.Comm(), leader, leaders))
	distinct := slices.Compact(slices.Sorted(slices.Values(leaders)))
	if got := ga.ClusterNnodes(); got != len(distinct) {
		t.Errorf("ClusterNnodes = %d, want %d", got, len(distinct))
	}
	id := ga.ClusterNodeid()
	if want, _ := slices.BinarySearch(distinct, leader[0]); id != want {
		t.Errorf("ClusterNodeid = %d, want %d", id, want)
	}
	if got := ga.ClusterNprocs(id); got != node.Size() {
		t.Errorf("ClusterNprocs(%d) = %d, want %d", id, got, node.Size())
	}
	if got := ga.ClusterProcid(id, node.Rank()); got != me {
		t.Errorf("ClusterProcid(%d, %d) = %d, want %d", id, node.Rank(), got, me)
	}
	seen := 0
	for k := range ga.ClusterNnodes() {
		for i := range ga.ClusterNprocs(k) {
			r := ga.ClusterProcid(k, i)
			if ga.ClusterProcNodeid(r) != k {
				t.Errorf("ClusterProcid(%d, %d) = %d, but ClusterProcNodeid(%d) = %d", k, i, r, r, ga.ClusterProcNodeid(r))
			}
			seen++
		}
	}
	if seen != n {
		t.Errorf("nodes list %d processes, want %d", seen, n)
	}
	if ga.ClusterNprocs(ga.ClusterNnodes()) != 0 || ga.ClusterProcid(id, node.Size()) != -1 || ga.ClusterProcNodeid(n) != -1 {
		t.Errorf("out-of-range cluster queries: %d %d %d", ga.ClusterNprocs(ga.ClusterNnodes()), ga.ClusterProcid(id, node.Size()), ga.ClusterProcNodeid(n))
	} // The nodes are the hosts, as MPI names them: two on the two-node tier,
	// whose second node is a namespace with a host name of its own.
	host, err := mpi.ProcessorName()
	must(t, err)
	h := fnv.New64a()
	h.Write([]byte(host))
	hosts := make([]int64, n)
	must(t, mpi.Allgather(ga.Comm(), []int64{int64(h.Sum64() >> 1)}, hosts))
	if got, want := ga.ClusterNnodes(), len(slices.Compact(slices.Sorted(slices.Values(hosts)))); got != want {
		t.Errorf("ClusterNnodes = %d; the processes run on %d hosts", got, want)
	}
}

func testCompareDistr(t *testing.T) {
	a, err := ga.Create[float64]("cmp a", []int{9, 5}, nil)
	must(t, err)
	defer destroy(t, a)
	b, err := ga.Create[int32]("cmp b", []int{9, 5}, nil) // another type
	must(t, err)
	defer destroy(t, b)
	c, err := ga.Create[float64]("cmp c", []int{9, 5}, []int{9, 1})
	must(t, err)
	defer destroy(t, c)
	d, err := ga.Create[float64]("cmp d", []int{5, 9}, nil)
	must(t, err)
	defer destroy(t, d)
	if !ga.CompareDistr(a, b) {
		t.Errorf("CompareDistr of two default 9x5 arrays of different types is false")
	}
	if n := ga.Nnodes(); n > 1 && ga.CompareDistr(a, c) {
		t.Errorf("CompareDistr of default and {9,1}-chunked 9x5 arrays is true: %v and %v", a.ProcGrid(), c.ProcGrid())
	}
	if ga.CompareDistr(a, d) {
		t.Errorf("CompareDistr of 9x5 and 5x9 arrays is true")
	}
}
