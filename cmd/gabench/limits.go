package main

import (
	"fmt"
	"math/bits"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"
	"time"
	"unsafe"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/cgo"
	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/bench"
	"github.com/goga-hpc/goga/mpi"
)

// armciSide times, in the same run as ga's figures, what ga's small
// transfers and ReadInc stand on: armci's 8-byte put, get and accumulate
// from rank 0 into the last rank's part of a segment, and fetch-and-add by
// every rank on one counter of the last rank, through an armci runtime of
// its own on ga's communicator. The names and patterns are cmd/armcibench's.
// Only where every process maps every part (one node; the same verdict on
// every process): across nodes the second runtime's active-message server
// would compete with ga's, and cmd/armcibench measures armci there.
type armciSide struct {
	rt   *armci.Runtime
	seg  *armci.Segment
	last int
}

// side is the run's armciSide, or nil across nodes.
var side *armciSide

// openArmciSide starts the armci runtime of the side-by-side figures, or
// returns nil where not every part is mapped. It is collective.
func openArmciSide() (*armciSide, error) {
	rt, err := armci.Init(ga.Comm())
	if err != nil {
		return nil, err
	}
	seg, err := rt.Malloc(64)
	if err == nil && !seg.SharedMemory() {
		err = rt.Finalize()
		return nil, err
	}
	if err != nil {
		rt.Finalize()
		return nil, err
	}
	return &armciSide{rt: rt, seg: seg, last: rt.Size() - 1}, nil
}

// small times it 8-byte transfers of op through armci on rank 0, from the
// same buffer as ga's figure just before, which it follows with the same
// count: the two see the same loop, the same alignment and the same state.
func (s *armciSide) small(op string, it int, buf []float64) error {
	if s == nil || me != 0 {
		return nil
	}
	buf = buf[:1]
	var err error
	t := mpi.Wtime()
	for range it {
		switch op {
		case "put":
			err = armci.Put(s.seg, s.last, 0, buf)
		case "get":
			err = armci.Get(s.seg, s.last, 0, buf)
		default:
			err = armci.Acc(s.seg, s.last, 0, buf, 1.0)
		}
		if err != nil {
			return err
		}
	}
	if err := s.rt.Fence(s.last); err != nil {
		return err
	}
	emit("armci_"+op+"_contig_us", 8, (mpi.Wtime()-t)/float64(it)*1e6, "us")
	return nil
}

// fetchAdd times fetch-and-add by every rank on one counter, with
// read_inc's count, and ends the runtime. It is collective.
func (s *armciSide) fetchAdd() error {
	if s == nil {
		return nil
	}
	rate, err := bench.FetchAddAggregate(s.rt, 20000)
	if err != nil {
		return err
	}
	emit("armci_fetch_add_aggregate_Mops", s.rt.Size(), rate/1e6, "Mop/s")
	if err := s.rt.Barrier(); err != nil {
		return err
	}
	return s.rt.Finalize()
}

// memcpyLimit times, on rank 0 while the others wait, a plain copy of 8
// MiB between two buffers of one process: the limit of an 8 MiB put.
func memcpyLimit() error {
	if me == 0 {
		const n, reps = 8 << 20, 50
		src, dst := make([]byte, n), make([]byte, n)
		for i := range src {
			src[i] = byte(i)
		}
		copy(dst, src) // both faulted in
		t := mpi.Wtime()
		for range reps {
			copy(dst, src)
		}
		emit("put_memcpy_limit_MBps", n, n*reps/(mpi.Wtime()-t)/1e6, "MB/s")
	}
	return ga.Sync()
}

// blasLimitEnv marks gabench's own child process that measures the BLAS.
const blasLimitEnv = "GOGA_GABENCH_BLAS_LIMIT"

// dgemmLimit prints dgemm_limit_GFlops: the linked BLAS's own dgemm in one
// process with as many threads as the job had ranks (at most the cores),
// the most the ranks' distributed product could reach on their cores. It
// runs after the job has ended, as a child process of rank 0, so that no
// rank competes for the cores and the BLAS reads its thread count from the
// environment as it starts (OPENBLAS_NUM_THREADS; other BLAS libraries have
// their own variables and may ignore it). It is a figure of one node.
func dgemmLimit() error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	// mpirun bound this rank to one core and a child inherits its thread's
	// binding, with which the BLAS would count one core and start one
	// thread: the child gets every core instead (runtime.NumCPU counted
	// the binding too, when this process started).
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var mask [16]uint64 // cpu_set_t: 1024 CPUs
	for i := range mask {
		mask[i] = ^uint64(0)
	}
	if _, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, 0, unsafe.Sizeof(mask), uintptr(unsafe.Pointer(&mask))); errno != 0 {
		return fmt.Errorf("unbinding for the BLAS's limit: %v", errno)
	}
	if _, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, 0, unsafe.Sizeof(mask), uintptr(unsafe.Pointer(&mask))); errno != 0 {
		return fmt.Errorf("reading the cores for the BLAS's limit: %v", errno)
	}
	cores := 0
	for _, w := range mask {
		cores += bits.OnesCount64(w)
	}
	threads := strconv.Itoa(min(ranks, cores))
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), blasLimitEnv+"=1", "OPENBLAS_NUM_THREADS="+threads, "OMP_NUM_THREADS="+threads)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run()
}

// blasLimit is the child's work: the best of three products of each size
// after one untimed, in the sizes of dgemm_GFlops.
func blasLimit() {
	for _, n := range []int{1000, 2000} {
		a, b, c := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
		for i := range a {
			a[i], b[i] = 1, 1
		}
		cgo.Dgemm(n, a, b, c)
		best := 0.0
		for range 3 {
			t := time.Now()
			cgo.Dgemm(n, a, b, c)
			best = max(best, 2*float64(n)*float64(n)*float64(n)/time.Since(t).Seconds()/1e9)
		}
		if c[0] != float64(n) {
			fmt.Fprintf(os.Stderr, "gabench: the BLAS's product has %v where %d belongs\n", c[0], n)
			os.Exit(1)
		}
		fmt.Printf("%s\t%d\t%.4g\t%s\n", "dgemm_limit_GFlops", n, best, "GF/s")
	}
}
