package armci_test

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestFirstWriteFaults: the first large write into a peer's part that this
// process maps enters the part's pages a fault window (64 KiB) at a time,
// not a 4 KiB page at a time (pages.go). Rank 0 counts its minor faults
// around each write into a fresh segment of rank 1's, which then checks the
// data. A strided write whose rows lie windows apart enters nothing more
// than its rows. On two nodes rank 1's part is not mapped: the data is
// checked and the faults are not counted.
func TestFirstWriteFaults(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		rt := mode{name: "shm", shm: true}.init(t)
		defer func() { must(t, rt.Finalize()) }()
		const part = 8 << 20
		const pages = part / 4096
		cases := []struct {
			name string
			// p is the write's shape in the part (nil: contiguous, all of it);
			// maxFaults bounds rank 0's faults during it.
			p         *armci.Strided
			direct    bool
			mapIn     bool // MapIn(1) first, its faults counted apart
			maxFaults int64
		}{
			{name: "Put", maxFaults: pages / 4},
			{name: "Direct", direct: true, maxFaults: pages / 4},
			{name: "MapIn+Put", mapIn: true, maxFaults: 16},
			// 256 rows of 16 KiB, 32 KiB apart: 1024 pages written, 128 windows.
			{name: "PutS/dense", p: &armci.Strided{Count: []int{16 << 10, 256}, LocalStride: []int{16 << 10}, RemoteStride: []int{32 << 10}}, maxFaults: 1024 / 2},
			// 8 rows of 8 KiB, 1 MiB apart: 16 pages written; entering the
			// whole extent would read 113 windows.
			{name: "PutS/sparse", p: &armci.Strided{Count: []int{8 << 10, 8}, LocalStride: []int{8 << 10}, RemoteStride: []int{1 << 20}}, maxFaults: 64},
		}
		src := make([]byte, part)
		for i := range src {
			src[i] = byte(i*13 + 5)
		}
		for _, c := range cases {
			size := 0
			if rt.Rank() == 1 {
				size = part
			}
			s := malloc(t, rt, size)
			copy(s.Local(), pattern(rt.Rank(), size))
			must(t, rt.Barrier())
			if rt.Rank() == 0 {
				runtime.LockOSThread()
				before := threadFaults(t)
				if c.mapIn {
					must(t, s.MapIn(1))
					faults := threadFaults(t) - before
					if s.Mapped(1) && faults > pages/4 {
						t.Errorf("MapIn of a fresh 8 MiB part took %d minor faults, want at most %d", faults, pages/4)
					}
					before = threadFaults(t)
				}
				switch {
				case c.direct:
					d, ok := armci.DirectTo[int64](s, 1)
					if ok {
						d.Put(0, viewAs[int64](src))
					} else {
						must(t, armci.Put(s, 1, 0, src))
					}
				case c.p != nil:
					must(t, armci.PutS(s, 1, 0, src, *c.p))
				default:
					must(t, armci.Put(s, 1, 0, src))
				}
				faults := threadFaults(t) - before
				runtime.UnlockOSThread()
				if s.Mapped(1) {
					t.Logf("%s: %d minor faults", c.name, faults)
					if faults > c.maxFaults {
						t.Errorf("%s: the first write of a fresh 8 MiB part took %d minor faults, want at most %d", c.name, faults, c.maxFaults)
					}
				}
			}
			must(t, rt.Barrier())
			if rt.Rank() == 1 {
				checkWritten(t, c.name, s.Local(), src, c.p)
			}
			must(t, rt.Barrier())
			must(t, s.Free())
		}
	}, mpitest.Ranks(2))
}

// threadFaults is the calling thread's count of minor page faults.
func threadFaults(t *testing.T) int64 {
	const rusageThread = 1
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		t.Fatalf("getrusage: %v", err)
	}
	return ru.Minflt
}

// checkWritten compares rank 1's part with src written contiguously or in
// shape p, and the bytes between p's rows with the part's fill pattern.
func checkWritten(t *testing.T, what string, part, src []byte, p *armci.Strided) {
	t.Helper()
	want := src
	if p != nil {
		want = pattern(1, len(part))
		n := p.Count[0]
		for i := range p.Count[1] {
			copy(want[i*p.RemoteStride[0]:i*p.RemoteStride[0]+n], src[i*p.LocalStride[0]:])
		}
	}
	sameBytes(t, what, part, want)
}

// TestHugeParts: this process's part, where it lies in private memory (MPI's
// allocation for a part reached by active messages or RMA), is backed by
// transparent huge pages wherever the kernel gives them on request: a
// multiply over three 16 MiB arrays ran 20-30% faster on them here. A part
// in shared memory (tmpfs, for which this kernel gives none) is not checked.
func TestHugeParts(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		if thp, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil || strings.Contains(string(thp), "[never]") {
			t.Skipf("transparent huge pages off or unknown (%q, %v)", thp, err)
		}
		for _, m := range modes() {
			t.Run(m.name, func(t *testing.T) {
				rt := m.init(t)
				const size = 8 << 20
				s := malloc(t, rt, size)
				part := s.Local()
				private, huge := partMemory(t, part)
				if private && huge < 2<<20 {
					t.Errorf("rank %d: its %d-byte part in private memory has %d bytes of huge pages, want at least one 2 MiB page", rt.Rank(), size, huge)
				}
				must(t, s.Free())
				must(t, rt.Finalize())
			})
		}
	}, bothTransports)
}

// partMemory reads /proc/self/smaps for the mappings b lies in: whether they
// are all private anonymous memory, and their bytes of huge pages.
func partMemory(t *testing.T, b []byte) (private bool, huge int64) {
	f, err := os.ReadFile("/proc/self/smaps")
	must(t, err)
	lo := uint64(uintptr(unsafe.Pointer(unsafe.SliceData(b))))
	hi := lo + uint64(len(b))
	private, in := true, false
	for _, line := range strings.Split(string(f), "\n") {
		fs := strings.Fields(line)
		if len(fs) >= 5 && strings.Contains(fs[0], "-") && !strings.HasSuffix(fs[0], ":") {
			var start, end uint64
			if _, err := fmt.Sscanf(fs[0], "%x-%x", &start, &end); err != nil {
				continue
			}
			in = start < hi && end > lo
			if in && (len(fs) > 5 || !strings.HasSuffix(fs[1], "p")) {
				private = false
			}
			continue
		}
		if in && len(fs) >= 2 && fs[0] == "AnonHugePages:" {
			kb, _ := strconv.ParseInt(fs[1], 10, 64)
			huge += kb << 10
		}
	}
	return private, huge
}
