// Command demo shows goga's MPI layer at work on any number of ranks:
//
//	./mpirun.sh -np 4 bin/demo
//
// Every rank reports its node; the world splits into even and odd ranks, which
// reduce among themselves; and each rank puts its rank into its right
// neighbour's RMA window, then reads its own window. Later versions of the demo
// solve a distributed linear system.
package main

import (
	"fmt"
	"os"

	"github.com/goga-hpc/goga/mpi"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "demo: rank %d: %v\n", mpi.World().Rank(), err)
		mpi.Abort(1)
	}
}

func run() error {
	level, err := mpi.Init()
	if err != nil {
		return err
	}
	defer mpi.Finalize()
	w := mpi.World()
	rank, size := w.Rank(), w.Size()

	// Who runs where: rank 0 gathers every node name.
	name, err := mpi.ProcessorName()
	if err != nil {
		return err
	}
	node, err := w.SplitType(mpi.SplitShared, 0)
	if err != nil {
		return err
	}
	defer node.Free()
	if err := report(w, fmt.Sprintf("rank %d of %d on %s (%d ranks on this node)", rank, size, name, node.Size())); err != nil {
		return err
	}
	if rank == 0 {
		fmt.Printf("thread level %v\n", level)
	}

	// Split into even and odd ranks and sum the world ranks within each part.
	part, err := w.Split(rank%2, rank)
	if err != nil {
		return err
	}
	defer part.Free()
	sum := []int{0}
	if err := mpi.Allreduce(part, []int{rank}, sum, mpi.Sum); err != nil {
		return err
	}
	if err := report(w, fmt.Sprintf("rank %d: %s ranks sum to %d over %d ranks", rank, []string{"even", "odd"}[rank%2], sum[0], part.Size())); err != nil {
		return err
	}

	// One-sided: put my rank into my right neighbour's window, then read mine.
	win, err := mpi.WinAllocate(w, 8, 8)
	if err != nil {
		return err
	}
	defer win.Free()
	if err := win.LockAll(0); err != nil {
		return err
	}
	right, left := (rank+1)%size, (rank-1+size)%size
	if err := mpi.Put(win, []int64{int64(100 + rank)}, right, 0); err != nil {
		return err
	}
	if err := win.Flush(right); err != nil {
		return err
	}
	if err := w.Barrier(); err != nil {
		return err
	}
	got := []int64{0}
	if err := mpi.Get(win, got, rank, 0); err != nil {
		return err
	}
	if err := win.Flush(rank); err != nil {
		return err
	}
	if err := win.UnlockAll(); err != nil {
		return err
	}
	if got[0] != int64(100+left) {
		return fmt.Errorf("window holds %d, want %d from rank %d", got[0], 100+left, left)
	}
	return report(w, fmt.Sprintf("rank %d: window holds %d, put there by rank %d", rank, got[0], left))
}

// report prints one line per rank, in rank order, from rank 0.
func report(w *mpi.Comm, line string) error {
	const width = 160
	buf := make([]byte, width)
	copy(buf, line)
	all := make([]byte, width*w.Size())
	if err := mpi.Gather(w, buf, all, 0); err != nil {
		return err
	}
	if w.Rank() == 0 {
		for r := range w.Size() {
			l := all[r*width : (r+1)*width]
			n := 0
			for n < width && l[n] != 0 {
				n++
			}
			fmt.Println(string(l[:n]))
		}
	}
	return nil
}
