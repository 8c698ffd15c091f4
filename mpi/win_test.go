package mpi_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// val maps an integer to a value of T that is exact in every element type and
// linear in i (so sums of vals are vals of sums). Complex values carry a
// different imaginary part so that a mix-up of the two halves shows.
func val[T mpi.Elem](i int) T {
	var z T
	switch any(z).(type) {
	case int32:
		return any(int32(i)).(T)
	case int64:
		return any(int64(i)).(T)
	case int:
		return any(i).(T)
	case float32:
		return any(float32(i)).(T)
	case float64:
		return any(float64(i)).(T)
	case complex64:
		return any(complex(float32(i), float32(-2*i))).(T)
	case complex128:
		return any(complex(float64(i), float64(-2*i))).(T)
	}
	panic(fmt.Sprintf("val: unsupported type %T", z))
}

func sizeOf[T mpi.Elem]() int { return int(unsafe.Sizeof(*new(T))) }

func typeName[T any]() string { return fmt.Sprintf("%T", *new(T)) }

// winKind is one way to make a window.
type winKind struct {
	name   string
	alloc  func(c *mpi.Comm, size, dispUnit int) (*mpi.Win, error)
	shared bool
}

var winKinds = []winKind{
	{"Allocate", mpi.WinAllocate, false},
	{"AllocateShared", mpi.WinAllocateShared, true},
}

// newWin makes a window of L elements of T on every rank (displacement unit
// sizeof(T)) and fills it with val(fill), with a barrier after.
func newWin[T mpi.Elem](t *testing.T, k winKind, L, fill int) (*mpi.Win, []T) {
	t.Helper()
	w, err := k.alloc(mpi.World(), L*sizeOf[T](), sizeOf[T]())
	must(t, err)
	loc, err := mpi.Local[T](w)
	must(t, err)
	if len(loc) != L {
		fatalf(t, "Local: %d elements, want %d", len(loc), L)
	}
	setAll(loc, val[T](fill))
	must(t, mpi.World().Barrier())
	return w, loc
}

func setAll[T any](s []T, v T) {
	for i := range s {
		s[i] = v
	}
}

// barrier is called outside access epochs, after every rank has completed its
// operations (flush or unlock): once everyone passes it, local loads see every
// remote update (the windows here use the unified memory model, and MPI_Win_sync
// is refused outside an epoch by some components).
func barrier(t *testing.T) {
	t.Helper()
	must(t, mpi.World().Barrier())
}

// wantSet checks that got holds exactly the values val(0), ..., val(len-1)
// in some order.
func wantSet[T mpi.Elem](t *testing.T, what string, got []T) {
	t.Helper()
	seen := make(map[T]int, len(got))
	for _, v := range got {
		seen[v]++
	}
	for i := range got {
		if c := seen[val[T](i)]; c != 1 {
			t.Errorf("%s: value %v appears %d times, want once (all: %v)", what, val[T](i), c, got)
			return
		}
	}
}

func TestRMA(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		for _, k := range winKinds {
			t.Run(k.name, func(t *testing.T) {
				// Probe once: a transport may not offer shared-memory windows.
				w, err := k.alloc(mpi.World(), 8, 8)
				if !allAgree(t, err == nil) {
					if mpitest.OverNetwork() && k.shared {
						t.Skipf("%s windows not available over osc ucx: %v", k.name, err)
					}
					must(t, err)
				}
				must(t, w.Free())

				badInput(t, k)
				if k.shared {
					sharedQuery(t, k)
				}
				mpitest.SkipUnderMPICH(t, mpitest.MPICHRMABug)
				rmaSuite[int32](t, k)
				rmaSuite[int64](t, k)
				rmaSuite[float64](t, k)
				rmaSuite[complex128](t, k)
				casSuite[int32](t, k)
				casSuite[int64](t, k)
				atomicity[int64](t, k)
				atomicity[float64](t, k)
				zeroSizes(t, k)
				stackBuffers(t, k)
			})
		}
		winCreate(t)
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP), mpitest.Timeout(90*time.Second))
}

// rmaSuite runs Put, Get, Accumulate, GetAccumulate, FetchAndOp, the
// request-based calls and exclusive locks on a window of T.
func rmaSuite[T mpi.Elem](t *testing.T, k winKind) {
	t.Run(typeName[T](), func(t *testing.T) {
		world := mpi.World()
		n := world.Size()
		// Layout: rank s's three elements at 3s, then three spare elements.
		L := 3*n + 3
		w, loc := newWin[T](t, k, L, -1)

		t.Run("Put", func(t *testing.T) { rmaPut(t, w, loc) })
		t.Run("Get", func(t *testing.T) { rmaGet(t, w, loc) })
		t.Run("Accumulate", func(t *testing.T) { rmaAccumulate(t, w, loc) })
		t.Run("Replace", func(t *testing.T) { rmaReplace(t, w, loc) })
		t.Run("GetAccumulate", func(t *testing.T) { rmaGetAccumulate(t, w, loc) })
		t.Run("FetchAndOp", func(t *testing.T) { rmaFetchAndOp(t, w, loc) })
		t.Run("Requests", func(t *testing.T) { rmaRequests(t, w, loc) })
		t.Run("ProcNull", func(t *testing.T) { rmaProcNull(t, w, loc) })
		t.Run("LockExclusive", func(t *testing.T) { rmaLockExclusive(t, w, loc) })

		must(t, w.Free())
	})
}

