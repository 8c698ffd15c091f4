package armci

import (
	"sync/atomic"
	"unsafe"
)

// Linux enters a page of shared memory into a process's page tables when the
// process first touches it. A read fault enters the whole aligned window
// around the page (fault_around_bytes, 64 KiB by default), a write fault on a
// shared mapping only its own 4 KiB page. So the first put into a peer's
// part takes a fault every 4 KiB and the first get one every 64 KiB: a first
// 8 MiB put took 3.6-4.4 ms here (the next ones 0.35-0.6), and armcibench's
// 8 MiB put, whose 23 repetitions start on pages that smaller puts had not
// reached, trailed its get by 40%. Reading one word of each window first
// takes a sixteenth of the faults: 0.35-0.5 ms, then 0.55-0.75 for the put.
// MADV_POPULATE_READ over the same 8 MiB took 0.8-0.9 ms (it enters one page
// at a time). MapIn enters a whole part the same way.
const faultWindow = 64 << 10

// entered records which fault windows of a peer's mapped part this process
// has read once, so that a large copy into them does not fault page by page.
// It is advice kept per process: where the kernel has since dropped a page,
// the copy faults it in as usual.
type entered struct {
	part  []byte
	first uintptr // the window of part[0]
	bits  []atomic.Uint64
}

func newEntered(part []byte) *entered {
	if len(part) == 0 {
		return nil
	}
	lo := uintptr(unsafe.Pointer(&part[0])) / faultWindow
	hi := (uintptr(unsafe.Pointer(&part[0])) + uintptr(len(part)) - 1) / faultWindow
	return &entered{part: part, first: lo, bits: make([]atomic.Uint64, (hi-lo)/64+1)}
}

// span enters the windows that part[off:off+n] touches and that this
// process has not read yet. A nil entered (this process's own part, which
// Malloc populated) has nothing to do.
func (e *entered) span(off, n int) {
	if e == nil || n <= 0 {
		return
	}
	base := unsafe.Pointer(&e.part[0])
	start := uintptr(base) + uintptr(off)
	for w, last := start/faultWindow, (start+uintptr(n)-1)/faultWindow; w <= last; w++ {
		i := w - e.first
		bit := uint64(1) << (i % 64)
		if e.bits[i/64].Load()&bit != 0 {
			continue
		}
		// The word that holds the span's first byte in the window, loaded
		// atomically so that the load is neither dropped nor a data race
		// with the owner's writes. Parts start on a page and are padded
		// to a multiple of 64 bytes (partSize), so the word lies in the
		// owner's memory even at a part's last byte.
		o := (max(w*faultWindow, start) - uintptr(base)) &^ 3
		atomic.LoadUint32((*uint32)(unsafe.Add(base, o)))
		e.bits[i/64].Or(bit)
	}
}

// strided enters the windows of a strided write at off of shape p when it
// is large enough for faults to matter and no gap between its blocks spans
// a whole window (every window of its extent then holds some of it, and is
// one the copy would fault in anyway).
func (e *entered) strided(off int, p Strided) {
	if e == nil || p.Bytes() < bigCopy {
		return
	}
	// extent is that of one block of the level below, as Strided.extent
	// builds it; the gap after such a block is the stride less it.
	extent := p.Count[0]
	for i, c := range p.Count[1:] {
		if c > 1 && p.RemoteStride[i]-extent >= faultWindow {
			return
		}
		extent += (c - 1) * p.RemoteStride[i]
	}
	e.span(off, extent)
}
