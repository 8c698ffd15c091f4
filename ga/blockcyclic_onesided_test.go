package ga_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// ---- one-sided operations ----

// TestBlockCyclicOneSided checks every one-sided operation on block-cyclic
// arrays against a plain Go array, on both of the runtime's data paths.
func TestBlockCyclicOneSided(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		eachMode(t, func(t *testing.T) {
			t.Run("Random", func(t *testing.T) {
				for nd := 1; nd <= 3; nd++ {
					for _, grid := range []bool{false, true} {
						t.Run(fmt.Sprintf("%dd/%s", nd, bcKind(grid)), func(t *testing.T) {
							t.Run("int32", bcRandomCase[int32](nd, grid))
							t.Run("float64", bcRandomCase[float64](nd, grid))
							t.Run("complex128", bcRandomCase[complex128](nd, grid))
						})
					}
				}
			})
			for _, grid := range []bool{false, true} {
				t.Run("ScatterGather/"+bcKind(grid), func(t *testing.T) {
					if grid {
						bcScatterCase[complex128](t, grid)
					} else {
						bcScatterCase[float64](t, grid)
					}
				})
				t.Run("ReadInc/"+bcKind(grid), func(t *testing.T) {
					t.Run("int64", func(t *testing.T) { bcReadIncCase[int64](t, grid) })
					t.Run("int32", func(t *testing.T) { bcReadIncCase[int32](t, grid) })
				})
				t.Run("Strided/"+bcKind(grid), func(t *testing.T) {
					if grid {
						bcStridedCase[complex128](t, grid)
					} else {
						bcStridedCase[int64](t, grid)
					}
				})
				t.Run("Periodic/"+bcKind(grid), func(t *testing.T) {
					if grid {
						bcPeriodicCase[float64](t, grid)
					} else {
						bcPeriodicCase[int32](t, grid)
					}
				})
				t.Run("NonBlocking/"+bcKind(grid), func(t *testing.T) { bcNbCase(t, grid) })
			}
		})
	})
}

// bcRandomShapes are the random test's shapes, one per number of dimensions,
// with blocks that divide no extent.
var bcRandomShapes = []struct{ dims, block []int }{
	{[]int{13}, []int{4}},
	{[]int{7, 9}, []int{2, 4}},
	{[]int{5, 6, 7}, []int{2, 4, 3}},
}

// bcWideLd draws leading dimensions strictly larger than the patch.
func bcWideLd(rng *rand.Rand, lo, hi []int) []int {
	ld := make([]int, len(lo)-1)
	for d := range ld {
		ld[d] = hi[d+1] - lo[d+1] + 2 + rng.IntN(2)
	}
	return ld
}

// bcInBlock draws a patch inside one random block.
func bcInBlock(rng *rand.Rand, l bcLayout) (lo, hi []int) {
	blo, bhi := l.patch(rng.IntN(l.blocks()))
	lo, hi = make([]int, len(blo)), make([]int, len(blo))
	for d := range blo {
		x, y := blo[d]+rng.IntN(bhi[d]-blo[d]+1), blo[d]+rng.IntN(bhi[d]-blo[d]+1)
		lo[d], hi[d] = min(x, y), max(x, y)
	}
	return lo, hi
}

