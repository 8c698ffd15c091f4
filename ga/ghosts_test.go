package ga_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGhosts checks arrays with ghost cells against a model of the halo: the
// manual's example, updates of every kind in every type and 1 to 7
// dimensions, widths up to the block size, updates after puts across block
// edges, the other operations on such arrays, and misuse.
func TestGhosts(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		t.Run("T8Manual", testGhostManual)
		t.Run("Model", func(t *testing.T) {
			eachType(t, testGhostModel[int32], testGhostModel[int64], testGhostModel[float32],
				testGhostModel[float64], testGhostModel[complex64], testGhostModel[complex128])
		})
		t.Run("Widths", testGhostWidths)
		t.Run("Directions", testGhostDirections)
		t.Run("Periodic", testGhostPeriodic)
		t.Run("Invisible", testGhostInvisible)
		t.Run("Solvers", testGhostSolvers)
		t.Run("Misuse", testGhostMisuse)
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP), mpitest.ManyNodes())
}

// cuts returns the starts of n blocks along an extent, as even as possible
// but the first one longer, so that blocks differ.
func cuts(extent, n int) []int {
	n = max(min(n, extent), 1)
	s := make([]int, n)
	for i := 1; i < n; i++ {
		s[i] = extent - (n-i)*(extent/n)
	}
	return s
}

// createGhostCase creates c's array with CreateGhosts or, made irregular,
// CreateGhostsIrreg.
func createGhostCase[T ga.Elem](t *testing.T, name string, c ghostCase) *ga.Array[T] {
	t.Helper()
	var a *ga.Array[T]
	c.make(t, name, func(name string, dims, width []int, starts [][]int) (err error) {
		if starts == nil {
			a, err = ga.CreateGhosts[T](name, dims, width, nil)
		} else {
			a, err = ga.CreateGhostsIrreg[T](name, dims, width, starts)
		}
		return err
	})
	return a
}

// blocksHold reports whether every block of the default distribution of
// dims is at least width[d] wide along each dimension d.
func blocksHold(t *testing.T, dims, width []int) bool {
	a, err := ga.Create[int32]("blocks", dims, nil)
	must(t, err)
	defer destroy(t, a)
	for p := range ga.Nnodes() {
		if lo, hi, ok := a.Distribution(p); ok {
			for d, w := range width {
				if hi[d]-lo[d]+1 < w {
					return false
				}
			}
		}
	}
	return true
}

// halo is where a storage cell of this process's block with its halo lies:
// its direction from the block (-1, 0, +1 along each dimension) and the C
// order index of the element it copies, wrapped around the array.
func halo(dims, lo, width, ext []int, at int) (dir []int, lin int) {
	s := make([]int, len(dims))
	rem := at
	for d := len(dims) - 1; d >= 0; d-- {
		s[d] = rem % ext[d]
		rem /= ext[d]
	}
	dir = make([]int, len(dims))
	for d := range dims {
		switch {
		case s[d] < width[d]:
			dir[d] = -1
		case s[d] >= ext[d]-width[d]:
			dir[d] = 1
		}
		lin = lin*dims[d] + (lo[d]-width[d]+s[d]+dims[d])%dims[d]
	}
	return dir, lin
}

// checkHalo checks this process's block and halo, read by AccessGhosts:
// the block holds ref (the array in C order), the halo pieces in the
// directions filled picks hold their wrapped elements, the others old.
func checkHalo[T ga.Elem](t *testing.T, what string, a *ga.Array[T], ref []T, filled func(dir []int) bool, old T) {
	t.Helper()
	ext, ok := a.GhostDims()
	if !ok {
		return
	}
	data, lo, hi, ld, err := a.AccessGhosts()
	must(t, err)
	w := a.GhostWidths()
	if !slices.Equal(ld, ext[1:]) || len(data) != total(ext) {
		t.Errorf("%s: AccessGhosts ld %v with %d elements; GhostDims %v", what, ld, len(data), ext)
		return
	}
	blo := make([]int, len(w))
	for d := range w {
		blo[d] = lo[d] + w[d]
		if hi[d]-lo[d]+1 != ext[d] {
			t.Errorf("%s: AccessGhosts lo %v hi %v for extents %v", what, lo, hi, ext)
		}
	}
	want := make([]T, len(data))
	for at := range data {
		dir, lin := halo(a.Dims(), blo, w, ext, at)
		switch {
		case slices.Max(dir) == 0 && slices.Min(dir) == 0, filled(dir):
			want[at] = ref[lin]
		default:
			want[at] = old
		}
	}
	sameElems(t, fmt.Sprintf("%s, process %d's block and halo", what, ga.Nodeid()), data, want)
	must(t, a.ReleaseGhosts())
}

