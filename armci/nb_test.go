package armci_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/goga-hpc/goga/armci"
)

// testNonBlocking keeps many operations in flight and completes them out of
// order: Wait in reverse, a Test loop, WaitAll, and a mix of strided and vector
// operations waited in a shuffled order.
func testNonBlocking(t *testing.T, rt *armci.Runtime) {
	me, n := rt.Rank(), rt.Size()
	const (
		K      = 64 // operations in flight at once
		E      = 32 // float64 elements that accumulates land in
		putOff = 0
		accOff = putOff + 8*K
		sOff   = accOff + 8*E
		vOff   = sOff + 512
		size   = vOff + 512
	)
	s := malloc(t, rt, size)
	tgt, prev := (me+1)%n, (me-1+n)%n
	initAcc := func(r int) []float64 {
		v := make([]float64, E)
		for i := range v {
			v[i] = float64(i*r) - 3
		}
		return v
	}
	// The accumulate region after the NbAcc phase: rank q's k-th accumulate
	// adds 2*(k+1)*(q+1) to element k%E of rank (q+k)%n, for k < 2K.
	afterNbAcc := func(r int) []float64 {
		v := initAcc(r)
		for q := range n {
			for k := range 2 * K {
				if (q+k)%n == r {
					v[k%E] += 2 * float64((k+1)*(q+1))
				}
			}
		}
		return v
	}
	must(t, rt.Barrier())
	b := pattern(me, size)
	copy(b[accOff:], asBytes(initAcc(me)))
	copy(s.Local(), b)
	must(t, rt.Barrier())

	t.Run("PutWaitReverse", func(t *testing.T) {
		bufs := make([][]int64, K)
		hs := make([]*armci.Handle, K)
		for i := range K {
			bufs[i] = []int64{int64(me)<<32 | int64(i)}
			h, err := armci.NbPut(s, tgt, putOff+8*i, bufs[i])
			must(t, err)
			hs[i] = h
		}
		for i := K - 1; i >= 0; i-- {
			must(t, hs[i].Wait())
		}
		must(t, hs[0].Wait()) // waiting again is harmless
		if ok, err := hs[K-1].Test(); !ok || err != nil {
			t.Errorf("Test after Wait: %v, %v; want true, nil", ok, err)
		}
		must(t, rt.Barrier())
		got := viewAs[int64](s.Local()[putOff : putOff+8*K])
		for i, v := range got {
			if want := int64(prev)<<32 | int64(i); v != want {
				t.Errorf("element %d = %#x, want %#x", i, v, want)
			}
		}
		must(t, rt.Barrier())
	})

	t.Run("GetTestLoop", func(t *testing.T) {
		bufs := make([][]int64, K)
		hs := make([]*armci.Handle, K)
		for i := range K {
			bufs[i] = []int64{-1}
			h, err := armci.NbGet(s, tgt, putOff+8*(K-1-i), bufs[i])
			must(t, err)
			hs[i] = h
		}
		pending := make([]int, K)
		for i := range pending {
			pending[i] = i
		}
		deadline := time.Now().Add(60 * time.Second)
		rounds := 0
		for len(pending) > 0 {
			var next []int
			for j := len(pending) - 1; j >= 0; j-- {
				ok, err := hs[pending[j]].Test()
				must(t, err)
				if !ok {
					next = append(next, pending[j])
				}
			}
			pending = next
			rounds++
			if time.Now().After(deadline) {
				fatalf(t, "%d gets still incomplete after 60 s of Test", len(pending))
			}
		}
		for i := range K {
			if want := int64(me)<<32 | int64(K-1-i); bufs[i][0] != want {
				t.Errorf("NbGet %d: %#x, want %#x", i, bufs[i][0], want)
			}
		}
		must(t, rt.Barrier())
	})

	t.Run("AccWaitAll", func(t *testing.T) {
		var hs []*armci.Handle
		for k := range 2 * K {
			h, err := armci.NbAcc(s, (me+k)%n, accOff+8*(k%E), []float64{float64((k + 1) * (me + 1))}, 2)
			must(t, err)
			hs = append(hs, h)
		}
		must(t, rt.WaitAll())
		for i, h := range hs {
			if ok, err := h.Test(); !ok || err != nil {
				t.Errorf("handle %d after WaitAll: Test = %v, %v", i, ok, err)
				break
			}
		}
		must(t, rt.Barrier())
		want := pattern(me, size)
		copy(want[accOff:], asBytes(afterNbAcc(me)))
		if !sameBytes(t, "accumulate region", s.Local()[accOff:sOff], want[accOff:sOff]) {
			t.Errorf("got  %v\nwant %v", viewAs[float64](s.Local()[accOff:sOff]), afterNbAcc(me))
		}
		must(t, rt.Barrier())
	})

	t.Run("Mixed", func(t *testing.T) {
		p := armci.Strided{Count: []int{5, 4, 3}, LocalStride: []int{6, 30}, RemoteStride: []int{9, 40}}
		vecs := []armci.IOVec{{Local: []int{0, 20}, Remote: []int{vOff + 300, vOff + 100}, Bytes: 12}, {Local: []int{40}, Remote: []int{vOff + 200}, Bytes: 30}}
		ap := armci.Strided{Count: []int{16, 3}, LocalStride: []int{16}, RemoteStride: []int{32}}
		avecs := []armci.IOVec{{Local: []int{0}, Remote: []int{accOff + 200}, Bytes: 16}, {Local: []int{16, 8}, Remote: []int{accOff + 160, accOff + 240}, Bytes: 8}}
		sLocal := func(r int) []byte {
			b := make([]byte, 90)
			for i := range b {
				b[i] = byte(r*19 + i*3 + 7)
			}
			return b
		}
		vLocal := func(r int) []byte {
			b := make([]byte, 70)
			for i := range b {
				b[i] = byte(250 - r*23 - i)
			}
			return b
		}
		aLocal := func(r int) []float64 {
			v := make([]float64, 6)
			for i := range v {
				v[i] = float64((r + 1) * (i + 2))
			}
			return v
		}
		ss, vs, as, avs := sLocal(me), vLocal(me), aLocal(me), aLocal(me)[:3]
		h1, err := armci.NbPutS(s, tgt, sOff, ss, p)
		must(t, err)
		h2, err := armci.NbPutV(s, tgt, vs, vecs)
		must(t, err)
		h3, err := armci.NbAccS(s, tgt, accOff, as, ap, 0.5)
		must(t, err)
		h4, err := armci.NbAccV(s, tgt, avs, avecs, -1)
		must(t, err)
		for _, h := range []*armci.Handle{h3, h1, h4, h2} {
			must(t, h.Wait())
		}
		must(t, rt.WaitAll())
		must(t, rt.Barrier())
		want := pattern(me, size)
		from := sLocal(prev)
		walk(p.Count, p.LocalStride, p.RemoteStride, func(l, r int) { copy(want[sOff+r:], from[l:l+p.Count[0]]) })
		vfrom := vLocal(prev)
		for _, v := range vecs {
			for i := range v.Local {
				copy(want[v.Remote[i]:], vfrom[v.Local[i]:v.Local[i]+v.Bytes])
			}
		}
		acc := afterNbAcc(me)
		afrom := aLocal(prev)
		walk(ap.Count, ap.LocalStride, ap.RemoteStride, func(l, r int) {
			for j := range 2 {
				acc[r/8+j] += 0.5 * afrom[l/8+j]
			}
		})
		for _, v := range avecs {
			for i := range v.Local {
				for j := range v.Bytes / 8 {
					acc[(v.Remote[i]-accOff)/8+j] -= afrom[v.Local[i]/8+j]
				}
			}
		}
		copy(want[putOff:], s.Local()[putOff:accOff]) // checked above
		copy(want[accOff:], asBytes(acc))
		sameBytes(t, "part after mixed operations", s.Local(), want)

		// Read it all back from the next rank, in flight together.
		tb := pattern(tgt, size)
		walk(p.Count, p.LocalStride, p.RemoteStride, func(l, r int) { copy(tb[sOff+r:], ss[l:l+p.Count[0]]) })
		for _, v := range vecs {
			for i := range v.Local {
				copy(tb[v.Remote[i]:], vs[v.Local[i]:v.Local[i]+v.Bytes])
			}
		}
		gs, gv := make([]byte, 90), make([]byte, 70)
		for i := range gs {
			gs[i] = 0xEE
		}
		for i := range gv {
			gv[i] = 0xDD
		}
		wgs, wgv := append([]byte(nil), gs...), append([]byte(nil), gv...)
		walk(p.Count, p.LocalStride, p.RemoteStride, func(l, r int) { copy(wgs[l:l+p.Count[0]], tb[sOff+r:]) })
		for _, v := range vecs {
			for i := range v.Local {
				copy(wgv[v.Local[i]:v.Local[i]+v.Bytes], tb[v.Remote[i]:])
			}
		}
		whole := make([]byte, size)
		h5, err := armci.NbGetS(s, tgt, sOff, gs, p)
		must(t, err)
		h6, err := armci.NbGetV(s, tgt, gv, vecs)
		must(t, err)
		h7, err := armci.NbGet(s, tgt, sOff, whole[sOff:])
		must(t, err)
		must(t, h7.Wait())
		must(t, rt.WaitAll())
		for _, h := range []*armci.Handle{h6, h5} {
			if ok, err := h.Test(); !ok || err != nil {
				t.Errorf("Test after WaitAll: %v, %v", ok, err)
			}
		}
		sameBytes(t, "NbGetS buffer", gs, wgs)
		sameBytes(t, "NbGetV buffer", gv, wgv)
		sameBytes(t, "NbGet of the next rank's strided and vector regions", whole[sOff:], tb[sOff:])
		must(t, rt.Barrier())
	})

	t.Run("Empty", func(t *testing.T) {
		for _, f := range []func() (*armci.Handle, error){
			func() (*armci.Handle, error) { return armci.NbPut(s, tgt, size, []byte{}) },
			func() (*armci.Handle, error) { return armci.NbGet(s, tgt, 0, []int64{}) },
			func() (*armci.Handle, error) { return armci.NbAcc(s, tgt, 8, []complex64{}, 2) },
			func() (*armci.Handle, error) {
				return armci.NbPutS(s, tgt, 0, []byte{}, armci.Strided{Count: []int{0, 5}, LocalStride: []int{1}, RemoteStride: []int{1}})
			},
			func() (*armci.Handle, error) { return armci.NbPutV(s, tgt, []byte{}, nil) },
			func() (*armci.Handle, error) { return armci.NbGetV(s, tgt, []byte{}, []armci.IOVec{{Bytes: 4}}) },
		} {
			h, err := f()
			must(t, err)
			must(t, h.Wait())
		}
		must(t, rt.WaitAll())
		must(t, rt.Barrier())
	})
	must(t, s.Free())
}