func rmaPut[T mpi.Elem](t *testing.T, w *mpi.Win, loc []T) {
	world := mpi.World()
	n, me := world.Size(), world.Rank()
	L := 3*n + 3
	v := val[T]
	must(t, w.LockAll(0))
	for tg := 0; tg < n; tg++ {
		buf := []T{v(100*me + 10*tg), v(100*me + 10*tg + 1), v(100*me + 10*tg + 2)}
		must(t, mpi.Put(w, buf, tg, 3*me))
		must(t, w.Flush(tg))
	}
	// The null process takes anything and changes nothing.
	must(t, mpi.Put(w, []T{v(9)}, mpi.ProcNull, 1<<40))
	must(t, w.UnlockAll())
	barrier(t)
	for s := 0; s < n; s++ {
		for j := 0; j < 3; j++ {
			if got, want := loc[3*s+j], v(100*s+10*me+j); got != want {
				t.Errorf("rank %d element %d (from rank %d): %v, want %v", me, 3*s+j, s, got, want)
			}
		}
	}
	for j := 3 * n; j < L; j++ {
		if loc[j] != v(-1) {
			t.Errorf("untouched element %d: %v, want %v", j, loc[j], v(-1))
		}
	}
}

func rmaGet[T mpi.Elem](t *testing.T, w *mpi.Win, loc []T) {
	world := mpi.World()
	n := world.Size()
	L := 3*n + 3
	v := val[T]
	must(t, w.LockAll(0))
	for tg := 0; tg < n; tg++ {
		got := make([]T, L)
		setAll(got, v(-7))
		must(t, mpi.Get(w, got, tg, 0))
		must(t, w.Flush(tg))
		for s := 0; s < n; s++ {
			for j := 0; j < 3; j++ {
				if want := v(100*s + 10*tg + j); got[3*s+j] != want {
					t.Errorf("Get from rank %d element %d: %v, want %v", tg, 3*s+j, got[3*s+j], want)
				}
			}
		}
		for j := 3 * n; j < L; j++ {
			if got[j] != v(-1) {
				t.Errorf("Get from rank %d element %d: %v, want %v", tg, j, got[j], v(-1))
			}
		}
		// A piece from the middle: the last written element and the first spare.
		two := []T{v(-7), v(-7), v(-7)}
		must(t, mpi.Get(w, two[:2], tg, 3*n-1))
		must(t, w.Flush(tg))
		if want := []T{v(100*(n-1) + 10*tg + 2), v(-1), v(-7)}; !slices.Equal(two, want) {
			t.Errorf("Get 2 at %d from rank %d: %v, want %v", 3*n-1, tg, two, want)
		}
	}
	must(t, w.UnlockAll())
	barrier(t)
}

func rmaAccumulate[T mpi.Elem](t *testing.T, w *mpi.Win, loc []T) {
	world := mpi.World()
	n, me := world.Size(), world.Rank()
	L := 3*n + 3
	v := val[T]
	setAll(loc, v(0))
	barrier(t)
	origin := make([]T, L)
	for j := range origin {
		origin[j] = v(me + 1 + j)
	}
	must(t, w.LockAll(0))
	for tg := 0; tg < n; tg++ {
		must(t, mpi.Accumulate(w, origin, tg, 0, mpi.Sum))
		must(t, w.Flush(tg))
	}
	must(t, w.UnlockAll())
	barrier(t)
	for j := range loc {
		// sum over r of (r+1+j)
		if want := v(n*(n+1)/2 + n*j); loc[j] != want {
			t.Errorf("Accumulate Sum element %d: %v, want %v", j, loc[j], want)
		}
	}
}

func rmaReplace[T mpi.Elem](t *testing.T, w *mpi.Win, loc []T) {
	world := mpi.World()
	n, me := world.Size(), world.Rank()
	L := 3*n + 3
	v := val[T]
	setAll(loc, v(-5))
	barrier(t)
	must(t, w.LockAll(0))
	for tg := 0; tg < n; tg++ {
		must(t, mpi.Accumulate(w, []T{v(1000 + me)}, tg, me, mpi.Replace))
		// Everyone replaces the last element with the same value.
		must(t, mpi.Accumulate(w, []T{v(42)}, tg, L-1, mpi.Replace))
		must(t, w.Flush(tg))
	}
	must(t, w.UnlockAll())
	barrier(t)
	for j := range loc {
		want := v(-5)
		switch {
		case j < n:
			want = v(1000 + j)
		case j == L-1:
			want = v(42)
		}
		if loc[j] != want {
			t.Errorf("Accumulate Replace element %d: %v, want %v", j, loc[j], want)
		}
	}
}

