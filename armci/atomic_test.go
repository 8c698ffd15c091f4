package armci_test

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestAtomicity has every rank hammer the same places at once; the totals must
// be exact.
func TestAtomicity(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		t.Run("Acc", func(t *testing.T) { eachMode(t, testAccContention) })
		t.Run("Tickets", func(t *testing.T) { eachMode(t, testTickets) })
		t.Run("SwapCAS", func(t *testing.T) { eachMode(t, testSwapCAS) })
		t.Run("Mutexes", func(t *testing.T) { eachMode(t, testMutexes) })
		t.Run("MutexSets", func(t *testing.T) { eachMode(t, testMutexSets) })
		t.Run("Goroutines", func(t *testing.T) { eachMode(t, goroutines(4, reps().threaded)) })
		t.Run("FenceGoroutines", func(t *testing.T) { eachMode(t, testFenceGoroutines) })
	}, bothTransports, mpitest.ManyNodes())
}

// TestGoroutinesTCP: 8 goroutines per rank at once over TCP (osc ucx), where
// threads of one process used to compete inside MPI: accumulates fell from
// 1,400 to 12 calls per second, and 100 of each call per goroutine took
// minutes. The totals must be exact.
func TestGoroutinesTCP(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) { eachMode(t, goroutines(8, 100)) },
		mpitest.Transports(mpitest.TCP), mpitest.Ranks(2, 4), mpitest.Timeout(90*time.Second))
}

// counts says how many times each rank repeats a contended operation.
type counts struct{ acc, tickets, cas, mutex, threaded int }

// reps: thousands over shared memory (on both data paths). Over TCP every
// operation is several round trips that the target answers only from inside
// MPI or from its progress goroutine: measured here with 4 ranks on 2 cores,
// about 4 ms per contended accumulate and 3 ms per fetch-and-add, so hundreds.
func reps() counts {
	if mpitest.OverNetwork() {
		return counts{acc: 100, tickets: 200, cas: 100, mutex: 60, threaded: 6}
	}
	return counts{acc: 3000, tickets: 5000, cas: 2000, mutex: 1000, threaded: 1000}
}

// hosts are the ranks whose parts everybody hits: the first and the last.
func hosts(n int) []int {
	if n == 1 {
		return []int{0}
	}
	return []int{0, n - 1}
}

