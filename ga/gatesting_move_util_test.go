package ga_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goga-hpc/goga/ga"
)

// What the ports of GA's packc.c, unpackc.c, scan_addc.c and scan_copyc.c
// share. Each of those programs runs one operation on three vectors (src,
// dst, mask) for every pair of element type and mask type, over five
// ranges, with masks of three densities, and compares dst, read back
// whole, with the same operation done sequentially on every process.

// maskOp is the operation under test.
type maskOp int

const (
	opPack maskOp = iota
	opUnpack
	opScanAdd
	opScanCopy
)

// maskCase is one call: the range [lo, hi] (GA's llo, lhi: 0-based and
// inclusive in both), the mask's density q, and for ScanAdd whether it is
// exclusive.
type maskCase struct {
	lo, hi, q int
	excl      bool
}

// maskCases are the original programs' cases for vectors of n elements: q
// from 1 to 3, then five ranges (whole, without the first, without the
// last, a middle quarter, eleven elements), each inclusive and exclusive
// for ScanAdd.
func maskCases(op maskOp, n int) []maskCase {
	ranges := [][2]int{{0, n - 1}, {1, n - 1}, {0, n - 2}, {n / 4, n / 2}, {n / 3, n/3 + 10}}
	var out []maskCase
	for q := 1; q <= 3; q++ {
		for _, r := range ranges {
			out = append(out, maskCase{lo: r[0], hi: r[1], q: q})
			if op == opScanAdd {
				out = append(out, maskCase{lo: r[0], hi: r[1], q: q, excl: true})
			}
		}
	}
	return out
}

// eachMaskPair runs op's cases on vectors of n elements for every pair of
// element type T and mask type M, 36 in all (GA's C_LONG and C_LONGLONG
// are both int64 here, so the originals' 49 pairs are 36), each as a
// subtest "T/M".
func eachMaskPair(t *testing.T, op maskOp, n int) {
	var pairs []maskPairFunc
	pairs = append(pairs, maskPairs[int32]()...)
	pairs = append(pairs, maskPairs[int64]()...)
	pairs = append(pairs, maskPairs[float32]()...)
	pairs = append(pairs, maskPairs[float64]()...)
	pairs = append(pairs, maskPairs[complex64]()...)
	pairs = append(pairs, maskPairs[complex128]()...)
	for _, p := range pairs {
		t.Run(p.name, func(t *testing.T) { p.run(t, op, n) })
	}
}

type maskPairFunc struct {
	name string
	run  func(t *testing.T, op maskOp, n int)
}

// maskPairs lists the pairs with mask type M, the element type varying
// fastest, as in the originals.
func maskPairs[M ga.Elem]() []maskPairFunc {
	return []maskPairFunc{
		{"int32/" + typeName[M](), maskPair[int32, M]},
		{"int64/" + typeName[M](), maskPair[int64, M]},
		{"float32/" + typeName[M](), maskPair[float32, M]},
		{"float64/" + typeName[M](), maskPair[float64, M]},
		{"complex64/" + typeName[M](), maskPair[complex64, M]},
		{"complex128/" + typeName[M](), maskPair[complex128, M]},
	}
}