// setHalo writes v into every ghost cell of this process and syncs.
func setHalo[T ga.Elem](t *testing.T, a *ga.Array[T], v T) {
	t.Helper()
	if ext, ok := a.GhostDims(); ok {
		data, lo, _, _, err := a.AccessGhosts()
		must(t, err)
		w := a.GhostWidths()
		for d := range w {
			lo[d] += w[d]
		}
		for at := range data {
			if dir, _ := halo(a.Dims(), lo, w, ext, at); slices.Max(dir) != 0 || slices.Min(dir) != 0 {
				data[at] = v
			}
		}
		must(t, a.ReleaseUpdateGhosts())
	}
	must(t, ga.Sync())
}

func all([]int) bool { return true }

// testGhostManual is the GA user manual's ghost-update example (section
// 6.1.1; the manual calls the array "4x2", but it is 2 rows × 4 columns, P0
// owning columns 1-2 and P1 columns 3-4, width 1, periodic), then the same
// result by the four calls by direction, by NbGetGhostDir and by
// NbUpdateGhosts.
func testGhostManual(t *testing.T) {
	starts := [][]int{{0}, {0, 2}}
	if ga.Nnodes() == 1 {
		starts = [][]int{{0}, {0}}
	}
	a, err := ga.CreateGhostsIrreg[int32]("manual", []int{2, 4}, []int{1, 1}, starts)
	must(t, err)
	defer destroy(t, a)
	ref := []int32{1, 2, 3, 4, 5, 6, 7, 8}
	putAll(t, a, ref)
	must(t, a.UpdateGhosts())
	checkHalo(t, "UpdateGhosts", a, ref, all, 0)
	want := map[int][]int32{
		0: {8, 5, 6, 7, 4, 1, 2, 3, 8, 5, 6, 7, 4, 1, 2, 3},
		1: {6, 7, 8, 5, 2, 3, 4, 1, 6, 7, 8, 5, 2, 3, 4, 1},
	}[ga.Nodeid()]
	if ga.Nnodes() > 1 && want != nil {
		data, lo, hi, ld, err := a.AccessGhosts()
		must(t, err)
		sameElems(t, "the manual's local patch", data, want)
		wlo, whi := []int{-1, 2*ga.Nodeid() - 1}, []int{2, 2*ga.Nodeid() + 2}
		if !slices.Equal(lo, wlo) || !slices.Equal(hi, whi) || !slices.Equal(ld, []int{4}) {
			t.Errorf("AccessGhosts lo %v hi %v ld %v, want %v %v [4]", lo, hi, ld, wlo, whi)
		}
		for i, v := range want {
			x, ld, err := a.AccessGhostElement([]int{i / 4, i % 4})
			must(t, err)
			if x[0] != v || !slices.Equal(ld, []int{4}) {
				t.Errorf("AccessGhostElement(%d, %d) = %d ld %v, want %d [4]", i/4, i%4, x[0], ld, v)
			}
			must(t, a.ReleaseGhostElement([]int{i / 4, i % 4}))
		}
	}
	if ext, ok := a.GhostDims(); ok {
		data, lo, hi, _, err := a.AccessGhosts()
		must(t, err)
		got := make([]int32, total(ext))
		must(t, a.GetGhostBlock(lo, hi, got, nil))
		sameElems(t, "GetGhostBlock of the block with its halo", got, data)
		// A column of the halo, into a buffer with room to spare.
		col := slices.Repeat([]int32{-9}, 2*ext[0])
		must(t, a.GetGhostBlock([]int{lo[0], lo[1]}, []int{hi[0], lo[1]}, col, []int{2}))
		for i := range ext[0] {
			if col[2*i] != data[i*ext[1]] || col[2*i+1] != -9 {
				t.Errorf("GetGhostBlock of the first column: row %d holds %d then %d, want %d then -9", i, col[2*i], col[2*i+1], data[i*ext[1]])
			}
		}
		must(t, a.ReleaseGhosts())
	}
	whole := make([]int32, 8)
	must(t, a.GetGhostBlock([]int{0, 0}, []int{1, 3}, whole, nil))
	sameElems(t, "GetGhostBlock of the whole array", whole, ref)
	// GA's (0,-1,1), (0,1,1), (1,-1,0), (1,1,0): its dimension 0 is the last
	// in C order.
	setHalo(t, a, -1)
	must(t, a.UpdateGhostDir(1, -1, true))
	must(t, a.UpdateGhostDir(1, 1, true))
	must(t, a.UpdateGhostDir(0, -1, false))
	must(t, a.UpdateGhostDir(0, 1, false))
	checkHalo(t, "by direction", a, ref, all, -1)
	setHalo(t, a, -1)
	var hs []*ga.Handle
	for _, dir := range [][]int{{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}} {
		h, err := a.NbGetGhostDir(dir)
		must(t, err)
		hs = append(hs, h)
	}
	for _, h := range hs {
		must(t, h.Wait())
	}
	must(t, ga.Sync())
	checkHalo(t, "NbGetGhostDir", a, ref, all, -1)
	setHalo(t, a, -1)
	h, err := a.NbUpdateGhosts()
	must(t, err)
	must(t, h.Wait())
	must(t, ga.Sync())
	checkHalo(t, "NbUpdateGhosts", a, ref, all, -1)
}