func rmaGetAccumulate[T mpi.Elem](t *testing.T, w *mpi.Win, loc []T) {
	world := mpi.World()
	n, me := world.Size(), world.Rank()
	L := 3*n + 3
	v := val[T]
	setAll(loc, v(0))
	barrier(t)
	must(t, w.LockAll(0))
	olds := make([]T, n) // element 0 of every target before my addition
	for tg := 0; tg < n; tg++ {
		res := []T{v(-9), v(-9)}
		must(t, mpi.GetAccumulate(w, []T{v(1), v(me + 1)}, res, tg, 0, mpi.Sum))
		must(t, w.Flush(tg))
		olds[tg] = res[0]
	}
	// Every target's counter went 0, 1, ..., n-1 as the ranks added 1.
	all := make([]T, n*n)
	must(t, mpi.Allgather(world, olds, all))
	for tg := 0; tg < n; tg++ {
		col := make([]T, n)
		for r := 0; r < n; r++ {
			col[r] = all[r*n+tg]
		}
		wantSet(t, fmt.Sprintf("GetAccumulate old values at rank %d", tg), col)
	}
	must(t, world.Barrier())
	// NoOp is an atomic read.
	for tg := 0; tg < n; tg++ {
		res := []T{v(-9), v(-9)}
		must(t, mpi.GetAccumulate(w, nil, res, tg, 0, mpi.NoOp))
		must(t, w.Flush(tg))
		if want := []T{v(n), v(n * (n + 1) / 2)}; !slices.Equal(res, want) {
			t.Errorf("GetAccumulate NoOp at rank %d: %v, want %v", tg, res, want)
		}
	}
	// A length mismatch is refused.
	err := mpi.GetAccumulate(w, []T{v(1)}, make([]T, 2), me, 0, mpi.Sum)
	wantArgErr(t, "GetAccumulate origin shorter than result", err, "origin", nil)
	must(t, w.UnlockAll())
	barrier(t)
	for j := 2; j < L; j++ {
		if loc[j] != v(0) {
			t.Errorf("GetAccumulate touched element %d: %v", j, loc[j])
		}
	}
}

func rmaFetchAndOp[T mpi.Elem](t *testing.T, w *mpi.Win, loc []T) {
	world := mpi.World()
	n, me := world.Size(), world.Rank()
	L := 3*n + 3
	v := val[T]
	setAll(loc, v(0))
	barrier(t)
	const K = 25
	must(t, w.LockAll(0))
	// Tickets from one counter on rank 0.
	tickets := make([]T, K)
	for i := range tickets {
		old, err := mpi.FetchAndOp(w, v(1), 0, 0, mpi.Sum)
		must(t, err)
		tickets[i] = old
	}
	// Swaps on rank n-1's last element form a chain.
	swapped, err := mpi.FetchAndOp(w, v(me+1), n-1, L-1, mpi.Replace)
	must(t, err)
	all := make([]T, n*K)
	must(t, mpi.Allgather(world, tickets, all))
	wantSet(t, "tickets", all)
	for i := 1; i < K; i++ {
		if real(complex128Of(tickets[i])) <= real(complex128Of(tickets[i-1])) {
			t.Errorf("my tickets do not increase: %v", tickets)
			break
		}
	}
	must(t, world.Barrier())
	cur, err := mpi.FetchAndOp(w, v(0), 0, 0, mpi.NoOp)
	must(t, err)
	if cur != v(n*K) {
		t.Errorf("counter after %d tickets each: %v, want %v", K, cur, v(n*K))
	}
	last, err := mpi.FetchAndOp(w, v(0), n-1, L-1, mpi.NoOp)
	must(t, err)
	// The old values and the final value are 0, 1..n: each seen once.
	chain := make([]T, n)
	must(t, mpi.Allgather(world, []T{swapped}, chain))
	chain = append(chain, last)
	wantSet(t, "Replace chain", chain)
	must(t, w.UnlockAll())
	barrier(t)
	if me == 0 && loc[0] != v(n*K) {
		t.Errorf("counter in rank 0's memory: %v, want %v", loc[0], v(n*K))
	}
	for j := 1; j < L-1; j++ {
		if loc[j] != v(0) {
			t.Errorf("FetchAndOp touched element %d: %v", j, loc[j])
		}
	}
}

func rmaRequests[T mpi.Elem](t *testing.T, w *mpi.Win, loc []T) {
	world := mpi.World()
	n, me := world.Size(), world.Rank()
	L := 3*n + 3
	v := val[T]
	setAll(loc, v(-1))
	barrier(t)
	tg, pred := (me+1)%n, (me+n-1)%n
	must(t, w.LockAll(0))
	src := []T{v(500 + me), v(501 + me), v(502 + me)}
	r1, err := mpi.Rput(w, src, tg, 3*me)
	must(t, err)
	_, err = r1.Wait()
	must(t, err)
	must(t, w.Flush(tg))
	must(t, world.Barrier())
	got := make([]T, L)
	setAll(got, v(-7))
	r2, err := mpi.Rget(w, got, tg, 0)
	must(t, err)
	_, err = r2.Wait()
	must(t, err)
	for j := range got {
		want := v(-1)
		if j/3 == me && j < 3*n {
			want = src[j%3]
		}
		if got[j] != want {
			t.Errorf("Rget from rank %d element %d: %v, want %v", tg, j, got[j], want)
		}
	}
	must(t, world.Barrier())
	var reqs []*mpi.Request
	for dst := 0; dst < n; dst++ {
		r, err := mpi.Raccumulate(w, []T{v(2), v(3)}, dst, 3*n, mpi.Sum)
		must(t, err)
		reqs = append(reqs, r)
	}
	_, err = mpi.Waitall(reqs...)
	must(t, err)
	must(t, w.FlushAll())
	must(t, w.UnlockAll())
	barrier(t)
	for j := range loc {
		want := v(-1)
		switch {
		case j/3 == pred && j < 3*n:
			want = v(500 + pred + j%3)
		case j == 3*n:
			want = v(-1 + 2*n)
		case j == 3*n+1:
			want = v(-1 + 3*n)
		}
		if loc[j] != want {
			t.Errorf("after Rput/Raccumulate element %d: %v, want %v", j, loc[j], want)
		}
	}
}

