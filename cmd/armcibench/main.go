// Command armcibench measures goga's armci package with the patterns and metric
// names of bench/ref/armcibench.c, the ARMCI-MPI reference, so that
// bench/ref/compare.sh can put the two side by side (make bench-armci):
//
//	./mpirun.sh -np 2 bin/armcibench [-noshm]
//
// It prints one TSV line per figure (metric, size, value, unit) from rank 0.
// Rank 0 drives all one-sided traffic into rank 1's part of the segment.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/bench"
	"github.com/goga-hpc/goga/mpi"
)

var noshm = flag.Bool("noshm", false, "move every transfer through MPI RMA, not shared memory")

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "armcibench:", err)
		mpi.Abort(1)
	}
}

var me int

func emit(metric string, size int, v float64, unit string) {
	if me == 0 {
		fmt.Printf("%s\t%d\t%.4g\t%s\n", metric, size, v, unit)
	}
}

func itersFor(bytes int) int {
	return min(max(200000000/(bytes+20000), 5), 20000)
}

func run() error {
	if _, err := mpi.Init(); err != nil {
		return err
	}
	defer mpi.Finalize()
	var opts []armci.Option
	if *noshm {
		opts = append(opts, armci.WithoutSharedMemory())
	}
	rt, err := armci.Init(mpi.World(), opts...)
	if err != nil {
		return err
	}
	defer rt.Finalize()
	me = rt.Rank()
	np := rt.Size()
	if np < 2 {
		return fmt.Errorf("run with 2 or more ranks")
	}

	const n = 1 << 20 // doubles per rank: 8 MiB
	seg, err := rt.Malloc(n * 8)
	if err != nil {
		return err
	}
	buf := make([]float64, n)
	for i := range buf {
		buf[i] = float64(i)
	}
	sizes := []int{1, 8, 64, 512, 4096, 32768, 262144, 1048576}
	ops := []string{"put", "get", "acc"}
	for op := range ops {
		for _, s := range sizes {
			bytes := s * 8
			it := itersFor(bytes)
			if err := rt.Barrier(); err != nil {
				return err
			}
			if me == 0 {
				b := buf[:s]
				t := mpi.Wtime()
				for range it {
					switch op {
					case 0:
						err = armci.Put(seg, 1, 0, b)
					case 1:
						err = armci.Get(seg, 1, 0, b)
					default:
						err = armci.Acc(seg, 1, 0, b, 1.0)
					}
					if err != nil {
						return err
					}
				}
				if err := rt.Fence(1); err != nil {
					return err
				}
				t = mpi.Wtime() - t
				emit("armci_"+ops[op]+"_contig_us", bytes, t/float64(it)*1e6, "us")
				emit("armci_"+ops[op]+"_contig_MBps", bytes, float64(bytes)*float64(it)/t/1e6, "MB/s")
			}
			if err := rt.Barrier(); err != nil {
				return err
			}
		}
	}
	// 2-D strided: a k×k block of doubles out of a 1024-wide row-major segment.
	for op := range ops {
		for _, k := range []int{4, 16, 64, 256, 1024} {
			bytes := k * k * 8
			it := itersFor(bytes)
			p := armci.Strided{Count: []int{k * 8, k}, LocalStride: []int{k * 8}, RemoteStride: []int{1024 * 8}}
			if err := rt.Barrier(); err != nil {
				return err
			}
			if me == 0 {
				b := buf[:k*k]
				t := mpi.Wtime()
				for range it {
					switch op {
					case 0:
						err = armci.PutS(seg, 1, 0, b, p)
					case 1:
						err = armci.GetS(seg, 1, 0, b, p)
					default:
						err = armci.AccS(seg, 1, 0, b, p, 1.0)
					}
					if err != nil {
						return err
					}
				}
				if err := rt.Fence(1); err != nil {
					return err
				}
				t = mpi.Wtime() - t
				emit("armci_"+ops[op]+"_2d_us", bytes, t/float64(it)*1e6, "us")
				emit("armci_"+ops[op]+"_2d_MBps", bytes, float64(bytes)*float64(it)/t/1e6, "MB/s")
			}
			if err := rt.Barrier(); err != nil {
				return err
			}
		}
	}
	// Fetch-and-add: every rank increments one int64 held by the last rank.
	rate, err := bench.FetchAddAggregate(rt, 20000)
	if err != nil {
		return err
	}
	emit("armci_fetch_add_aggregate_Mops", np, rate/1e6, "Mop/s")
	const bi = 2000
	if err := rt.Barrier(); err != nil {
		return err
	}
	t := mpi.Wtime()
	for range bi {
		if err := rt.Barrier(); err != nil {
			return err
		}
	}
	t = mpi.Wtime() - t
	emit("armci_barrier_us", np, t/bi*1e6, "us")
	return twoSided()
}
