package armci

import (
	"slices"
	"sync"
	"syscall"
	"unsafe"

	"github.com/goga-hpc/goga/mpi"
)

// A segment's local part is handed out in place (Local, and ga's Access
// calls), and a program may keep such a slice past Free. Were the window
// freed at once, MPI would unmap its memory and the addresses would soon
// hold something else: the next segment, or the stack of a thread that the
// Go runtime starts while MPI_Win_free blocks (seen here). A write through
// the stale slice would land there, silently. So Free retires the window
// instead of freeing it: the whole pages of the part give their memory back
// and become inaccessible, and a stale access faults at once, with Go's
// "unexpected fault address" and a stack trace that names the line. (Bytes
// at the part's ends that share a page with other memory stay writable; they
// belong to the retired window, which nobody reads.)
//
// Retired windows are freed at Finalize, or, once more than maxRetired of
// them or maxRetiredBytes over all processes are retired on one
// communicator, the oldest of that communicator's at the Free that passed
// the limit. Every process of the communicator counts the same segments in
// the same order (Free is collective), so they free the same window together.
//
// A segment in one node's shared memory whose parts have the sizes of a
// retired window's, retired at least reviveAfter Frees ago on the same
// communicator, revives that window instead of allocating one (revive):
// programs create and destroy arrays of one shape in loops, and an
// MPI_Win_allocate_shared with its MPI_Win_free cost more than the rest of
// a Create and Destroy together. A stale slice is then caught for
// reviveAfter Frees instead of maxRetired.
const (
	maxRetired      = 64
	maxRetiredBytes = 1 << 40
	reviveAfter     = maxRetired / 2
)

type retiredWin struct {
	win   *mpi.Win
	comm  *mpi.Comm
	extra *mpi.Comm // freed after win (a node's communicator), or nil
	pages []byte    // the inaccessible pages, or nil
	bytes int       // the window's size over all its processes
	// sizes are the parts' sizes of a window that can be revived: one
	// node's shared memory, whose pages were removed (they read as zeros
	// when accessible again); nil for others.
	sizes []int
}

type retirement struct {
	mu      sync.Mutex
	wins    []retiredWin // in the order of retirement
	revived int          // windows revived so far (for tests)
}

// innerPages returns the whole pages inside p.
func innerPages(p []byte) []byte {
	if len(p) == 0 {
		return nil
	}
	page := uintptr(syscall.Getpagesize())
	base := unsafe.Pointer(unsafe.SliceData(p))
	lo := uintptr(base)
	start, end := (lo+page-1)&^(page-1), (lo+uintptr(len(p)))&^(page-1)
	if end <= start {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Add(base, start-lo)), end-start)
}

// retire keeps w, whose local part is local and whose parts over c add up to
// bytes, until Finalize or the limits above; then it frees w and extra (if
// not nil), a communicator that w needs until then. w's communicator may
// be c or, for a segment over several nodes, c's ranks on this node: every
// process of c retires the same segments in the same order, so each node's
// processes free their window together.
// sizes, where not nil, are the parts' sizes of a window in one node's
// shared memory, which a later segment may revive.
func (r *retirement) retire(w *mpi.Win, c *mpi.Comm, local []byte, bytes int, extra *mpi.Comm, sizes []int) error {
	pages := innerPages(local)
	if pages != nil {
		// Shared memory gives its pages back to the file system only when
		// removed; private memory when dropped.
		if syscall.Madvise(pages, syscall.MADV_REMOVE) != nil {
			sizes = nil // its pages may keep their bytes
			_ = syscall.Madvise(pages, syscall.MADV_DONTNEED)
		}
		if syscall.Mprotect(pages, syscall.PROT_NONE) != nil {
			pages, sizes = nil, nil
		}
	}
	r.mu.Lock()
	r.wins = append(r.wins, retiredWin{win: w, comm: c, extra: extra, pages: pages, bytes: bytes, sizes: sizes})
	var oldest []retiredWin
	for {
		n, sum, first := 0, 0, -1
		for i, x := range r.wins {
			if x.comm == c {
				n, sum = n+1, sum+x.bytes
				if first < 0 {
					first = i
				}
			}
		}
		if n <= 1 || (n <= maxRetired && sum <= maxRetiredBytes) {
			break
		}
		oldest = append(oldest, r.wins[first])
		r.wins = append(r.wins[:first:first], r.wins[first+1:]...)
	}
	r.mu.Unlock()
	return freeRetired(oldest)
}

// revivable returns which of c's retired windows (counted from the oldest)
// a segment with parts of sizes can revive, or -1. Every process of c
// finds the same one where every process's pages were removed alike; the
// caller agrees on it before revive.
func (r *retirement) revivable(c *mpi.Comm, sizes []int) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n, found := 0, -1
	for _, x := range r.wins {
		if x.comm != c {
			continue
		}
		if found < 0 && x.sizes != nil && slices.Equal(x.sizes, sizes) {
			found = n
		}
		n++
	}
	if found < 0 || n-found < reviveAfter {
		return -1
	}
	return found
}

// revive takes c's k-th retired window (counted from the oldest) out of
// retirement, its pages accessible again (they read as zeros).
func (r *retirement) revive(c *mpi.Comm, k int) (*mpi.Win, error) {
	r.mu.Lock()
	var x retiredWin
	for i, w := range r.wins {
		if w.comm != c {
			continue
		}
		if k == 0 {
			x = w
			r.wins = append(r.wins[:i:i], r.wins[i+1:]...)
			r.revived++
			break
		}
		k--
	}
	r.mu.Unlock()
	if x.win == nil {
		return nil, argErr("Malloc", "size", "no retired window to revive")
	}
	if x.pages != nil {
		if err := syscall.Mprotect(x.pages, syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
			return nil, err
		}
	}
	return x.win, nil
}

// freeAll frees every retired window, in the order they were retired.
func (r *retirement) freeAll() error {
	r.mu.Lock()
	wins := r.wins
	r.wins = nil
	r.mu.Unlock()
	return freeRetired(wins)
}

func freeRetired(wins []retiredWin) error {
	for _, x := range wins {
		// Accessible again first: MPI may hand private memory back to the C
		// heap, which writes its bookkeeping there.
		if x.pages != nil {
			if err := syscall.Mprotect(x.pages, syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
				return err
			}
		}
		if err := x.win.Free(); err != nil {
			return err
		}
		if x.extra != nil {
			if err := x.extra.Free(); err != nil {
				return err
			}
		}
	}
	return nil
}
