// Package bench holds the measurements that cmd/armcibench and cmd/gabench
// make alike, so that their figures of the same name are the same thing.
package bench

import (
	"fmt"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/mpi"
)

// FetchAddAggregate has every process of rt add 1 to one int64 of the last
// process n times, and returns the operations of all processes per second,
// the total checked on the last process. It is collective over rt; the
// counter's segment lives until rt is finalized.
func FetchAddAggregate(rt *armci.Runtime, n int) (float64, error) {
	np := rt.Size()
	cnt, err := rt.Malloc(8)
	if err != nil {
		return 0, err
	}
	clear(cnt.Local())
	if err := rt.Barrier(); err != nil {
		return 0, err
	}
	t := mpi.Wtime()
	for range n {
		if _, err := armci.FetchAdd[int64](cnt, np-1, 0, 1); err != nil {
			return 0, err
		}
	}
	if err := rt.Barrier(); err != nil {
		return 0, err
	}
	rate := float64(n*np) / (mpi.Wtime() - t)
	if rt.Rank() == np-1 {
		total, err := armci.LocalAs[int64](cnt)
		if err != nil {
			return 0, err
		}
		if total[0] != int64(n*np) {
			return 0, fmt.Errorf("fetch_add total %d != %d", total[0], n*np)
		}
	}
	return rate, nil
}
