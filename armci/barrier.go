package armci

import (
	"math"
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
//
// It also reduces a few values by maximum on the way (BarrierMax), in two sets
// of words used by alternate generations: a set is reset by the last rank to
// arrive at the next generation's barrier, when every rank has read it.
type shmBarrier struct {
	win   *mpi.Win
	count *uint32 // ranks arrived in this generation
	gen   *uint32 // bumped by the last rank to arrive
	max   [2]*[MaxReduce]int64
	size  uint32
}

// MaxReduce is how many values one BarrierMax reduces.
const MaxReduce = 4

// newShmBarrier makes the barrier's window; it is collective over c.
func newShmBarrier(c *mpi.Comm) (*shmBarrier, error) {
	size := 0
	if c.Rank() == 0 {
		size = 256 // cache lines: counter, generation, and the two sets of maxima
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
	for i := range b.max {
		b.max[i] = (*[MaxReduce]int64)(unsafe.Pointer(&mem[128+64*i]))
	}
	if c.Rank() == 0 {
		atomic.StoreUint32(b.count, 0)
		atomic.StoreUint32(b.gen, 0)
		resetMax(b.max[0])
		resetMax(b.max[1])
	}
	if err := c.Barrier(); err != nil {
		w.Free()
		return nil, err
	}
	return b, nil
}

func resetMax(m *[MaxReduce]int64) {
	for i := range m {
		atomic.StoreInt64(&m[i], math.MinInt64)
	}
}

// wait blocks until every rank has called it, and leaves in v (at most
// MaxReduce values, nil for none) the maximum of every rank's v. The atomic
// operations order every memory access before it (copies into peers'
// segments included) before every access after it on every rank.
func (b *shmBarrier) wait(v []int64) {
	g := atomic.LoadUint32(b.gen)
	m := b.max[g%2]
	for i, x := range v {
		for {
			old := atomic.LoadInt64(&m[i])
			if x <= old || atomic.CompareAndSwapInt64(&m[i], old, x) {
				break
			}
		}
	}
	if atomic.AddUint32(b.count, 1) == b.size {
		// Every rank has read the other set since it arrived here.
		resetMax(b.max[(g+1)%2])
		atomic.StoreUint32(b.count, 0)
		atomic.AddUint32(b.gen, 1)
		readMax(m, v)
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
	readMax(m, v)
}

func readMax(m *[MaxReduce]int64, v []int64) {
	for i := range v {
		v[i] = atomic.LoadInt64(&m[i])
	}
}

func (b *shmBarrier) free() error { return b.win.Free() }

// BarrierMax is Barrier that also leaves in v, on every process, the
// elementwise maximum of every process's v (at most MaxReduce values). It is
// how a collective call agrees on its arguments and on errors at the cost of
// the barrier it makes anyway: over shared memory a few more atomic
// operations, elsewhere an MPI_Allreduce in place of the MPI_Barrier.
func (rt *Runtime) BarrierMax(v []int64) error {
	if len(v) > MaxReduce {
		return argErr("BarrierMax", "v", "%d values; at most %d", len(v), MaxReduce)
	}
	if err := rt.AllFence(); err != nil {
		return err
	}
	return rt.AllMax(v)
}

// AllMax is BarrierMax without the fence: every process waits for the others
// and gets the maximum of their v, but operations in flight stay in flight.
func (rt *Runtime) AllMax(v []int64) error {
	if len(v) > MaxReduce {
		return argErr("AllMax", "v", "%d values; at most %d", len(v), MaxReduce)
	}
	if rt.bar != nil {
		rt.bar.wait(v)
		return nil
	}
	if len(v) == 0 {
		return rt.comm.Barrier()
	}
	return mpi.Allreduce(rt.comm, nil, v, mpi.Max)
}
