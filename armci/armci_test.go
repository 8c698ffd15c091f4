package armci_test

import (
	"math"
	"os"
	"slices"
	"strconv"
	"testing"
	"unsafe"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestTransfers checks every transfer against values computed here, on both
// data paths (shared memory and MPI RMA), over shared memory and over TCP.
func TestTransfers(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		t.Run("PutGet", func(t *testing.T) { eachMode(t, testPutGet) })
		t.Run("Acc", func(t *testing.T) { eachMode(t, testAcc) })
		t.Run("Strided", func(t *testing.T) { eachMode(t, testStrided) })
		t.Run("Direct", func(t *testing.T) { eachMode(t, testDirect) })
		t.Run("PartsAligned", func(t *testing.T) { eachMode(t, testPartsAligned) })
		t.Run("StridedOdd", func(t *testing.T) { eachMode(t, testStridedOdd) })
		t.Run("AccS", func(t *testing.T) { eachMode(t, testAccS) })
		t.Run("Vector", func(t *testing.T) { eachMode(t, testVector) })
		t.Run("ZeroSize", func(t *testing.T) { eachMode(t, testZeroSize) })
		t.Run("Group", func(t *testing.T) { eachMode(t, testGroup) })
		t.Run("FenceThenRead", func(t *testing.T) { eachMode(t, testFenceThenRead) })
		t.Run("MapIn", func(t *testing.T) { eachMode(t, testMapIn) })
		t.Run("RMW", func(t *testing.T) { eachMode(t, testRMW) })
		t.Run("NonBlocking", func(t *testing.T) { eachMode(t, testNonBlocking) })
		t.Run("LargeGetWait", func(t *testing.T) { eachMode(t, testLargeGetWait) })
		t.Run("Errors", func(t *testing.T) { eachMode(t, testErrors) })
		t.Run("Collective", func(t *testing.T) { eachMode(t, testCollectiveErrors) })
		t.Run("BarrierMax", func(t *testing.T) { eachMode(t, testBarrierMax) })
		t.Run("AllMaxReduce", func(t *testing.T) { eachMode(t, testAllMaxReduce) })
		t.Run("Revive", func(t *testing.T) { eachMode(t, testRevive) })
		t.Run("Finalize", func(t *testing.T) { eachMode(t, testFinalize) })
		t.Run("DefaultInit", testDefaultInit)
	}, bothTransports)
}

// ---- put and get ----

func testPutGet(t *testing.T, rt *armci.Runtime) {
	const size = 1001
	s := malloc(t, rt, size)
	putGetCase(t, rt, s, "int8", 1, 37, func(r, i int) int8 { return int8(r*50 - i*3) })
	putGetCase(t, rt, s, "uint8/whole", 0, size, func(r, i int) uint8 { return uint8(r*17 + i*i) })
	putGetCase(t, rt, s, "int16/odd-offset", 3, 100, func(r, i int) int16 { return int16(r*1000 - i*77) })
	putGetCase(t, rt, s, "uint16", 2, 11, func(r, i int) uint16 { return uint16(60000 - r*3 - i) })
	putGetCase(t, rt, s, "int32", 0, 50, func(r, i int) int32 { return int32(r<<24 - i*9999) })
	putGetCase(t, rt, s, "uint32", 500, 125, func(r, i int) uint32 { return uint32(r)<<28 | uint32(i) })
	putGetCase(t, rt, s, "int64", 8, 60, func(r, i int) int64 { return int64(r)<<40 - int64(i)*123457 })
	putGetCase(t, rt, s, "int/odd-offset", 5, 7, func(r, i int) int { return -r<<50 + i })
	putGetCase(t, rt, s, "uint64/tail", size-8*90, 90, func(r, i int) uint64 { return ^uint64(r * i) })
	putGetCase(t, rt, s, "float32", 4, 33, func(r, i int) float32 { return float32(r) + float32(i)/3 })
	putGetCase(t, rt, s, "float64", 16, 100, func(r, i int) float64 { return float64(r)*1e300 - float64(i)/7 })
	putGetCase(t, rt, s, "complex64", 24, 40, func(r, i int) complex64 { return complex(float32(r)/3, -float32(i)) })
	putGetCase(t, rt, s, "complex128/odd-offset", 33, 60, func(r, i int) complex128 { return complex(float64(i)/9, float64(r)*2.5) })
	putGetCase(t, rt, s, "empty/at-end", size, 0, func(r, i int) float64 { return 0 })
	must(t, s.Free())
}

// testDirect: every rank puts into the next rank's part through its Direct,
// where it maps it, and reads back through Get; armci.Get sees what Direct
// put, Direct's Get what Put put. An offset past the part panics, as a
// slice index does, and parts reached through MPI have no Direct.
func testDirect(t *testing.T, rt *armci.Runtime) {
	me, n := rt.Rank(), rt.Size()
	const count = 40
	s := malloc(t, rt, 8*count)
	next := (me + 1) % n
	d, ok := armci.DirectTo[float64](s, next)
	if ok != s.Mapped(next) || ok != d.Mapped() {
		fatalf(t, "DirectTo(%d) ok = %v, Mapped = %v, d.Mapped() = %v", next, ok, s.Mapped(next), d.Mapped())
	}
	src := make([]float64, count/2)
	for i := range src {
		src[i] = float64(me*1000 + i)
	}
	if ok {
		d.Put(count/2, src)
	} else {
		must(t, armci.Put(s, next, 8*count/2, src))
	}
	must(t, rt.Fence(next))
	must(t, rt.Barrier())
	got := make([]float64, count/2)
	must(t, armci.Get(s, next, 8*count/2, got))
	sameBytes(t, "Direct.Put, then Get", asBytes(got), asBytes(src))
	if ok {
		clear(got)
		d.Get(count/2, got)
		sameBytes(t, "Direct.Get", asBytes(got), asBytes(src))
		// One element is a plain store and load.
		d.Put(3, src[7:8])
		var one [1]float64
		must(t, armci.Get(s, next, 8*3, one[:]))
		d.Get(count/2+5, got[:1])
		if one[0] != src[7] || got[0] != src[5] {
			t.Errorf("one element: Direct.Put then Get = %v (want %v), Direct.Get = %v (want %v)", one[0], src[7], got[0], src[5])
		}
		for _, bad := range []struct {
			name string
			f    func()
		}{
			{"Put past the part's end", func() { d.Put(count-1, src[:2]) }},
			{"Put of one element past the end", func() { d.Put(count, src[:1]) }},
			{"Get of one element past the end", func() { d.Get(count, got[:1]) }},
		} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("Direct.%s did not panic", bad.name)
					}
				}()
				bad.f()
			}()
		}
	}
	must(t, rt.Barrier())
	must(t, s.Free())
}