// ghostCase is a shape with ghost widths, made regular or irregular.
type ghostCase struct {
	dims, width []int
	irregular   bool
}

func (c ghostCase) make(t *testing.T, name string, mk func(name string, dims, width []int, starts [][]int) error) {
	t.Helper()
	if !c.irregular {
		if blocksHold(t, c.dims, c.width) {
			must(t, mk(name, c.dims, c.width, nil))
			return
		}
		// On many processes the default distribution cuts a block
		// thinner than a width, and the halo would need more than one
		// neighbour: refused (GA C does not check), and the case is made
		// irregular as below.
		wantErr(t, fmt.Sprintf("%v width %v regular on %d processes", c.dims, c.width, ga.Nnodes()), mk(name, c.dims, c.width, nil),
			"", name, nil, "wider than the block")
	}
	// Split the first dimension over up to every process, the second in
	// two, as the widths allow.
	starts := make([][]int, len(c.dims))
	n := ga.Nnodes()
	for d, x := range c.dims {
		starts[d] = []int{0}
		if d == 0 {
			starts[d] = cuts(x, min(n, x/max(c.width[d], 1)))
		}
	}
	must(t, mk(name, c.dims, c.width, starts))
}

var ghostCases = []ghostCase{
	{[]int{13}, []int{2}, true},
	{[]int{7, 9}, []int{1, 2}, false},
	{[]int{8, 6}, []int{2, 1}, true},
	{[]int{4, 5, 6}, []int{1, 0, 2}, true},
	{[]int{6, 3, 4, 2}, []int{1, 1, 1, 1}, false},
	{[]int{4, 2, 2, 2, 2, 2, 3}, []int{1, 1, 1, 1, 1, 1, 1}, true},
}

