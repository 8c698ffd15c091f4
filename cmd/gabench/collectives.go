package main

import (
	"fmt"
	"os"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/mpi"
)

// collectivesOnly is the argument that makes gabench time only the
// collectives of few bytes (collectivesBench).
const collectivesOnly = "-collectives"

func collectives() bool { return len(os.Args) > 1 && os.Args[1] == collectivesOnly }

// collectivesBench times what bench/ref/gacollbench.c times, under its
// names and in its order: each figure the mean of collN calls on every
// rank (a tenth of that for Create and Destroy), after a Sync. Brdcst of 8 bytes from rank 0, Gop of one element of
// every type and operation, Sync, Create and Destroy of a 100 × 100 array
// of float64, Brdcst, Gop and Sync on a processor group of every rank, and
// as limits the MPI calls they wrap, on ga's communicator. Started
// Unchecked (GOGA_UNCHECKED=1), ga's calls are those MPI calls.
func collectivesBench() error {
	d := []float64{1}
	if err := timeN("brdcst_8_us", func() error { return ga.Brdcst(d, 0) }); err != nil {
		return err
	}
	for _, op := range []ga.Op{ga.OpSum, ga.OpProd, ga.OpMax, ga.OpMin, ga.OpAbsMax, ga.OpAbsMin, ga.OpOr} {
		real, complex := op != ga.OpOr, op == ga.OpSum || op == ga.OpProd
		for _, f := range []func() error{
			gopTimer[int32]("i", op, true), gopTimer[int64]("l", op, true),
			gopTimer[float32]("f", op, real), gopTimer[float64]("d", op, real),
			gopTimer[complex64]("c", op, complex), gopTimer[complex128]("z", op, complex),
		} {
			if err := f(); err != nil {
				return err
			}
		}
	}
	if err := timeN("sync_us", ga.Sync); err != nil {
		return err
	}
	if err := timeCount("create_destroy_us", collN/10, func() error {
		a, err := ga.Create[float64]("t", []int{100, 100}, nil)
		if err != nil {
			return err
		}
		return a.Destroy()
	}); err != nil {
		return err
	}
	all := make([]int, ga.Nnodes())
	for r := range all {
		all[r] = r
	}
	p, err := ga.PgroupCreate(all)
	if err != nil {
		return err
	}
	for _, c := range []struct {
		name string
		f    func() error
	}{
		{"pgroup_brdcst_8_us", func() error { return ga.PgroupBrdcst(p, d, 0) }},
		{"pgroup_dgop_sum_us", func() error { return ga.PgroupGop(p, d, ga.OpSum) }},
		{"pgroup_sync_us", p.Sync},
		{"mpi_bcast_8_limit_us", func() error { return mpi.Bcast(ga.Comm(), d, 0) }},
		{"mpi_allreduce_8_limit_us", func() error { return mpi.Allreduce(ga.Comm(), nil, d, mpi.Sum) }},
		{"mpi_barrier_limit_us", ga.Comm().Barrier},
	} {
		if err := timeN(c.name, c.f); err != nil {
			return err
		}
	}
	return p.Destroy()
}

// collN is the number of calls each collective figure is the mean of.
const collN = 2000

// timeN prints the mean time of collN calls of f under metric, after a
// Sync.
func timeN(metric string, f func() error) error { return timeCount(metric, collN, f) }

// timeCount prints the mean time of n calls of f under metric, after a
// Sync.
func timeCount(metric string, n int, f func() error) error {
	if err := ga.Sync(); err != nil {
		return err
	}
	t := mpi.Wtime()
	for range n {
		if err := f(); err != nil {
			return fmt.Errorf("%s: %w", metric, err)
		}
	}
	emit(metric, ranks, (mpi.Wtime()-t)/float64(n)*1e6, "us")
	return nil
}

// gopTimer times Gop of one T with op as gop_<t>_<op>_us, where defined.
func gopTimer[T ga.Elem](t string, op ga.Op, defined bool) func() error {
	return func() error {
		if !defined {
			return nil
		}
		x := []T{1}
		return timeN(fmt.Sprintf("gop_%s_%s_us", t, opName[op]), func() error { return ga.Gop(x, op) })
	}
}

// opName spells op as gacollbench.c's metric names do.
var opName = map[ga.Op]string{ga.OpSum: "sum", ga.OpProd: "prod", ga.OpMax: "max", ga.OpMin: "min",
	ga.OpAbsMax: "absmax", ga.OpAbsMin: "absmin", ga.OpOr: "or"}