// testBarrierMax: many barriers in a row, with values that change from one
// to the next (a barrier that read a line of an earlier episode would see
// old ones), from none to MaxReduce of them, plain Barriers among them; and
// before each, every rank writes into the next rank's part what that rank
// must read after it.
func testBarrierMax(t *testing.T, rt *armci.Runtime) {
	me, n := rt.Rank(), rt.Size()
	s := malloc(t, rt, 8)
	next := (me + 1) % n
	values := func(ep, r int) []int64 {
		v := []int64{int64((ep*31 + r*17) % 101), int64(-ep - r), int64(ep) * int64(r), int64(r % 2)}
		return v[:ep%(armci.MaxReduce+1)]
	}
	for ep := range 1000 {
		must(t, armci.Put(s, next, 0, []int64{int64(ep*n + me)}))
		if ep%7 == 3 {
			must(t, rt.Barrier())
		} else {
			v := values(ep, me)
			must(t, rt.BarrierMax(v))
			want := values(ep, 0)
			for r := 1; r < n; r++ {
				for i, x := range values(ep, r) {
					want[i] = max(want[i], x)
				}
			}
			if !slices.Equal(v, want) {
				fatalf(t, "episode %d: BarrierMax gave %v, want %v", ep, v, want)
			}
		}
		got, err := armci.LocalAs[int64](s)
		must(t, err)
		if prev := (me - 1 + n) % n; got[0] != int64(ep*n+prev) {
			fatalf(t, "episode %d: after the barrier, the put of rank %d reads %d, want %d", ep, prev, got[0], ep*n+prev)
		}
		// Nobody puts again before everyone has read.
		must(t, rt.Barrier())
	}
	must(t, s.Free())
}

// testRevive: segments of two shapes, allocated and freed in turn many
// times, each written whole before it is freed: every revived one must
// read as zeros, tail bytes included, as a new shared-memory window does,
// and every one must move data between ranks. Where the
// parts are in one node's shared memory, later ones revive retired windows
// (none before ReviveAfter Frees); elsewhere none does.
func testRevive(t *testing.T, rt *armci.Runtime) {
	me, n := rt.Rank(), rt.Size()
	before := armci.Revived(rt)
	shared := false
	for i := range 3 * armci.ReviveAfter {
		size := 40000 + 8*me // parts of different sizes, not whole pages
		if i%3 == 2 {
			size = 5000
		}
		was := armci.Revived(rt)
		s := malloc(t, rt, size)
		shared = s.SharedMemory()
		local := s.Local()
		for j, b := range local {
			if b != 0 && armci.Revived(rt) > was {
				fatalf(t, "revived segment %d: byte %d of %d is %d, not 0", i, j, len(local), b)
			}
		}
		for j := range local {
			local[j] = byte(i + j + 1)
		}
		must(t, rt.Barrier())
		next := (me + 1) % n
		want := []int64{int64(i), int64(me)}
		must(t, armci.Put(s, next, 8, want))
		must(t, rt.AllFence())
		must(t, rt.Barrier())
		got := make([]int64, 2)
		must(t, armci.Get(s, next, 8, got))
		if !slices.Equal(got, want) {
			t.Errorf("segment %d: read back %v from rank %d, want %v", i, got, next, want)
		}
		must(t, rt.Barrier())
		must(t, s.Free())
		if i < armci.ReviveAfter && armci.Revived(rt) != before {
			fatalf(t, "segment %d revived a window retired fewer than %d Frees ago", i, armci.ReviveAfter)
		}
	}
	revived := armci.Revived(rt) - before
	// One process's window is private memory, whose pages MADV_REMOVE
	// cannot remove: it is not revived.
	if shared && n > 1 && revived == 0 {
		t.Errorf("no segment revived a retired window in shared memory")
	} else if !shared && revived != 0 {
		t.Errorf("%d segments revived retired windows outside one node's shared memory", revived)
	}
}

// testAllMaxReduce: many reductions and broadcasts in a row, of every op
// and element type and of lengths up to the cap, mixed with barriers and
// plain agreements, each rank's values changing every episode: every rank
// must get the rank-order combination and the maxima. Then the processes
// mixing calls (every reducing rank gets ErrMixed, v reduced, out untouched), a
// length over every cap (nothing done), and the refusals.
func testAllMaxReduce(t *testing.T, rt *armci.Runtime) {
	me, n := rt.Rank(), rt.Size()
	for ep := range 400 {
		v := []int64{int64(ep * me), int64(-me)}
		wantV := []int64{int64(ep * (n - 1)), 0}
		var ok bool
		var err error
		what := ""
		switch ep % 8 {
		case 0:
			must(t, rt.Barrier())
			continue
		case 1:
			must(t, rt.AllMax(v))
			ok, what = true, "AllMax"
		case 2: // float64 sums of integers: exact in any grouping
			ok, err = reduceCase(t, rt, v, ep, func(r, i int) float64 { return float64(ep + r*i) }, armci.ReduceSum, func(a, b float64) float64 { return a + b })
			what = "float64 sum"
		case 3:
			ok, err = reduceCase(t, rt, v, ep, func(r, i int) int32 { return int32((r*7+i+ep)%13 - 6) }, armci.ReduceMax, func(a, b int32) int32 { return max(a, b) })
			what = "int32 max"
		case 4:
			ok, err = reduceCase(t, rt, v, ep, func(r, i int) int64 { return 1 << ((r + i + ep) % 63) }, armci.ReduceOr, func(a, b int64) int64 { return a | b })
			what = "int64 or"
		case 5:
			ok, err = reduceCase(t, rt, v, ep, func(r, i int) float32 { return float32(r*i%17) - 8.5 }, armci.ReduceMin, func(a, b float32) float32 { return min(a, b) })
			what = "float32 min"
		case 6: // products of ±1 and ±i: exact
			ok, err = reduceCase(t, rt, v, ep, func(r, i int) complex128 { return []complex128{1, 1i, -1, -1i}[(r+i)%4] }, armci.ReduceProd, func(a, b complex128) complex128 { return a * b })
			what = "complex128 product"
		case 7:
			root := ep % n
			buf := reduceInput(ep, root, func(r, i int) byte { return byte(ep + 3*r + i) })
			out := make([]byte, len(buf))
			mine := buf
			if me != root {
				mine = make([]byte, len(buf)) // not read
			}
			ok, err = rt.AllMaxBrdcst(v, mine, out, root)
			if ok != (len(buf) <= rt.ReduceCap()) {
				fatalf(t, "AllMaxBrdcst of %d bytes reported done = %v", len(buf), ok)
			}
			if ok && !slices.Equal(out, buf) {
				fatalf(t, "episode %d: broadcast of %d bytes from %d: got %v…, want %v…", ep, len(buf), root, out[:min(8, len(out))], buf[:min(8, len(buf))])
			}
			what = "broadcast"
		}
		must(t, err)
		if !ok {
			continue // past the cap of this runtime's way (checked in reduceCase)
		}
		if !slices.Equal(v, wantV) {
			t.Errorf("episode %d (%s): maxima %v, want %v", ep, what, v, wantV)
		}
	}

	// Mixed calls: rank 0 agrees only, the others reduce and are told.
	// Its maxima tell a caller that agrees; then, after a reduction like
	// theirs, it agrees carrying nothing: across nodes its record travels
	// empty, and what the others receive must read as such, not as what
	// their last record held.
	if n > 1 {
		out := []float64{-7}
		for _, mine := range []int64{int64(me), math.MinInt64} {
			if mine == math.MinInt64 {
				_, err := armci.AllMaxReduce(rt, []int64{1000}, []float64{1}, out, armci.ReduceSum)
				must(t, err)
				out[0] = -7
			}
			v := []int64{int64(me)}
			if me == 0 {
				v[0] = mine
				must(t, rt.AllMax(v))
			} else {
				_, err := armci.AllMaxReduce(rt, v, []float64{1}, out, armci.ReduceSum)
				wantErr(t, "AllMaxReduce beside AllMax", err, "call", armci.ErrMixed)
				if out[0] != -7 {
					t.Errorf("AllMaxReduce beside AllMax of %d wrote out: %v", mine, out)
				}
			}
			if v[0] != int64(n-1) {
				t.Errorf("mixed calls, rank 0 with %d: maxima %v, want [%d]", mine, v, n-1)
			}
		}
		// Different ops.
		op := armci.ReduceSum
		if me == n-1 {
			op = armci.ReduceProd
		}
		_, err := armci.AllMaxReduce(rt, nil, []float64{2}, out, op)
		wantErr(t, "AllMaxReduce with another op", err, "call", armci.ErrMixed)
		// One process's arguments refused: it meets the others all the
		// same, with its refusal; they are told.
		if me == n-1 {
			_, err = armci.AllMaxReduce(rt, nil, []float64{2}, out, armci.ReduceOr)
			wantErr(t, "AllMaxReduce or of float64 beside sums", err, "op", nil)
			_, err = rt.AllMaxBrdcst(nil, []byte{1}, []byte{0}, -1)
			wantErr(t, "AllMaxBrdcst from root -1 beside root 0", err, "root", nil)
		} else {
			_, err = armci.AllMaxReduce(rt, nil, []float64{2}, out, armci.ReduceSum)
			wantErr(t, "AllMaxReduce beside a refused one", err, "call", armci.ErrMixed)
			_, err = rt.AllMaxBrdcst(nil, []byte{1}, []byte{0}, 0)
			wantErr(t, "AllMaxBrdcst beside a refused one", err, "call", armci.ErrMixed)
		}
		must(t, rt.Barrier())
	}

	// Past every cap: nothing is done, and the next call is in step.
	big := make([]byte, armci.GatherCap+1)
	ok, err := rt.AllMaxBrdcst(nil, big, big, 0)
	must(t, err)
	if ok {
		t.Errorf("AllMaxBrdcst of %d bytes reported done", len(big))
	}
	bigger := make([]float64, armci.GatherCap/8+1)
	ok, err = armci.AllMaxReduce(rt, nil, bigger, bigger, armci.ReduceSum)
	must(t, err)
	if ok {
		t.Errorf("AllMaxReduce of %d float64 reported done", len(bigger))
	}

	// Refusals, on every rank before any communication.
	_, err = armci.AllMaxReduce(rt, nil, []complex64{1}, []complex64{0}, armci.ReduceMax)
	wantErr(t, "AllMaxReduce max of complex64", err, "op", nil)
	_, err = armci.AllMaxReduce(rt, nil, []float64{1}, []float64{0}, armci.ReduceOr)
	wantErr(t, "AllMaxReduce or of float64", err, "op", nil)
	_, err = armci.AllMaxReduce(rt, nil, []int32{1, 2}, []int32{0}, armci.ReduceSum)
	wantErr(t, "AllMaxReduce with a short out", err, "out", nil)
	_, err = armci.AllMaxReduce(rt, make([]int64, armci.MaxReduce+1), []int32{1}, []int32{0}, armci.ReduceSum)
	wantErr(t, "AllMaxReduce with too many maxima", err, "v", nil)
	_, err = rt.AllMaxBrdcst(nil, []byte{1}, []byte{0}, n)
	wantErr(t, "AllMaxBrdcst from a root out of range", err, "root", nil)
	must(t, rt.Barrier())
}