func rmaProcNull[T mpi.Elem](t *testing.T, w *mpi.Win, loc []T) {
	v := val[T]
	// The null process: every call succeeds and nothing changes.
	setAll(loc, v(-1))
	barrier(t)
	pn := mpi.ProcNull
	must(t, w.Lock(mpi.LockShared, pn, 0))
	must(t, w.Unlock(pn))
	must(t, w.LockAll(0))
	buf := []T{v(3), v(4)}
	must(t, mpi.Put(w, buf, pn, 0))
	must(t, mpi.Get(w, buf, pn, 0))
	must(t, mpi.Accumulate(w, buf, pn, 1<<40, mpi.Sum))
	must(t, mpi.GetAccumulate(w, buf[:1], buf[1:], pn, 0, mpi.Sum))
	old, err := mpi.FetchAndOp(w, v(5), pn, 0, mpi.Sum)
	must(t, err)
	if old != v(0) {
		t.Errorf("FetchAndOp on ProcNull returned %v", old)
	}
	r, err := mpi.Rget(w, buf, pn, 0)
	must(t, err)
	_, err = r.Wait()
	must(t, err)
	must(t, w.Flush(pn))
	must(t, w.FlushLocal(pn))
	must(t, w.FlushAll())
	if buf[0] != v(3) || buf[1] != v(4) {
		t.Errorf("ProcNull calls changed the origin: %v", buf)
	}
	must(t, w.UnlockAll())
	barrier(t)
	for j := range loc {
		if loc[j] != v(-1) {
			t.Errorf("ProcNull calls changed element %d: %v", j, loc[j])
		}
	}
}

func rmaLockExclusive[T mpi.Elem](t *testing.T, w *mpi.Win, loc []T) {
	world := mpi.World()
	n := world.Size()
	v := val[T]
	setAll(loc, v(0))
	barrier(t)
	const R = 15
	// A read-modify-write made of Get and Put is safe under an exclusive lock.
	for i := 0; i < R; i++ {
		for _, tg := range []int{0, n - 1} {
			must(t, w.Lock(mpi.LockExclusive, tg, 0))
			x := []T{v(-3)}
			must(t, mpi.Get(w, x, tg, 1))
			must(t, w.Flush(tg))
			must(t, mpi.Put(w, []T{x[0] + v(1)}, tg, 1))
			must(t, w.Unlock(tg))
		}
	}
	must(t, world.Barrier())
	want := v(n * R) // each of rank 0 and rank n-1 counted n·R increments
	if n == 1 {
		want = v(2 * R) // rank 0 is rank n-1: it counted both
	}
	for tg := 0; tg < n; tg++ {
		must(t, w.Lock(mpi.LockShared, tg, 0))
		x := []T{v(-3)}
		must(t, mpi.Get(w, x, tg, 1))
		must(t, w.Unlock(tg))
		exp := v(0)
		if tg == 0 || tg == n-1 {
			exp = want
		}
		if x[0] != exp {
			t.Errorf("counter at rank %d after %d locked increments per rank: %v, want %v", tg, R, x[0], exp)
		}
	}
	err := w.Lock(mpi.LockType(99), 0, 0)
	wantArgErr(t, "Lock(99)", err, "type", nil)
	wantArgErr(t, "Lock(rank n)", w.Lock(mpi.LockExclusive, n, 0), "rank", nil)
	wantArgErr(t, "Unlock(rank n)", w.Unlock(n), "rank", nil)
	barrier(t)
}

func complex128Of[T mpi.Elem](x T) complex128 {
	switch v := any(x).(type) {
	case int32:
		return complex(float64(v), 0)
	case int64:
		return complex(float64(v), 0)
	case float64:
		return complex(v, 0)
	case complex128:
		return v
	}
	panic("complex128Of")
}

// casSuite: compare-and-swap as a one-winner race and as a spin lock.
func casSuite[T ~int32 | ~int64](t *testing.T, k winKind) {
	t.Run("CAS/"+typeName[T](), func(t *testing.T) {
		world := mpi.World()
		n, me := world.Size(), world.Rank()
		w, loc := newWin[T](t, k, 4, 0)
		must(t, w.LockAll(0))

		// One winner: everybody tries to swap 0 for its rank+1 on rank 0.
		old, err := mpi.CompareAndSwap(w, T(me+1), 0, 0, 0)
		must(t, err)
		olds := make([]T, n)
		must(t, mpi.Allgather(world, []T{old}, olds))
		winner := -1
		for r, o := range olds {
			if o == 0 {
				if winner >= 0 {
					t.Errorf("ranks %d and %d both won the race: %v", winner, r, olds)
				}
				winner = r
			}
		}
		if winner < 0 {
			fatalf(t, "nobody won the race: %v", olds)
		}
		for r, o := range olds {
			if r != winner && o != T(winner+1) {
				t.Errorf("rank %d lost to rank %d but saw %d", r, winner, o)
			}
		}
		if o, err := mpi.CompareAndSwap[T](w, 1, 0, mpi.ProcNull, 0); err != nil || o != 0 {
			t.Errorf("CompareAndSwap on ProcNull: %v, %v", o, err)
		}
		must(t, world.Barrier())
		cur, err := mpi.CompareAndSwap[T](w, 0, -12345, 0, 0) // never matches: a read
		must(t, err)
		if cur != T(winner+1) {
			t.Errorf("after the race rank 0 holds %d, want %d", cur, winner+1)
		}

		// A spin lock at (n-1, 2) guarding a counter at (n-1, 3) that is
		// updated by plain Get and Put.
		const R = 10
		lockRank := n - 1
		for i := 0; i < R; i++ {
			for {
				o, err := mpi.CompareAndSwap[T](w, 1, 0, lockRank, 2)
				must(t, err)
				if o == 0 {
					break
				}
				if o != 1 {
					fatalf(t, "lock word holds %d", o)
				}
			}
			x := []T{-1}
			must(t, mpi.Get(w, x, lockRank, 3))
			must(t, w.Flush(lockRank))
			must(t, mpi.Put(w, []T{x[0] + 1}, lockRank, 3))
			must(t, w.Flush(lockRank))
			o, err := mpi.CompareAndSwap[T](w, 0, 1, lockRank, 2)
			must(t, err)
			if o != 1 {
				t.Errorf("releasing the lock found %d, want 1", o)
			}
		}
		must(t, w.UnlockAll())
		barrier(t)
		if me == lockRank {
			if loc[3] != T(n*R) || loc[2] != 0 {
				t.Errorf("spin-locked counter %d (lock %d), want %d (0)", loc[3], loc[2], n*R)
			}
		}
		if me == 0 && loc[0] != T(winner+1) {
			t.Errorf("race word %d, want %d", loc[0], winner+1)
		}
		must(t, w.Free())
	})
}

