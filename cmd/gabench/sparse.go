package main

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/mpi"
)

// sparseOnly is the argument that makes gabench time the sparse figures
// alone, and sparseLimitOnly their limits in one process without MPI, each
// on the grid the next argument gives (sparseGrid without one), for make
// bench-sparse to set the two side by side: Debian's GA C 5.8.2 has no
// sparse arrays in its C library, so no figure of bench/ref/gabench.c
// stands beside these.
const sparseOnly, sparseLimitOnly = "-sparse", "-sparse-limit"

// sparseGrid is the side of the 5-point Laplacian's grid: order 10⁶.
const sparseGrid = 1000

func sparse() bool      { return len(os.Args) > 1 && os.Args[1] == sparseOnly }
func sparseLimit() bool { return len(os.Args) > 1 && os.Args[1] == sparseLimitOnly }

// sparseGridArg is the grid of a -sparse or -sparse-limit run.
func sparseGridArg() (int, error) {
	if len(os.Args) < 3 {
		return sparseGrid, nil
	}
	n, err := strconv.Atoi(os.Args[2])
	if err != nil || n < 3 {
		return 0, fmt.Errorf("%s %s: want a grid side of 3 or more", os.Args[1], os.Args[2])
	}
	return n, nil
}

// Repetitions of the timed sparse products.
const matvecReps, matmatReps = 20, 3

// sparseBench times ga's sparse matrix on the 5-point Laplacian of a
// grid × grid grid (4 on the diagonal, -1 for each neighbour), each rank
// adding its own rows: AddElement and Assemble (sparse_assemble_s), MatVec by the vector
// of ones (sparse_matvec_s, per product), and MatMat of the matrix by
// itself (sparse_matmat_s, per product). It is collective.
func sparseBench() error {
	grid, err := sparseGridArg()
	if err != nil {
		return err
	}
	n := grid * grid
	s, err := ga.CreateSparse[float64](n, n)
	if err != nil {
		return err
	}
	defer s.Destroy()
	if err := ga.Sync(); err != nil {
		return err
	}
	t := mpi.Wtime()
	lo, hi := n*me/ranks, n*(me+1)/ranks-1 // roughly this rank's rows
	for r := lo; r <= hi; r++ {
		if err := laplaceRow(grid, r, s.AddElement); err != nil {
			return err
		}
	}
	if err := s.Assemble(); err != nil {
		return err
	}
	emit("sparse_assemble_s", n, mpi.Wtime()-t, "s")
	if err := sparseMatVec(s, n); err != nil {
		return err
	}
	return sparseMatMat(s, n)
}

// laplaceRow adds row r of the Laplacian through add, columns ascending.
func laplaceRow(grid, r int, add func(i, j int, v float64) error) error {
	x, y := r%grid, r/grid
	for _, c := range []struct {
		ok bool
		j  int
		v  float64
	}{{y > 0, r - grid, -1}, {x > 0, r - 1, -1}, {true, r, 4}, {x < grid-1, r + 1, -1}, {y < grid-1, r + grid, -1}} {
		if c.ok {
			if err := add(r, c.j, c.v); err != nil {
				return err
			}
		}
	}
	return nil
}

// sparseMatVec times MatVec and checks the product's corner, 4 - 2.
func sparseMatVec(s *ga.Sparse[float64], n int) error {
	x, err := ga.Create[float64]("x", []int{n}, nil)
	if err != nil {
		return err
	}
	defer x.Destroy()
	v, err := ga.Create[float64]("v", []int{n}, nil)
	if err != nil {
		return err
	}
	defer v.Destroy()
	if err := x.Fill(1); err != nil {
		return err
	}
	if err := s.MatVec(x, v); err != nil { // warm: the buffers
		return err
	}
	t := mpi.Wtime()
	for range matvecReps {
		if err := s.MatVec(x, v); err != nil {
			return err
		}
	}
	emit("sparse_matvec_s", n, (mpi.Wtime()-t)/matvecReps, "s")
	corner := []float64{0}
	if err := v.Get([]int{0}, []int{0}, corner, nil); err != nil {
		return err
	}
	if corner[0] != 2 {
		return fmt.Errorf("sparse_matvec_s: row 0 of the product %g, want 2", corner[0])
	}
	return nil
}