// testAccContention: every rank accumulates into the same regions of the
// first and last ranks, K times, with contiguous, strided and vector
// accumulates of several types mixed.
func testAccContention(t *testing.T, rt *armci.Runtime) {
	me, n := rt.Rank(), rt.Size()
	K := reps().acc
	const E = 16
	const fOff, iOff, cOff, size = 0, 8 * E, 12 * E, 28 * E
	s := malloc(t, rt, size)
	must(t, rt.Barrier())
	clear(s.Local())
	must(t, rt.Barrier())
	f := make([]float64, E)
	ints := make([]int32, E)
	cs := make([]complex128, E)
	for i := range E {
		f[i] = float64((me + 1) * (i + 1))
		ints[i] = int32((me + 1) * (i + 1))
		cs[i] = complex(float64(me+1), float64(i+1))
	}
	// The float region as two strided blocks and as two vector pieces.
	half := 8 * E / 2
	p := armci.Strided{Count: []int{half, 2}, LocalStride: []int{half}, RemoteStride: []int{half}}
	vecs := []armci.IOVec{{Local: []int{half, 0}, Remote: []int{fOff + half, fOff}, Bytes: half}}
	for k := range K {
		for _, h := range hosts(n) {
			switch k % 4 {
			case 1:
				must(t, armci.AccS(s, h, fOff, f, p, 3))
			case 3:
				must(t, armci.AccV(s, h, f, vecs, 3))
			case 2:
				// Straight into the mapped part where there is one: atomic
				// with the others on every target (Direct falls back to
				// Acc where accumulates go through MPI): half the floats in
				// one call, the rest one element a call (Direct's add in
				// place, unscaled here, scaled below).
				if d, ok := armci.DirectTo[float64](s, h); ok {
					must(t, d.Acc(fOff/8, f[:E/2], 1))
					di, _ := armci.DirectTo[int32](s, h)
					dc, _ := armci.DirectTo[complex128](s, h)
					for i := range E {
						if i >= E/2 {
							must(t, d.Acc(fOff/8+i, f[i:i+1], 1))
						}
						must(t, di.Acc(iOff/4+i, ints[i:i+1], -2))
						must(t, dc.Acc(cOff/16+i, cs[i:i+1], 1i))
					}
					continue
				}
				must(t, armci.Acc(s, h, fOff, f, 1))
			default:
				must(t, armci.Acc(s, h, fOff, f, 1))
			}
			must(t, armci.Acc(s, h, iOff, ints, -2))
			must(t, armci.Acc(s, h, cOff, cs, 1i))
		}
	}
	must(t, rt.Barrier())
	if !slices.Contains(hosts(n), me) {
		sameBytes(t, "a part nobody accumulated into", s.Local(), make([]byte, size))
		return
	}
	weight := 0.0 // per unit of (r+1)(i+1): scale 1 or 3 by k%4
	for k := range K {
		weight += map[bool]float64{true: 3, false: 1}[k%2 == 1]
	}
	sum := n * (n + 1) / 2 // sum of r+1
	gotF := viewAs[float64](s.Local()[fOff:iOff])
	gotI := viewAs[int32](s.Local()[iOff:cOff])
	gotC := viewAs[complex128](s.Local()[cOff:size])
	for i := range E {
		if want := weight * float64(sum*(i+1)); gotF[i] != want {
			t.Errorf("float64 element %d = %v, want %v", i, gotF[i], want)
		}
		if want := int32(-2 * K * sum * (i + 1)); gotI[i] != want {
			t.Errorf("int32 element %d = %d, want %d", i, gotI[i], want)
		}
		var want complex128
		for r := range n {
			want += complex(float64(K), 0) * 1i * complex(float64(r+1), float64(i+1))
		}
		if gotC[i] != want {
			t.Errorf("complex128 element %d = %v, want %v", i, gotC[i], want)
		}
	}
}

// testTickets: every rank draws K tickets from an int64 counter on the last
// rank and K from an int32 counter on the first, at once. The tickets from
// each counter are all distinct, cover 0..nK-1, and each rank's rise; the
// counters end at nK. A third counter gets increments of rank+1.
func testTickets(t *testing.T, rt *armci.Runtime) {
	me, n := rt.Rank(), rt.Size()
	K := reps().tickets
	s := malloc(t, rt, 24)
	must(t, rt.Barrier())
	clear(s.Local())
	must(t, rt.Barrier())
	t64, t32 := make([]int, K), make([]int, K)
	var olds []int
	d64, mapped := armci.DirectTo[int64](s, n-1)
	for k := range K {
		var v int64
		var err error
		if mapped && k%2 == 1 {
			v, err = armci.DirectFetchAdd(&d64, 0, 1)
		} else {
			v, err = armci.FetchAdd(s, n-1, 0, int64(1))
		}
		must(t, err)
		w, err := armci.FetchAdd(s, 0, 8, int32(1))
		must(t, err)
		t64[k], t32[k] = int(v), int(w)
		if k%3 == 0 {
			x, err := armci.FetchAdd(s, n/2, 16, int64(me+1)<<32)
			must(t, err)
			olds = append(olds, int(x>>32))
		}
	}
	for _, c := range []struct {
		name string
		tk   []int
	}{{"int64", t64}, {"int32", t32}} {
		name, tk := c.name, c.tk
		for k := 1; k < K; k++ {
			if tk[k] <= tk[k-1] {
				t.Errorf("%s tickets of one rank do not rise: %d then %d", name, tk[k-1], tk[k])
				break
			}
		}
		all := gatherInts(t, mpi.World(), tk)
		slices.Sort(all)
		for i, v := range all {
			if v != i {
				t.Errorf("%s tickets: sorted ticket %d is %d: duplicates or gaps", name, i, v)
				break
			}
		}
	}
	must(t, rt.Barrier())
	c64, c32 := make([]int64, 1), make([]int32, 1)
	must(t, armci.Get(s, n-1, 0, c64))
	must(t, armci.Get(s, 0, 8, c32))
	if c64[0] != int64(n*K) || c32[0] != int32(n*K) {
		t.Errorf("counters end at %d and %d, want %d", c64[0], c32[0], n*K)
	}
	must(t, armci.Get(s, n/2, 16, c64))
	per := (K + 2) / 3
	if want := int64(per*n*(n+1)/2) << 32; c64[0] != want {
		t.Errorf("counter of rank+1 increments ends at %d, want %d", c64[0], want)
	}
	// Old values of the weighted counter are distinct and within range.
	all := gatherInts(t, mpi.World(), olds)
	slices.Sort(all)
	if len(slices.Compact(all)) != per*n {
		t.Errorf("weighted counter: %d distinct old values, want %d", len(slices.Compact(all)), per*n)
	}
	must(t, rt.Barrier())
}