// bcRandomCase: in each round rank 0, then the last rank, then some rank
// inside one block put random patches, and every rank accumulates into one
// random patch at once; after each step every rank reads back and compares
// with a plain Go array kept in step from the same seed. At the end each
// rank's storage must be where the model puts it.
func bcRandomCase[T ga.Elem](nd int, grid bool) func(t *testing.T) {
	return func(t *testing.T) {
		const rounds = 3
		me, n := ga.Nodeid(), ga.Nnodes()
		sh := bcRandomShapes[nd-1]
		l := bcLayout{dims: sh.dims, block: sh.block, nproc: n}
		if grid {
			l.grid = bcGrid(nd, n)
		}
		dims := l.dims
		seed := seedOf(t.Name())
		rng := rand.New(rand.NewPCG(seed, 1))
		own := rand.New(rand.NewPCG(seed, uint64(100+me)))
		a, err := bcAllocate[T](fmt.Sprintf("random %dd %s %s", nd, bcKind(grid), typeName[T]()), l)
		must(t, err)
		defer destroy(t, a)
		ref := make([]T, total(dims))
		for i := range ref {
			ref[i] = rnd[T](rng)
		}
		putAll(t, a, ref)
		sameElems(t, "whole array after Put", getAll(t, a), ref)
		must(t, ga.Sync()) // everyone has read before anyone writes again
		alpha := mk[T](2, -1)
		for k := range rounds {
			for w, writer := range []int{0, n - 1, (k + 1) % n, n - 1} {
				var lo, hi []int
				switch w {
				case 2:
					lo, hi = bcInBlock(rng, l)
				case 3:
					lo, hi = l.patch(rng.IntN(l.blocks())) // a whole block
				default:
					lo, hi = randPatch(rng, dims)
				}
				ld := bcWideLd(rng, lo, hi)
				if w%2 == 1 {
					ld = randLd(rng, lo, hi)
				}
				what := fmt.Sprintf("round %d: Put by rank %d lo %v hi %v ld %v", k, writer, lo, hi, ld)
				buf := randBuf[T](rng, lo, hi, ld)
				if me == writer {
					keep := slices.Clone(buf)
					must(t, a.Put(lo, hi, buf, ld))
					sameElems(t, what+": buffer after Put", buf, keep)
				}
				eachSub(lo, hi, func(sub []int) { ref[linear(dims, sub)] = buf[bufPos(lo, hi, ld, sub)] })
				must(t, ga.Sync())
				checkGet(t, what, a, ref, lo, hi, nil, 0)
				checkGet(t, what, a, ref, lo, hi, bcWideLd(own, lo, hi), 1)
				must(t, ga.Sync())
			}
			lo, hi := randPatch(rng, dims)
			ld := bcWideLd(rng, lo, hi)
			for r := range n {
				buf := randBuf[T](rng, lo, hi, ld)
				if r == me {
					must(t, a.Acc(lo, hi, buf, ld, alpha))
				}
				eachSub(lo, hi, func(sub []int) { ref[linear(dims, sub)] += alpha * buf[bufPos(lo, hi, ld, sub)] })
			}
			// And one accumulate inside a block, by every rank.
			blo, bhi := bcInBlock(rng, l)
			for r := range n {
				buf := randBuf[T](rng, blo, bhi, nil)
				if r == me {
					must(t, a.Acc(blo, bhi, buf, nil, alpha))
				}
				eachSub(blo, bhi, func(sub []int) { ref[linear(dims, sub)] += alpha * buf[bufPos(blo, bhi, nil, sub)] })
			}
			must(t, ga.Sync())
			what := fmt.Sprintf("round %d: Acc by every rank", k)
			checkGet(t, what, a, ref, lo, hi, ld, 0)
			checkGet(t, what+" in a block", a, ref, blo, bhi, nil, 0)
			olo, ohi := randPatch(own, dims)
			checkGet(t, fmt.Sprintf("round %d: own patch", k), a, ref, olo, ohi, randLd(own, olo, ohi), own.IntN(3))
			must(t, ga.Sync())
		}
		sameElems(t, "whole array", getAll(t, a), ref)
		bcCheckStorage(t, a, l, ref)
		must(t, ga.Sync())
	}
}

