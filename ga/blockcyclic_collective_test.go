package ga_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// ---- collectives ----

// TestBlockCyclicCollectives checks Zero, Fill, Scale, Add, Dot, Copy,
// Duplicate, CompareDistr and printing on block-cyclic arrays, alone and
// mixed with regular ones.
func TestBlockCyclicCollectives(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		t.Run("int32", bcCollectiveCase[int32])
		t.Run("float64", bcCollectiveCase[float64])
		t.Run("complex128", bcCollectiveCase[complex128])
		t.Run("CopyShapes", testBCCopyShapes)
		t.Run("Duplicate", testBCDuplicate)
		t.Run("Print", testBCPrint)
	})
}

func bcCollectiveCase[T ga.Elem](t *testing.T) {
	n := ga.Nnodes()
	dims := []int{7, 9}
	lc := bcLayout{dims: dims, block: []int{2, 3}, nproc: n}
	lg := bcLayout{dims: dims, block: []int{3, 2}, grid: bcGrid(2, n), nproc: n}
	cyc, err := bcAllocate[T]("coll cyclic", lc)
	must(t, err)
	defer destroy(t, cyc)
	grd, err := bcAllocate[T]("coll grid", lg)
	must(t, err)
	defer destroy(t, grd)
	reg, err := ga.Create[T]("coll regular", dims, nil)
	must(t, err)
	defer destroy(t, reg)
	layouts := map[*ga.Array[T]]bcLayout{cyc: lc, grd: lg}

	N := total(dims)
	p := pattern[T](dims, func(lin int) T { return mk[T](lin+1, 1) })
	const0 := func(v T) []T {
		out := make([]T, N)
		for i := range out {
			out[i] = v
		}
		return out
	}
	for _, x := range []*ga.Array[T]{cyc, grd} {
		l := layouts[x]
		v := mk[T](3, -2)
		must(t, x.Fill(v))
		sameElems(t, x.Name()+": after Fill", getAll(t, x), const0(v))
		bcCheckStorage(t, x, l, const0(v))
		must(t, x.Zero())
		sameElems(t, x.Name()+": after Zero", getAll(t, x), const0(0))
		bcCheckStorage(t, x, l, const0(0))
		must(t, ga.Sync())
		putAll(t, x, p)
		s := mk[T](2, 1)
		must(t, x.Scale(s))
		want := make([]T, N)
		for i := range want {
			want[i] = p[i] * s
		}
		sameElems(t, x.Name()+": after Scale", getAll(t, x), want)
		bcCheckStorage(t, x, l, want)
		must(t, ga.Sync())
	}

	// Dot against closed forms: p·p and p·1 with p = (l+1) (+ i).
	putAll(t, cyc, p)
	putAll(t, grd, p)
	must(t, reg.Fill(mk[T](1, 0)))
	s1, s2 := N*(N+1)/2, N*(N+1)*(2*N+1)/6
	pp, p1 := mk[T](s2, 0), mk[T](s1, 0)
	if isComplex[T]() {
		pp, p1 = mk[T](s2-N, N*(N+1)), mk[T](s1, N)
	}
	for _, c := range []struct {
		what string
		a, b *ga.Array[T]
		want T
	}{
		{"cyclic·cyclic", cyc, cyc, pp},
		{"grid·grid", grd, grd, pp},
		{"cyclic·grid", cyc, grd, pp},
		{"grid·cyclic", grd, cyc, pp},
		{"cyclic·regular", cyc, reg, p1},
		{"regular·grid", reg, grd, p1},
	} {
		got, err := ga.Dot(c.a, c.b)
		must(t, err)
		if got != c.want {
			t.Errorf("Dot %s = %v, want %v", c.what, got, c.want)
		}
	}

	// Add, mixing distributions, and in place.
	al, be := mk[T](2, 0), mk[T](-1, 1)
	must(t, ga.Add(al, cyc, be, reg, grd)) // grd = 2p + (-1+i)
	want := make([]T, N)
	for i := range want {
		want[i] = al*p[i] + be*mk[T](1, 0)
	}
	sameElems(t, "Add(cyclic, regular) into grid", getAll(t, grd), want)
	bcCheckStorage(t, grd, lg, want)
	must(t, ga.Add(mk[T](1, 0), cyc, mk[T](3, 0), grd, reg)) // reg = p + 3·grd
	want2 := make([]T, N)
	for i := range want2 {
		want2[i] = p[i] + mk[T](3, 0)*want[i]
	}
	sameElems(t, "Add(cyclic, grid) into regular", getAll(t, reg), want2)
	must(t, ga.Add(mk[T](1, 0), cyc, mk[T](1, 0), cyc, cyc)) // cyc = 2p
	want3 := make([]T, N)
	for i := range want3 {
		want3[i] = p[i] + p[i]
	}
	sameElems(t, "Add in place", getAll(t, cyc), want3)
	bcCheckStorage(t, cyc, lc, want3)
	must(t, ga.Add(mk[T](1, 0), reg, mk[T](-1, 0), grd, cyc)) // cyc = reg - grd
	want4 := make([]T, N)
	for i := range want4 {
		want4[i] = want2[i] - want[i]
	}
	sameElems(t, "Add(regular, grid) into cyclic", getAll(t, cyc), want4)
	bcCheckStorage(t, cyc, lc, want4)

	// Copy regular → cyclic → grid → regular.
	must(t, ga.Sync())
	putAll(t, reg, p)
	must(t, cyc.Zero())
	must(t, grd.Zero())
	must(t, ga.Copy(reg, cyc))
	sameElems(t, "Copy regular → cyclic", getAll(t, cyc), p)
	bcCheckStorage(t, cyc, lc, p)
	must(t, ga.Copy(cyc, grd))
	sameElems(t, "Copy cyclic → grid", getAll(t, grd), p)
	bcCheckStorage(t, grd, lg, p)
	must(t, reg.Zero())
	must(t, ga.Copy(grd, reg))
	sameElems(t, "Copy grid → regular", getAll(t, reg), p)
	must(t, ga.Sync())
}

