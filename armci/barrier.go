package armci

import (
	"math"
	"runtime"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"github.com/goga-hpc/goga/internal/agreement"
	"github.com/goga-hpc/goga/mpi"
)

// shmBarrier is a barrier in shared memory for runtimes whose ranks all share
// a node. It costs a few stores and loads of cache lines instead of an
// MPI_Barrier, whose cgo crossing and MPI_THREAD_MULTIPLE locking roughly
// doubled ARMCI's barrier time here.
//
// It is a dissemination barrier: in round k of ⌈log2 size⌉, each rank
// writes its episode number and the maxima it has so far (BarrierMax) into a
// cache line of the rank 2^k after it, and waits for the line that the rank
// 2^k before it writes into its own. After the last round every rank has
// heard, directly or not, from every other in this episode, with the
// maximum of all their values. Episodes alternate between two sets of
// lines: a rank can write the same line again two episodes later only once
// its reader has left the episode that read it. With two ranks a barrier is
// one line each way, written by one rank and read by the other; a counter
// and a generation word shared by all, as before, took a line through
// both ranks for each atomic operation on it, and one BarrierMax (three
// maxima for ga's agreement) 0.70-0.74 µs against 0.45 for GA C's
// MPI_Barrier.
//
// Each episode also gathers a header and a few bytes from every rank (see
// AllMaxReduce): a rank writes them into its gather slot of the episode's
// parity before the barrier, and every rank reads every slot after it. The slots of a
// parity are written again two episodes later, by a rank that has left
// the episode between, which every rank entered after reading.
type shmBarrier struct {
	win    *mpi.Win
	lines  []slot       // [parity][round][rank]
	slots  []gatherSlot // [parity][rank]
	rank   int
	size   int
	rounds int
	ep     uint64 // this rank's episodes so far
}

// GatherCap is the most bytes a process contributes to one AllMaxReduce or
// AllMaxBrdcst on one node.
const GatherCap = 1024

// gatherSlot is one rank's header (see reduction; 0 for a plain AllMax) and
// bytes of one parity's episodes.
type gatherSlot struct {
	h int64
	b [GatherCap]byte
	_ [64 - 8]byte
}

// slot is one rank's line of one round: the episode that wrote it last,
// then the maxima, each word alone atomic.
type slot struct {
	ep  atomic.Uint64
	max [MaxReduce]atomic.Int64
	_   [64 - 8 - 8*MaxReduce]byte
}

// MaxReduce is how many values one BarrierMax reduces.
const MaxReduce = agreement.MaxReduce

// newShmBarrier makes the barrier's window; it is collective over c.
func newShmBarrier(c *mpi.Comm) (*shmBarrier, error) {
	b := &shmBarrier{rank: c.Rank(), size: c.Size()}
	for 1<<b.rounds < b.size {
		b.rounds++
	}
	n := 2 * b.rounds * b.size
	lines := max(n, 1) * int(unsafe.Sizeof(slot{}))
	size := 0
	if c.Rank() == 0 {
		size = lines + 2*b.size*int(unsafe.Sizeof(gatherSlot{}))
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
	b.win, b.lines = w, unsafe.Slice((*slot)(unsafe.Pointer(&mem[0])), n)
	b.slots = unsafe.Slice((*gatherSlot)(unsafe.Pointer(&mem[lines])), 2*b.size)
	if c.Rank() == 0 {
		for i := range b.lines {
			b.lines[i].ep.Store(0)
		}
	}
	if err := c.Barrier(); err != nil {
		w.Free()
		return nil, err
	}
	return b, nil
}

// line is rank's line in round k of the episodes of parity par.
func (b *shmBarrier) line(par, k, rank int) *slot {
	return &b.lines[(par*b.rounds+k)*b.size+rank]
}

// wait blocks until every rank has called it, and leaves in v (at most
// MaxReduce values, nil for none, as many on every rank) the maximum of
// every rank's v. The atomic operations order every memory access before it (copies into peers'
// segments included) before every access after it on every rank.
func (b *shmBarrier) wait(v []int64) {
	var cur [MaxReduce]int64
	for i := range cur {
		cur[i] = math.MinInt64
	}
	copy(cur[:], v)
	b.ep++
	ep, par := b.ep, int(b.ep%2)
	for k := range b.rounds {
		to := b.line(par, k, (b.rank+1<<k)%b.size)
		for i, x := range cur {
			to.max[i].Store(x)
		}
		to.ep.Store(ep)
		in := b.line(par, k, b.rank)
		spinUntil(func() bool { return in.ep.Load() == ep })
		for i := range cur {
			cur[i] = max(cur[i], in.max[i].Load())
		}
	}
	copy(v, cur[:])
}

// gather is wait that also leaves every rank's header h and mine (at most
// GatherCap bytes) in its slot of the episode, and returns the episode's
// slots, to be read before the next episode.
func (b *shmBarrier) gather(v []int64, h int64, mine []byte) []gatherSlot {
	par := int((b.ep + 1) % 2)
	own := &b.slots[par*b.size+b.rank]
	own.h = h
	copy(own.b[:], mine)
	b.wait(v) // its atomic operations publish the slot
	return b.slots[par*b.size : (par+1)*b.size]
}

// spinUntil returns when done does. It spins first (a yield costs a
// microsecond on this kind of virtual machine, more than the whole
// barrier), then gives the core away: with more ranks than cores the rank
// everyone waits for may need it. After a while it sleeps, so that a long
// wait (a rank computing) costs little.
func spinUntil(done func() bool) {
	var start time.Time
	for i := 0; !done(); i++ {
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
// It is the collective of AllMaxReduce and AllMaxBrdcst (see reduce.go),
// which a process may call at the same point instead; with v empty it is a
// plain barrier.
func (rt *Runtime) AllMax(v []int64) error {
	if len(v) > MaxReduce {
		return argErr("AllMax", "v", "%d values; at most %d", len(v), MaxReduce)
	}
	if rt.bar != nil {
		rt.bar.gather(v, 0, nil)
		return nil
	}
	if len(v) == 0 && !rt.exchanges {
		return rt.comm.Barrier()
	}
	_, err := rt.allMaxWith("AllMax", v, 0, nil, nil)
	return err
}