// testGhostModel updates the halo of each case, then writes a stripe across
// the middle of every dimension (landing on block edges) and updates again.
func testGhostModel[T ga.Elem](t *testing.T) {
	for _, c := range ghostCases {
		a := createGhostCase[T](t, "model", c)
		what := fmt.Sprintf("%v width %v", c.dims, c.width)
		ref := pattern(c.dims, func(i int) T { return mk[T](i+1, i%7) })
		putAll(t, a, ref)
		setHalo(t, a, sentinel[T]())
		must(t, a.UpdateGhosts())
		checkHalo(t, what, a, ref, all, sentinel[T]())
		lo, hi := fullPatch(c.dims)
		for d := range c.dims {
			lo[d], hi[d] = (c.dims[d]-1)/2, c.dims[d]/2
		}
		stripe := make([]T, volume(lo, hi))
		for i := range stripe {
			stripe[i] = mk[T](-i-1, 3)
		}
		must(t, ga.Sync()) // every process has checked its halo
		if ga.Nodeid() == ga.Nnodes()-1 {
			must(t, a.Put(lo, hi, stripe, nil))
		}
		k := 0
		eachSub(lo, hi, func(sub []int) { ref[linear(c.dims, sub)] = stripe[k]; k++ })
		must(t, ga.Sync())
		must(t, a.UpdateGhosts())
		checkHalo(t, what+" after a put", a, ref, all, sentinel[T]())
		sameElems(t, what+": Get", getAll(t, a), ref)
		// With its closing sync masked an update cannot leave pieces to
		// it (pushed ones): each process's halo is whole when it returns.
		setHalo(t, a, sentinel[T]())
		must(t, ga.Sync())
		ga.MaskSync(true, false)
		must(t, a.UpdateGhosts())
		checkHalo(t, what+" with the closing sync masked", a, ref, all, sentinel[T]())
		must(t, ga.Sync())
		destroy(t, a)
	}
}

// testGhostWidths updates halos of every width up to the block size, on one
// block per process along a dimension and on a whole dimension in one block
// (which wraps onto itself).
func testGhostWidths(t *testing.T) {
	const n0, n1 = 12, 5
	starts := [][]int{cuts(n0, ga.Nnodes()), {0}}
	block := n0 / ga.Nnodes()
	for w0 := 0; w0 <= block; w0++ {
		for _, w1 := range []int{0, 1, n1} {
			a, err := ga.CreateGhostsIrreg[float64]("widths", []int{n0, n1}, []int{w0, w1}, starts)
			must(t, err)
			if got := a.GhostWidths(); !slices.Equal(got, []int{w0, w1}) || a.HasGhosts() != (w0+w1 > 0) {
				t.Errorf("widths %d %d: GhostWidths %v HasGhosts %v", w0, w1, got, a.HasGhosts())
			}
			ref := pattern([]int{n0, n1}, func(i int) float64 { return float64(i) })
			putAll(t, a, ref)
			must(t, a.UpdateGhosts())
			checkHalo(t, fmt.Sprintf("width %d %d", w0, w1), a, ref, all, 0)
			destroy(t, a)
		}
	}
}

// testGhostDirections checks that UpdateGhostDir fills its side only, with
// or without the corners, and NbGetGhostDir its one piece.
func testGhostDirections(t *testing.T) {
	dims := []int{6, 5, 4}
	a, err := ga.CreateGhostsIrreg[int64]("dirs", dims, []int{1, 2, 1}, [][]int{cuts(6, ga.Nnodes()), {0}, {0}})
	must(t, err)
	defer destroy(t, a)
	ref := pattern(dims, func(i int) int64 { return int64(i) })
	putAll(t, a, ref)
	for dim := range dims {
		for _, side := range []int{-1, 1} {
			for _, corners := range []bool{false, true} {
				setHalo(t, a, -5)
				must(t, a.UpdateGhostDir(dim, side, corners))
				checkHalo(t, fmt.Sprintf("dim %d side %d corners %v", dim, side, corners), a, ref, func(dir []int) bool {
					for d, s := range dir {
						if d == dim && s != side || d != dim && s != 0 && !corners {
							return false
						}
					}
					return true
				}, -5)
			}
		}
	}
	one := []int{1, 0, -1}
	setHalo(t, a, -5)
	h, err := a.NbGetGhostDir(one)
	must(t, err)
	must(t, h.Wait())
	checkHalo(t, "NbGetGhostDir [1 0 -1]", a, ref, func(dir []int) bool { return slices.Equal(dir, one) }, -5)
	must(t, ga.Sync())
}

