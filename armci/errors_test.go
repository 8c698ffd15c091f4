package armci_test

import (
	"slices"
	"testing"
	"time"

	"github.com/goga-hpc/goga/armci"
)

func markers(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = 0xEE
	}
	return b
}

func st(count, ls, rs []int) armci.Strided {
	return armci.Strided{Count: count, LocalStride: ls, RemoteStride: rs}
}

// testErrors: every kind of bad input is refused with an *armci.Error naming
// the argument, and no byte moves: neither in any rank's part nor in the
// caller's buffer.
func testErrors(t *testing.T, rt *armci.Runtime) {
	me, n := rt.Rank(), rt.Size()
	const size = 64
	s := malloc(t, rt, size)
	reset(t, rt, s)
	tgt := (me + 1) % n
	g := markers(64)
	src := make([]byte, 64)
	for i := range src {
		src[i] = byte(i + 1)
	}
	f64 := []float64{1, 2, 3, 4, 5, 6, 7, 8}

	t.Run("Contiguous", func(t *testing.T) {
		wantErr(t, "Put to rank -1", armci.Put(s, -1, 0, src[:1]), "rank", nil)
		wantErr(t, "Put to rank n", armci.Put(s, n, 0, src[:1]), "rank", nil)
		wantErr(t, "Put past the end", armci.Put(s, tgt, 60, []int64{1}), "offset", nil)
		wantErr(t, "Put of a whole part at offset 1", armci.Put(s, tgt, 1, src[:size]), "offset", nil)
		wantErr(t, "Put at a negative offset", armci.Put(s, tgt, -1, src[:1]), "offset", nil)
		wantErr(t, "empty Put past the end", armci.Put(s, tgt, size+1, []byte{}), "offset", nil)
		wantErr(t, "Get past the end", armci.Get(s, tgt, 57, g[:8]), "offset", nil)
		wantErr(t, "Get from rank n", armci.Get(s, n, 0, g[:8]), "rank", nil)
		wantErr(t, "Get as int64 past the end", armci.Get(s, tgt, 8, viewAs[int64](g)), "offset", nil)
		wantErr(t, "Acc float64 at a misaligned offset", armci.Acc(s, tgt, 4, []float64{1}, 1), "offset", nil)
		wantErr(t, "Acc int32 at a misaligned offset", armci.Acc(s, tgt, 2, []int32{1}, 3), "offset", nil)
		wantErr(t, "Acc complex128 at a misaligned offset", armci.Acc(s, tgt, 8, []complex128{1}, 1), "offset", nil)
		wantErr(t, "Acc past the end", armci.Acc(s, tgt, 56, []float64{1, 2}, 1), "offset", nil)
		wantErr(t, "Acc to rank -1", armci.Acc(s, -1, 0, []float64{1}, 1), "rank", nil)
		_, err := armci.FetchAdd(s, tgt, 4, int64(1))
		wantErr(t, "FetchAdd int64 at a misaligned offset", err, "offset", nil)
		_, err = armci.FetchAdd(s, tgt, 62, int32(1))
		wantErr(t, "FetchAdd int32 past the end", err, "offset", nil)
		_, err = armci.Swap(s, n, 0, int32(1))
		wantErr(t, "Swap on rank n", err, "rank", nil)
		_, err = armci.Swap(s, tgt, -8, int64(1))
		wantErr(t, "Swap at a negative offset", err, "offset", nil)
		_, err = armci.CompareSwap(s, tgt, size, int64(0), 1)
		wantErr(t, "CompareSwap at the end", err, "offset", nil)
		_, err = armci.CompareSwap(s, tgt, 1, int32(0), 1)
		wantErr(t, "CompareSwap at a misaligned offset", err, "offset", nil)
		h, err := armci.NbPut(s, n, 0, src[:1])
		wantErr(t, "NbPut to rank n", err, "rank", nil)
		if h != nil {
			t.Errorf("NbPut refused but returned a handle")
		}
		_, err = armci.NbGet(s, tgt, 60, g[:8])
		wantErr(t, "NbGet past the end", err, "offset", nil)
		_, err = armci.NbAcc(s, tgt, 4, []float64{1}, 1)
		wantErr(t, "NbAcc at a misaligned offset", err, "offset", nil)
		_, err = armci.NbAcc(s, -1, 0, []float64{1}, 2)
		wantErr(t, "NbAcc to rank -1", err, "rank", nil)
	})

	t.Run("Strided", func(t *testing.T) {
		nine, eight := []int{1, 1, 1, 1, 1, 1, 1, 1, 1}, []int{1, 1, 1, 1, 1, 1, 1, 1}
		cases := []struct {
			name string
			rank int
			off  int
			p    armci.Strided
			arg  string
		}{
			{"empty Count", tgt, 0, st(nil, nil, nil), "Count"},
			{"8 stride levels", tgt, 0, st(nine, eight, eight), "Count"},
			{"LocalStride too short", tgt, 0, st([]int{2, 2}, []int{}, []int{4}), "LocalStride"},
			{"LocalStride too long", tgt, 0, st([]int{2, 2}, []int{4, 4}, []int{4}), "LocalStride"},
			{"RemoteStride too short", tgt, 0, st([]int{2, 2, 2}, []int{2, 4}, []int{4}), "RemoteStride"},
			{"RemoteStride nil", tgt, 0, st([]int{2, 2}, []int{4}, nil), "RemoteStride"},
			{"negative Count[0]", tgt, 0, st([]int{-1, 2}, []int{4}, []int{4}), "Count"},
			{"negative Count[2]", tgt, 0, st([]int{2, 2, -2}, []int{4, 8}, []int{4, 8}), "Count"},
			{"negative LocalStride", tgt, 0, st([]int{2, 2}, []int{-4}, []int{4}), "LocalStride"},
			{"negative RemoteStride", tgt, 0, st([]int{2, 2}, []int{4}, []int{-4}), "RemoteStride"},
			{"local buffer too short", tgt, 0, st([]int{4, 10}, []int{8}, []int{4}), "local"},
			{"remote past the end", tgt, 0, st([]int{4, 10}, []int{4}, []int{8}), "offset"},
			{"offset past the end", tgt, 61, st([]int{4}, []int{}, []int{}), "offset"},
			{"negative offset", tgt, -1, st([]int{4}, []int{}, []int{}), "offset"},
			{"rank n", n, 0, st([]int{4}, []int{}, []int{}), "rank"},
			{"rank -1", -1, 0, st([]int{4, 2}, []int{4}, []int{4}), "rank"},
			// Sizes that wrap around int to something small must not pass.
			{"byte count overflows", tgt, 0, st([]int{8, 1<<61 + 1}, []int{0}, []int{0}), "Count"},
			{"remote extent overflows", tgt, 0, st([]int{8, 3}, []int{8}, []int{1<<63 - 4}), "RemoteStride"},
			{"local extent overflows", tgt, 0, st([]int{8, 2, 2}, []int{8, 1<<63 - 8}, []int{8, 16}), "LocalStride"},
		}
		for _, c := range cases {
			wantErr(t, "PutS: "+c.name, armci.PutS(s, c.rank, c.off, src, c.p), c.arg, nil)
			wantErr(t, "GetS: "+c.name, armci.GetS(s, c.rank, c.off, g, c.p), c.arg, nil)
			h, err := armci.NbPutS(s, c.rank, c.off, src, c.p)
			wantErr(t, "NbPutS: "+c.name, err, c.arg, nil)
			if h != nil {
				t.Errorf("NbPutS: %s: refused but returned a handle", c.name)
			}
			_, err = armci.NbGetS(s, c.rank, c.off, g, c.p)
			wantErr(t, "NbGetS: "+c.name, err, c.arg, nil)
		}
		acc := []struct {
			name string
			rank int
			off  int
			p    armci.Strided
			arg  string
		}{
			{"misaligned offset", tgt, 4, st([]int{8, 2}, []int{8}, []int{8}), "offset"},
			{"Count[0] not whole elements", tgt, 0, st([]int{12}, []int{}, []int{}), "Count"},
			{"RemoteStride not whole elements", tgt, 0, st([]int{8, 2}, []int{8}, []int{12}), "RemoteStride"},
			{"LocalStride not whole elements", tgt, 0, st([]int{8, 2}, []int{12}, []int{8}), "LocalStride"},
			{"local buffer too short", tgt, 0, st([]int{8, 5}, []int{16}, []int{8}), "local"},
			{"remote past the end", tgt, 0, st([]int{8, 5}, []int{8}, []int{16}), "offset"},
			{"rank n", n, 0, st([]int{8}, []int{}, []int{}), "rank"},
			{"8 stride levels", tgt, 0, st(nine, eight, eight), "Count"},
		}
		for _, c := range acc {
			wantErr(t, "AccS: "+c.name, armci.AccS(s, c.rank, c.off, f64, c.p, 2), c.arg, nil)
			_, err := armci.NbAccS(s, c.rank, c.off, f64, c.p, 2)
			wantErr(t, "NbAccS: "+c.name, err, c.arg, nil)
		}
		wantErr(t, "AccS int32 Count[0] of 6 bytes", armci.AccS(s, tgt, 0, []int32{1, 2}, st([]int{6}, []int{}, []int{}), 1), "Count", nil)
	})

	t.Run("Vector", func(t *testing.T) {
		v := func(b int, lr ...int) armci.IOVec {
			x := armci.IOVec{Bytes: b}
			for i := 0; i < len(lr); i += 2 {
				x.Local, x.Remote = append(x.Local, lr[i]), append(x.Remote, lr[i+1])
			}
			return x
		}
		cases := []struct {
			name string
			rank int
			vecs []armci.IOVec
			arg  string
		}{
			{"mismatched lengths", tgt, []armci.IOVec{{Local: []int{0, 8}, Remote: []int{0}, Bytes: 4}}, "vecs"},
			{"negative Bytes", tgt, []armci.IOVec{v(-1, 0, 0)}, "vecs"},
			{"local piece past the buffer", tgt, []armci.IOVec{v(8, 0, 0), v(8, 60, 8)}, "vecs"},
			{"negative local offset", tgt, []armci.IOVec{v(8, 0, 0), v(8, -8, 16)}, "vecs"},
			{"remote past the end", tgt, []armci.IOVec{v(8, 0, 0, 8, 8), v(8, 16, 60)}, "offset"},
			{"negative remote offset", tgt, []armci.IOVec{v(8, 0, 0), v(8, 8, -8)}, "offset"},
			{"rank n", n, []armci.IOVec{v(8, 0, 0)}, "rank"},
			{"rank n, no pieces", n, nil, "rank"},
			{"rank -1, empty pieces", -1, []armci.IOVec{v(0, 0, 0)}, "rank"},
		}
		for _, c := range cases {
			wantErr(t, "PutV: "+c.name, armci.PutV(s, c.rank, src, c.vecs), c.arg, nil)
			wantErr(t, "GetV: "+c.name, armci.GetV(s, c.rank, g, c.vecs), c.arg, nil)
			wantErr(t, "AccV: "+c.name, armci.AccV(s, c.rank, f64, c.vecs, 1), c.arg, nil)
			h, err := armci.NbPutV(s, c.rank, src, c.vecs)
			wantErr(t, "NbPutV: "+c.name, err, c.arg, nil)
			if h != nil {
				t.Errorf("NbPutV: %s: refused but returned a handle", c.name)
			}
			_, err = armci.NbGetV(s, c.rank, g, c.vecs)
			wantErr(t, "NbGetV: "+c.name, err, c.arg, nil)
			_, err = armci.NbAccV(s, c.rank, f64, c.vecs, 1)
			wantErr(t, "NbAccV: "+c.name, err, c.arg, nil)
		}
		wantErr(t, "AccV at a misaligned remote offset", armci.AccV(s, tgt, f64, []armci.IOVec{v(8, 0, 0), v(8, 8, 4)}, 1), "vecs", nil)
		wantErr(t, "AccV of 12-byte pieces", armci.AccV(s, tgt, f64, []armci.IOVec{v(12, 0, 0)}, 1), "vecs", nil)
		wantErr(t, "AccV at a misaligned local offset", armci.AccV(s, tgt, f64, []armci.IOVec{v(8, 4, 0)}, 1), "vecs", nil)
	})

	t.Run("Freed", func(t *testing.T) {
		fs := malloc(t, rt, 16)
		must(t, fs.Free())
		p := st([]int{4}, []int{}, []int{})
		vecs := []armci.IOVec{{Local: []int{0}, Remote: []int{0}, Bytes: 4}}
		errs := map[string]error{
			"Put":  armci.Put(fs, tgt, 0, src[:4]),
			"Get":  armci.Get(fs, tgt, 0, g[:4]),
			"Acc":  armci.Acc(fs, tgt, 0, f64[:1], 1),
			"PutS": armci.PutS(fs, tgt, 0, src, p),
			"GetS": armci.GetS(fs, tgt, 0, g, p),
			"AccS": armci.AccS(fs, tgt, 0, f64, st([]int{8}, []int{}, []int{}), 1),
			"PutV": armci.PutV(fs, tgt, src, vecs),
			"GetV": armci.GetV(fs, tgt, g, vecs),
			"AccV": armci.AccV(fs, tgt, f64, nil, 1),
			"Free": fs.Free(),
		}
		for _, nb := range []struct {
			name string
			f    func() (*armci.Handle, error)
		}{
			{"NbPut", func() (*armci.Handle, error) { return armci.NbPut(fs, tgt, 0, src[:4]) }},
			{"NbGet", func() (*armci.Handle, error) { return armci.NbGet(fs, tgt, 0, g[:4]) }},
			{"NbAcc", func() (*armci.Handle, error) { return armci.NbAcc(fs, tgt, 0, f64[:1], 1) }},
			{"NbPutS", func() (*armci.Handle, error) { return armci.NbPutS(fs, tgt, 0, src, p) }},
			{"NbGetS", func() (*armci.Handle, error) { return armci.NbGetS(fs, tgt, 0, g, p) }},
			{"NbAccS", func() (*armci.Handle, error) { return armci.NbAccS(fs, tgt, 0, f64, p, 1) }},
			{"NbPutV", func() (*armci.Handle, error) { return armci.NbPutV(fs, tgt, src, vecs) }},
			{"NbGetV", func() (*armci.Handle, error) { return armci.NbGetV(fs, tgt, g, vecs) }},
			{"NbAccV", func() (*armci.Handle, error) { return armci.NbAccV(fs, tgt, f64, nil, 1) }},
			{"FetchAdd", func() (*armci.Handle, error) { _, err := armci.FetchAdd(fs, tgt, 0, int64(1)); return nil, err }},
			{"Swap", func() (*armci.Handle, error) { _, err := armci.Swap(fs, tgt, 0, int32(1)); return nil, err }},
			{"CompareSwap", func() (*armci.Handle, error) { _, err := armci.CompareSwap(fs, tgt, 0, int64(0), 1); return nil, err }},
			{"LocalAs", func() (*armci.Handle, error) { _, err := armci.LocalAs[int32](fs); return nil, err }},
		} {
			h, err := nb.f()
			if h != nil {
				t.Errorf("%s on a freed segment returned a handle", nb.name)
			}
			errs[nb.name] = err
		}
		for name, err := range errs {
			wantErr(t, name+" on a freed segment", err, "segment", armci.ErrFreed)
		}
		if fs.Local() != nil {
			t.Errorf("Local() of a freed segment is not nil")
		}
	})

	t.Run("Nil", func(t *testing.T) {
		var ns *armci.Segment
		wantErr(t, "Put on a nil segment", armci.Put(ns, 0, 0, src[:1]), "segment", armci.ErrNil)
		wantErr(t, "AccS on a nil segment", armci.AccS(ns, 0, 0, f64, st([]int{8}, []int{}, []int{}), 1), "segment", armci.ErrNil)
		_, err := armci.NbAcc(ns, 0, 0, f64[:1], 1)
		wantErr(t, "NbAcc on a nil segment", err, "segment", armci.ErrNil)
		_, err = armci.NbPutS(ns, 0, 0, src, st([]int{1}, []int{}, []int{}))
		wantErr(t, "NbPutS on a nil segment", err, "segment", armci.ErrNil)
		_, err = armci.NbGetV(ns, 0, g, nil)
		wantErr(t, "NbGetV on a nil segment", err, "segment", armci.ErrNil)
		_, err = armci.FetchAdd(ns, 0, 0, int32(1))
		wantErr(t, "FetchAdd on a nil segment", err, "segment", armci.ErrNil)
		wantErr(t, "Free of a nil segment", ns.Free(), "segment", armci.ErrNil)
		var h *armci.Handle
		wantErr(t, "Wait on a nil handle", h.Wait(), "handle", armci.ErrNil)
		_, err = h.Test()
		wantErr(t, "Test on a nil handle", err, "handle", armci.ErrNil)
		_, err = armci.Init(nil)
		wantErr(t, "Init(nil)", err, "comm", armci.ErrNil)
		_, err = rt.MallocGroup(nil, 8)
		wantErr(t, "MallocGroup(nil)", err, "comm", armci.ErrNil)
	})

	t.Run("Runtime", func(t *testing.T) {
		wantErr(t, "Fence(-1)", rt.Fence(-1), "rank", nil)
		wantErr(t, "Fence(n)", rt.Fence(n), "rank", nil)
		wantErr(t, "Lock without mutexes", rt.Lock(0, 0), "mutex", nil)
		wantErr(t, "Unlock without mutexes", rt.Unlock(0, 0), "mutex", nil)
		wantErr(t, "DestroyMutexes without mutexes", rt.DestroyMutexes(), "mutex", nil)
		odd := malloc(t, rt, 12)
		_, err := armci.LocalAs[int64](odd)
		wantErr(t, "LocalAs[int64] of 12 bytes", err, "T", nil)
		v, err := armci.LocalAs[int32](odd)
		must(t, err)
		if len(v) != 3 {
			t.Errorf("LocalAs[int32] of 12 bytes has %d elements", len(v))
		}
		c, err := armci.LocalAs[complex128](s)
		must(t, err)
		if len(c) != 4 {
			t.Errorf("LocalAs[complex128] of 64 bytes has %d elements", len(c))
		}
		must(t, odd.Free())
	})

	// No refused call moved a byte: not into any part, not into g.
	must(t, rt.Barrier())
	sameBytes(t, "part after refused calls", s.Local(), pattern(me, size))
	sameBytes(t, "local buffer after refused gets", g, markers(64))
	if !slices.Equal(f64, []float64{1, 2, 3, 4, 5, 6, 7, 8}) {
		t.Errorf("refused accumulates changed their source: %v", f64)
	}
	must(t, s.Free())
}