// atomicity: every rank accumulates into the same elements of rank 0 many
// times; the totals must be exact.
func atomicity[T int64 | float64](t *testing.T, k winKind) {
	t.Run("Atomicity/"+typeName[T](), func(t *testing.T) {
		world := mpi.World()
		n, me := world.Size(), world.Rank()
		A := 2000
		if mpitest.OverNetwork() {
			A = 500
		}
		w, loc := newWin[T](t, k, 5, 0)
		must(t, w.LockAll(0))
		origin := []T{1, 2, 3, 4}
		for i := 0; i < A; i++ {
			must(t, mpi.Accumulate(w, origin, 0, 0, mpi.Sum))
			if i%64 == 63 {
				must(t, w.Flush(0))
			}
		}
		must(t, w.Flush(0))
		// Fetch-and-add and accumulate mixed on the fifth element, from every rank.
		for i := 0; i < A/10; i++ {
			_, err := mpi.FetchAndOp(w, T(1), 0, 4, mpi.Sum)
			must(t, err)
			must(t, mpi.Accumulate(w, []T{2}, 0, 4, mpi.Sum))
		}
		must(t, w.UnlockAll())
		barrier(t)
		if me == 0 {
			for j := 0; j < 4; j++ {
				if want := T(n * A * (j + 1)); loc[j] != want {
					t.Errorf("element %d after %d accumulates from %d ranks: %v, want %v", j, A, n, loc[j], want)
				}
			}
			if want := T(3 * n * (A / 10)); loc[4] != want {
				t.Errorf("fetch-and-add and accumulate counter: %v, want %v", loc[4], want)
			}
		}
		must(t, w.Free())
	})
}

// zeroSizes: ranks expose different amounts, some none at all.
func zeroSizes(t *testing.T, k winKind) {
	t.Run("ZeroSizes", func(t *testing.T) {
		world := mpi.World()
		n, me := world.Size(), world.Rank()
		elems := func(r int) int {
			if r%2 == 0 {
				return 0
			}
			return r + 2
		}
		w, err := k.alloc(world, 8*elems(me), 8)
		must(t, err)
		for r := 0; r < n; r++ {
			if w.SizeOf(r) != 8*elems(r) {
				t.Errorf("SizeOf(%d) = %d, want %d", r, w.SizeOf(r), 8*elems(r))
			}
		}
		if w.Comm() != world {
			t.Errorf("Comm() = %v, want World", w.Comm())
		}
		loc, err := mpi.Local[int64](w)
		must(t, err)
		if len(loc) != elems(me) || len(w.Bytes()) != 8*elems(me) {
			t.Errorf("Local: %d elements, Bytes %d, want %d elements", len(loc), len(w.Bytes()), elems(me))
		}
		if l32, err := mpi.Local[int32](w); err != nil || len(l32) != 2*elems(me) {
			t.Errorf("Local[int32]: %d elements, %v; want %d", len(l32), err, 2*elems(me))
		}
		setAll(loc, 0)
		barrier(t)
		must(t, w.LockAll(0))
		for tg := 0; tg < n; tg++ {
			if elems(tg) == 0 {
				err := mpi.Put(w, []int64{1}, tg, 0)
				wantArgErr(t, fmt.Sprintf("Put to rank %d's empty window", tg), err, "disp", nil)
				// Nothing at all fits, and nothing at all is fine.
				must(t, mpi.Put(w, []int64{}, tg, 0))
				must(t, mpi.Get(w, []int64{}, tg, 0))
				continue
			}
			must(t, mpi.Accumulate(w, []int64{1, 2}, tg, 0, mpi.Sum))
			must(t, mpi.Put(w, []int64{int64(100 + tg)}, tg, elems(tg)-1))
			err := mpi.Put(w, []int64{1, 2}, tg, elems(tg)-1)
			wantArgErr(t, fmt.Sprintf("Put past rank %d's %d elements", tg, elems(tg)), err, "disp", nil)
			must(t, w.Flush(tg))
		}
		must(t, w.UnlockAll())
		barrier(t)
		if elems(me) > 0 {
			want := make([]int64, elems(me))
			want[0], want[1] = int64(n), int64(2*n)
			want[len(want)-1] = int64(100 + me)
			if !slices.Equal(loc, want) {
				t.Errorf("odd rank %d's window: %v, want %v", me, loc, want)
			}
		}
		if k.shared {
			for r := 0; r < n; r++ {
				s, err := mpi.SharedQuery[int64](w, r)
				must(t, err)
				if len(s) != elems(r) {
					t.Errorf("SharedQuery(%d): %d elements, want %d", r, len(s), elems(r))
				} else if elems(r) > 0 && (s[0] != int64(n) || s[len(s)-1] != int64(100+r)) {
					t.Errorf("SharedQuery(%d) = %v", r, s)
				}
			}
		}
		must(t, w.Free())
	})
}