// testGhostPeriodic checks that the halo past the ends of a dimension that
// is not periodic is left as it was, by every kind of update, and the rest
// filled.
func testGhostPeriodic(t *testing.T) {
	dims := []int{6, 5}
	a, err := ga.CreateGhostsIrreg[float32]("walls", dims, []int{1, 2}, [][]int{cuts(6, ga.Nnodes()), {0}})
	must(t, err)
	defer destroy(t, a)
	ref := pattern(dims, func(i int) float32 { return float32(i) })
	putAll(t, a, ref)
	blo, bhi, _ := a.Distribution(ga.Nodeid())
	for _, periodic := range [][]bool{{false, true}, {true, false}, {false, false}, {true, true}} {
		must(t, a.SetPeriodic(periodic...))
		filled := func(dir []int) bool {
			for d, s := range dir {
				if !periodic[d] && (s < 0 && blo[d] == 0 || s > 0 && bhi[d] == dims[d]-1) {
					return false
				}
			}
			return true
		}
		what := fmt.Sprint("periodic ", periodic)
		setHalo(t, a, -1)
		must(t, a.UpdateGhosts())
		checkHalo(t, what, a, ref, filled, -1)
		setHalo(t, a, -1)
		h, err := a.NbUpdateGhosts()
		must(t, err)
		must(t, h.Wait())
		must(t, ga.Sync())
		checkHalo(t, what+", NbUpdateGhosts", a, ref, filled, -1)
		setHalo(t, a, -1)
		must(t, a.UpdateGhostDir(1, 1, true))
		checkHalo(t, what+", UpdateGhostDir(1, 1, corners)", a, ref, func(dir []int) bool { return dir[1] == 1 && filled(dir) }, -1)
	}
	d, err := a.Duplicate("walls2")
	must(t, err)
	defer destroy(t, d)
	must(t, a.SetPeriodic(false, true))
	if ga.CompareDistr(a, d) {
		t.Error("CompareDistr of arrays that differ in periodicity is true")
	}
}

// testGhostInvisible checks that patches, collectives and element-wise
// operations see an array's own elements only and leave its halo alone.
func testGhostInvisible(t *testing.T) {
	dims := []int{9, 7}
	a := createGhostCase[float64](t, "ghosted", ghostCase{dims, []int{2, 1}, false})
	defer destroy(t, a)
	b, err := ga.Create[float64]("plain", dims, nil)
	must(t, err)
	defer destroy(t, b)
	ref := pattern(dims, func(i int) float64 { return float64(i % 11) })
	putAll(t, a, ref)
	setHalo(t, a, -3)
	must(t, ga.Copy(a, b))
	sameElems(t, "Copy to a plain array", getAll(t, b), ref)
	must(t, a.Scale(2))
	must(t, ga.Add(1, a, -1, b, a)) // a = 2ref - ref
	sameElems(t, "Scale and Add", getAll(t, a), ref)
	dot, err := ga.Dot(a, b)
	must(t, err)
	want := 0.0
	for _, v := range ref {
		want += v * v
	}
	if dot != want {
		t.Errorf("Dot = %v, want %v", dot, want)
	}
	d, err := a.Duplicate("dup")
	must(t, err)
	defer destroy(t, d)
	if !slices.Equal(d.GhostWidths(), []int{2, 1}) {
		t.Errorf("Duplicate's ghost widths %v, want [2 1]", d.GhostWidths())
	}
	checkHalo(t, "halo after the operations", a, ref, func([]int) bool { return false }, -3)
	checkLocal(t, a, ref)
	must(t, ga.Sync())
}

