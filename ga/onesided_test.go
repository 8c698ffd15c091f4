package ga_test

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestOneSided checks put, get, acc, read_inc, mutexes and fences against
// values computed here, on both of the runtime's data paths (shared-memory
// copies and MPI RMA) over shared memory.
func TestOneSided(t *testing.T) { mpitest.Run(t, oneSided) }

// TestOneSidedTCP is TestOneSided with one-sided traffic over TCP (osc ucx),
// where operations need the target's progress (on one rank there is no
// traffic to move).
func TestOneSidedTCP(t *testing.T) {
	mpitest.Run(t, oneSided, mpitest.Transports(mpitest.TCP), mpitest.Ranks(2, 3, 4), mpitest.ManyNodes())
}

func oneSided(t *testing.T) {
	eachMode(t, func(t *testing.T) {
		t.Run("GetPutLd", testGetPutLd)
		t.Run("AccAtomic", func(t *testing.T) {
			eachType(t, testAccAtomic[int32], testAccAtomic[int64], testAccAtomic[float32], testAccAtomic[float64], testAccAtomic[complex64], testAccAtomic[complex128])
		})
		t.Run("Ordered", testOrdered)
		t.Run("Random", testRandom)
		t.Run("Irregular", testIrregular)
		t.Run("ReadInc", testReadInc)
		t.Run("Mutex", testMutex)
		t.Run("Fence", testFence)
		t.Run("Stats", testStats)
		t.Run("Goroutines", testGoroutines)
	})
}

// eachMode runs f once per data path of the runtime, each time on a fresh GA:
// "shm" maps the other ranks' blocks and copies, "rma" moves everything with
// MPI RMA (GOGA_ARMCI_SHM=0, which armci reads when GA starts).
func eachMode(t *testing.T, f func(t *testing.T)) {
	modes := []string{"shm", "rma"}
	if mpitest.OverNetwork() {
		modes = []string{"rma"}
	}
	for _, m := range modes {
		t.Run(m, func(t *testing.T) {
			if m == "rma" {
				os.Setenv("GOGA_ARMCI_SHM", "0")
				defer os.Unsetenv("GOGA_ARMCI_SHM")
			}
			must(t, ga.Init())
			f(t)
			must(t, ga.Terminate())
		})
	}
}

// ---- get with ld larger than the patch (GA user manual, section 4.1) ----

// testGetPutLd is the manual's get example in C order: the Fortran 15x10 array
// a(i,j) = 100i + j is C dims {10, 15} with A[r][c] = a(c+1, r+1); its patch
// rows 11..15, cols 1..5 is lo {0, 10}, hi {4, 14}; the buffer is 5x10 (ld 10).
func testGetPutLd(t *testing.T) {
	a, err := ga.Create[float64]("getld", []int{10, 15}, nil)
	must(t, err)
	defer destroy(t, a)
	dims := a.Dims()
	putAll(t, a, pattern[float64](dims, func(l int) float64 {
		r, c := l/15, l%15
		return float64(100*(c+1) + (r + 1))
	}))
	lo, hi, ld := []int{0, 10}, []int{4, 14}, []int{10}
	buf := make([]float64, 50)
	for i := range buf {
		buf[i] = -1
	}
	must(t, a.Get(lo, hi, buf, ld))
	// Row k of the buffer is Fortran column k+1, rows 11..15: a(11..15, k+1).
	want := []float64{
		1101, 1201, 1301, 1401, 1501, -1, -1, -1, -1, -1,
		1102, 1202, 1302, 1402, 1502, -1, -1, -1, -1, -1,
		1103, 1203, 1303, 1403, 1503, -1, -1, -1, -1, -1,
		1104, 1204, 1304, 1404, 1504, -1, -1, -1, -1, -1,
		1105, 1205, 1305, 1405, 1505, -1, -1, -1, -1, -1,
	}
	sameElems(t, "get with ld 10", buf, want)
	must(t, ga.Sync())

	// The same buffer put back, by the last rank, into a zeroed array: only
	// the patch changes, and the -1 padding never reaches the array.
	b, err := a.Duplicate("putld")
	must(t, err)
	defer destroy(t, b)
	must(t, b.Zero())
	if ga.Nodeid() == ga.Nnodes()-1 {
		keep := slices.Clone(buf)
		must(t, b.Put(lo, hi, buf, ld))
		sameElems(t, "buffer after Put", buf, keep)
	}
	must(t, ga.Sync())
	got := getAll(t, b)
	exp := make([]float64, 150)
	for r := 0; r <= 4; r++ {
		for c := 10; c <= 14; c++ {
			exp[r*15+c] = float64(100*(c+1) + r + 1)
		}
	}
	sameElems(t, "put with ld 10", got, exp)
	checkLocal(t, b, exp)
}