// reduceInput is rank r's values of an episode: as many as the episode's
// length (0 up to past GatherCap bytes) calls for, f(r, i) each.
func reduceInput[T any](ep, r int, f func(r, i int) T) []T {
	var z T
	size := int(unsafe.Sizeof(z))
	x := make([]T, (ep*37)%(armci.GatherCap+64)/size)
	for i := range x {
		x[i] = f(r, i)
	}
	return x
}

// reduceCase reduces rank's values of the episode (reduceInput's, with f)
// by op over every rank, and checks the result against combine applied in
// rank order, and that x is left alone; it reports whether the call was
// done, which it must be exactly within rt.ReduceCap().
func reduceCase[T armci.AccElem](t *testing.T, rt *armci.Runtime, v []int64, ep int, f func(r, i int) T, op armci.ReduceOp, combine func(a, b T) T) (bool, error) {
	t.Helper()
	x := reduceInput(ep, rt.Rank(), f)
	keep := slices.Clone(x)
	out := make([]T, len(x))
	ok, err := armci.AllMaxReduce(rt, v, x, out, op)
	if err != nil {
		return ok, err
	}
	var z T
	bytes := len(x) * int(unsafe.Sizeof(z))
	if ok != (bytes <= rt.ReduceCap()) {
		fatalf(t, "AllMaxReduce of %d bytes reported done = %v (cap %d)", bytes, ok, rt.ReduceCap())
	}
	if !slices.Equal(x, keep) {
		t.Errorf("AllMaxReduce changed x")
	}
	if !ok {
		return ok, nil
	}
	want := reduceInput(ep, 0, f)
	for r := 1; r < rt.Size(); r++ {
		for i, b := range reduceInput(ep, r, f) {
			want[i] = combine(want[i], b)
		}
	}
	if !slices.Equal(out, want) {
		fatalf(t, "episode %d: reduction of %d elements: got %v…, want %v…", ep, len(x), out[:min(4, len(out))], want[:min(4, len(want))])
	}
	return ok, nil
}

// putGetCase: every rank puts count values of T at byte off into the next
// rank's part and reads them back at once; then every rank's whole part must
// hold the fill pattern with exactly that range replaced, both as seen locally
// and as read with Get from every rank.
func putGetCase[T mpi.Elem](t *testing.T, rt *armci.Runtime, s *armci.Segment, name string, off, count int, val func(rank, i int) T) {
	t.Run(name, func(t *testing.T) {
		me, n := rt.Rank(), rt.Size()
		size := s.Size(me)
		reset(t, rt, s)
		values := func(r int) []T {
			v := make([]T, count)
			for i := range v {
				v[i] = val(r, i)
			}
			return v
		}
		src := values(me)
		tgt := (me + 1) % n
		must(t, armci.Put(s, tgt, off, src))
		// Overlapping blocking operations of one process are ordered.
		back := make([]T, count)
		must(t, armci.Get(s, tgt, off, back))
		if !slices.Equal(back, src) {
			t.Errorf("Get right after Put to rank %d: %v, want %v", tgt, back, src)
		}
		must(t, rt.Barrier())
		want := func(r int) []byte {
			b := pattern(r, size)
			copy(b[off:], asBytes(values((r-1+n)%n)))
			return b
		}
		sameBytes(t, "local part", s.Local(), want(me))
		for r := range n {
			got := make([]byte, s.Size(r))
			must(t, armci.Get(s, r, 0, got))
			sameBytes(t, "rank "+itoa(r)+"'s part by Get", got, want(r))
		}
		// Typed Get at an element offset from the previous rank's part.
		prev := (me - 1 + n) % n
		if count > 2 {
			part := make([]T, count-2)
			must(t, armci.Get(s, prev, off+sizeOf[T](), part))
			if !slices.Equal(part, values((prev - 1 + n) % n)[1:count-1]) {
				t.Errorf("Get of elements 1..%d from rank %d: %v", count-2, prev, part)
			}
		}
	})
}