// sparseMatMat times MatMat and checks the square's corner, 4² + 2.
func sparseMatMat(s *ga.Sparse[float64], n int) error {
	var t float64
	for range matmatReps {
		if err := ga.Sync(); err != nil {
			return err
		}
		t0 := mpi.Wtime()
		c, err := s.MatMat(s)
		if err != nil {
			return err
		}
		t += mpi.Wtime() - t0
		d, err := c.Diag()
		if err != nil {
			return err
		}
		corner := []float64{0}
		err = d.Get([]int{0}, []int{0}, corner, nil)
		d.Destroy()
		c.Destroy()
		if err != nil {
			return err
		}
		if corner[0] != 18 {
			return fmt.Errorf("sparse_matmat_s: element (0, 0) of the square %g, want 18", corner[0])
		}
	}
	emit("sparse_matmat_s", n, t/matmatReps, "s")
	return nil
}

// seconds is the time in seconds, without MPI.
func seconds() float64 { return float64(time.Now().UnixNano()) / 1e9 }

// csrMatrix is a whole matrix in plain compressed sparse row form.
type csrMatrix struct {
	ptr, col []int
	val      []float64
}

// sparseLimits prints sparseBench's figures for the same work done by
// plain compressed sparse row loops over the whole matrix in this process
// alone: the matrix built from its rows, the products.
func sparseLimits() error {
	grid, err := sparseGridArg()
	if err != nil {
		return err
	}
	n := grid * grid
	t := seconds()
	a := csrMatrix{ptr: make([]int, 1, n+1)}
	for r := range n {
		laplaceRow(grid, r, func(_, j int, v float64) error {
			a.col, a.val = append(a.col, j), append(a.val, v)
			return nil
		})
		a.ptr = append(a.ptr, len(a.col))
	}
	emit("sparse_assemble_s", n, seconds()-t, "s")
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = 1
	}
	t = seconds()
	for range matvecReps {
		for r := range n {
			var acc float64
			for k := a.ptr[r]; k < a.ptr[r+1]; k++ {
				acc += a.val[k] * x[a.col[k]]
			}
			y[r] = acc
		}
	}
	emit("sparse_matvec_s", n, (seconds()-t)/matvecReps, "s")
	if y[0] != 2 {
		return fmt.Errorf("sparse_matvec_s limit: row 0 of the product %g, want 2", y[0])
	}
	t = seconds()
	var c csrMatrix
	for range matmatReps {
		c = a.square()
	}
	emit("sparse_matmat_s", n, (seconds()-t)/matmatReps, "s")
	if c.col[0] != 0 || c.val[0] != 18 {
		return fmt.Errorf("sparse_matmat_s limit: first element of the square (0, %d) = %g, want (0, 0) = 18", c.col[0], c.val[0])
	}
	return nil
}

// square is a·a by Gustavson's method, each row's columns sorted.
func (a csrMatrix) square() csrMatrix {
	n := len(a.ptr) - 1
	acc, mark := make([]float64, n), make([]int, n)
	for j := range mark {
		mark[j] = -1
	}
	c := csrMatrix{ptr: make([]int, 1, n+1)}
	var pat []int
	for r := range n {
		pat = pat[:0]
		for k := a.ptr[r]; k < a.ptr[r+1]; k++ {
			f, i := a.val[k], a.col[k]
			for m := a.ptr[i]; m < a.ptr[i+1]; m++ {
				j := a.col[m]
				if mark[j] != r {
					mark[j], acc[j] = r, 0
					pat = append(pat, j)
				}
				acc[j] += f * a.val[m]
			}
		}
		slices.Sort(pat)
		for _, j := range pat {
			c.col, c.val = append(c.col, j), append(c.val, acc[j])
		}
		c.ptr = append(c.ptr, len(c.col))
	}
	return c
}