// bcScatterCase: Scatter from the last rank, Gather everywhere (duplicates
// included), and ScatterAcc from every rank at once.
func bcScatterCase[T ga.Elem](t *testing.T, grid bool) {
	me, n := ga.Nodeid(), ga.Nnodes()
	l := bcLayout{dims: []int{7, 9}, block: []int{3, 2}, nproc: n}
	if grid {
		l.grid = bcGrid(2, n)
	}
	dims := l.dims
	rng := rand.New(rand.NewPCG(seedOf(t.Name()), 1))
	own := rand.New(rand.NewPCG(seedOf(t.Name()), uint64(100+me)))
	a, err := bcAllocate[T]("scatter "+bcKind(grid), l)
	must(t, err)
	defer destroy(t, a)
	must(t, a.Zero())
	ref := make([]T, total(dims))
	subsOf := func(lins []int) [][]int {
		subs := make([][]int, len(lins))
		for k, x := range lins {
			subs[k] = bcUnravel(dims, x)
		}
		return subs
	}

	lins := rng.Perm(total(dims))[:30]
	vals := make([]T, len(lins))
	for k := range vals {
		vals[k] = rnd[T](rng)
		ref[lins[k]] = vals[k]
	}
	if me == n-1 {
		must(t, a.Scatter(vals, subsOf(lins)))
	}
	must(t, ga.Sync())
	sameElems(t, "after Scatter", getAll(t, a), ref)

	var g []int
	for range 40 {
		g = append(g, own.IntN(total(dims)))
	}
	got := make([]T, len(g))
	must(t, a.Gather(got, subsOf(g)))
	want := make([]T, len(g))
	for k, x := range g {
		want[k] = ref[x]
	}
	sameElems(t, "Gather", got, want)
	must(t, ga.Sync())

	alpha := mk[T](3, 1)
	for r := range n {
		var acc []int
		for range 25 {
			acc = append(acc, rng.IntN(total(dims))) // duplicates likely
		}
		v := make([]T, len(acc))
		for k := range v {
			v[k] = rnd[T](rng)
			ref[acc[k]] += alpha * v[k]
		}
		if r == me {
			must(t, a.ScatterAcc(v, subsOf(acc), alpha))
		}
	}
	must(t, ga.Sync())
	sameElems(t, "after ScatterAcc", getAll(t, a), ref)
	bcCheckStorage(t, a, l, ref)
	must(t, ga.Sync())
}

// bcReadIncCase: every rank draws k tickets from several counters of an
// integer 1-D block-cyclic array; each counter's tickets are 0 to k·N-1,
// each drawn once, each rank's ascending, and the counters end at k·N.
func bcReadIncCase[T int32 | int64](t *testing.T, grid bool) {
	me, n := ga.Nodeid(), ga.Nnodes()
	l := bcLayout{dims: []int{11}, block: []int{2}, nproc: n}
	if grid {
		l.block, l.grid = []int{3}, []int{n}
	}
	a, err := bcAllocate[T]("tickets "+bcKind(grid), l)
	must(t, err)
	defer destroy(t, a)
	must(t, a.Zero())
	counters := []int{0, 3, 4, 7, 10}
	const k = 30
	drawn := make([][]int, len(counters))
	for range k {
		for c, x := range counters {
			old, err := a.ReadInc([]int{x}, 1)
			must(t, err)
			if d := drawn[c]; len(d) > 0 && int(old) <= d[len(d)-1] {
				t.Errorf("counter %d: rank %d drew %d after %d", x, me, old, d[len(d)-1])
			}
			drawn[c] = append(drawn[c], int(old))
		}
	}
	for c, x := range counters {
		all := allgather(t, drawn[c])
		slices.Sort(all)
		want := make([]int, k*n)
		for i := range want {
			want[i] = i
		}
		sameElems(t, fmt.Sprintf("tickets of counter %d", x), all, want)
	}
	must(t, ga.Sync())
	ref := make([]T, 11)
	for _, x := range counters {
		ref[x] = T(k * n)
	}
	sameElems(t, "counters", getAll(t, a), ref)
	bcCheckStorage(t, a, l, ref)
	must(t, ga.Sync())
}