// ---- accumulate ----

func testAcc(t *testing.T, rt *armci.Runtime) {
	s := malloc(t, rt, 1000)
	accCase(t, rt, s, "int32", 4, 37, func(re, im int) int32 { return int32(re) })
	accCase(t, rt, s, "int64", 8, 50, func(re, im int) int64 { return int64(re) + int64(im)<<20 })
	accCase(t, rt, s, "float32", 12, 41, func(re, im int) float32 { return float32(re) + float32(im)/2 })
	accCase(t, rt, s, "float64", 16, 60, func(re, im int) float64 { return float64(re) + float64(im)/4 })
	accCase(t, rt, s, "complex64", 24, 30, func(re, im int) complex64 { return complex(float32(re), float32(im)) })
	accCase(t, rt, s, "complex128", 32, 40, func(re, im int) complex128 { return complex(float64(re), float64(im)) })
	must(t, s.Free())
}

// accCase: every rank accumulates into every rank's region, once with a scale
// factor and once with scale one; every region must then hold its initial values
// plus the exact sum (all values are small integers or halves, so floating-point
// sums are exact in any order), and the bytes around it must be untouched.
func accCase[T armci.AccElem](t *testing.T, rt *armci.Runtime, s *armci.Segment, name string, off, count int, mk func(re, im int) T) {
	t.Run(name, func(t *testing.T) {
		me, n := rt.Rank(), rt.Size()
		size := s.Size(me)
		initial := func(r int) []T {
			v := make([]T, count)
			for i := range v {
				v[i] = mk(i-r, 2*i+1)
			}
			return v
		}
		src := func(r int) []T {
			v := make([]T, count)
			for i := range v {
				v[i] = mk(r+i, r-2*i)
			}
			return v
		}
		plain := func(r int) []T {
			v := make([]T, count)
			for i := range v {
				v[i] = mk(i*r+1, i)
			}
			return v
		}
		scale := func(r int) T { return mk(r+2, -1) }
		must(t, rt.Barrier())
		b := pattern(me, size)
		copy(b[off:], asBytes(initial(me)))
		copy(s.Local(), b)
		must(t, rt.Barrier())
		for k := range n {
			tgt := (me + k) % n
			must(t, armci.Acc(s, tgt, off, src(me), scale(me)))
			must(t, armci.Acc(s, tgt, off, plain(me), mk(1, 0)))
		}
		must(t, rt.Barrier())
		want := initial(me)
		for r := range n {
			a, p, f := src(r), plain(r), scale(r)
			for i := range want {
				want[i] += f*a[i] + p[i]
			}
		}
		wb := pattern(me, size)
		copy(wb[off:], asBytes(want))
		if !sameBytes(t, "accumulated part", s.Local(), wb) {
			got := viewAs[T](s.Local()[off : off+count*sizeOf[T]()])
			t.Errorf("values %v, want %v", got, want)
		}
	})
}

// ---- strided ----

// levelShape is a strided patch with the given number of stride levels: odd
// block widths, gaps between blocks and levels, different local and remote
// strides.
func levelShape(levels int) armci.Strided {
	c0 := 3 + 2*(levels%3)
	p := armci.Strided{Count: []int{c0}, LocalStride: []int{}, RemoteStride: []int{}}
	ls, rs := c0+1, c0+2
	for k := 1; k <= levels; k++ {
		ck := 2 + k%2
		p.Count = append(p.Count, ck)
		p.LocalStride = append(p.LocalStride, ls)
		p.RemoteStride = append(p.RemoteStride, rs)
		ls, rs = ls*ck+3, rs*ck+k
	}
	return p
}

// oddShapes are strided patches at the edges.
var oddShapes = []struct {
	name string
	p    armci.Strided
}{
	{"single-byte-blocks", armci.Strided{Count: []int{1, 7, 3}, LocalStride: []int{1, 7}, RemoteStride: []int{5, 37}}},
	{"count-one-huge-stride", armci.Strided{Count: []int{4, 1, 5}, LocalStride: []int{1 << 20, 4}, RemoteStride: []int{1 << 30, 9}}},
	{"empty-level", armci.Strided{Count: []int{6, 0, 4}, LocalStride: []int{6, 6}, RemoteStride: []int{8, 8}}},
	{"zero-bytes", armci.Strided{Count: []int{0}, LocalStride: []int{}, RemoteStride: []int{}}},
	{"zero-width", armci.Strided{Count: []int{0, 3}, LocalStride: []int{4}, RemoteStride: []int{4}}},
	{"contiguous-rows", armci.Strided{Count: []int{8, 4}, LocalStride: []int{8}, RemoteStride: []int{8}}},
	{"packed-remote", armci.Strided{Count: []int{2, 5, 2}, LocalStride: []int{9, 50}, RemoteStride: []int{2, 10}}},
	{"packed-local", armci.Strided{Count: []int{3, 4, 3, 2}, LocalStride: []int{3, 12, 36}, RemoteStride: []int{11, 50, 200}}},
	{"one-block-deep", armci.Strided{Count: []int{13, 1, 1, 1, 1, 1, 1, 1}, LocalStride: []int{1, 2, 3, 4, 5, 6, 7}, RemoteStride: []int{7, 6, 5, 4, 3, 2, 1}}},
}

func testStrided(t *testing.T, rt *armci.Runtime) {
	const off = 3
	size := 0
	for l := 0; l <= armci.MaxStrideLevels; l++ {
		_, r := spans(levelShape(l))
		size = max(size, off+r+5)
	}
	s := malloc(t, rt, size)
	for l := 0; l <= armci.MaxStrideLevels; l++ {
		p := levelShape(l)
		if len(p.Count) != l+1 {
			fatalf(t, "levelShape(%d) has %d counts", l, len(p.Count))
		}
		stridedCase(t, rt, s, "levels="+itoa(l), off, p)
	}
	must(t, s.Free())
}

func testStridedOdd(t *testing.T, rt *armci.Runtime) {
	const off = 1
	s := malloc(t, rt, 600)
	for _, c := range oddShapes {
		stridedCase(t, rt, s, c.name, off, c.p)
	}
	must(t, s.Free())
}

