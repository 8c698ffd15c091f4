package main

import "math"

// csr is a sparse matrix in compressed sparse row form, the form of
// ga_cg's input file: row i's elements are val[rowptr[i]:rowptr[i+1]], in
// the columns col[rowptr[i]:rowptr[i+1]], ascending.
type csr struct {
	n           int
	rowptr, col []int
	val         []float64
}

// laplacian is the 5-point Laplacian of an m × m grid with zero
// (Dirichlet) boundary values, unknowns numbered row by row: 4 on the
// diagonal, −1 for each neighbour inside the grid. It is symmetric positive
// definite, with nz = 5m² − 4m.
func laplacian(m int) *csr {
	a := &csr{n: m * m, rowptr: make([]int, 0, m*m+1)}
	add := func(j int, v float64) { a.col, a.val = append(a.col, j), append(a.val, v) }
	for i := range m {
		for j := range m {
			r := i*m + j
			a.rowptr = append(a.rowptr, len(a.col))
			if i > 0 {
				add(r-m, -1)
			}
			if j > 0 {
				add(r-1, -1)
			}
			add(r, 4)
			if j < m-1 {
				add(r+1, -1)
			}
			if i < m-1 {
				add(r+m, -1)
			}
		}
	}
	a.rowptr = append(a.rowptr, len(a.col))
	return a
}

// residual returns ‖b − A·x‖ for b = 1, serially, from the matrix's own
// rows: the check that shares no code with the distributed product.
func (a *csr) residual(x []float64) float64 {
	var sum float64
	for i := range a.n {
		ax := 0.0
		for k := a.rowptr[i]; k < a.rowptr[i+1]; k++ {
			ax += a.val[k] * x[a.col[k]]
		}
		sum += (1 - ax) * (1 - ax)
	}
	return math.Sqrt(sum)
}

// laplacianCond is the condition number of the m × m grid's Laplacian:
// its eigenvalues are 4 − 2cos(pπ/(m+1)) − 2cos(qπ/(m+1)) for p, q in
// 1…m, so the extremes are 4 ∓ 4cos(π/(m+1)).
func laplacianCond(m int) float64 {
	c := math.Cos(math.Pi / float64(m+1))
	return (1 + c) / (1 - c)
}