// bcStridedCase: StridedPut from rank 0 with ld, StridedGet everywhere into a
// wider buffer, StridedAcc from every rank, with and without a unit skip
// along the last dimension.
func bcStridedCase[T ga.Elem](t *testing.T, grid bool) {
	me, n := ga.Nodeid(), ga.Nnodes()
	l := bcLayout{dims: []int{5, 6, 7}, block: []int{2, 4, 3}, nproc: n}
	if grid {
		l.grid = bcGrid(3, n)
	}
	dims := l.dims
	rng := rand.New(rand.NewPCG(seedOf(t.Name()), 1))
	a, err := bcAllocate[T]("strided "+bcKind(grid), l)
	must(t, err)
	defer destroy(t, a)
	must(t, a.Zero())
	ref := make([]T, total(dims))
	alpha := mk[T](-2, 1)
	for _, c := range []struct{ lo, hi, skip []int }{
		{[]int{0, 1, 0}, []int{4, 5, 6}, []int{2, 2, 3}},
		{[]int{1, 0, 2}, []int{4, 5, 6}, []int{3, 4, 1}},
		{[]int{0, 0, 0}, []int{4, 5, 6}, []int{1, 5, 2}},
	} {
		what := fmt.Sprintf("lo %v hi %v skip %v", c.lo, c.hi, c.skip)
		clo, chi := make([]int, 3), make([]int, 3)
		for d := range chi {
			chi[d] = (c.hi[d] - c.lo[d]) / c.skip[d]
		}
		at := func(s []int) int {
			g := make([]int, 3)
			for d := range g {
				g[d] = c.lo[d] + s[d]*c.skip[d]
			}
			return linear(dims, g)
		}
		ld := bcWideLd(rng, clo, chi)
		buf := randBuf[T](rng, clo, chi, ld)
		if me == 0 {
			must(t, a.StridedPut(c.lo, c.hi, c.skip, buf, ld))
		}
		eachSub(clo, chi, func(s []int) { ref[at(s)] = buf[bufPos(clo, chi, ld, s)] })
		must(t, ga.Sync())
		sameElems(t, what+": after StridedPut", getAll(t, a), ref)

		gld := bcWideLd(rng, clo, chi)
		back := make([]T, bufLen(clo, chi, gld)+1)
		for i := range back {
			back[i] = sentinel[T]()
		}
		want := slices.Clone(back)
		eachSub(clo, chi, func(s []int) { want[bufPos(clo, chi, gld, s)] = ref[at(s)] })
		must(t, a.StridedGet(c.lo, c.hi, c.skip, back, gld))
		sameElems(t, what+": StridedGet", back, want)
		must(t, ga.Sync())

		for r := range n {
			buf := randBuf[T](rng, clo, chi, nil)
			if r == me {
				must(t, a.StridedAcc(c.lo, c.hi, c.skip, buf, nil, alpha))
			}
			eachSub(clo, chi, func(s []int) { ref[at(s)] += alpha * buf[bufPos(clo, chi, nil, s)] })
		}
		must(t, ga.Sync())
		sameElems(t, what+": after StridedAcc", getAll(t, a), ref)
		must(t, ga.Sync())
	}
	bcCheckStorage(t, a, l, ref)
	must(t, ga.Sync())
}

// bcPeriodicCase: PeriodicGet with ld of a patch that wraps at both ends,
// PeriodicPut from the last rank across a corner, PeriodicAcc of a whole
// period from every rank.
func bcPeriodicCase[T ga.Elem](t *testing.T, grid bool) {
	me, n := ga.Nodeid(), ga.Nnodes()
	l := bcLayout{dims: []int{7, 9}, block: []int{3, 4}, nproc: n}
	if grid {
		l.grid = bcGrid(2, n)
	}
	dims := l.dims
	rng := rand.New(rand.NewPCG(seedOf(t.Name()), 1))
	a, err := bcAllocate[T]("periodic "+bcKind(grid), l)
	must(t, err)
	defer destroy(t, a)
	ref := make([]T, total(dims))
	for i := range ref {
		ref[i] = rnd[T](rng)
	}
	putAll(t, a, ref)

	lo, hi, ld := []int{-3, 5}, []int{2, 12}, []int{10}
	buf := make([]T, bufLen(lo, hi, ld)+2)
	for i := range buf {
		buf[i] = sentinel[T]()
	}
	want := slices.Clone(buf)
	eachSub(lo, hi, func(sub []int) { want[bufPos(lo, hi, ld, sub)] = ref[linear(dims, bcWrap(dims, sub))] })
	must(t, a.PeriodicGet(lo, hi, buf, ld))
	sameElems(t, "PeriodicGet", buf, want)
	must(t, ga.Sync())

	lo, hi = []int{5, -2}, []int{8, 3}
	pbuf := randBuf[T](rng, lo, hi, nil)
	if me == n-1 {
		must(t, a.PeriodicPut(lo, hi, pbuf, nil))
	}
	eachSub(lo, hi, func(sub []int) { ref[linear(dims, bcWrap(dims, sub))] = pbuf[bufPos(lo, hi, nil, sub)] })
	must(t, ga.Sync())
	sameElems(t, "after PeriodicPut", getAll(t, a), ref)
	must(t, ga.Sync())

	lo, hi, ld = []int{-1, -1}, []int{5, 7}, []int{11}
	alpha := mk[T](2, 2)
	for r := range n {
		b := randBuf[T](rng, lo, hi, ld)
		if r == me {
			must(t, a.PeriodicAcc(lo, hi, b, ld, alpha))
		}
		eachSub(lo, hi, func(sub []int) { ref[linear(dims, bcWrap(dims, sub))] += alpha * b[bufPos(lo, hi, ld, sub)] })
	}
	must(t, ga.Sync())
	sameElems(t, "after PeriodicAcc", getAll(t, a), ref)
	bcCheckStorage(t, a, l, ref)
	must(t, ga.Sync())
}

