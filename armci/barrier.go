package armci

import (
	"runtime"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"github.com/goga-hpc/goga/mpi"
)

// shmBarrier is a barrier in shared memory for runtimes whose ranks all share
// a node: a counter and a generation word on rank 0's cache lines. It costs a
// few atomic operations instead of an MPI_Barrier, whose cgo crossing and
// MPI_THREAD_MULTIPLE locking roughly doubled ARMCI's barrier time here.
type shmBarrier struct {
	win   *mpi.Win
	count *uint32 // ranks arrived in this generation
	gen   *uint32 // bumped by the last rank to arrive
	size  uint32
}

// newShmBarrier makes the barrier's window; it is collective over c.
func newShmBarrier(c *mpi.Comm) (*shmBarrier, error) {
	size := 0
	if c.Rank() == 0 {
		size = 128 // two cache lines: counter and generation apart
	}
	w, err := mpi.WinAllocateShared(c, size, 1)
	if err != nil {
		return nil, err
	}
	mem, err := mpi.SharedQuery[byte](w, 0)
	if err != nil {
		w.Free()
		return nil, err
	}
	b := &shmBarrier{win: w, count: (*uint32)(unsafe.Pointer(&mem[0])), gen: (*uint32)(unsafe.Pointer(&mem[64])), size: uint32(c.Size())}
	if c.Rank() == 0 {
		atomic.StoreUint32(b.count, 0)
		atomic.StoreUint32(b.gen, 0)
	}
	if err := c.Barrier(); err != nil {
		w.Free()
		return nil, err
	}
	return b, nil
}

// wait blocks until every rank has called it. The atomic operations order
// every memory access before it (copies into peers' segments included) before
// every access after it on every rank.
func (b *shmBarrier) wait() {
	g := atomic.LoadUint32(b.gen)
	if atomic.AddUint32(b.count, 1) == b.size {
		atomic.StoreUint32(b.count, 0)
		atomic.AddUint32(b.gen, 1)
		return
	}
	// Spin first (a yield costs a microsecond on this kind of virtual machine,
	// more than the whole barrier), then give the core away: with more ranks
	// than cores the rank everyone waits for may need it. After a while, sleep,
	// so that a long wait (a rank computing) costs little.
	var start time.Time
	for i := 0; atomic.LoadUint32(b.gen) == g; i++ {
		if i < 1<<14 {
			continue
		}
		if start.IsZero() {
			start = time.Now()
		}
		if time.Since(start) < 10*time.Millisecond {
			runtime.Gosched() // let this process's other goroutines (progress) run
			syscall.Syscall(syscall.SYS_SCHED_YIELD, 0, 0, 0)
		} else {
			time.Sleep(50 * time.Microsecond)
		}
	}
}

func (b *shmBarrier) free() error { return b.win.Free() }