// badInput: every misuse is refused with an *mpi.ArgError naming the argument
// and leaves every window as it was.
func badInput(t *testing.T, k winKind) {
	t.Run("BadInput", func(t *testing.T) {
		world := mpi.World()
		n, me := world.Size(), world.Rank()
		const L = 4
		w, err := k.alloc(world, 8*L, 8)
		must(t, err)
		loc, err := mpi.Local[float64](w)
		must(t, err)
		for j := range loc {
			loc[j] = float64(10*me + j)
		}
		barrier(t)
		tg := (me + 1) % n
		must(t, w.LockAll(0))
		one, two := []float64{-1}, []float64{-1, -1}
		// -7: negative and no MPI constant (-1 is MPICH's MPI_PROC_NULL).
		for _, r := range []int{n, -7, -5, math.MaxInt32 + 1} {
			wantArgErr(t, "Put rank", mpi.Put(w, one, r, 0), "rank", nil)
			wantArgErr(t, "Get rank", mpi.Get(w, one, r, 0), "rank", nil)
			wantArgErr(t, "Accumulate rank", mpi.Accumulate(w, one, r, 0, mpi.Sum), "rank", nil)
			_, err := mpi.FetchAndOp(w, 1.0, r, 0, mpi.Sum)
			wantArgErr(t, "FetchAndOp rank", err, "rank", nil)
			_, err = mpi.Rput(w, one, r, 0)
			wantArgErr(t, "Rput rank", err, "rank", nil)
			wantArgErr(t, "Flush rank", w.Flush(r), "rank", nil)
			wantArgErr(t, "FlushLocal rank", w.FlushLocal(r), "rank", nil)
		}
		for _, d := range []int{L, L - 1, -1, 1 << 61, math.MaxInt/8 + 1, math.MaxInt} {
			buf := two
			if d == L {
				buf = one
			}
			wantArgErr(t, fmt.Sprintf("Put disp %d", d), mpi.Put(w, buf, tg, d), "disp", nil)
			wantArgErr(t, fmt.Sprintf("Accumulate disp %d", d), mpi.Accumulate(w, buf, tg, d, mpi.Sum), "disp", nil)
			wantArgErr(t, fmt.Sprintf("Accumulate Replace disp %d", d), mpi.Accumulate(w, buf, tg, d, mpi.Replace), "disp", nil)
			got := []float64{-1, -1}
			wantArgErr(t, fmt.Sprintf("Get disp %d", d), mpi.Get(w, got[:len(buf)], tg, d), "disp", nil)
			wantArgErr(t, fmt.Sprintf("GetAccumulate disp %d", d), mpi.GetAccumulate(w, buf, got[:len(buf)], tg, d, mpi.Sum), "disp", nil)
			r, err := mpi.Rput(w, buf, tg, d)
			wantArgErr(t, fmt.Sprintf("Rput disp %d", d), err, "disp", nil)
			if r != nil {
				t.Errorf("Rput with a bad disp returned a request")
			}
			_, err = mpi.Rget(w, got[:len(buf)], tg, d)
			wantArgErr(t, fmt.Sprintf("Rget disp %d", d), err, "disp", nil)
			_, err = mpi.Raccumulate(w, buf, tg, d, mpi.Sum)
			wantArgErr(t, fmt.Sprintf("Raccumulate disp %d", d), err, "disp", nil)
			if d != L-1 {
				_, err = mpi.FetchAndOp(w, 1.0, tg, d, mpi.Sum)
				wantArgErr(t, fmt.Sprintf("FetchAndOp disp %d", d), err, "disp", nil)
				_, err = mpi.CompareAndSwap(w, int64(1), 0, tg, d)
				wantArgErr(t, fmt.Sprintf("CompareAndSwap disp %d", d), err, "disp", nil)
			}
			if got[0] != -1 || got[1] != -1 {
				t.Errorf("a refused Get with disp %d wrote %v", d, got)
			}
		}
		// Operators MPI does not define for the type, and no operator at all.
		wantArgErr(t, "Accumulate complex Max", mpi.Accumulate(w, []complex128{1}, tg, 0, mpi.Max), "op", nil)
		wantArgErr(t, "Accumulate float Band", mpi.Accumulate(w, one, tg, 0, mpi.Band), "op", nil)
		wantArgErr(t, "Accumulate MinLoc", mpi.Accumulate(w, one, tg, 0, mpi.MinLoc), "op", nil)
		wantArgErr(t, "Accumulate zero Op", mpi.Accumulate(w, one, tg, 0, mpi.Op{}), "op", nil)
		_, err = mpi.FetchAndOp(w, complex(1, 1), tg, 0, mpi.Min)
		wantArgErr(t, "FetchAndOp complex Min", err, "op", nil)
		_, err = mpi.CompareAndSwap(w, 1.0, 0.0, tg, 0)
		wantArgErr(t, "CompareAndSwap float64", err, "T", nil)
		_, err = mpi.CompareAndSwap(w, complex64(1), 0, tg, 0)
		wantArgErr(t, "CompareAndSwap complex64", err, "T", nil)
		if !k.shared {
			_, err = mpi.SharedQuery[float64](w, 0)
			wantArgErr(t, "SharedQuery on a non-shared window", err, "win", nil)
		} else {
			_, err = mpi.SharedQuery[float64](w, n)
			wantArgErr(t, "SharedQuery rank n", err, "rank", nil)
		}
		must(t, w.UnlockAll())
		barrier(t)
		for j := range loc {
			if loc[j] != float64(10*me+j) {
				t.Errorf("refused calls changed element %d: %v, want %v", j, loc[j], float64(10*me+j))
			}
		}
		if one[0] != -1 || two[0] != -1 || two[1] != -1 {
			t.Errorf("refused calls changed origin buffers: %v %v", one, two)
		}

		// Window arguments.
		_, err = k.alloc(world, -8, 8)
		wantArgErr(t, "negative size", err, "size", nil)
		_, err = k.alloc(world, 8, 0)
		wantArgErr(t, "zero dispUnit", err, "dispUnit", nil)
		odd, err := k.alloc(world, 12, 4)
		must(t, err)
		_, err = mpi.Local[int64](odd)
		wantArgErr(t, "Local[int64] of 12 bytes", err, "T", nil)
		if k.shared {
			_, err = mpi.SharedQuery[complex128](odd, me)
			wantArgErr(t, "SharedQuery[complex128] of 12 bytes", err, "T", nil)
		}
		must(t, odd.Free())

		// A freed window refuses everything.
		must(t, w.Free())
		if w.Bytes() != nil {
			t.Errorf("Bytes of a freed window: %d bytes", len(w.Bytes()))
		}
		_, e1 := mpi.Local[float64](w)
		_, e2 := mpi.SharedQuery[float64](w, 0)
		_, e3 := mpi.FetchAndOp(w, 1.0, 0, 0, mpi.Sum)
		_, e4 := mpi.CompareAndSwap(w, int64(1), 0, 0, 0)
		_, e5 := mpi.Rput(w, one, 0, 0)
		_, e6 := mpi.Rget(w, one, 0, 0)
		_, e7 := mpi.Raccumulate(w, one, 0, 0, mpi.Sum)
		freedErrs := []error{e1, e2, e3, e4, e5, e6, e7,
			mpi.Put(w, one, 0, 0), mpi.Get(w, one, 0, 0), mpi.Accumulate(w, one, 0, 0, mpi.Sum),
			mpi.GetAccumulate(w, one, one, 0, 0, mpi.Sum),
			w.LockAll(0), w.UnlockAll(), w.Lock(mpi.LockShared, 0, 0), w.Unlock(0),
			w.Flush(0), w.FlushAll(), w.FlushLocal(0), w.FlushLocalAll(), w.Sync(), w.Free()}
		for i, err := range freedErrs {
			wantArgErr(t, fmt.Sprintf("freed window use %d", i), err, "win", mpi.ErrFreed)
		}
		var nilw *mpi.Win
		wantArgErr(t, "Put on nil window", mpi.Put(nilw, one, 0, 0), "win", mpi.ErrNil)
		_, err = mpi.Local[float64](nilw)
		wantArgErr(t, "Local of nil window", err, "win", mpi.ErrNil)
		must(t, world.Barrier())
	})
}