// testSwapCAS: increments by compare-and-swap retry loops add up exactly, and
// a chain of swaps hands every token on exactly once.
func testSwapCAS(t *testing.T, rt *armci.Runtime) {
	me, n := rt.Rank(), rt.Size()
	K := reps().cas
	s := malloc(t, rt, 16)
	must(t, rt.Barrier())
	clear(s.Local())
	must(t, rt.Barrier())
	h := (n - 1) / 2
	retries := 0
	olds := make([]int, 0, K)
	for k := range K {
		guess := int64(0)
		for {
			old, err := armci.CompareSwap(s, h, 0, guess, guess+1)
			must(t, err)
			if old == guess {
				break
			}
			guess = old
			retries++
		}
		old, err := armci.Swap(s, n-1-h, 8, int32(me*K+k+1))
		must(t, err)
		olds = append(olds, int(old))
	}
	must(t, rt.Barrier())
	c := make([]int64, 1)
	must(t, armci.Get(s, h, 0, c))
	if c[0] != int64(n*K) {
		t.Errorf("compare-and-swap counter = %d, want %d (%d retries here)", c[0], n*K, retries)
	}
	last := make([]int32, 1)
	must(t, armci.Get(s, n-1-h, 8, last))
	all := append(gatherInts(t, mpi.World(), olds), int(last[0]))
	slices.Sort(all)
	for i, v := range all {
		if v != i {
			t.Errorf("swap chain: sorted value %d is %d; every token must come out once", i, v)
			break
		}
	}
	must(t, rt.Barrier())
}

// testMutexes: rank h hosts h+1 mutexes, each guarding a counter on h. Every
// rank does lock / get / +1 / put / fence / unlock many times, on mutexes
// chosen in a known order, and all on one mutex for a while; each counter
// must end at the exact number of increments, and an occupancy count checked
// inside the critical section must never see two holders. Every other time
// Release takes the place of fence and unlock.
func testMutexes(t *testing.T, rt *armci.Runtime) {
	me, n := rt.Rank(), rt.Size()
	iters := reps().mutex
	must(t, rt.CreateMutexes(me+1))
	// On rank h: counters at 8m, occupancy at 8(h+1)+8m.
	s := malloc(t, rt, 16*(me+1))
	must(t, rt.Barrier())
	clear(s.Local())
	must(t, rt.Barrier())
	choose := func(r, i int) (h, m int) {
		if i < iters/2 {
			return 0, 0 // everyone on one mutex
		}
		h = (r + i) % n
		return h, (i / n) % (h + 1)
	}
	for i := range iters {
		h, m := choose(me, i)
		must(t, rt.Lock(m, h))
		occ, err := armci.FetchAdd(s, h, 8*(h+1)+8*m, int64(1))
		must(t, err)
		if occ != 0 {
			t.Errorf("mutex %d on rank %d: %d other holders inside", m, h, occ)
		}
		c := make([]int64, 1)
		must(t, armci.Get(s, h, 8*m, c))
		c[0]++
		must(t, armci.Put(s, h, 8*m, c))
		_, err = armci.FetchAdd(s, h, 8*(h+1)+8*m, int64(-1))
		must(t, err)
		if i%2 == 0 {
			must(t, rt.Release(m, h))
			continue
		}
		must(t, rt.Fence(h))
		must(t, rt.Unlock(m, h))
	}
	must(t, rt.Barrier())
	want := make([]int64, me+1)
	for r := range n {
		for i := range iters {
			if h, m := choose(r, i); h == me {
				want[m]++
			}
		}
	}
	got := viewAs[int64](s.Local())
	if !slices.Equal(got[:me+1], want) {
		t.Errorf("counters %v, want %v", got[:me+1], want)
	}
	if !slices.Equal(got[me+1:], make([]int64, me+1)) {
		t.Errorf("occupancy counts %v at the end, want zeros", got[me+1:])
	}
	must(t, rt.DestroyMutexes())
	must(t, s.Free())
}