// ---- accumulate atomicity (GA user manual, sections 1.3 and 4.2) ----

// testAccAtomic: every rank accumulates alpha·ones into the same patch, which spans
// several owners, reps times, packed and with a padded buffer; the patch must
// then hold exactly 2·reps·N·alpha and the rest of the array 0.
func testAccAtomic[T ga.Elem](t *testing.T) {
	reps := 10
	if mpitest.OverNetwork() {
		reps = 3
	}
	n := ga.Nnodes()
	a, err := ga.Create[T]("accatomic", []int{9, 7}, nil)
	must(t, err)
	defer destroy(t, a)
	must(t, a.Zero())
	lo, hi := []int{2, 1}, []int{8, 5}
	alpha := mk[T](3, 1)
	ones := make([]T, volume(lo, hi))
	for i := range ones {
		ones[i] = mk[T](1, 0)
	}
	ld := []int{8} // five columns of eight
	padded := make([]T, 7*8)
	for i := range padded {
		padded[i] = mk[T](1000, 1000) // would show if the padding were added
	}
	eachSub(lo, hi, func(sub []int) { padded[bufPos(lo, hi, ld, sub)] = mk[T](1, 0) })
	for range reps {
		must(t, a.Acc(lo, hi, ones, nil, alpha))
		must(t, a.Acc(lo, hi, padded, ld, alpha))
	}
	must(t, ga.Sync())
	want := make([]T, 63)
	var sum T
	for range 2 * reps * n {
		sum += alpha
	}
	eachSub(lo, hi, func(sub []int) { want[linear(a.Dims(), sub)] = sum })
	sameElems(t, "after every rank's acc", getAll(t, a), want)
	checkLocal(t, a, want)
	must(t, ga.Sync())
}

// ---- ordering of one process's blocking operations ----

// testOrdered: blocking operations of one process are ordered where they
// overlap (GA user manual, section 1.3), with no fence or sync between them: every rank puts into
// patches owned by its neighbours (and spanning several owners), reads them
// back at once, accumulates into them and reads again, and puts once more.
func testOrdered(t *testing.T) {
	me, n := ga.Nodeid(), ga.Nnodes()
	a, err := ga.Create[int64]("ordered", []int{n, 6}, []int{1, 6}) // one row per rank
	must(t, err)
	defer destroy(t, a)
	must(t, a.Zero())
	next := (me + 1) % n
	row := func(r int) (lo, hi []int) { return []int{r, 0}, []int{r, 5} }
	lo, hi := row(next)
	for k := range int64(20) {
		v := []int64{k, k + 1, k + 2, k + 3, k + 4, int64(me)}
		must(t, a.Put(lo, hi, v, nil))
		got := make([]int64, 6)
		must(t, a.Get(lo, hi, got, nil))
		sameElems(t, fmt.Sprintf("Get right after Put %d", k), got, v)
		must(t, a.Acc(lo, hi, v, nil, 3))
		must(t, a.Get(lo, hi, got, nil))
		for i := range v {
			v[i] *= 4
		}
		sameElems(t, fmt.Sprintf("Get right after Acc %d", k), got, v)
	}
	must(t, ga.Sync())
	// A column spanning every owner: my column, written and read back.
	if me < 6 {
		clo, chi := []int{0, me}, []int{n - 1, me}
		for k := range int64(10) {
			v := make([]int64, n)
			for i := range v {
				v[i] = 100*k + int64(i)
			}
			must(t, a.Put(clo, chi, v, nil))
			got := make([]int64, n)
			must(t, a.Get(clo, chi, got, nil))
			sameElems(t, fmt.Sprintf("column Get right after Put %d", k), got, v)
		}
	}
	must(t, ga.Sync())
}

// ---- random patches against a plain Go array ----

// randomDims are the shapes of the random test, one per number of dimensions;
// none divides evenly among 2, 3 or 4 ranks everywhere.
var randomDims = [][]int{
	{97}, {13, 17}, {7, 5, 9}, {5, 3, 7, 4}, {3, 5, 2, 3, 5}, {3, 2, 3, 5, 2, 3}, {2, 3, 2, 3, 2, 3, 3},
}

func testRandom(t *testing.T) {
	for nd := 1; nd <= ga.MaxDim; nd++ {
		t.Run(fmt.Sprintf("%dd", nd), func(t *testing.T) {
			if mpitest.OverNetwork() {
				// Slow there: one type of each element size.
				t.Run("float32", randomCase[float32](nd))
				t.Run("int64", randomCase[int64](nd))
				t.Run("complex128", randomCase[complex128](nd))
				return
			}
			eachType(t, randomCase[int32](nd), randomCase[int64](nd), randomCase[float32](nd),
				randomCase[float64](nd), randomCase[complex64](nd), randomCase[complex128](nd))
		})
	}
}