// stridedCase: every rank puts a strided patch of its buffer into the next
// rank's part at off; the whole part must match a reference built with plain
// loops, untouched bytes included. Then every rank gets the patch back into a
// buffer of markers, and only the patch's bytes may change.
func stridedCase(t *testing.T, rt *armci.Runtime, s *armci.Segment, name string, off int, p armci.Strided) {
	t.Run(name, func(t *testing.T) {
		me, n := rt.Rank(), rt.Size()
		size := s.Size(me)
		lspan, rspan := spans(p)
		if off+rspan > size {
			fatalf(t, "shape spans %d bytes at %d: segment too small (%d)", rspan, off, size)
		}
		want := 0
		walk(p.Count, p.LocalStride, p.RemoteStride, func(l, r int) { want += p.Count[0] })
		if p.Bytes() != want {
			t.Errorf("Bytes() = %d, want %d", p.Bytes(), want)
		}
		local := func(r int) []byte {
			b := make([]byte, lspan+5)
			for i := range b {
				b[i] = byte(r*97 + i*5 + 1)
			}
			return b
		}
		expected := func(r int) []byte {
			b := pattern(r, size)
			from := local((r - 1 + n) % n)
			walk(p.Count, p.LocalStride, p.RemoteStride, func(l, rr int) {
				copy(b[off+rr:off+rr+p.Count[0]], from[l:l+p.Count[0]])
			})
			return b
		}
		reset(t, rt, s)
		tgt := (me + 1) % n
		src := local(me)
		must(t, armci.PutS(s, tgt, off, src, p))
		must(t, rt.Barrier())
		sameBytes(t, "PutS target part", s.Local(), expected(me))
		if !slices.Equal(src, local(me)) {
			t.Errorf("PutS changed its source buffer")
		}

		// GetS from the next rank into markers.
		got := make([]byte, lspan+5)
		for i := range got {
			got[i] = 0xEE
		}
		wantGot := slices.Clone(got)
		tb := expected(tgt)
		walk(p.Count, p.LocalStride, p.RemoteStride, func(l, r int) {
			copy(wantGot[l:l+p.Count[0]], tb[off+r:off+r+p.Count[0]])
		})
		must(t, armci.GetS(s, tgt, off, got, p))
		sameBytes(t, "GetS buffer", got, wantGot)

		// The same through a typed (uint16) local buffer: strides stay in bytes.
		if p.Count[0]%2 == 0 && allEven(p.LocalStride) {
			g16 := make([]uint16, (lspan+5)/2+1)
			for i := range g16 {
				g16[i] = 0xBEEF
			}
			w16 := slices.Clone(g16)
			wb := asBytes(w16)
			walk(p.Count, p.LocalStride, p.RemoteStride, func(l, r int) {
				copy(wb[l:l+p.Count[0]], tb[off+r:off+r+p.Count[0]])
			})
			must(t, armci.GetS(s, tgt, off, g16, p))
			if !slices.Equal(g16, w16) {
				t.Errorf("GetS into []uint16: %v, want %v", g16, w16)
			}
		}
	})
}

func allEven(xs []int) bool {
	for _, x := range xs {
		if x%2 != 0 {
			return false
		}
	}
	return true
}

// accShape is levelShape in whole elements of es bytes.
func accShape(levels, es int) armci.Strided {
	c0 := es * (1 + levels%3)
	p := armci.Strided{Count: []int{c0}, LocalStride: []int{}, RemoteStride: []int{}}
	ls, rs := c0+es, c0+2*es
	for k := 1; k <= levels; k++ {
		ck := 2 + k%2
		p.Count = append(p.Count, ck)
		p.LocalStride = append(p.LocalStride, ls)
		p.RemoteStride = append(p.RemoteStride, rs)
		ls, rs = ls*ck+es, rs*ck+es*k
	}
	return p
}

func testAccS(t *testing.T, rt *armci.Runtime) {
	accSLevels(t, rt, "int32", func(re, im int) int32 { return int32(re) })
	accSLevels(t, rt, "float64", func(re, im int) float64 { return float64(re) + float64(im)/8 })
	accSLevels(t, rt, "complex128", func(re, im int) complex128 { return complex(float64(re), float64(im)) })
}

// accSLevels: at every stride level, every rank accumulates a strided patch,
// scaled, into every rank's part; each part must then be its initial values
// plus the sum, element by element, as the plain-loop reference says.
func accSLevels[T armci.AccElem](t *testing.T, rt *armci.Runtime, name string, mk func(re, im int) T) {
	t.Run(name, func(t *testing.T) {
		es := sizeOf[T]()
		off := 3 * es
		size := 0
		for l := 0; l <= armci.MaxStrideLevels; l++ {
			_, r := spans(accShape(l, es))
			size = max(size, off+r+2*es)
		}
		s := malloc(t, rt, size)
		me, n := rt.Rank(), rt.Size()
		for l := 0; l <= armci.MaxStrideLevels; l++ {
			p := accShape(l, es)
			lspan, _ := spans(p)
			initial := func(r int) []T {
				v := make([]T, size/es)
				for i := range v {
					v[i] = mk(i%11-r, i%5)
				}
				return v
			}
			local := func(r int) []T {
				v := make([]T, lspan/es)
				for i := range v {
					v[i] = mk(i%7+r, -i%3)
				}
				return v
			}
			scale := func(r int) T { return mk(r-1, 1) }
			must(t, rt.Barrier())
			copy(s.Local(), asBytes(initial(me)))
			must(t, rt.Barrier())
			for k := range n {
				must(t, armci.AccS(s, (me+k)%n, off, local(me), p, scale(me)))
			}
			must(t, rt.Barrier())
			want := initial(me)
			for r := range n {
				lv, f := local(r), scale(r)
				walk(p.Count, p.LocalStride, p.RemoteStride, func(l, rr int) {
					for j := range p.Count[0] / es {
						want[(off+rr)/es+j] += f * lv[l/es+j]
					}
				})
			}
			if !sameBytes(t, "levels="+itoa(l), s.Local(), asBytes(want)) {
				t.Errorf("levels=%d: got %v\nwant %v", l, viewAs[T](s.Local()), want)
			}
		}
		must(t, s.Free())
	})
}

// ---- vector ----

var testVecs = []armci.IOVec{
	{Local: []int{0, 10, 33}, Remote: []int{100, 7, 50}, Bytes: 5},
	{Local: []int{40}, Remote: []int{200}, Bytes: 17},
	{Local: nil, Remote: nil, Bytes: 3},
	{Local: []int{60, 61}, Remote: []int{300, 400}, Bytes: 0},
	{Local: []int{70, 90, 110, 130}, Remote: []int{500, 530, 520, 510}, Bytes: 8},
	{Local: []int{139}, Remote: []int{699}, Bytes: 1},
}

// accVecs are in whole float64 elements.
var accVecs = []armci.IOVec{
	{Local: []int{0, 24, 8}, Remote: []int{64, 8, 160}, Bytes: 16},
	{Local: []int{40}, Remote: []int{200}, Bytes: 40},
	{Local: []int{}, Remote: []int{}, Bytes: 8},
	{Local: []int{80, 88}, Remote: []int{600, 40}, Bytes: 8},
}

