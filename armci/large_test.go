package armci_test

import (
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestLargeTransfers: single transfers of a little over 2 GiB to and from one
// owner, on the MPI path. MPI counts are C ints, so the runtime has to split
// them; over shared memory they are plain copies. Rank 0 moves the data, rank
// 1 owns it. Each kind of splitting is tested here once at full size (a 2 GiB
// pass costs about a second here, and memory touched for the first time
// several); TestTransfersInPieces splits every call in small pieces.
func TestLargeTransfers(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		rt := mode{name: "mpi"}.init(t)
		testLarge(t, rt)
		must(t, rt.Finalize())
	}, mpitest.Ranks(2), mpitest.Timeout(3*time.Minute))
}

// TestTransfersInPieces runs the transfer tests on the MPI path with pieces of
// 16 bytes, so that every call, strided patches split at every level
// included, goes in several pieces as one of more than 1 GiB does.
func TestTransfersInPieces(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		defer armci.SetMaxPiece(16)()
		for _, c := range []struct {
			name string
			f    func(*testing.T, *armci.Runtime)
		}{
			{"PutGet", testPutGet}, {"Acc", testAcc}, {"Strided", testStrided}, {"StridedOdd", testStridedOdd},
			{"AccS", testAccS}, {"Vector", testVector}, {"NonBlocking", testNonBlocking},
		} {
			t.Run(c.name, func(t *testing.T) {
				rt := mode{name: "mpi"}.init(t)
				c.f(t, rt)
				must(t, rt.Finalize())
			})
		}
	}, mpitest.Ranks(2), bothTransports)
}

// The patch: rows of 1 MiB, dense in the local buffer; in the owner's part
// dense for contiguous and vector calls, and 64 bytes apart for strided ones.
const (
	bigRow  = 1 << 20
	bigRows = 2049             // 2^31 + 2^20 bytes in all
	bigGap  = 64               // between rows in the owner's part
	bigLen  = bigRows * bigRow // bytes moved by each call
	bigPart = bigRows * (bigRow + bigGap)
)

// bigVal is word i of the data with the given seed: distinct for every word
// and seed, so that a piece moved to the wrong place or twice shows.
func bigVal(seed, i int) int64 { return int64(i)*1_000_003 + int64(seed)<<48 }

func fillBig(buf []int64, seed int) {
	for i := range buf {
		buf[i] = bigVal(seed, i)
	}
}

// checkBig compares word i of got with mult·bigVal(seed, local(i)), or with
// 0 where local(i) < 0, and reports the first few differences by position.
func checkBig(t *testing.T, what string, got []int64, seed int, mult int64, local func(i int) int) {
	t.Helper()
	bad := 0
	for i, v := range got {
		want := int64(0)
		if l := local(i); l >= 0 {
			want = mult * bigVal(seed, l)
		}
		if v != want {
			if bad < 5 {
				t.Errorf("%s: word %d (byte %d) = %#x, want %#x", what, i, 8*i, v, want)
			}
			bad++
		}
	}
	if bad > 0 {
		fatalf(t, "%s: %d of %d words differ", what, bad, len(got))
	}
}

func dense(i int) int { return i }

// populate faults b's pages in with one call (MADV_POPULATE_WRITE, Linux
// 5.19): a page fault per 4 KiB page costs 5-10 µs on a virtual machine, about
// 3 s for the 2 GiB here, more than the transfers.
func populate(b []byte) {
	const madvPopulateWrite = 23
	page := uintptr(syscall.Getpagesize())
	start := uintptr(unsafe.Pointer(&b[0])) &^ (page - 1)
	end := uintptr(unsafe.Pointer(&b[0])) + uintptr(len(b))
	syscall.Syscall(syscall.SYS_MADVISE, start, end-start, madvPopulateWrite)
}

func testLarge(t *testing.T, rt *armci.Runtime) {
	me := rt.Rank()
	size := 0
	if me == 1 {
		size = bigPart
	}
	s := malloc(t, rt, size)
	var buf []int64
	t0 := time.Now()
	if me == 0 {
		buf = make([]int64, bigLen/8)
		populate(asBytes(buf))
	} else {
		populate(s.Local())
	}
	t.Logf("populate: %v", time.Since(t0))
	const W, rowW, partRowW = bigLen / 8, bigRow / 8, (bigRow + bigGap) / 8
	// step runs a transfer on rank 0, then the owner checks its part
	// (contiguous: the first bigLen bytes; strided: the rows, and zeros
	// between them) against mult times the data of seed.
	step := func(name string, seed int, mult int64, strided bool, move func() error) {
		start := time.Now()
		if me == 0 {
			fillBig(buf, seed)
			must(t, move())
		}
		must(t, rt.Barrier())
		if me == 1 {
			part := viewAs[int64](s.Local())
			if !strided {
				checkBig(t, name, part[:W], seed, mult, dense)
			} else {
				checkBig(t, name+" (rows)", part[:bigRows*partRowW], seed, mult, func(i int) int {
					if i%partRowW >= rowW {
						return -1
					}
					return i/partRowW*rowW + i%partRowW
				})
			}
		}
		must(t, rt.Barrier())
		t.Logf("%s: %v", name, time.Since(start).Round(time.Millisecond))
	}
	// get runs a read on rank 0 into a cleared buffer and checks it.
	get := func(name string, seed int, mult int64, move func() error) {
		start := time.Now()
		if me == 0 {
			clear(buf)
			must(t, move())
			checkBig(t, name, buf, seed, mult, dense)
		}
		must(t, rt.Barrier())
		t.Logf("%s: %v", name, time.Since(start).Round(time.Millisecond))
	}
	wait := func(h *armci.Handle, err error) error {
		if err != nil {
			return err
		}
		return h.Wait()
	}
	vec := []armci.IOVec{{Local: []int{0}, Remote: []int{0}, Bytes: bigLen}}
	p := armci.Strided{Count: []int{bigRow, bigRows}, LocalStride: []int{bigRow}, RemoteStride: []int{bigRow + bigGap}}

	// Accumulates with scale 1: a scaled copy of 2 GiB would be memory
	// touched for the first time (TestTransfersInPieces scales).
	step("Put", 1, 1, false, func() error { return armci.Put(s, 1, 0, buf) })
	get("Get", 1, 1, func() error { return armci.Get(s, 1, 0, buf) })
	step("Acc", 1, 2, false, func() error { return armci.Acc(s, 1, 0, buf, 1) })
	step("NbPut", 2, 1, false, func() error { return wait(armci.NbPut(s, 1, 0, buf)) })
	get("NbGet", 2, 1, func() error { return wait(armci.NbGet(s, 1, 0, buf)) })
	step("NbAcc", 2, 2, false, func() error { return wait(armci.NbAcc(s, 1, 0, buf, int64(1))) })
	step("PutV", 3, 1, false, func() error { return armci.PutV(s, 1, buf, vec) })
	get("NbGetV", 3, 1, func() error { return wait(armci.NbGetV(s, 1, buf, vec)) })
	if me == 1 {
		clear(s.Local()) // zeros between the rows
	}
	// Rank 0's rows must not land before the clearing: under load they
	// did, and were cleared.
	must(t, rt.Barrier())
	step("PutS", 4, 1, true, func() error { return armci.PutS(s, 1, 0, buf, p) })
	get("NbGetS", 4, 1, func() error { return wait(armci.NbGetS(s, 1, 0, buf, p)) })
	must(t, s.Free())
}
