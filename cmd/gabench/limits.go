package main

import (
	"github.com/goga-hpc/goga/armci"
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
func armciSide() error {
	rt, err := armci.Init(ga.Comm())
	if err != nil {
		return err
	}
	defer rt.Finalize()
	np, last := rt.Size(), rt.Size()-1
	seg, err := rt.Malloc(64)
	if err != nil {
		return err
	}
	for r := range np {
		if !seg.Mapped(r) {
			return nil
		}
	}
	buf := []float64{1}
	const it = 200000
	for _, op := range ops {
		if err := rt.Barrier(); err != nil {
			return err
		}
		if me == 0 {
			t := mpi.Wtime()
			for range it {
				switch op {
				case "put":
					err = armci.Put(seg, last, 0, buf)
				case "get":
					err = armci.Get(seg, last, 0, buf)
				default:
					err = armci.Acc(seg, last, 0, buf, 1.0)
				}
				if err != nil {
					return err
				}
			}
			if err := rt.Fence(last); err != nil {
				return err
			}
			emit("armci_"+op+"_contig_us", 8, (mpi.Wtime()-t)/it*1e6, "us")
		}
	}
	rate, err := bench.FetchAddAggregate(rt, 20000)
	if err != nil {
		return err
	}
	emit("armci_fetch_add_aggregate_Mops", np, rate/1e6, "Mop/s")
	return rt.Barrier()
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
