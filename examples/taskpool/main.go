// Command taskpool balances uneven work dynamically, GA's classic way: the
// next task's number comes from ReadInc on a counter in a global array, so
// a process that drew cheap tasks simply draws more.
//
//	go build -o bin/taskpool ./examples/taskpool
//	./mpirun.sh -np 4 bin/taskpool -tasks 500
//
// Task k sums 1..m(k), with m(k) ranging over a factor of 17, and records
// its result and a tick in two more global arrays by accumulate. The
// program prints how many tasks each process did and checks that every
// task was done exactly once with the right result; it exits non-zero if
// not.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/program"
	"github.com/goga-hpc/goga/mpi"
)

var tasks = flag.Int("tasks", 500, "number of tasks")

func main() {
	flag.Parse()
	program.Main("taskpool", 1, func() error { return run(os.Stdout) })
}

// cost is task k's size: uneven, and not in step with any process count.
func cost(k int) int64 { return 20000 * (1 + int64(k*k)%17) }

// work is task k itself, done the slow way on purpose.
func work(k int) int64 {
	var s int64
	for i := int64(1); i <= cost(k); i++ {
		s += i
	}
	return s
}

func run(out io.Writer) error {
	if err := ga.Init(); err != nil {
		return err
	}
	defer ga.Terminate()
	me, nproc, ntask := ga.Nodeid(), ga.Nnodes(), *tasks

	counter, err := ga.Create[int64]("counter", []int{1}, nil)
	if err != nil {
		return err
	}
	defer counter.Destroy()
	done, err := ga.Create[int64]("done", []int{ntask}, nil)
	if err != nil {
		return err
	}
	defer done.Destroy()
	result, err := done.Duplicate("result")
	if err != nil {
		return err
	}
	defer result.Destroy()
	for _, a := range []*ga.Array[int64]{counter, done, result} {
		if err := a.Zero(); err != nil { // Zero syncs: all are zero before anyone draws
			return err
		}
	}

	start := mpi.Wtime()
	mine := 0
	for {
		k, err := counter.ReadInc([]int{0}, 1) // atomic: no two processes draw the same k
		if err != nil {
			return err
		}
		if int(k) >= ntask {
			break
		}
		at := []int{int(k)}
		if err := result.Acc(at, at, []int64{work(int(k))}, nil, 1); err != nil {
			return err
		}
		if err := done.Acc(at, at, []int64{1}, nil, 1); err != nil {
			return err
		}
		mine++
	}
	elapsed := mpi.Wtime() - start
	if err := ga.Sync(); err != nil {
		return err
	}

	// How the work fell out, gathered to process 0.
	counts := make([]int64, nproc)
	counts[me] = int64(mine)
	if err := ga.Gop(counts, ga.OpSum); err != nil {
		return err
	}
	if me == 0 {
		fmt.Fprintf(out, "%d tasks on %d processes in %.3f s; tasks per process: %v\n", ntask, nproc, elapsed, counts)
		if err := check(out, done, result, counts); err != nil {
			return err
		}
	}
	return ga.Sync()
}

// check reads the ticks and results and says what is wrong, if anything.
func check(out io.Writer, done, result *ga.Array[int64], counts []int64) error {
	ntask := done.Dims()[0]
	ticks, sums := make([]int64, ntask), make([]int64, ntask)
	if err := done.Get([]int{0}, []int{ntask - 1}, ticks, nil); err != nil {
		return err
	}
	if err := result.Get([]int{0}, []int{ntask - 1}, sums, nil); err != nil {
		return err
	}
	bad := 0
	for k := range ntask {
		m := cost(k)
		if ticks[k] != 1 || sums[k] != m*(m+1)/2 {
			if bad < 5 {
				fmt.Fprintf(out, "task %d: done %d times, result %d, want once and %d\n", k, ticks[k], sums[k], m*(m+1)/2)
			}
			bad++
		}
	}
	var total int64
	for _, c := range counts {
		total += c
	}
	if bad > 0 || total != int64(ntask) {
		return fmt.Errorf("%d tasks wrong, %d done in all of %d", bad, total, ntask)
	}
	fmt.Fprintln(out, "every task done exactly once, with the right result")
	return nil
}