// testGhostSolvers checks that the linear algebra reads and writes arrays
// with ghost cells: a product against a model, and LU solves with a
// residual within ScaLAPACK's bound, A left as it was.
func testGhostSolvers(t *testing.T) {
	const n, nrhs = 7, 2
	a, err := ga.CreateGhosts[float64]("A", []int{n, n}, []int{1, 1}, nil)
	must(t, err)
	defer destroy(t, a)
	b, err := ga.CreateGhosts[float64]("B", []int{n, nrhs}, []int{1, 1}, nil)
	must(t, err)
	defer destroy(t, b)
	c, err := ga.CreateGhosts[float64]("C", []int{n, n}, []int{1, 1}, nil)
	must(t, err)
	defer destroy(t, c)
	av := pattern([]int{n, n}, func(i int) float64 {
		if i%(n+1) == 0 { // the diagonal, dominant
			return 2 * n
		}
		return float64(i%5 - 2)
	})
	bv := pattern([]int{n, nrhs}, func(i int) float64 { return float64(i%3 + 1) })
	putAll(t, a, av)
	setHalo(t, c, -3)
	must(t, ga.Gemm(ga.NoTrans, ga.NoTrans, n, n, n, 1, a, a, 0, c))
	want := make([]float64, n*n)
	for i := range n {
		for j := range n {
			for k := range n {
				want[i*n+j] += av[i*n+k] * av[k*n+j]
			}
		}
	}
	sameElems(t, "Gemm A·A", getAll(t, c), want)
	checkHalo(t, "C's halo after Gemm", c, want, func([]int) bool { return false }, -3)
	for _, trans := range []ga.TransOp{ga.NoTrans, ga.Trans} {
		putAll(t, b, bv)
		must(t, ga.LuSolve(trans, a, b))
		if res := residual(trans == ga.Trans, av, getAll(t, b), bv, n, nrhs); !(res < 16) {
			t.Errorf("LuSolve %c on arrays with ghosts: scaled residual %g", trans, res)
		}
		sameElems(t, "A after LuSolve", getAll(t, a), av)
		must(t, ga.Sync())
	}
}

// testGhostMisuse checks that bad widths and calls fail on every process,
// naming the call.
func testGhostMisuse(t *testing.T) {
	// cuts makes blocks of 8/nb rows, the first longer: a width one
	// more is refused.
	nb := min(ga.Nnodes(), 8)
	starts := [][]int{cuts(8, nb), {0}}
	for _, w := range [][]int{{8/nb + 1, 0}, {0, 7}, {-1, 1}, {1}} {
		_, err := ga.CreateGhostsIrreg[float64]("wide", []int{8, 6}, w, starts)
		wantErr(t, fmt.Sprint("widths ", w), err, "CreateGhostsIrreg", "wide", nil)
	}
	_, err := ga.New[float64](8, 6).Name("bc").BlockCyclic(2, 2).Ghosts(1, 1).Allocate()
	wantErr(t, "block-cyclic with ghosts", err, "Allocate", "bc", nil)
	_, err = ga.CreateGhosts[int32]("toobig", []int{2, 2}, []int{3, 0}, nil)
	wantErr(t, "width past the extent", err, "CreateGhosts", "toobig", nil)
	a, err := ga.CreateGhostsIrreg[float64]("ok", []int{8, 6}, []int{1, 6}, starts)
	must(t, err)
	defer destroy(t, a)
	for _, c := range [][2]int{{2, 1}, {-1, 1}, {0, 0}, {1, 2}} {
		wantErr(t, fmt.Sprint("UpdateGhostDir", c), a.UpdateGhostDir(c[0], c[1], false), "UpdateGhostDir", "ok", nil)
	}
	for _, dir := range [][]int{{0, 0}, {2, 0}, {1}} {
		_, err := a.NbGetGhostDir(dir)
		wantErr(t, fmt.Sprint("NbGetGhostDir", dir), err, "NbGetGhostDir", "ok", nil)
	}
	if ext, ok := a.GhostDims(); ok {
		for _, sub := range [][]int{{-1, 0}, {ext[0], 0}, {0, ext[1]}, {0}} {
			_, _, err := a.AccessGhostElement(sub)
			wantErr(t, fmt.Sprint("AccessGhostElement", sub), err, "AccessGhostElement", "ok", nil)
		}
	}
	bc, err := ga.New[float64](8, 6).Name("cyc").BlockCyclic(2, 2).Allocate()
	must(t, err)
	defer destroy(t, bc)
	wantErr(t, "SetPeriodic with no ghost cells", bc.SetPeriodic(true, false), "SetPeriodic", "cyc", nil)
	wantErr(t, "SetPeriodic with one flag", a.SetPeriodic(true), "SetPeriodic", "ok", nil)
	_, _, _, _, err = bc.AccessGhosts()
	wantErr(t, "AccessGhosts on a block-cyclic array", err, "AccessGhosts", "cyc", nil)
	must(t, bc.UpdateGhosts()) // no ghost cells: only a sync
}