// maskPair runs op's cases for one pair of types. As in the originals,
// process 0 makes the data and puts it, the others get it, dst starts at
// zero, and every process checks all of dst (and the count of Pack and
// Unpack) against its own sequential result. The arrays are made once per
// pair rather than once per case.
func maskPair[T, M ga.Elem](t *testing.T, op maskOp, n int) {
	src, err := ga.Create[T]("g_src", []int{n}, nil)
	must(t, err)
	defer destroy(t, src)
	dst, err := ga.Create[T]("g_dst", []int{n}, nil)
	must(t, err)
	defer destroy(t, dst)
	msk, err := ga.Create[M]("g_msk", []int{n}, nil)
	must(t, err)
	defer destroy(t, msk)

	// C's rand() drew the masks; a seeded generator stands in for it, with
	// the same densities.
	rng := rand.New(rand.NewPCG(uint64(op), 1))
	var zero M
	for _, c := range maskCases(op, n) {
		what := fmt.Sprintf("lo=%d hi=%d q=%d", c.lo, c.hi, c.q)
		if op == opScanAdd {
			what += fmt.Sprintf(" excl=%v", c.excl)
		}
		lsrc := make([]T, n)
		lmsk := make([]M, n)
		if ga.Nodeid() == 0 {
			for i := range n {
				r := rng.IntN(c.q)
				if op == opScanCopy {
					// scan_copyc.c: src is i+1 + (i+2)i, the mask rand()%q itself.
					lsrc[i] = mk[T](i+1, i+2)
					lmsk[i] = mk[M](r, 0)
				} else {
					lsrc[i] = mk[T](i+1, 0)
					lmsk[i] = mk[M](boolInt(r == 0), 0)
				}
			}
			must(t, src.Put([]int{0}, []int{n - 1}, lsrc, nil))
			must(t, msk.Put([]int{0}, []int{n - 1}, lmsk, nil))
		}
		must(t, dst.Zero())
		must(t, ga.Sync())
		if ga.Nodeid() != 0 {
			must(t, src.Get([]int{0}, []int{n - 1}, lsrc, nil))
			must(t, msk.Get([]int{0}, []int{n - 1}, lmsk, nil))
		}
		must(t, ga.Sync())

		want := make([]T, n)
		wantCount, count := 0, 0
		switch op {
		case opPack:
			for i := c.lo; i <= c.hi; i++ {
				if lmsk[i] != zero {
					want[wantCount] = lsrc[i]
					wantCount++
				}
			}
			count, err = ga.Pack(src, dst, msk, c.lo, c.hi)
		case opUnpack:
			for i := c.lo; i <= c.hi; i++ {
				if lmsk[i] != zero {
					want[i] = lsrc[wantCount]
					wantCount++
				}
			}
			count, err = ga.Unpack(src, dst, msk, c.lo, c.hi)
		case opScanAdd:
			// Nothing before the first mask bit of the range is written.
			start := c.lo
			for start <= c.hi && lmsk[start] == zero {
				start++
			}
			for i := start; i <= c.hi; i++ {
				switch {
				case lmsk[i] != zero && c.excl:
					want[i] = 0
				case lmsk[i] != zero:
					want[i] = lsrc[i]
				case c.excl:
					want[i] = lsrc[i-1] + want[i-1]
				default:
					want[i] = lsrc[i] + want[i-1]
				}
			}
			err = ga.ScanAdd(src, dst, msk, c.lo, c.hi, c.excl)
		case opScanCopy:
			// Before the first mask bit of the range, 0 is written.
			var last T
			for i := c.lo; i <= c.hi; i++ {
				if lmsk[i] != zero {
					last = lsrc[i]
				}
				want[i] = last
			}
			err = ga.ScanCopy(src, dst, msk, c.lo, c.hi)
		}
		must(t, err)
		must(t, ga.Sync())
		got := make([]T, n)
		must(t, dst.Get([]int{0}, []int{n - 1}, got, nil))
		must(t, ga.Sync())
		sameElems(t, what, got, want)
		if count != wantCount {
			t.Errorf("%s: count %d, want %d", what, count, wantCount)
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// gatestingMaskN is the vectors' length in those ports (200000 in the
// originals, whose 735 cases take minutes per process count).
const gatestingMaskN = 1000

// checkPacked checks, on every process but 0, its block of c after the
// puts of GA's nbgetput programs: process 0 puts to the blocks of
// processes 1, 2, … in turn from one buffer, each block packed right after
// the one before, and element k of that buffer is val(k). Process 0's own
// block is not written and must still be zero.
func checkPacked(t *testing.T, what string, c *ga.Array[int32], val func(k int) int32) {
	t.Helper()
	me := ga.Nodeid()
	off := 0
	for p := 1; p < me; p++ {
		if lo, hi, own := c.Distribution(p); own {
			off += volume(lo, hi)
		}
	}
	lo, hi, own := c.Distribution(me)
	if !own {
		return
	}
	got := make([]int32, volume(lo, hi))
	must(t, c.Get(lo, hi, got, nil))
	want := make([]int32, len(got))
	if me != 0 {
		for k := range want {
			want[k] = val(off + k)
		}
	}
	sameElems(t, what, got, want)
}
