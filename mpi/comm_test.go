package mpi_test

import (
	"testing"

	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

func TestWorld(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		w := mpi.World()
		n := w.Size()
		got := []int{0}
		if err := mpi.Allreduce(w, []int{w.Rank() + 1}, got, mpi.Sum); err != nil {
			t.Fatal(err)
		}
		if want := n * (n + 1) / 2; got[0] != want {
			t.Fatalf("Allreduce Sum of rank+1 = %d, want %d", got[0], want)
		}
	})
}