// testCollectiveErrors: a collective call that is wrong on one rank fails on
// every rank (nobody is left waiting), and the ranks stay in step afterwards.
func testCollectiveErrors(t *testing.T, rt *armci.Runtime) {
	me, n := rt.Rank(), rt.Size()
	size := 16
	if me == n-1 {
		size = -1
	}
	_, err := rt.Malloc(size)
	wantErr(t, "Malloc with a negative size on the last rank", err, "size", nil)
	_, err = rt.Malloc(-me - 1)
	wantErr(t, "Malloc with a negative size everywhere", err, "size", nil)
	s := malloc(t, rt, 8)
	must(t, armci.Put(s, (me+1)%n, 0, []int64{int64(me)}))
	must(t, rt.Barrier())
	if got := viewAs[int64](s.Local())[0]; got != int64((me-1+n)%n) {
		t.Errorf("after the refused Mallocs: Put delivered %d, want %d", got, (me-1+n)%n)
	}

	nm := 1
	if me == 0 {
		nm = -1
	}
	wantErr(t, "CreateMutexes with a negative count on rank 0", rt.CreateMutexes(nm), "n", nil)
	// Rank r hosts r%3 mutexes: rank 0 none.
	must(t, rt.CreateMutexes(me%3))
	wantErr(t, "CreateMutexes twice", rt.CreateMutexes(1), "n", nil)
	wantErr(t, "Lock on rank 0, which hosts none", rt.Lock(0, 0), "mutex", nil)
	wantErr(t, "Lock mutex -1", rt.Lock(-1, n-1), "mutex", nil)
	wantErr(t, "Lock on rank n", rt.Lock(0, n), "rank", nil)
	wantErr(t, "Lock on rank -1", rt.Lock(0, -1), "rank", nil)
	wantErr(t, "Lock mutex past the host's count", rt.Lock(me%3, me), "mutex", nil)
	wantErr(t, "Unlock mutex past the host's count", rt.Unlock((n-1)%3, n-1), "mutex", nil)
	wantErr(t, "Unlock on rank n", rt.Unlock(0, n), "rank", nil)
	if n > 1 {
		// Unlocking what this process does not hold would hand the mutex
		// to a waiter while its holder is inside.
		wantErr(t, "Unlock of a mutex not held", rt.Unlock(0, 1), "mutex", nil)
		wantErr(t, "Release of a mutex not held", rt.Release(0, 1), "mutex", nil)
		wantErr(t, "Release on rank n", rt.Release(0, n), "rank", nil)
		must(t, rt.Lock(0, 1))
		// A second Lock by this process cannot be told from another
		// goroutine's: it waits for the holder, as with sync.Mutex.
		second := make(chan error, 1)
		go func() { second <- rt.Lock(0, 1) }()
		select {
		case err := <-second:
			fatalf(t, "a second Lock returned (%v) while this process held the mutex", err)
		case <-time.After(50 * time.Millisecond):
		}
		must(t, rt.Unlock(0, 1))
		must(t, <-second)
		must(t, rt.Release(0, 1))
		wantErr(t, "Unlock twice", rt.Unlock(0, 1), "mutex", nil)
		wantErr(t, "Release after Unlock", rt.Release(0, 1), "mutex", nil)
		// Freeing the mutexes while one process holds one is refused on
		// every process. The barrier first: without it the last rank
		// could take the mutex while another rank's second goroutine
		// still waited for it, and that rank would never reach
		// DestroyMutexes (a hang seen in about one run in fifty).
		must(t, rt.Barrier())
		if me == n-1 {
			must(t, rt.Lock(0, 1))
		}
		wantErr(t, "DestroyMutexes while the last rank holds one", rt.DestroyMutexes(), "mutex", nil)
		if me == n-1 {
			must(t, rt.Unlock(0, 1))
		}
		// Mutual exclusion still holds after the refused calls: a counter
		// guarded by the mutex ends exact.
		c := malloc(t, rt, 8)
		clear(c.Local())
		must(t, rt.Barrier())
		for range 20 {
			must(t, rt.Lock(0, 1))
			v := []int64{0}
			must(t, armci.Get(c, 1, 0, v))
			v[0]++
			must(t, armci.Put(c, 1, 0, v))
			must(t, rt.Fence(1))
			must(t, rt.Unlock(0, 1))
		}
		must(t, rt.Barrier())
		if me == 1 {
			if got := viewAs[int64](c.Local())[0]; got != int64(20*n) {
				t.Errorf("guarded counter = %d, want %d", got, 20*n)
			}
		}
		must(t, c.Free())
	}
	must(t, rt.DestroyMutexes())
	must(t, rt.CreateMutexes(2))
	must(t, rt.Lock(1, n-1))
	must(t, rt.Unlock(1, n-1))
	must(t, rt.DestroyMutexes())

	must(t, s.Free())
	wantErr(t, "Free twice", s.Free(), "segment", armci.ErrFreed)
	// Still in step: a collective allocation and a barrier work.
	s2 := malloc(t, rt, 8)
	must(t, rt.Barrier())
	must(t, s2.Free())
}
