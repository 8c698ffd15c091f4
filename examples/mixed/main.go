// Command mixed runs GA and the program's own MPI code side by side: the
// world is split in two, the first half works on a global array of a
// processor group, the second half passes messages point to point, and
// the two results meet on process 0.
//
//	go build -o bin/mixed ./examples/mixed
//	./mpirun.sh -np 4 bin/mixed -n 1000000
//
// Both halves compute parts of the sum of i² for i in [0, n): the GA half
// fills an array of its group with i and takes its dot product with itself
// (ga.Dot); the MPI half sums its share on each process and passes a running
// total down a chain with Send and Recv. Process 0 adds the two, prints them
// and checks the total against (n−1)·n·(2n−1)/6; the program exits non-zero
// if it is wrong. On one process there is no MPI half, and GA does it all.
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

var n = flag.Int("n", 1000000, "sum i² for i below this")

func main() {
	flag.Parse()
	program.Main("mixed", 1, func() error { return run(os.Stdout) })
}

// The message tags of the MPI half.
const (
	tagChain = iota + 1
	tagTotal
)

func run(out io.Writer) error {
	if err := ga.Init(); err != nil {
		return err
	}
	defer ga.Terminate()
	world := mpi.World()
	me, nproc, size := world.Rank(), world.Size(), int64(*n)
	if size < 1 || size > 3_000_000 { // beyond, the sum overflows int64
		return fmt.Errorf("-n %d: want 1 to 3000000", size)
	}

	// The GA half is world ranks [0, gaProcs), the MPI half the rest; the
	// GA half sums i² over [0, split), the MPI half over [split, n).
	gaProcs := (nproc + 1) / 2
	split := size
	if gaProcs < nproc {
		split = size / 2
	}
	inGA := me < gaProcs
	ranks := make([]int, gaProcs)
	for r := range ranks {
		ranks[r] = r
	}
	// Collective over every GA process, those outside the group too.
	pg, err := ga.PgroupCreate(ranks)
	if err != nil {
		return err
	}
	// The two halves as communicators, for the MPI half's own messages.
	color := 0
	if !inGA {
		color = 1
	}
	half, err := world.Split(color, me)
	if err != nil {
		return err
	}
	defer half.Free()

	start := mpi.Wtime()
	var part int64
	if inGA {
		if part, err = sumByGA(pg, split); err != nil {
			return err
		}
	} else if part, err = sumByMPI(half, split, size); err != nil {
		return err
	}
	elapsed := mpi.Wtime() - start
	if err := pg.Destroy(); err != nil { // collective over the group
		return err
	}

	// The halves meet: the MPI half's last process sends its total to
	// process 0, which leads the GA half.
	if !inGA && half.Rank() == half.Size()-1 {
		if err := mpi.Send(world, []int64{part}, 0, tagTotal); err != nil {
			return err
		}
	}
	if me != 0 {
		return nil
	}
	other := []int64{0}
	if gaProcs < nproc {
		if _, err := mpi.Recv(world, other, nproc-1, tagTotal); err != nil {
			return err
		}
	}
	total, want := part+other[0], (size-1)*size*(2*size-1)/6
	fmt.Fprintf(out, "GA on %d processes: Σ i² over [0, %d) = %d\n", gaProcs, split, part)
	fmt.Fprintf(out, "MPI on %d processes: Σ i² over [%d, %d) = %d\n", nproc-gaProcs, split, size, other[0])
	fmt.Fprintf(out, "total %d in %.3f ms (closed form %d)\n", total, elapsed*1e3, want)
	if total != want {
		return fmt.Errorf("total %d, want %d", total, want)
	}
	return nil
}

// sumByGA returns Σ i² for i in [0, m) on the group's processes: an array
// of the group holds i at i, and its dot product with itself is the sum.
func sumByGA(pg *ga.Pgroup, m int64) (int64, error) {
	x, err := ga.New[int64](int(m)).Name("x").Pgroup(pg).Allocate()
	if err != nil {
		return 0, err
	}
	defer x.Destroy()
	// Each process fills its own block in place.
	data, lo, hi, _, ok, err := x.AccessLocal()
	if err != nil {
		return 0, err
	}
	if ok {
		for i := lo[0]; i <= hi[0]; i++ {
			data[i-lo[0]] = int64(i)
		}
	}
	if err := pg.Sync(); err != nil {
		return 0, err
	}
	return ga.Dot(x, x) // collective over the group
}

// sumByMPI returns, on the last process of c, Σ i² for i in [from, to):
// each process sums every c.Size()-th i, then the partial sums run down the
// chain of ranks, each adding its own.
func sumByMPI(c *mpi.Comm, from, to int64) (int64, error) {
	r, q := c.Rank(), c.Size()
	var mine int64
	for i := from + int64(r); i < to; i += int64(q) {
		mine += i * i
	}
	before := []int64{0}
	if r > 0 {
		if _, err := mpi.Recv(c, before, r-1, tagChain); err != nil {
			return 0, err
		}
	}
	mine += before[0]
	if r < q-1 {
		return mine, mpi.Send(c, []int64{mine}, r+1, tagChain)
	}
	return mine, nil
}