func testVector(t *testing.T, rt *armci.Runtime) {
	me, n := rt.Rank(), rt.Size()
	const size = 700
	s := malloc(t, rt, size)
	tgt := (me + 1) % n
	local := func(r int) []byte {
		b := make([]byte, 140)
		for i := range b {
			b[i] = byte(200 - r*31 - i)
		}
		return b
	}
	expected := func(r int, vecs []armci.IOVec) []byte {
		b := pattern(r, size)
		from := local((r - 1 + n) % n)
		for _, v := range vecs {
			for i := range v.Local {
				copy(b[v.Remote[i]:v.Remote[i]+v.Bytes], from[v.Local[i]:v.Local[i]+v.Bytes])
			}
		}
		return b
	}
	t.Run("PutV", func(t *testing.T) {
		reset(t, rt, s)
		must(t, armci.PutV(s, tgt, local(me), testVecs))
		must(t, rt.Barrier())
		sameBytes(t, "PutV target part", s.Local(), expected(me, testVecs))
	})
	t.Run("GetV", func(t *testing.T) {
		got := make([]byte, 140)
		for i := range got {
			got[i] = 0xEE
		}
		want := slices.Clone(got)
		tb := expected(tgt, testVecs)
		for _, v := range testVecs {
			for i := range v.Local {
				copy(want[v.Local[i]:v.Local[i]+v.Bytes], tb[v.Remote[i]:v.Remote[i]+v.Bytes])
			}
		}
		must(t, armci.GetV(s, tgt, got, testVecs))
		sameBytes(t, "GetV buffer", got, want)
		must(t, rt.Barrier())
	})
	t.Run("AccV", func(t *testing.T) {
		initial := func(r int) []float64 {
			v := make([]float64, size/8)
			for i := range v {
				v[i] = float64(i - r)
			}
			return v
		}
		src := func(r int) []float64 {
			v := make([]float64, 12)
			for i := range v {
				v[i] = float64(r+1) * float64(i+1) / 4
			}
			return v
		}
		scale := func(r int) float64 { return float64(3 - r) }
		must(t, rt.Barrier())
		b := pattern(me, size)
		copy(b, asBytes(initial(me)))
		copy(s.Local(), b)
		must(t, rt.Barrier())
		for k := range n {
			must(t, armci.AccV(s, (me+k)%n, src(me), accVecs, scale(me)))
		}
		must(t, rt.Barrier())
		want := initial(me)
		for r := range n {
			sv, f := src(r), scale(r)
			for _, v := range accVecs {
				for i := range v.Local {
					for j := range v.Bytes / 8 {
						want[v.Remote[i]/8+j] += f * sv[v.Local[i]/8+j]
					}
				}
			}
		}
		wb := pattern(me, size)
		copy(wb, asBytes(want))
		sameBytes(t, "AccV part", s.Local(), wb)
	})
	must(t, s.Free())
}

// ---- sizes and groups ----

// testZeroSize: rank r allocates r*100 bytes, so rank 0 has none.
func testZeroSize(t *testing.T, rt *armci.Runtime) {
	me, n := rt.Rank(), rt.Size()
	s, err := rt.Malloc(me * 100)
	must(t, err)
	for r := range n {
		if s.Size(r) != r*100 {
			t.Errorf("Size(%d) = %d, want %d", r, s.Size(r), r*100)
		}
	}
	if len(s.Local()) != me*100 {
		t.Errorf("Local() has %d bytes, want %d", len(s.Local()), me*100)
	}
	v, err := armci.LocalAs[int32](s)
	must(t, err)
	if len(v) != me*25 {
		t.Errorf("LocalAs[int32] has %d elements, want %d", len(v), me*25)
	}
	reset(t, rt, s)
	// Origin o writes 25 bytes at 25*o into every rank that has memory.
	mine := func(o int) []byte {
		b := make([]byte, 25)
		for i := range b {
			b[i] = byte(o*40 + i + 100)
		}
		return b
	}
	for r := 1; r < n; r++ {
		must(t, armci.Put(s, r, 25*me, mine(me)))
	}
	// Nothing fits in rank 0's part, but an empty transfer does.
	must(t, armci.Put(s, 0, 0, []byte{}))
	must(t, armci.Get(s, 0, 0, []float64{}))
	must(t, armci.Acc(s, 0, 0, []float64{}, 2))
	must(t, armci.PutS(s, 0, 0, []byte{}, armci.Strided{Count: []int{0}, LocalStride: []int{}, RemoteStride: []int{}}))
	must(t, armci.PutV(s, 0, []byte{1}, []armci.IOVec{{Local: []int{0}, Remote: []int{0}, Bytes: 0}}))
	wantErr(t, "Put of 1 byte into an empty part", armci.Put(s, 0, 0, []byte{1}), "offset", nil)
	_, err = armci.FetchAdd(s, 0, 0, int32(1))
	wantErr(t, "FetchAdd on an empty part", err, "offset", nil)
	must(t, rt.Barrier())
	expected := func(r int) []byte {
		b := pattern(r, r*100)
		if r > 0 {
			for o := range n {
				copy(b[25*o:], mine(o))
			}
		}
		return b
	}
	sameBytes(t, "local part", s.Local(), expected(me))
	for r := range n {
		got := make([]byte, r*100)
		must(t, armci.Get(s, r, 0, got))
		sameBytes(t, "part of rank "+itoa(r), got, expected(r))
		// Where this process maps rank r's part, it reads it in place.
		part, ok := armci.PartAs[byte](s, r)
		if ok != s.Mapped(r) {
			t.Errorf("PartAs(%d): ok %v, Mapped %v", r, ok, s.Mapped(r))
		}
		if ok {
			sameBytes(t, "PartAs of rank "+itoa(r), part, expected(r))
		}
		if words, ok := armci.PartAs[int64](s, r); ok && r*100%8 != 0 {
			t.Errorf("PartAs[int64](%d) of %d bytes: %d words, want not ok", r, r*100, len(words))
		}
	}
	// A segment that is empty everywhere.
	z := malloc(t, rt, 0)
	for r := range n {
		if z.Size(r) != 0 {
			t.Errorf("empty segment: Size(%d) = %d", r, z.Size(r))
		}
		must(t, armci.Put(z, r, 0, []int64{}))
		wantErr(t, "Put into an empty segment", armci.Put(z, r, 0, []int64{1}), "offset", nil)
	}
	must(t, z.Free())
	must(t, s.Free())
}