// testMutexSets makes and destroys a set of mutexes again and again, every
// rank taking each host's mutex once per set and destroying the set right
// after its last unlock: an unlock still on its way to its host when the next
// set is made must not release that set's mutex (an occupancy count checked
// inside each critical section must never see two holders).
func testMutexSets(t *testing.T, rt *armci.Runtime) {
	me, n := rt.Rank(), rt.Size()
	s := malloc(t, rt, 8)
	clear(s.Local())
	must(t, rt.Barrier())
	for set := range 30 {
		must(t, rt.CreateMutexes(1))
		for i := range n {
			h := (me + i + set) % n
			must(t, rt.Lock(0, h))
			occ, err := armci.FetchAdd(s, h, 0, int64(1))
			must(t, err)
			if occ != 0 {
				t.Errorf("set %d, mutex on rank %d: %d other holders inside", set, h, occ)
			}
			_, err = armci.FetchAdd(s, h, 0, int64(-1))
			must(t, err)
			must(t, rt.Unlock(0, h))
		}
		must(t, rt.DestroyMutexes())
	}
	must(t, rt.Barrier())
	if got := viewAs[int64](s.Local())[0]; got != 0 {
		t.Errorf("occupancy count %d at the end, want 0", got)
	}
	must(t, s.Free())
}

// goroutines: one-sided calls are safe from many goroutines of a rank at
// once. G goroutines per rank draw K tickets each, accumulate K times into one
// region and put and get their own blocks, all at the same time; the totals
// must be exact.
func goroutines(G, K int) func(t *testing.T, rt *armci.Runtime) {
	return func(t *testing.T, rt *armci.Runtime) { testGoroutines(t, rt, G, K) }
}