// testBCCopyShapes copies 60 values around arrays of shapes 6×10, 10×6 and
// 60, regular and block-cyclic, matched in C order.
func testBCCopyShapes(t *testing.T) {
	n := ga.Nnodes()
	p := pattern[float64]([]int{60}, func(lin int) float64 { return float64(lin)*1.25 - 7 })
	r610, err := ga.Create[float64]("r 6x10", []int{6, 10}, nil)
	must(t, err)
	defer destroy(t, r610)
	r106, err := ga.Create[float64]("r 10x6", []int{10, 6}, nil)
	must(t, err)
	defer destroy(t, r106)
	ls := []bcLayout{
		{dims: []int{10, 6}, block: []int{3, 4}, nproc: n},
		{dims: []int{60}, block: []int{7}, grid: []int{n}, nproc: n},
		{dims: []int{6, 10}, block: []int{4, 3}, grid: bcGrid(2, n), nproc: n},
		{dims: []int{60}, block: []int{7}, nproc: n},
		{dims: []int{10, 6}, block: []int{2, 5}, grid: bcGrid(2, n), nproc: n},
		{dims: []int{3, 4, 5}, block: []int{2, 3, 2}, nproc: n},
	}
	arrays := make([]*ga.Array[float64], len(ls))
	for k, l := range ls {
		arrays[k], err = bcAllocate[float64](fmt.Sprintf("copy %v %s", l.dims, bcKind(l.grid != nil)), l)
		must(t, err)
		defer destroy(t, arrays[k])
		must(t, arrays[k].Fill(-1))
	}
	putAll(t, r610, p)
	src := r610
	for k, dst := range arrays {
		must(t, ga.Copy(src, dst))
		sameElems(t, fmt.Sprintf("Copy %s → %s", src.Name(), dst.Name()), getAll(t, dst), p)
		bcCheckStorage(t, dst, ls[k], p)
		src = dst
	}
	must(t, ga.Copy(src, r106))
	sameElems(t, fmt.Sprintf("Copy %s → %s", src.Name(), r106.Name()), getAll(t, r106), p)
	must(t, r610.Zero())
	must(t, ga.Copy(arrays[0], r610))
	sameElems(t, fmt.Sprintf("Copy %s → %s", arrays[0].Name(), r610.Name()), getAll(t, r610), p)
	must(t, ga.Sync())
}