// testLargeGetWait gets 4 MiB in four handles, which are in flight when
// NbGet returns wherever the get goes over a network, and complete when
// Wait returns. They are waited in reverse, so that one wait completes the
// others (over MPI RMA one local flush serves every handle issued before
// it), then a second round, issued after that flush, in order.
func testLargeGetWait(t *testing.T, rt *armci.Runtime) {
	me, n := rt.Rank(), rt.Size()
	prev := (me - 1 + n) % n
	const size, parts = 4 << 20, 4
	big := malloc(t, rt, size)
	copy(big.Local(), pattern(me, size))
	must(t, rt.Barrier())
	for round := range 2 {
		dst := make([]byte, size)
		hs := make([]*armci.Handle, parts)
		for i := range hs {
			h, err := armci.NbGet(big, prev, i*size/parts, dst[i*size/parts:(i+1)*size/parts])
			must(t, err)
			hs[i] = h
		}
		want := pattern(prev, size)
		for i := range hs {
			if round == 0 {
				i = parts - 1 - i
			}
			must(t, hs[i].Wait())
			lo, hi := i*size/parts, (i+1)*size/parts
			sameBytes(t, fmt.Sprintf("NbGet of 4 MiB, round %d, part %d", round, i), dst[lo:hi], want[lo:hi])
		}
	}
	must(t, rt.Barrier())
	must(t, big.Free())
}