func testGoroutines(t *testing.T, rt *armci.Runtime, G, K int) {
	me, n := rt.Rank(), rt.Size()
	const E = 8
	const tOff, aOff, pOff = 0, 8, 8 + 8*E
	size := pOff + 8*G*n
	s := malloc(t, rt, size)
	must(t, rt.Barrier())
	clear(s.Local())
	must(t, rt.Barrier())
	tickets := make([][]int, G)
	var wg sync.WaitGroup
	for g := range G {
		wg.Add(1)
		go func() {
			defer wg.Done()
			src := make([]float64, E)
			for i := range src {
				src[i] = float64(i + 1)
			}
			for k := range K {
				v, err := armci.FetchAdd(s, n-1, tOff, int64(1))
				if err != nil {
					fatalf(t, "goroutine %d: FetchAdd: %v", g, err)
				}
				tickets[g] = append(tickets[g], int(v))
				if err := armci.Acc(s, 0, aOff, src, float64(me+1)); err != nil {
					fatalf(t, "goroutine %d: Acc: %v", g, err)
				}
				tgt := (me + k) % n
				x := []int64{int64(me<<40 | g<<20 | k)}
				if err := armci.Put(s, tgt, pOff+8*(me*G+g), x); err != nil {
					fatalf(t, "goroutine %d: Put: %v", g, err)
				}
				y := []int64{0}
				if err := armci.Get(s, tgt, pOff+8*(me*G+g), y); err != nil {
					fatalf(t, "goroutine %d: Get: %v", g, err)
				}
				if y[0] != x[0] {
					t.Errorf("goroutine %d: Get after Put to rank %d: %#x, want %#x", g, tgt, y[0], x[0])
				}
			}
		}()
	}
	wg.Wait()
	must(t, rt.Barrier())
	all := gatherInts(t, mpi.World(), slices.Concat(tickets...))
	slices.Sort(all)
	for i, v := range all {
		if v != i {
			t.Errorf("tickets drawn by %d goroutines per rank: sorted ticket %d is %d", G, i, v)
			break
		}
	}
	if me == 0 {
		got := viewAs[float64](s.Local()[aOff:pOff])
		for i, v := range got {
			if want := float64(G*K*n*(n+1)/2) * float64(i+1); v != want {
				t.Errorf("accumulated element %d = %v, want %v", i, v, want)
			}
		}
	}
	if me == n-1 {
		if c := viewAs[int64](s.Local()[tOff:aOff])[0]; c != int64(n*G*K) {
			t.Errorf("ticket counter = %d, want %d", c, n*G*K)
		}
	}
	must(t, rt.Barrier())
}

// testFenceGoroutines: goroutines of every process put into their own slots
// at the next process, each fences that target and then tells the slot's
// reader there by a message; the reader must find the put in place. A fence
// covers its own goroutine's puts however the goroutines' fences and puts to
// one target interleave: one goroutine's fence must not take another's puts
// as fenced before they are done (an update under a ga mutex went missing,
// one run in about ten, when a fence counted them done on seeing another's
// fence in flight).
func testFenceGoroutines(t *testing.T, rt *armci.Runtime) {
	const G, slot = 4, 20 << 10 // past the size a request carries inline
	K := max(reps().threaded*10, 20)
	me, n := rt.Rank(), rt.Size()
	next, prev := (me+1)%n, (me-1+n)%n
	s := malloc(t, rt, G*slot)
	c, err := mpi.World().Dup()
	must(t, err)
	freeLater(t, c)
	must(t, rt.Barrier())
	value := func(from, g, k, i int) int64 { return int64(from<<40 | g<<32 | k<<16 | i) }
	var wg sync.WaitGroup
	for g := range G {
		wg.Add(2)
		go func() { // the writer of slot g at next
			defer wg.Done()
			v := make([]int64, slot/8)
			for k := range K {
				for i := range v {
					v[i] = value(me, g, k, i)
				}
				if err := armci.Put(s, next, g*slot, v); err != nil {
					fatalf(t, "goroutine %d: Put: %v", g, err)
				}
				if err := rt.Fence(next); err != nil {
					fatalf(t, "goroutine %d: Fence: %v", g, err)
				}
				if err := mpi.Send(c, []int{k}, next, g); err != nil {
					fatalf(t, "goroutine %d: Send: %v", g, err)
				}
			}
		}()
		go func() { // the reader of slot g here
			defer wg.Done()
			got := viewAs[int64](s.Local()[g*slot : (g+1)*slot])
			k := []int{0}
			for range K {
				if _, err := mpi.Recv(c, k, prev, g); err != nil {
					fatalf(t, "goroutine %d: Recv: %v", g, err)
				}
				for i, x := range got {
					// Later puts may land meanwhile; none may be missing.
					if x < value(prev, g, k[0], i) || x > value(prev, g, K-1, i) {
						t.Errorf("slot %d, put %d of rank %d: element %d = %#x right after the fence, want %#x", g, k[0], prev, i, x, value(prev, g, k[0], i))
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	must(t, rt.Barrier())
	must(t, s.Free())
}
