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
	b.Run("get/row8B", func(b *testing.B) {
		for b.Loop() {
			a.Get([]int{3, 5}, []int{3, 5}, buf, nil)
		}
	})
	b.Run("acc/row8B", func(b *testing.B) {
		for b.Loop() {
			a.Acc([]int{3, 5}, []int{3, 5}, buf, nil, 1)
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
	c, err := ga.Create[int64]("counter", []int{1}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("readinc", func(b *testing.B) {
		for b.Loop() {
			c.ReadInc([]int{0}, 1)
		}
	})
}

// BenchmarkMessages times Gop and Brdcst of one element on one rank (the
// cost of a call above its synchronization), and Create and Destroy of a
// 100 × 100 array.
func BenchmarkMessages(b *testing.B) {
	if err := ga.Init(); err != nil {
		b.Fatal(err)
	}
	defer ga.Terminate()
	x := []float64{1}
	b.Run("dgop", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ga.Gop(x, ga.OpSum)
		}
	})
	b.Run("brdcst", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ga.Brdcst(x, 0)
		}
	})
	b.Run("create_destroy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			a, err := ga.Create[float64]("t", []int{100, 100}, nil)
			if err != nil {
				b.Fatal(err)
			}
			if err := a.Destroy(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkLuSolve times LuSolve of n = 1000 on one rank: the copies in and
// out of ScaLAPACK's layout and the solve.
func BenchmarkLuSolve(b *testing.B) {
	if err := ga.Init(); err != nil {
		b.Fatal(err)
	}
	defer ga.Terminate()
	const n = 1000
	a, _ := ga.Create[float64]("A", []int{n, n}, nil)
	r, _ := ga.Create[float64]("b", []int{n, 1}, nil)
	for b.Loop() {
		a.Fill(1)
		data, lo, hi, ld, _, _ := a.AccessLocal()
		for i := lo[0]; i <= hi[0]; i++ {
			data[(i-lo[0])*ld[0]+i-lo[1]] += n
		}
		r.Fill(1)
		if err := ga.LuSolve(ga.NoTrans, a, r); err != nil {
			b.Fatal(err)
		}
	}
}