// testGroup allocates over a sub-communicator (even and odd ranks, in reverse
// order so that segment ranks differ from runtime ranks), with a world segment
// allocated between, and moves data within each group.
func testGroup(t *testing.T, rt *armci.Runtime) {
	me := rt.Rank()
	sub, err := mpi.World().Split(me%2, -me)
	must(t, err)
	sr, sn := sub.Rank(), sub.Size()
	world := gatherInts(t, sub, []int{me}) // runtime rank of each group rank
	gs, err := rt.MallocGroup(sub, 64*(sr+1))
	must(t, err)
	ws := malloc(t, rt, 32)
	// Over nodes (TestNodes) a group may span them: then it maps only its
	// node's parts.
	if want := rt.SharedMemory(); gs.SharedMemory() != want && (rt.SingleNode() || gs.SharedMemory()) {
		t.Errorf("group segment SharedMemory() = %v, runtime %v", gs.SharedMemory(), want)
	}
	if gs.Comm() != sub {
		t.Errorf("group segment Comm() is not the sub-communicator")
	}
	for r := range sn {
		if gs.Size(r) != 64*(r+1) {
			t.Errorf("group Size(%d) = %d, want %d", r, gs.Size(r), 64*(r+1))
		}
	}
	reset(t, rt, gs)
	reset(t, rt, ws)
	// Group rank sr writes 5 int64 at byte 8 of the next group rank, and
	// adds to a counter at byte 48 of group rank 0, which starts at zero.
	must(t, rt.Barrier())
	if sr == 0 {
		clear(gs.Local()[48:56])
	}
	must(t, rt.Barrier())
	vals := func(r int) []int64 { return []int64{int64(world[r]), int64(r), 1000, -1, int64(sn)} }
	tgt := (sr + 1) % sn
	must(t, armci.Put(gs, tgt, 8, vals(sr)))
	must(t, rt.Fence(world[tgt]))
	for range 3 {
		if _, err := armci.FetchAdd(gs, 0, 48, int64(sr+1)); err != nil {
			fatalf(t, "FetchAdd on group segment: %v", err)
		}
	}
	must(t, armci.Acc(gs, 0, 56, []int64{int64(world[sr])}, 2))
	// The world segment at the same time, with world ranks.
	must(t, armci.Put(ws, (me+1)%rt.Size(), 8, []int64{int64(me)}))
	wantErr(t, "Put to a group rank past the group", armci.Put(gs, sn, 0, []byte{1}), "rank", nil)
	must(t, rt.Barrier())
	want := pattern(sr, 64*(sr+1))
	copy(want[8:], asBytes(vals((sr-1+sn)%sn)))
	if sr == 0 {
		copy(want[48:], asBytes([]int64{3 * int64(sn*(sn+1)/2)}))
		sum := viewAs[int64](slices.Clone(pattern(0, 64)[56:64]))[0]
		for _, w := range world {
			sum += 2 * int64(w)
		}
		copy(want[56:], asBytes([]int64{sum}))
	}
	sameBytes(t, "group part", gs.Local(), want)
	wws := pattern(me, 32)
	copy(wws[8:], asBytes([]int64{int64((me - 1 + rt.Size()) % rt.Size())}))
	sameBytes(t, "world part", ws.Local(), wws)
	// Negative size on one group member: every member must see the error.
	_, err = rt.MallocGroup(sub, 8-16*sr)
	if sn > 1 {
		wantErr(t, "MallocGroup with a negative size on some rank", err, "size", nil)
	} else {
		must(t, err)
	}
	must(t, gs.Free())
	wantErr(t, "Put after group Free", armci.Put(gs, 0, 0, []byte{1}), "segment", armci.ErrFreed)
	must(t, ws.Free())
	// Where the group has one rank, Finalize frees the leftover 8-byte group
	// segment; sub is freed after that.
	must(t, rt.Barrier())
	freeLater(t, sub)
}

// testFenceThenRead: after Put and Fence to a rank, a message tells that rank
// to look at its memory directly, without any barrier: the data must be there.
// MapIn is advice: afterwards every part reads as it did, on either path,
// and a rank outside the segment is refused.
func testMapIn(t *testing.T, rt *armci.Runtime) {
	const size = 3<<20 + 40 // several pages, not a whole number of them
	s := malloc(t, rt, size)
	me, n := rt.Rank(), rt.Size()
	local := s.Local()
	for i := range local {
		local[i] = byte(me*31 + i%251)
	}
	must(t, rt.Barrier())
	for r := range n {
		must(t, s.MapIn(r))
		got := make([]byte, size)
		must(t, armci.Get(s, r, 0, got))
		for i, v := range got {
			if v != byte(r*31+i%251) {
				fatalf(t, "after MapIn(%d): byte %d = %d, want %d", r, i, v, byte(r*31+i%251))
			}
		}
	}
	if err := s.MapIn(n); err == nil {
		fatalf(t, "MapIn(%d) of a %d-rank segment succeeded", n, n)
	}
	must(t, rt.Barrier())
	must(t, s.Free())
}

func testFenceThenRead(t *testing.T, rt *armci.Runtime) {
	me := rt.Rank()
	sub, err := mpi.World().Split(me%2, -me)
	must(t, err)
	defer mpitest.Cleanup(t, sub.Free)
	sr, sn := sub.Rank(), sub.Size()
	world := gatherInts(t, sub, []int{me})
	// Large enough that a put is locally complete (its buffer copied out) long
	// before it is complete at the target over TCP.
	const size = 64 << 10
	gs, err := rt.MallocGroup(sub, size)
	must(t, err)
	ws := malloc(t, rt, size)
	for round := range 5 {
		n := rt.Size()
		for _, c := range []struct {
			name     string
			s        *armci.Segment
			c        *mpi.Comm
			tgt, src int // segment ranks
			fence    int // runtime rank of tgt
			from     int // runtime rank of src
		}{
			{"world", ws, mpi.World(), (me + 1) % n, (me - 1 + n) % n, (me + 1) % n, (me - 1 + n) % n},
			{"group", gs, sub, (sr + 1) % sn, (sr - 1 + sn) % sn, world[(sr+1)%sn], world[(sr-1+sn)%sn]},
		} {
			v := make([]int64, size/8)
			for i := range v {
				v[i] = int64(round*1000000 + me*1000 + i)
			}
			must(t, armci.Put(c.s, c.tgt, 0, v))
			must(t, rt.Fence(c.fence))
			if _, err := mpi.Sendrecv(c.c, []int{round}, c.tgt, 7, make([]int, 1), c.src, 7); err != nil {
				fatalf(t, "Sendrecv: %v", err)
			}
			got := viewAs[int64](c.s.Local())
			for i := range got {
				if want := int64(round*1000000 + c.from*1000 + i); got[i] != want {
					t.Errorf("%s round %d: element %d = %d right after the origin's fence, want %d", c.name, round, i, got[i], want)
					break
				}
			}
			must(t, rt.Barrier())
		}
	}
	must(t, gs.Free())
	must(t, ws.Free())
}

// ---- read-modify-write ----