// bcNbCase: every rank NbPuts its own row, NbAccs into row 0 and into a
// patch across blocks, waits out of order; then NbGet of the whole array.
func bcNbCase(t *testing.T, grid bool) {
	me, n := ga.Nodeid(), ga.Nnodes()
	l := bcLayout{dims: []int{2*n + 3, 9}, block: []int{2, 4}, nproc: n}
	if grid {
		l.grid = bcGrid(2, n)
	}
	dims := l.dims
	rng := rand.New(rand.NewPCG(seedOf(t.Name()), 1))
	a, err := bcAllocate[float64]("nb "+bcKind(grid), l)
	must(t, err)
	defer destroy(t, a)
	must(t, a.Fill(1.5))
	ref := make([]float64, total(dims))
	for i := range ref {
		ref[i] = 1.5
	}
	rowOf := func(r int) []float64 {
		row := make([]float64, 9)
		for j := range row {
			row[j] = float64(100*r + j)
		}
		return row
	}
	alo, ahi, ald := []int{n + 1, 1}, []int{n + 2, 7}, []int{9}
	accs := make([][]float64, n)
	for r := range n {
		accs[r] = randBuf[float64](rng, alo, ahi, ald)
	}
	row := rowOf(me)
	h1, err := a.NbPut([]int{me + 1, 0}, []int{me + 1, 8}, row, nil)
	must(t, err)
	h2, err := a.NbAcc([]int{0, 0}, []int{0, 8}, row, nil, 2)
	must(t, err)
	h3, err := a.NbAcc(alo, ahi, accs[me], ald, 0.5)
	must(t, err)
	must(t, h3.Wait())
	must(t, h2.Wait())
	if ok, err := h1.Test(); err != nil || !ok {
		must(t, err)
		must(t, h1.Wait())
	}
	for r := range n {
		for j, v := range rowOf(r) {
			ref[linear(dims, []int{r + 1, j})] = v
			ref[linear(dims, []int{0, j})] += 2 * v
		}
		eachSub(alo, ahi, func(sub []int) { ref[linear(dims, sub)] += 0.5 * accs[r][bufPos(alo, ahi, ald, sub)] })
	}
	must(t, ga.Sync())

	lo, hi := fullPatch(dims)
	gld := []int{11}
	buf := make([]float64, bufLen(lo, hi, gld))
	for i := range buf {
		buf[i] = -999
	}
	want := slices.Clone(buf)
	eachSub(lo, hi, func(sub []int) { want[bufPos(lo, hi, gld, sub)] = ref[linear(dims, sub)] })
	h, err := a.NbGet(lo, hi, buf, gld)
	must(t, err)
	must(t, h.Wait())
	sameElems(t, "NbGet of the whole array", buf, want)
	// One block's worth, from the last block.
	blo, bhi := l.patch(l.blocks() - 1)
	small := make([]float64, volume(blo, bhi))
	h, err = a.NbGet(blo, bhi, small, nil)
	must(t, err)
	must(t, h.Wait())
	var exp []float64
	eachSub(blo, bhi, func(sub []int) { exp = append(exp, ref[linear(dims, sub)]) })
	sameElems(t, "NbGet of the last block", small, exp)
	bcCheckStorage(t, a, l, ref)
	must(t, ga.Sync())
}