// testBCDuplicate: Duplicate keeps the distribution; CompareDistr tells
// block-cyclic layouts apart from each other and from regular ones.
func testBCDuplicate(t *testing.T) {
	n := ga.Nnodes()
	rng := rand.New(rand.NewPCG(seedOf(t.Name()), 1))
	dims := []int{7, 9}
	lc := bcLayout{dims: dims, block: []int{2, 3}, nproc: n}
	lg := bcLayout{dims: dims, block: []int{2, 3}, grid: bcGrid(2, n), nproc: n}
	cyc, err := bcAllocate[float64]("dup cyclic", lc)
	must(t, err)
	defer destroy(t, cyc)
	grd, err := bcAllocate[float64]("dup grid", lg)
	must(t, err)
	defer destroy(t, grd)
	reg, err := ga.Create[float64]("dup regular", dims, nil)
	must(t, err)
	defer destroy(t, reg)
	p := pattern[float64](dims, func(lin int) float64 { return float64(lin) })
	putAll(t, cyc, p)
	putAll(t, grd, p)

	for _, c := range []struct {
		a *ga.Array[float64]
		l bcLayout
	}{{cyc, lc}, {grd, lg}} {
		d, err := c.a.Duplicate(c.a.Name() + " copy")
		must(t, err)
		if d.Name() != c.a.Name()+" copy" || !slices.Equal(d.Dims(), dims) {
			t.Errorf("Duplicate of %s: name %q dims %v", c.a.Name(), d.Name(), d.Dims())
		}
		if !ga.CompareDistr(c.a, d) || !ga.CompareDistr(d, c.a) {
			t.Errorf("CompareDistr of %s and its duplicate is false", c.a.Name())
		}
		bcCheckLayout(t, d, c.l, rng)
		must(t, d.Fill(5))
		bcCheckStorage(t, d, c.l, pattern[float64](dims, func(int) float64 { return 5 }))
		sameElems(t, c.a.Name()+" after its duplicate was filled", getAll(t, c.a), p)
		must(t, ga.Copy(c.a, d))
		sameElems(t, "duplicate after Copy", getAll(t, d), p)
		bcCheckStorage(t, d, c.l, p)
		must(t, ga.Sync())
		must(t, d.Destroy())
	}

	other := func(name string, l bcLayout) *ga.Array[float64] {
		x, err := bcAllocate[float64](name, l)
		must(t, err)
		return x
	}
	cycInt, err := bcAllocate[int32]("dup cyclic int32", lc)
	must(t, err)
	defer destroy(t, cycInt)
	if !ga.CompareDistr(cyc, cycInt) {
		t.Errorf("CompareDistr of two cyclic {2,3} arrays of different types is false")
	}
	cyc32 := other("cyclic {3,2}", bcLayout{dims: dims, block: []int{3, 2}, nproc: n})
	defer destroy(t, cyc32)
	grid32 := other("grid {3,2}", bcLayout{dims: dims, block: []int{3, 2}, grid: lg.grid, nproc: n})
	defer destroy(t, grid32)
	sameCut := other("grid {2,3} same cut", bcLayout{dims: dims, block: []int{2, 3}, grid: lg.grid, nproc: n})
	defer destroy(t, sameCut)
	if !ga.CompareDistr(grd, sameCut) {
		t.Errorf("CompareDistr of two grid arrays with the same blocks and grid is false")
	}
	for _, c := range []struct {
		what string
		a, b *ga.Array[float64]
	}{
		{"cyclic and regular", cyc, reg},
		{"regular and grid", reg, grd},
		{"cyclic and grid with the same blocks", cyc, grd},
		{"cyclic {2,3} and cyclic {3,2}", cyc, cyc32},
		{"grid {2,3} and grid {3,2}", grd, grid32},
	} {
		if ga.CompareDistr(c.a, c.b) || ga.CompareDistr(c.b, c.a) {
			t.Errorf("CompareDistr of %s is true", c.what)
		}
	}
	if n > 1 {
		gn1 := other("grid n×1", bcLayout{dims: dims, block: []int{2, 3}, grid: []int{n, 1}, nproc: n})
		defer destroy(t, gn1)
		g1n := other("grid 1×n", bcLayout{dims: dims, block: []int{2, 3}, grid: []int{1, n}, nproc: n})
		defer destroy(t, g1n)
		if ga.CompareDistr(gn1, g1n) {
			t.Errorf("CompareDistr of grids %v and %v is true", []int{n, 1}, []int{1, n})
		}
	}
	must(t, ga.Sync())
}

// testBCPrint: Print shows the values in C order; PrintDistribution lists
// every block with its owner and patch.
func testBCPrint(t *testing.T) {
	me, n := ga.Nodeid(), ga.Nnodes()
	for _, grid := range []bool{false, true} {
		l := bcLayout{dims: []int{5, 4}, block: []int{2, 3}, nproc: n}
		if grid {
			l.grid = bcGrid(2, n)
		}
		name := "print " + bcKind(grid)
		a, err := bcAllocate[int32](name, l)
		must(t, err)
		putAll(t, a, pattern[int32](l.dims, func(lin int) int32 { return int32(10*lin - 3) }))
		var out bytes.Buffer
		must(t, a.Fprint(&out))
		if me != 0 {
			if out.Len() != 0 {
				t.Errorf("%s: rank %d printed %q", name, me, out.String())
			}
		} else {
			lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
			if len(lines) != 6 || !strings.Contains(lines[0], name) {
				t.Errorf("%s: Print gave %q, want a heading and 5 rows", name, out.String())
			} else {
				for r, line := range lines[1:] {
					_, vals, ok := strings.Cut(line, ":")
					want := fmt.Sprint(10*(4*r)-3, 10*(4*r+1)-3, 10*(4*r+2)-3, 10*(4*r+3)-3)
					if !ok || strings.Join(strings.Fields(vals), " ") != want {
						t.Errorf("%s: Print row %d is %q, want values %s", name, r, line, want)
					}
				}
			}
		}
		out.Reset()
		must(t, a.FprintDistribution(&out))
		if me == 0 {
			lines := strings.Split(out.String(), "\n")
			for i := range l.blocks() {
				lo, hi := l.patch(i)
				found := false
				for _, line := range lines {
					if strings.Contains(line, fmt.Sprintf("block %d:", i)) &&
						strings.Contains(line, fmt.Sprintf("process %d", l.owner(i))) &&
						strings.Contains(line, fmt.Sprintf("lo %v hi %v", lo, hi)) {
						found = true
					}
				}
				if !found {
					t.Errorf("%s: PrintDistribution %q lacks block %d of process %d, lo %v hi %v", name, out.String(), i, l.owner(i), lo, hi)
				}
			}
		} else if out.Len() != 0 {
			t.Errorf("%s: rank %d printed the distribution", name, me)
		}
		must(t, ga.Sync())
		must(t, a.Destroy())
	}
}
