package ga_test

import (
	"testing"

	"github.com/goga-hpc/goga/ga"
)

// BenchmarkPatch times one-sided patch operations on one rank (the parent
// process runs as a one-rank MPI job): GA's overhead above the copy itself.
func BenchmarkPatch(b *testing.B) {
	if err := ga.Init(); err != nil {
		b.Fatal(err)
	}
	defer ga.Terminate()
	a, err := ga.Create[float64]("bench", []int{1024, 1024}, nil)
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]float64, 1024*1024)
	b.Run("put/row8B", func(b *testing.B) {
		for b.Loop() {
			a.Put([]int{3, 5}, []int{3, 5}, buf, nil)
		}
	})
	b.Run("put/4x4", func(b *testing.B) {
		for b.Loop() {
			a.Put([]int{0, 0}, []int{3, 3}, buf, []int{4})
		}
	})
	b.Run("get/4x4", func(b *testing.B) {
		for b.Loop() {
			a.Get([]int{0, 0}, []int{3, 3}, buf, []int{4})
		}
	})
	b.Run("acc/4x4", func(b *testing.B) {
		for b.Loop() {
			a.Acc([]int{0, 0}, []int{3, 3}, buf, []int{4}, 1)
		}
	})
}