// testRMW: ranks take turns; in its turn a rank applies every RMW to every
// rank's cells, and the old values it gets back follow from the turns before.
func testRMW(t *testing.T, rt *armci.Runtime) {
	me, n := rt.Rank(), rt.Size()
	s := malloc(t, rt, 40)
	// Cells: int32 add at 0, int32 swap at 4, int64 add at 8, int64 swap at 16,
	// int64 compare-swap at 24, int32 compare-swap at 32.
	init32 := func(r int) int32 { return int32(-7 * (r + 1)) }
	init64 := func(r int) int64 { return int64(r+1) << 36 }
	must(t, rt.Barrier())
	c32, c64 := viewAs[int32](s.Local()), viewAs[int64](s.Local())
	c32[0], c32[1], c64[1], c64[2], c64[3], c32[8], c32[9] = init32(me), init32(me)+1, init64(me), init64(me)+1, 0, 5, 0x3C3C3C3C
	must(t, rt.Barrier())
	before := func(turn int) int { return turn * (turn + 1) / 2 } // sum of q+1 for q < turn
	for turn := range n {
		if me == turn {
			for tgt := range n {
				old32, err := armci.FetchAdd(s, tgt, 0, int32(-(me + 1)))
				must(t, err)
				if want := init32(tgt) - int32(before(turn)); old32 != want {
					t.Errorf("turn %d: FetchAdd int32 on rank %d returned %d, want %d", turn, tgt, old32, want)
				}
				old64, err := armci.FetchAdd(s, tgt, 8, int64(me+1)<<33)
				must(t, err)
				if want := init64(tgt) + int64(before(turn))<<33; old64 != want {
					t.Errorf("turn %d: FetchAdd int64 on rank %d returned %d, want %d", turn, tgt, old64, want)
				}
				sw32, err := armci.Swap(s, tgt, 4, int32(100*me+tgt))
				must(t, err)
				want32 := init32(tgt) + 1
				if turn > 0 {
					want32 = int32(100*(turn-1) + tgt)
				}
				if sw32 != want32 {
					t.Errorf("turn %d: Swap int32 on rank %d returned %d, want %d", turn, tgt, sw32, want32)
				}
				sw64, err := armci.Swap(s, tgt, 16, int64(me)<<40+int64(tgt))
				must(t, err)
				want64 := init64(tgt) + 1
				if turn > 0 {
					want64 = int64(turn-1)<<40 + int64(tgt)
				}
				if sw64 != want64 {
					t.Errorf("turn %d: Swap int64 on rank %d returned %d, want %d", turn, tgt, sw64, want64)
				}
				cur := int64(before(turn))
				got, err := armci.CompareSwap(s, tgt, 24, cur+1000, -5)
				must(t, err)
				if got != cur {
					t.Errorf("turn %d: failing CompareSwap int64 on rank %d returned %d, want %d", turn, tgt, got, cur)
				}
				got, err = armci.CompareSwap(s, tgt, 24, cur, cur+int64(me)+1)
				must(t, err)
				if got != cur {
					t.Errorf("turn %d: CompareSwap int64 on rank %d returned %d, want %d", turn, tgt, got, cur)
				}
				g32, err := armci.CompareSwap(s, tgt, 36, int32(0x3C3C3C3C), int32(-me-1))
				must(t, err)
				if want := map[bool]int32{true: 0x3C3C3C3C, false: -1}[turn == 0]; g32 != want {
					t.Errorf("turn %d: CompareSwap int32 on rank %d returned %#x, want %#x", turn, tgt, g32, want)
				}
			}
		}
		must(t, rt.Barrier())
	}
	all := before(n)
	if c32[0] != init32(me)-int32(all) {
		t.Errorf("int32 counter = %d, want %d", c32[0], init32(me)-int32(all))
	}
	if c32[1] != int32(100*(n-1)+me) {
		t.Errorf("int32 swap cell = %d, want %d", c32[1], 100*(n-1)+me)
	}
	if c64[1] != init64(me)+int64(all)<<33 {
		t.Errorf("int64 counter = %d, want %d", c64[1], init64(me)+int64(all)<<33)
	}
	if c64[2] != int64(n-1)<<40+int64(me) {
		t.Errorf("int64 swap cell = %d, want %d", c64[2], int64(n-1)<<40+int64(me))
	}
	if c64[3] != int64(all) {
		t.Errorf("compare-swap cell = %d, want %d", c64[3], all)
	}
	if c32[8] != 5 {
		t.Errorf("int32 at byte 32 = %d: an RMW next to it changed it", c32[8])
	}
	if c32[9] != -1 {
		t.Errorf("int32 compare-swap cell = %d, want -1 (the first turn's value)", c32[9])
	}
	must(t, s.Free())
}

// ---- runtime ----

// testFinalize: Finalize frees what is left (segments, group segments,
// mutexes), and the runtime refuses everything afterwards.
func testFinalize(t *testing.T, rt *armci.Runtime) {
	s := malloc(t, rt, 16)
	must(t, rt.CreateMutexes(1))
	sub, err := mpi.World().Split(0, 0)
	must(t, err)
	gs, err := rt.MallocGroup(sub, 8)
	must(t, err)
	rt2, err := armci.Init(mpi.World())
	must(t, err)
	s2 := malloc(t, rt2, 8)
	gs2, err := rt2.MallocGroup(sub, 8)
	must(t, err)
	must(t, rt2.CreateMutexes(2))
	// Not while a process holds a mutex: refused everywhere, nothing freed.
	last := rt2.Size() - 1
	if rt2.Rank() == 0 {
		must(t, rt2.Lock(1, last))
	}
	wantErr(t, "Finalize while rank 0 holds a mutex", rt2.Finalize(), "mutex", nil)
	must(t, armci.Put(s2, last, 0, []int64{int64(rt2.Rank())}))
	if rt2.Rank() == 0 {
		must(t, rt2.Unlock(1, last))
	}
	must(t, rt2.Finalize())
	wantErr(t, "Put after Finalize", armci.Put(s2, 0, 0, []byte{1}), "segment", armci.ErrFreed)
	wantErr(t, "Get from a group segment after Finalize", armci.Get(gs2, 0, 0, []byte{1}), "segment", armci.ErrFreed)
	wantErr(t, "Lock after Finalize", rt2.Lock(0, 0), "runtime", armci.ErrFinalized)
	wantErr(t, "Malloc after Finalize", func() error { _, err := rt2.Malloc(8); return err }(), "runtime", armci.ErrFinalized)
	wantErr(t, "Fence after Finalize", rt2.Fence(0), "runtime", armci.ErrFinalized)
	wantErr(t, "Barrier after Finalize", rt2.Barrier(), "runtime", armci.ErrFinalized)
	wantErr(t, "WaitAll after Finalize", rt2.WaitAll(), "runtime", armci.ErrFinalized)
	wantErr(t, "CreateMutexes after Finalize", rt2.CreateMutexes(1), "runtime", armci.ErrFinalized)
	wantErr(t, "Finalize twice", rt2.Finalize(), "runtime", armci.ErrFinalized)
	if s2.Local() != nil {
		t.Errorf("Local() after Finalize is not nil")
	}
	// The outer runtime is untouched by the other one's end.
	must(t, armci.Put(s, rt.Rank(), 0, []int64{42}))
	must(t, armci.Put(gs, 0, 0, []byte{1}))
	must(t, rt.Lock(0, 0))
	must(t, rt.Unlock(0, 0))
	must(t, rt.Barrier())
	freeLater(t, sub)
}

// testDefaultInit: a runtime with default options maps shared memory where
// MPI offers it and falls back to RMA where it does not (osc ucx).
func testDefaultInit(t *testing.T) {
	rt, err := armci.Init(mpi.World())
	must(t, err)
	if want := mpitest.SharedWindows() && os.Getenv("GOGA_ARMCI_SHM") != "0"; rt.SharedMemory() != want {
		t.Errorf("default runtime SharedMemory() = %v, want %v", rt.SharedMemory(), want)
	}
	s := malloc(t, rt, 16)
	me, n := rt.Rank(), rt.Size()
	must(t, armci.Put(s, (me+1)%n, 0, []int64{int64(me) + 7}))
	must(t, rt.Barrier())
	if got := viewAs[int64](s.Local())[0]; got != int64((me-1+n)%n)+7 {
		t.Errorf("after Put: %d, want %d", got, (me-1+n)%n+7)
	}
	must(t, rt.Finalize())

	// GOGA_ARMCI_SHM=0 switches shared memory off, like WithoutSharedMemory.
	old, had := os.LookupEnv("GOGA_ARMCI_SHM")
	os.Setenv("GOGA_ARMCI_SHM", "0")
	rt, err = armci.Init(mpi.World())
	if had {
		os.Setenv("GOGA_ARMCI_SHM", old)
	} else {
		os.Unsetenv("GOGA_ARMCI_SHM")
	}
	must(t, err)
	if rt.SharedMemory() {
		t.Errorf("with GOGA_ARMCI_SHM=0: SharedMemory() = true")
	}
	s = malloc(t, rt, 8)
	if s.SharedMemory() {
		t.Errorf("with GOGA_ARMCI_SHM=0: segment SharedMemory() = true")
	}
	must(t, rt.Finalize())
}

func itoa(i int) string { return strconv.Itoa(i) }

func sizeOf[T any]() int { return len(asBytes(make([]T, 1))) }
