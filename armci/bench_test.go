package armci_test

import (
	"fmt"
	"testing"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/mpi"
)

// BenchmarkLocal times the shared-memory path on one rank (go test -bench in
// the parent process runs as a one-rank MPI job): what an operation costs
// before any other process is involved.
func BenchmarkLocal(b *testing.B) {
	if _, err := mpi.Init(); err != nil {
		b.Fatal(err)
	}
	rt, err := armci.Init(mpi.World())
	if err != nil {
		b.Fatal(err)
	}
	defer rt.Finalize()
	seg, err := rt.Malloc(1 << 20)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("fetchadd", func(b *testing.B) {
		for b.Loop() {
			armci.FetchAdd[int64](seg, 0, 0, 1)
		}
	})
	for _, n := range []int{1, 64, 512, 4096} {
		buf := make([]float64, n)
		b.Run(fmt.Sprintf("put/%dB", 8*n), func(b *testing.B) {
			b.SetBytes(int64(8 * n))
			for b.Loop() {
				armci.Put(seg, 0, 0, buf)
			}
		})
		b.Run(fmt.Sprintf("acc/%dB", 8*n), func(b *testing.B) {
			b.SetBytes(int64(8 * n))
			for b.Loop() {
				armci.Acc(seg, 0, 0, buf, 1.0)
			}
		})
	}
}
