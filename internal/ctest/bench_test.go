package ctest_test

import (
	"testing"

	"github.com/goga-hpc/goga/internal/ctest"
	"github.com/goga-hpc/goga/mpi"
)

// The overhead benchmarks time the same MPI calls made from Go through goga and
// made from C, in one run. Under mpirun every rank runs them, so the iteration
// count must be fixed (make bench-mpi passes -test.benchtime=200000x), or ranks
// would disagree on how many collectives to make.

func world(b *testing.B) *mpi.Comm {
	if _, err := mpi.Init(); err != nil {
		b.Fatal(err)
	}
	return mpi.World()
}

// BenchmarkCgoCrossing is one call of an empty C function from Go.
func BenchmarkCgoCrossing(b *testing.B) {
	for b.Loop() {
		ctest.Noop()
	}
}

func BenchmarkAllreduce8B(b *testing.B) {
	w := world(b)
	b.Run("go", func(b *testing.B) {
		in, out := []float64{1}, []float64{0}
		if err := w.Barrier(); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for range b.N {
			if err := mpi.Allreduce(w, in, out, mpi.Sum); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("c", func(b *testing.B) {
		ctest.BenchAllreduce(w.Handle(), b.N) // the whole loop in C: one crossing
	})
}

func BenchmarkPut8BFlush(b *testing.B) {
	w := world(b)
	win, err := mpi.WinAllocate(w, 8, 8)
	if err != nil {
		b.Fatal(err)
	}
	defer win.Free()
	if err := win.LockAll(0); err != nil {
		b.Fatal(err)
	}
	defer win.UnlockAll()
	target := (w.Rank() + 1) % w.Size()
	b.Run("go", func(b *testing.B) {
		v := []float64{1}
		for range b.N {
			if err := mpi.Put(win, v, target, 0); err != nil {
				b.Fatal(err)
			}
			if err := win.Flush(target); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("c", func(b *testing.B) {
		ctest.BenchPutFlush(win.Handle(), target, b.N)
	})
	if err := w.Barrier(); err != nil {
		b.Fatal(err)
	}
}
