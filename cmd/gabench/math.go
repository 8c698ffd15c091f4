package main

import (
	"errors"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/mpi"
)

// collectiveMath times the whole-array and patch operations on 2048 × 2048
// arrays in the default distribution, as gabench.c does, and one pass over
// this process's part of memory doing what Add does (c = a + b on plain
// slices of the same size): the limit for the element-wise operations.
func collectiveMath() error {
	const n, reps = 2048, 10
	d := []int{n, n}
	a, err := ga.Create[float64]("ma", d, nil)
	if err != nil {
		return err
	}
	b, err := a.Duplicate("mb")
	if err != nil {
		return err
	}
	c, err := a.Duplicate("mc")
	if err != nil {
		return err
	}
	if err := a.Fill(2); err != nil {
		return err
	}
	if err := b.Fill(0.5); err != nil {
		return err
	}
	var dot, norm float64
	for _, m := range []struct {
		name string
		op   func() error
	}{
		{"add_us", func() error { return ga.Add(1, a, 1, b, c) }},
		{"ddot_us", func() error {
			s, err := ga.Dot(a, b)
			dot += s
			return err
		}},
		{"elem_multiply_us", func() error { return ga.ElemMultiply(a, b, c) }},
		{"transpose_us", func() error { return ga.Transpose(a, c) }},
		{"symmetrize_us", c.Symmetrize},
		{"norm1_us", func() error {
			s, err := a.Norm1()
			norm += s
			return err
		}},
		{"select_elem_us", func() error {
			_, _, err := a.SelectElem(ga.OpMax)
			return err
		}},
	} {
		if err := timeColl(m.name, n, reps, m.op); err != nil {
			return err
		}
	}
	if err := localPass(a, n, reps); err != nil {
		return err
	}
	// A 1024 × 1024 patch copied transposed into another place of another array.
	alo, ahi, blo, bhi := []int{100, 200}, []int{1123, 1223}, []int{900, 10}, []int{1923, 1033}
	if err := timeColl("copy_patch_t_us", 1024, reps, func() error { return ga.CopyPatch(ga.Trans, a, alo, ahi, b, blo, bhi) }); err != nil {
		return err
	}
	// The product of 1000 × 1000 patches at odd offsets, the same as
	// gabench.c's GA_Matmul_patch('N', 'N', ...): that call sees the arrays
	// in Fortran order, so in C order it is C' = B'·A' on the patches with
	// each range pair swapped (see MatmulPatch).
	const m = 1000
	if err := ga.Sync(); err != nil {
		return err
	}
	t := mpi.Wtime()
	if err := ga.MatmulPatch(ga.NoTrans, ga.NoTrans, 1.0, b, []int{3, 21}, []int{3 + m - 1, 21 + m - 1},
		a, []int{13, 7}, []int{13 + m - 1, 7 + m - 1}, 0.0, c, []int{50, 40}, []int{50 + m - 1, 40 + m - 1}); err != nil {
		return err
	}
	if err := ga.Sync(); err != nil {
		return err
	}
	emit("matmul_patch_GFlops", m, 2*float64(m)*float64(m)*float64(m)/(mpi.Wtime()-t)/1e9, "GF/s")
	for _, x := range []*ga.Array[float64]{a, b, c} {
		if err := x.Destroy(); err != nil {
			return err
		}
	}
	// Results are used, so that no call can be optimized away.
	if dot < 0 || norm < 0 {
		return errors.New("a negative dot product or norm of positive arrays")
	}
	return nil
}

// timeColl reports the mean time of reps calls of op between syncs.
func timeColl(name string, size, reps int, op func() error) error {
	if err := ga.Sync(); err != nil {
		return err
	}
	t := mpi.Wtime()
	for range reps {
		if err := op(); err != nil {
			return err
		}
	}
	if err := ga.Sync(); err != nil {
		return err
	}
	emit(name, size, (mpi.Wtime()-t)/float64(reps)*1e6, "us")
	return nil
}

// localPass times c = a + b over Go slices as large as this process's
// block of a, on every process between syncs, as Add's limit.
func localPass(a *ga.Array[float64], size, reps int) error {
	lo, hi, ok := a.Distribution(ga.Nodeid())
	n := 0
	if ok {
		n = (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1)
	}
	x, y, z := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i] = 2, 0.5
	}
	add := func() error {
		for i := range z {
			z[i] = x[i] + y[i]
		}
		return nil
	}
	add() // the pages are faulted in, as the arrays' are
	return timeColl("add_local_pass_us", size, reps, add)
}