// sharedQuery: a peer's memory through direct loads and stores.
func sharedQuery(t *testing.T, k winKind) {
	t.Run("SharedQuery", func(t *testing.T) {
		world := mpi.World()
		n, me := world.Size(), world.Rank()
		peer, pred := (me+1)%n, (me+n-1)%n
		w, loc := newWin[int64](t, k, 4, -1)
		must(t, w.LockAll(mpi.ModeNocheck))
		for j := 0; j < 3; j++ {
			loc[j] = int64(1000*me + j)
		}
		must(t, w.Sync())
		must(t, world.Barrier())
		must(t, w.Sync())
		p, err := mpi.SharedQuery[int64](w, peer)
		must(t, err)
		if len(p) != 4 {
			fatalf(t, "SharedQuery(%d): %d elements, want 4", peer, len(p))
		}
		for j := 0; j < 3; j++ {
			if p[j] != int64(1000*peer+j) {
				t.Errorf("peer %d element %d read directly: %d, want %d", peer, j, p[j], 1000*peer+j)
			}
		}
		// Store into the peer's memory; the peer sees it as its own.
		p[3] = int64(77 + me)
		must(t, w.Sync())
		must(t, world.Barrier())
		must(t, w.Sync())
		if loc[3] != int64(77+pred) {
			t.Errorf("element 3 stored by rank %d: %d, want %d", pred, loc[3], 77+pred)
		}
		// MPI sees the direct store too.
		x := []int64{0}
		must(t, mpi.Get(w, x, peer, 3))
		must(t, w.Flush(peer))
		if x[0] != int64(77+me) {
			t.Errorf("Get of what I stored directly at rank %d: %d, want %d", peer, x[0], 77+me)
		}
		// And a direct load sees an MPI Put.
		must(t, world.Barrier())
		must(t, mpi.Put(w, []int64{int64(-500 - me)}, peer, 0))
		must(t, w.Flush(peer))
		must(t, w.Sync())
		must(t, world.Barrier())
		must(t, w.Sync())
		if loc[0] != int64(-500-pred) {
			t.Errorf("element 0 after rank %d's Put: %d, want %d", pred, loc[0], -500-pred)
		}
		// Other views of the same bytes.
		b, err := mpi.SharedQuery[int32](w, me)
		must(t, err)
		if len(b) != 8 || &b[0] != (*int32)(unsafe.Pointer(&loc[0])) {
			t.Errorf("SharedQuery[int32] of my own memory: %d elements at %p, Local at %p", len(b), &b[0], &loc[0])
		}
		must(t, w.UnlockAll())
		must(t, world.Barrier())
		must(t, w.Free())
	})
}

