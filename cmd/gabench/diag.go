package main

import (
	"fmt"
	"math"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/mpi"
	"github.com/goga-hpc/goga/scalapack"
)

// diagStd times the symmetric eigenproblem of gabench.c, all pairs of the
// (2, -1) matrix of order 1000: DiagStd on arrays of the default
// distribution (diag_std_s, against GA C's GA_Diag_std_seq), DiagStd on
// BlockCyclicGrid arrays in ScaLAPACK's layout (diag_std_inplace_s), and
// scalapack.Syevd on a matrix built in place (scalapack_syevd_s), the floor
// of the other two, on the same grid and blocks as the in-place arrays.
func diagStd() error {
	const n = 1000
	tridiag := func(i, j int) float64 {
		switch i - j {
		case 0:
			return 2
		case 1, -1:
			return -1
		}
		return 0
	}
	want := 2 - 2*math.Cos(math.Pi/(n+1))
	rows, cols := solverGrid()
	for _, c := range []struct {
		metric string
		make   func(name string) (*ga.Array[float64], error)
	}{
		{"diag_std_s", func(name string) (*ga.Array[float64], error) { return ga.Create[float64](name, []int{n, n}, nil) }},
		{"diag_std_inplace_s", func(name string) (*ga.Array[float64], error) {
			return ga.New[float64](n, n).Name(name).BlockCyclicGrid([]int{solveBlock, solveBlock}, []int{cols, rows}).Allocate()
		}},
	} {
		a, err := c.make("ea")
		if err != nil {
			return err
		}
		v, err := c.make("ev")
		if err != nil {
			return err
		}
		if err := fillBlocks(a, tridiag); err != nil {
			return err
		}
		if err := ga.Sync(); err != nil {
			return err
		}
		t := mpi.Wtime()
		vals, err := ga.DiagStd(a, v)
		if err != nil {
			return err
		}
		if err := ga.Sync(); err != nil {
			return err
		}
		emit(c.metric, n, mpi.Wtime()-t, "s")
		if math.Abs(vals[0]-want) > 1e-9 {
			return fmt.Errorf("%s: eigenvalue 0 = %g, want %g", c.metric, vals[0], want)
		}
		if err := a.Destroy(); err != nil {
			return err
		}
		if err := v.Destroy(); err != nil {
			return err
		}
	}

	g, err := blacs.GridInit(ga.Comm(), blacs.RowMajor, rows, cols)
	if err != nil {
		return err
	}
	defer g.Exit()
	a, err := scalapack.NewMatrix[float64](g, n, n, solveBlock, solveBlock)
	if err != nil {
		return err
	}
	a.Fill(tridiag)
	if err := ga.Sync(); err != nil {
		return err
	}
	t := mpi.Wtime()
	vals, _, err := scalapack.Syevd(scalapack.Lower, a, nil)
	if err != nil {
		return err
	}
	if err := ga.Sync(); err != nil {
		return err
	}
	emit("scalapack_syevd_s", n, mpi.Wtime()-t, "s")
	if math.Abs(vals[0]-want) > 1e-9 {
		return fmt.Errorf("scalapack_syevd_s: eigenvalue 0 = %g, want %g", vals[0], want)
	}
	return nil
}

// fillBlocks sets every element this process stores to f of its indices,
// in place, block by block.
func fillBlocks(a *ga.Array[float64], f func(i, j int) float64) error {
	blocks := a.LocalBlocks()
	if !a.BlockCyclic() {
		blocks = []int{ga.Nodeid()}
	}
	for _, b := range blocks {
		lo, hi, ok := a.Distribution(b)
		if !ok || lo[0] > hi[0] || lo[1] > hi[1] {
			continue
		}
		var data []float64
		var ld []int
		var err error
		if a.BlockCyclic() {
			data, ld, err = a.AccessBlock(b)
		} else {
			data, ld, err = a.Access(lo, hi)
		}
		if err != nil {
			return err
		}
		for i := lo[0]; i <= hi[0]; i++ {
			for j := lo[1]; j <= hi[1]; j++ {
				data[(i-lo[0])*ld[0]+j-lo[1]] = f(i, j)
			}
		}
	}
	return nil
}