func seedOf(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// randPatch draws a patch inside dims.
func randPatch(rng *rand.Rand, dims []int) (lo, hi []int) {
	lo, hi = make([]int, len(dims)), make([]int, len(dims))
	for d, n := range dims {
		x, y := rng.IntN(n), rng.IntN(n)
		if rng.IntN(5) == 0 {
			x, y = 0, n-1
		}
		lo[d], hi[d] = min(x, y), max(x, y)
	}
	return lo, hi
}

// randLd draws leading dimensions for a patch: nil (packed) a third of the
// time, else each at least the patch's extent and up to two more.
func randLd(rng *rand.Rand, lo, hi []int) []int {
	if rng.IntN(3) == 0 {
		return nil
	}
	ld := make([]int, len(lo)-1)
	for d := range ld {
		ld[d] = hi[d+1] - lo[d+1] + 1 + rng.IntN(3)
	}
	return ld
}

// randBuf makes a buffer for [lo, hi] with ld: random values in the patch's
// places, the sentinel everywhere else (and a little past the end).
func randBuf[T ga.Elem](rng *rand.Rand, lo, hi, ld []int) []T {
	buf := make([]T, bufLen(lo, hi, ld)+rng.IntN(3))
	for i := range buf {
		buf[i] = sentinel[T]()
	}
	eachSub(lo, hi, func(sub []int) { buf[bufPos(lo, hi, ld, sub)] = rnd[T](rng) })
	return buf
}

// randIrregular draws block starts with at most n blocks in all.
func randIrregular(rng *rand.Rand, dims []int, n int) [][]int {
	starts := make([][]int, len(dims))
	left := n
	for _, d := range rng.Perm(len(dims)) {
		k := 1 + rng.IntN(min(left, dims[d]))
		cuts := rng.Perm(dims[d] - 1)[:k-1]
		s := []int{0}
		for _, c := range cuts {
			s = append(s, c+1)
		}
		slices.Sort(s)
		starts[d] = s
		left /= k
	}
	return starts
}

// checkGet reads [lo, hi] with ld into a buffer full of sentinels and checks
// the patch's places against ref and every other place untouched.
func checkGet[T ga.Elem](t *testing.T, what string, a *ga.Array[T], ref []T, lo, hi, ld []int, extra int) {
	t.Helper()
	dims := a.Dims()
	buf := make([]T, bufLen(lo, hi, ld)+extra)
	for i := range buf {
		buf[i] = sentinel[T]()
	}
	want := slices.Clone(buf)
	eachSub(lo, hi, func(sub []int) { want[bufPos(lo, hi, ld, sub)] = ref[linear(dims, sub)] })
	must(t, a.Get(lo, hi, buf, ld))
	sameElems(t, fmt.Sprintf("%s: Get lo %v hi %v ld %v", what, lo, hi, ld), buf, want)
}

// randomCase: in round k, rank k%N puts a random patch (or, every third round,
// every rank accumulates its own random buffer into one random patch), then
// after a sync every rank reads the patch written and a random patch of its
// own, with random leading dimensions, and compares them with a plain Go array
// that every rank keeps in step from the same seed.
func randomCase[T ga.Elem](nd int) func(t *testing.T) {
	return func(t *testing.T) {
		const rounds = 7
		me, n := ga.Nodeid(), ga.Nnodes()
		dims := randomDims[nd-1]
		seed := seedOf(t.Name()) // the same on every rank
		rng := rand.New(rand.NewPCG(seed, 1))
		own := rand.New(rand.NewPCG(seed, uint64(100+me)))
		name := fmt.Sprintf("random %dd %s", nd, typeName[T]())
		var a *ga.Array[T]
		var err error
		switch nd % 4 {
		case 0:
			a, err = ga.Create[T](name, dims, nil)
		case 1:
			chunk := make([]int, nd)
			chunk[0] = (dims[0] + 1) / 2 // at most two blocks along dimension 0
			a, err = ga.Create[T](name, dims, chunk)
		case 2:
			a, err = ga.New[T](dims...).Name(name).Allocate()
		case 3:
			a, err = ga.CreateIrreg[T](name, dims, randIrregular(rng, dims, n))
		}
		must(t, err)
		defer destroy(t, a)
		if a.Name() != name || !slices.Equal(a.Dims(), dims) || a.Ndim() != nd {
			t.Errorf("array %q dims %v ndim %d, want %q %v %d", a.Name(), a.Dims(), a.Ndim(), name, dims, nd)
		}
		if typ, d := a.Inquire(); typ != typeName[T]() || !slices.Equal(d, dims) {
			t.Errorf("Inquire = %q %v, want %q %v", typ, d, typeName[T](), dims)
		}
		checkDistribution(t, a, rng)

		ref := make([]T, total(dims))
		for i := range ref {
			ref[i] = rnd[T](rng)
		}
		if me == n-1 {
			lo, hi := fullPatch(dims)
			must(t, a.Put(lo, hi, ref, nil))
		}
		must(t, ga.Sync())
		alpha := mk[T](2, -1)
		for k := range rounds {
			lo, hi := randPatch(rng, dims)
			ld := randLd(rng, lo, hi)
			what := fmt.Sprintf("round %d", k)
			if k%3 != 2 {
				writer := k % n
				buf := randBuf[T](rng, lo, hi, ld)
				if me == writer {
					keep := slices.Clone(buf)
					must(t, a.Put(lo, hi, buf, ld))
					sameElems(t, what+": buffer after Put", buf, keep)
				}
				eachSub(lo, hi, func(sub []int) { ref[linear(dims, sub)] = buf[bufPos(lo, hi, ld, sub)] })
			} else {
				for r := range n {
					buf := randBuf[T](rng, lo, hi, ld)
					if r == me {
						must(t, a.Acc(lo, hi, buf, ld, alpha))
					}
					eachSub(lo, hi, func(sub []int) { ref[linear(dims, sub)] += alpha * buf[bufPos(lo, hi, ld, sub)] })
				}
			}
			must(t, ga.Sync())
			checkGet(t, what+" written patch", a, ref, lo, hi, nil, 0)
			olo, ohi := randPatch(own, dims)
			checkGet(t, what+" own patch", a, ref, olo, ohi, randLd(own, olo, ohi), own.IntN(3))
			must(t, ga.Sync())
		}
		sameElems(t, "whole array", getAll(t, a), ref)
		checkLocal(t, a, ref)
		must(t, ga.Sync())
	}
}

// checkDistribution checks that the blocks of Distribution partition the
// array, that Locate, LocateRegion and ProcTopology agree with them, and that
// ranks are numbered row-major over the process grid.
func checkDistribution[T ga.Elem](t *testing.T, a *ga.Array[T], rng *rand.Rand) {
	t.Helper()
	n := ga.Nnodes()
	dims := a.Dims()
	grid := a.ProcGrid()
	if len(grid) != len(dims) || total(grid) > n {
		t.Errorf("process grid %v for dims %v on %d ranks", grid, dims, n)
		return
	}
	owner := make([]int, total(dims))
	for i := range owner {
		owner[i] = -1
	}
	for r := range n + 1 {
		lo, hi, ok := a.Distribution(r)
		c, cok := a.ProcTopology(r)
		if want := r < total(grid); ok != want || cok != want {
			t.Errorf("rank %d of a %v grid: Distribution ok %v, ProcTopology ok %v", r, grid, ok, cok)
			continue
		}
		if !ok {
			continue
		}
		// C order: rank = c[n-1] + grid[n-1]·(c[n-2] + grid[n-2]·(…)).
		if linear(grid, c) != r {
			t.Errorf("ProcTopology(%d) = %v in grid %v: not row-major", r, c, grid)
		}
		eachSub(lo, hi, func(sub []int) {
			l := linear(dims, sub)
			if owner[l] != -1 {
				t.Errorf("element %v owned by ranks %d and %d", sub, owner[l], r)
			}
			owner[l] = r
		})
	}
	full, fullHi := fullPatch(dims)
	eachSub(full, fullHi, func(sub []int) {
		got, err := a.Locate(sub)
		must(t, err)
		if got != owner[linear(dims, sub)] {
			t.Errorf("Locate(%v) = %d, Distribution says %d", sub, got, owner[linear(dims, sub)])
		}
	})
	// Blocks in one grid slice share their extent along that dimension.
	for r := range total(grid) {
		lo, hi, _ := a.Distribution(r)
		c, _ := a.ProcTopology(r)
		for d := range dims {
			c2 := slices.Clone(c)
			c2[d] = 0
			lo2, hi2, _ := a.Distribution(linear(grid, c2))
			for e := range dims {
				if e != d && (lo2[e] != lo[e] || hi2[e] != hi[e]) {
					t.Errorf("ranks %d and %d share grid coordinate %d but not its extent", r, linear(grid, c2), e)
				}
			}
		}
	}
	for i := 0; rng != nil && i < 3; i++ {
		lo, hi := randPatch(rng, dims)
		checkRegion(t, a, lo, hi)
	}
	checkRegion(t, a, full, fullHi)
}

// checkRegion compares LocateRegion with the intersections of [lo, hi] with
// every rank's block.
func checkRegion[T ga.Elem](t *testing.T, a *ga.Array[T], lo, hi []int) {
	t.Helper()
	regs, err := a.LocateRegion(lo, hi)
	must(t, err)
	var want []ga.Region
	for r := range ga.Nnodes() {
		blo, bhi, ok := a.Distribution(r)
		if !ok {
			continue
		}
		if plo, phi, ok := intersect(lo, hi, blo, bhi); ok {
			want = append(want, ga.Region{Rank: r, Lo: plo, Hi: phi})
		}
	}
	same := len(regs) == len(want)
	for i := 0; same && i < len(regs); i++ {
		same = regs[i].Rank == want[i].Rank && slices.Equal(regs[i].Lo, want[i].Lo) && slices.Equal(regs[i].Hi, want[i].Hi)
	}
	if !same {
		t.Errorf("LocateRegion(%v, %v) = %v, want %v", lo, hi, regs, want)
	}
}

// ---- irregular distributions ----

type irregCase struct {
	name   string
	dims   []int
	starts func(n int) [][]int
}

var irregCases = []irregCase{
	// Blocks of size 1 at both ends and in the middle.
	{"1d-ones", []int{10}, func(n int) [][]int { return [][]int{[]int{0, 1, 2, 9}[:min(n, 4)]} }},
	// Two blocks, however many ranks: fewer blocks than ranks from 3 on.
	{"2d-fewer", []int{5, 6}, func(n int) [][]int {
		if n < 2 {
			return [][]int{{0}, {0}}
		}
		return [][]int{{0}, {0, 3}}
	}},
	{"2d-grid", []int{7, 5}, func(n int) [][]int {
		switch {
		case n >= 4:
			return [][]int{{0, 1}, {0, 4}} // 2x2 blocks of 1x4, 1x1, 6x4, 6x1
		case n == 3:
			return [][]int{{0, 1, 3}, {0}}
		case n == 2:
			return [][]int{{0}, {0, 1}}
		}
		return [][]int{{0}, {0}}
	}},
	{"3d-builder", []int{3, 4, 5}, func(n int) [][]int {
		switch {
		case n >= 4:
			return [][]int{{0, 2}, {0}, {0, 4}}
		case n >= 2:
			return [][]int{{0}, {0, 1}, {0}}
		}
		return [][]int{{0}, {0}, {0}}
	}},
}

func testIrregular(t *testing.T) {
	for i, c := range irregCases {
		t.Run(c.name, func(t *testing.T) {
			me, n := ga.Nodeid(), ga.Nnodes()
			starts := c.starts(n)
			before := ga.InquireMemory()
			var a *ga.Array[int64]
			var err error
			if i%2 == 0 {
				a, err = ga.CreateIrreg[int64](c.name, c.dims, starts)
			} else {
				a, err = ga.New[int64](c.dims...).Name(c.name).Irregular(starts...).Allocate()
			}
			must(t, err)
			defer destroy(t, a)
			// Closed form: rank r holds block coords(r), row-major over the grid.
			grid := make([]int, len(starts))
			for d := range starts {
				grid[d] = len(starts[d])
			}
			if !slices.Equal(a.ProcGrid(), grid) {
				t.Errorf("ProcGrid = %v, want %v", a.ProcGrid(), grid)
			}
			myBytes := 0
			for r := -1; r <= n; r++ {
				lo, hi, ok := a.Distribution(r)
				if r < 0 || r >= total(grid) {
					if ok {
						t.Errorf("rank %d owns lo %v hi %v of %d blocks", r, lo, hi, total(grid))
					}
					continue
				}
				c := make([]int, len(grid))
				for d, q := len(grid)-1, r; d >= 0; d-- {
					c[d], q = q%grid[d], q/grid[d]
				}
				wlo, whi := make([]int, len(c)), make([]int, len(c))
				for d := range c {
					wlo[d] = starts[d][c[d]]
					whi[d] = a.Dims()[d] - 1
					if c[d]+1 < len(starts[d]) {
						whi[d] = starts[d][c[d]+1] - 1
					}
				}
				if !ok || !slices.Equal(lo, wlo) || !slices.Equal(hi, whi) {
					t.Errorf("Distribution(%d) = %v %v %v, want %v %v", r, lo, hi, ok, wlo, whi)
				}
				if tc, _ := a.ProcTopology(r); !slices.Equal(tc, c) {
					t.Errorf("ProcTopology(%d) = %v, want %v", r, tc, c)
				}
				if r == me {
					myBytes = 8 * volume(wlo, whi)
				}
			}
			if got := ga.InquireMemory() - before; got != myBytes {
				t.Errorf("InquireMemory grew by %d bytes, want %d", got, myBytes)
			}
			checkDistribution(t, a, rand.New(rand.NewPCG(uint64(i), 7)))

			// Data: rank 0 writes everything, every rank's block in place must
			// match Get; then every rank rewrites its block in place.
			ref := pattern[int64](a.Dims(), func(l int) int64 { return int64(l*l - 3*l + 1) })
			putAll(t, a, ref)
			checkLocal(t, a, ref)
			must(t, ga.Sync())
			if data, lo, hi, ld, ok, err := a.AccessLocal(); err != nil {
				fatalf(t, "AccessLocal: %v", err)
			} else if ok {
				eachSub(lo, hi, func(sub []int) { data[bufPos(lo, hi, ld, sub)] = int64(-1000*me - linear(a.Dims(), sub)) })
				must(t, a.ReleaseUpdate(lo, hi))
			}
			must(t, ga.Sync())
			for r := range n {
				if lo, hi, ok := a.Distribution(r); ok {
					eachSub(lo, hi, func(sub []int) { ref[linear(a.Dims(), sub)] = int64(-1000*r - linear(a.Dims(), sub)) })
				}
			}
			sameElems(t, "after writes in place", getAll(t, a), ref)
			// A sub-patch of the own block through Access: ld is the block's.
			if lo, hi, ok := a.Distribution(me); ok {
				plo := slices.Clone(hi) // the block's last element...
				phi := slices.Clone(hi)
				plo[0] = lo[0] // ...and everything above it along dimension 0
				data, ld, err := a.Access(plo, phi)
				must(t, err)
				eachSub(plo, phi, func(sub []int) {
					p := 0
					for d := range sub {
						if d > 0 {
							p *= ld[d-1]
						}
						p += sub[d] - plo[d]
					}
					if got, want := data[p], ref[linear(a.Dims(), sub)]; got != want {
						t.Errorf("Access(%v, %v) at %v = %d, want %d", plo, phi, sub, got, want)
					}
				})
				must(t, a.Release(plo, phi))
			}
			b, err := a.Duplicate("copy of " + c.name)
			must(t, err)
			if !ga.CompareDistr(a, b) || b.Name() != "copy of "+c.name {
				t.Errorf("Duplicate: CompareDistr %v, name %q", ga.CompareDistr(a, b), b.Name())
			}
			must(t, b.Destroy())
			if got := ga.InquireMemory() - before; got != myBytes {
				t.Errorf("InquireMemory after Destroy of the duplicate: %d bytes more, want %d", got, myBytes)
			}
		})
	}
}

// ---- read_inc: a task pool ----

func testReadInc(t *testing.T) {
	t.Run("int32", func(t *testing.T) { readIncCase[int32](t, 1_000_000_000, 1) })
	t.Run("int64", func(t *testing.T) { readIncCase[int64](t, 1<<40, 3) })
}

// readIncCase: a counter in every rank's block, starting at start; every rank
// draws tickets of inc from the counters in turn until each has handed out
// its share of tasks. The tickets of each counter must be exactly start,
// start+inc, … for the number of tasks, each drawn once, and each counter
// must end at its start plus inc times (tasks + N): every rank draws one
// ticket past the end.
func readIncCase[T int32 | int64](t *testing.T, start T, inc int64) {
	n := ga.Nnodes()
	a, err := ga.Create[T]("tickets", []int{4*n + 1, 3}, nil)
	must(t, err)
	defer destroy(t, a)
	must(t, a.Zero())
	var counters [][]int
	for r := range n {
		if lo, _, ok := a.Distribution(r); ok {
			counters = append(counters, lo)
		}
	}
	if ga.Nodeid() == 0 {
		for _, c := range counters {
			must(t, a.Put(c, c, []T{start}, nil))
		}
	}
	must(t, ga.Sync())
	tasks := 40 + 7*n
	mine := make([][]int, len(counters))
	done := make([]bool, len(counters))
	for left := len(counters); left > 0; {
		for i, c := range counters {
			if done[i] {
				continue
			}
			old, err := a.ReadInc(c, inc)
			must(t, err)
			k := (old - int64(start)) / inc
			if (old-int64(start))%inc != 0 || k < 0 {
				t.Errorf("counter %v: ticket %d is not start %d plus a multiple of %d", c, old, start, inc)
			}
			if k >= int64(tasks) {
				done[i] = true
				left--
				continue
			}
			mine[i] = append(mine[i], int(k))
		}
	}
	for i, c := range counters {
		all := allgather(t, mine[i])
		slices.Sort(all)
		want := make([]int, tasks)
		for k := range want {
			want[k] = k
		}
		sameElems(t, fmt.Sprintf("tickets of counter %v", c), all, want)
	}
	must(t, ga.Sync())
	for _, c := range counters {
		got := []T{0}
		must(t, a.Get(c, c, got, nil))
		if want := int64(start) + inc*int64(tasks+n); int64(got[0]) != want {
			t.Errorf("counter %v ends at %d, want %d", c, got[0], want)
		}
	}
	must(t, ga.Sync())
}

// ---- mutexes guard a read-modify-write (GA user manual, section 5.1) ----

func testMutex(t *testing.T) {
	const k = 12
	n := ga.Nnodes()
	a, err := ga.Create[int64]("counter", []int{2*n + 1}, nil)
	must(t, err)
	defer destroy(t, a)
	must(t, a.Zero())
	must(t, ga.CreateMutexes(3))
	// One set at a time: a second one is refused on every rank.
	wantErr(t, "second CreateMutexes", ga.CreateMutexes(2), "CreateMutexes", "", nil)
	first, last := []int{0}, []int{2 * n}
	inc := func(m int, at []int) {
		must(t, ga.Lock(m))
		v := []int64{0}
		must(t, a.Get(at, at, v, nil))
		v[0]++
		must(t, a.Put(at, at, v, nil))
		must(t, ga.Unlock(m))
	}
	for range k {
		inc(0, first)
		inc(2, last)
	}
	must(t, ga.Sync())
	got := getAll(t, a)
	if got[0] != int64(n*k) || got[2*n] != int64(n*k) {
		t.Errorf("counters after %d ranks x %d locked increments: %d and %d, want %d", n, k, got[0], got[2*n], n*k)
	}
	must(t, ga.DestroyMutexes())
	// Sets can be created again, with another size.
	must(t, ga.CreateMutexes(1))
	for range k {
		inc(0, first)
	}
	must(t, ga.Sync())
	if got := getAll(t, a); got[0] != int64(2*n*k) {
		t.Errorf("counter after a second mutex set: %d, want %d", got[0], 2*n*k)
	}
	must(t, ga.DestroyMutexes())
	must(t, ga.Sync())
}

// ---- fence pairs (GA user manual, section 5.2) ----

// testFence: every rank puts into the blocks of its neighbours inside nested
// InitFence/Fence pairs and, after each Fence, tells the owner by an MPI
// message (not a GA sync); the owner then reads its block in place and must
// see the data.
func testFence(t *testing.T) {
	me, n := ga.Nodeid(), ga.Nnodes()
	// Fence without InitFence is refused; Sync cancels an InitFence.
	wantErr(t, "Fence with no InitFence", ga.Fence(), "Fence", "", nil)
	must(t, ga.InitFence())
	must(t, ga.Sync())
	wantErr(t, "Fence after Sync", ga.Fence(), "Fence", "", nil)
	if n < 2 {
		return
	}
	a, err := ga.Create[int64]("fenced", []int{7*n + 2}, nil)
	must(t, err)
	defer destroy(t, a)
	must(t, a.Zero())
	for r := range n {
		if lo, hi, ok := a.Distribution(r); !ok || hi[0]-lo[0] < 3 {
			fatalf(t, "rank %d's block %v %v is too small for this test", r, lo, hi)
		}
	}
	next, prev := (me+1)%n, (me-1+n)%n
	at := func(rank, k int) []int {
		lo, _, _ := a.Distribution(rank)
		return []int{lo[0] + k}
	}
	val := func(from, k int) int64 { return int64(1000*(from+1) + k) }
	put := func(rank, k int) { must(t, a.Put(at(rank, k), at(rank, k), []int64{val(me, k)}, nil)) }
	c := ga.Comm()
	must(t, ga.InitFence())
	put(next, 0)
	must(t, ga.InitFence()) // nested
	put(prev, 2)
	must(t, a.Acc(at(next, 3), at(next, 3), []int64{val(me, 3)}, nil, 2))
	must(t, ga.Fence())
	must(t, mpi.Send(c, []int64{1}, prev, 1))
	put(next, 1)
	must(t, ga.Fence())
	must(t, mpi.Send(c, []int64{2}, next, 2))

	look := func(k int) int64 {
		p := at(me, k)
		data, _, err := a.Access(p, p)
		must(t, err)
		v := data[0]
		must(t, a.Release(p, p))
		return v
	}
	msg := []int64{0}
	_, err = mpi.Recv(c, msg, next, 1) // next's inner fence covered its put here
	must(t, err)
	if got := look(2); got != val(next, 2) {
		t.Errorf("after the inner fence of rank %d: element %d = %d, want %d", next, at(me, 2)[0], got, val(next, 2))
	}
	_, err = mpi.Recv(c, msg, prev, 2) // prev's outer fence covered the rest
	must(t, err)
	for _, k := range []int{0, 1} {
		if got := look(k); got != val(prev, k) {
			t.Errorf("after the outer fence of rank %d: element %d = %d, want %d", prev, at(me, k)[0], got, val(prev, k))
		}
	}
	if got := look(3); got != 2*val(prev, 3) {
		t.Errorf("acc inside the fence of rank %d: element %d = %d, want %d", prev, at(me, 3)[0], got, 2*val(prev, 3))
	}
	must(t, ga.Sync())
}

// ---- statistics ----

func testStats(t *testing.T) {
	me := ga.Nodeid()
	s0 := ga.ReadStats()
	a, err := ga.Create[float64]("stats", []int{6, 5}, nil)
	must(t, err)
	c, err := ga.Create[int64]("stats counter", []int{3}, []int{3})
	must(t, err)
	if s := ga.ReadStats(); s.Created != s0.Created+2 {
		t.Errorf("Created %d after two creations from %d", s.Created, s0.Created)
	}
	peak := max(s0.MaxMemory, ga.InquireMemory())
	if s := ga.ReadStats(); s.MaxMemory != peak {
		t.Errorf("MaxMemory %d with %d bytes in use, %d at most before", s.MaxMemory, ga.InquireMemory(), s0.MaxMemory)
	}
	lo, hi := fullPatch(a.Dims())
	buf := make([]float64, 30)
	local := 0
	if blo, bhi, ok := a.Distribution(me); ok {
		local = 8 * volume(blo, bhi)
	}
	must(t, ga.Sync())
	s1 := ga.ReadStats()
	must(t, a.Get(lo, hi, buf, nil))
	must(t, a.Get(lo, hi, buf, nil))
	must(t, a.Acc(lo, hi, buf, nil, 1))
	must(t, ga.Sync())
	if me == 0 {
		must(t, a.Put(lo, hi, buf, nil))
	}
	old, err := c.ReadInc([]int{2}, 1) // rank 0 owns the whole counter array
	must(t, err)
	_ = old
	s2 := ga.ReadStats()
	check := func(what string, got, base ga.OpStats, calls, lb, rb int) {
		t.Helper()
		want := ga.OpStats{Calls: base.Calls + calls, LocalBytes: base.LocalBytes + lb, RemoteBytes: base.RemoteBytes + rb}
		if got != want {
			t.Errorf("%s stats %+v, want %+v", what, got, want)
		}
	}
	check("Get", s2.Get, s1.Get, 2, 2*local, 2*(240-local))
	check("Acc", s2.Acc, s1.Acc, 1, local, 240-local)
	if me == 0 {
		check("Put", s2.Put, s1.Put, 1, local, 240-local)
		check("ReadInc", s2.ReadInc, s1.ReadInc, 1, 8, 0)
	} else {
		check("Put", s2.Put, s1.Put, 0, 0, 0)
		check("ReadInc", s2.ReadInc, s1.ReadInc, 1, 0, 8)
	}
	must(t, a.Destroy())
	must(t, c.Destroy())
	if s := ga.ReadStats(); s.Destroyed != s0.Destroyed+2 || s.MaxMemory != peak {
		t.Errorf("Destroyed %d after two destructions from %d; MaxMemory %d, want %d still", s.Destroyed, s0.Destroyed, s.MaxMemory, peak)
	}
}

// ---- many goroutines per rank ----

// testGoroutines: one-sided operations are safe from many goroutines at once:
// tickets drawn by every goroutine of every rank are unique and complete, and
// accumulates from all of them add up exactly.
func testGoroutines(t *testing.T) {
	if mpi.Provided() != mpi.ThreadMultiple {
		t.Skipf("MPI provides %v, not MPI_THREAD_MULTIPLE", mpi.Provided())
	}
	const workers = 4
	tasks, reps := 150, 20
	if mpitest.OverNetwork() {
		// Many threads in MPI at once are slow over TCP (and the ranks share
		// few cores): fewer, for the same contention.
		tasks, reps = 40, 3
	}
	n := ga.Nnodes()
	cnt, err := ga.Create[int64]("pool", []int{1}, nil)
	must(t, err)
	defer destroy(t, cnt)
	sum, err := ga.Create[float64]("sums", []int{5, 2*n + 1}, nil)
	must(t, err)
	defer destroy(t, sum)
	must(t, cnt.Zero())
	must(t, sum.Zero())
	var mu sync.Mutex
	var mine []int
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	lo, hi := []int{1, 0}, []int{3, 2 * n}
	ones := make([]float64, volume(lo, hi))
	for i := range ones {
		ones[i] = 1
	}
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k, err := cnt.ReadInc([]int{0}, 1)
				if err != nil {
					errs <- err
					return
				}
				if k >= int64(tasks) {
					break
				}
				mu.Lock()
				mine = append(mine, int(k))
				mu.Unlock()
			}
			for range reps {
				if err := sum.Acc(lo, hi, ones, nil, float64(w+1)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		must(t, err)
	}
	all := allgather(t, mine)
	slices.Sort(all)
	want := make([]int, tasks)
	for i := range want {
		want[i] = i
	}
	sameElems(t, "tickets from every goroutine", all, want)
	must(t, ga.Sync())
	got := getAll(t, sum)
	exp := make([]float64, total(sum.Dims()))
	eachSub(lo, hi, func(sub []int) { exp[linear(sum.Dims(), sub)] = float64(n * reps * workers * (workers + 1) / 2) })
	sameElems(t, "accumulates from every goroutine", got, exp)
	must(t, ga.Sync())
}