// winCreate: a window over memory from AllocMem.
func winCreate(t *testing.T) {
	t.Run("WinCreate", func(t *testing.T) {
		mpitest.SkipUnderMPICH(t, mpitest.MPICHRMABug)
		world := mpi.World()
		n, me := world.Size(), world.Rank()
		const L = 6
		m, err := mpi.AllocMem(8 * L)
		must(t, err)
		ms, err := mpi.MemSlice[float64](m)
		must(t, err)
		if len(ms) != L || len(m.Bytes()) != 8*L {
			fatalf(t, "MemSlice: %d elements, Bytes %d", len(ms), len(m.Bytes()))
		}
		for j := range ms {
			ms[j] = float64(10*me + j)
		}
		w, err := mpi.WinCreate(world, m, 8)
		must(t, err)
		loc, err := mpi.Local[float64](w)
		must(t, err)
		if len(loc) != L || &loc[0] != &ms[0] {
			t.Errorf("Local is not the AllocMem memory")
		}
		for r := 0; r < n; r++ {
			if w.SizeOf(r) != 8*L {
				t.Errorf("SizeOf(%d) = %d", r, w.SizeOf(r))
			}
		}
		must(t, world.Barrier())
		tg, pred := (me+1)%n, (me+n-1)%n
		must(t, w.LockAll(0))
		got := make([]float64, L)
		must(t, mpi.Get(w, got, tg, 0))
		must(t, w.Flush(tg))
		for j := range got {
			if got[j] != float64(10*tg+j) {
				t.Errorf("Get from rank %d element %d: %v", tg, j, got[j])
			}
		}
		must(t, world.Barrier())
		must(t, mpi.Put(w, []float64{-1, -2}, tg, 2))
		must(t, mpi.Accumulate(w, []float64{0.5}, tg, L-1, mpi.Sum))
		must(t, w.Flush(tg))
		must(t, w.UnlockAll())
		barrier(t)
		want := []float64{float64(10 * me), float64(10*me + 1), -1, -2, float64(10*me + 4), float64(10*me+5) + 0.5}
		if !slices.Equal(ms, want) {
			t.Errorf("memory after rank %d's Put and Accumulate: %v, want %v", pred, ms, want)
		}
		must(t, w.Free())
		must(t, m.Free())
		wantArgErr(t, "Mem.Free twice", m.Free(), "m", mpi.ErrFreed)
		_, err = mpi.MemSlice[float64](m)
		wantArgErr(t, "MemSlice of freed memory", err, "m", mpi.ErrFreed)
		_, err = mpi.WinCreate(world, m, 8)
		wantArgErr(t, "WinCreate on freed memory", err, "m", mpi.ErrFreed)
		_, err = mpi.WinCreate(world, nil, 8)
		wantArgErr(t, "WinCreate on nil", err, "m", mpi.ErrNil)
		_, err = mpi.AllocMem(-1)
		wantArgErr(t, "AllocMem(-1)", err, "n", nil)

		// Zero bytes on even ranks.
		z, err := mpi.AllocMem(8 * (me % 2))
		must(t, err)
		zw, err := mpi.WinCreate(world, z, 8)
		must(t, err)
		for r := 0; r < n; r++ {
			if zw.SizeOf(r) != 8*(r%2) {
				t.Errorf("SizeOf(%d) = %d, want %d", r, zw.SizeOf(r), 8*(r%2))
			}
		}
		must(t, zw.Free())
		must(t, z.Free())
		if !errors.Is(m.Free(), mpi.ErrFreed) {
			t.Errorf("freed Mem")
		}
	})
}

//go:noinline
func growStack(n int) int {
	var pad [512]byte
	pad[n%512] = byte(n)
	if n == 0 {
		return int(pad[0])
	}
	return growStack(n-1) + int(pad[(n+1)%512])
}

// stackBuffers: results land in buffers that callers keep in local arrays,
// even when the goroutine's stack moves between the call and the flush (MPI may
// write them only at the flush; over osc ucx it does).
func stackBuffers(t *testing.T, k winKind) {
	t.Run("StackBuffers", func(t *testing.T) {
		world := mpi.World()
		n, me := world.Size(), world.Rank()
		const L = 512
		w, loc := newWin[int64](t, k, L, 0)
		for j := range loc {
			loc[j] = int64(1000*me + j)
		}
		must(t, world.Barrier())
		tg := (me + 1) % n
		must(t, w.LockAll(0))
		for rep := 0; rep < 5; rep++ {
			done := make(chan struct{})
			go func() { // a fresh goroutine: a small stack that must grow
				defer close(done)
				var buf [L]int64
				var old [2]int64
				must(t, mpi.Get(w, buf[:], tg, 0))
				growStack(2000)
				must(t, w.Flush(tg))
				must(t, mpi.GetAccumulate(w, nil, old[:], tg, 2, mpi.NoOp))
				growStack(2000)
				must(t, w.Flush(tg))
				for j := range buf {
					if buf[j] != int64(1000*tg+j) {
						t.Errorf("rep %d: Get into a local array, element %d: %d, want %d", rep, j, buf[j], 1000*tg+j)
						return
					}
				}
				if old != [2]int64{int64(1000*tg + 2), int64(1000*tg + 3)} {
					t.Errorf("rep %d: GetAccumulate into a local array: %v", rep, old)
				}
			}()
			<-done
		}
		must(t, w.UnlockAll())
		must(t, world.Barrier())
		must(t, w.Free())
	})
}
