package scalapack

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// Trsm, Lapiv and ColumnPivots on the near-square grid and on the one-row and
// one-column grids.
func TestTriangularAndPivots(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		w := mpi.World()
		rows, cols := nearSquare(w.Size())
		for _, shape := range [][2]int{{rows, cols}, {1, w.Size()}, {w.Size(), 1}} {
			g, err := blacs.GridInit(w, blacs.ColumnMajor, shape[0], shape[1])
			mpitest.Must(t, err)
			name := fmt.Sprintf("%dx%d", shape[0], shape[1])
			t.Run(name+"/TrsmReal", func(t *testing.T) { testTrsm[float64](t, g) })
			t.Run(name+"/TrsmComplex", func(t *testing.T) { testTrsm[complex128](t, g) })
			t.Run(name+"/TrsmSingle", func(t *testing.T) { testTrsm[float32](t, g) })
			t.Run(name+"/TrsmComplexSingle", func(t *testing.T) { testTrsm[complex64](t, g) })
			t.Run(name+"/Lapiv", func(t *testing.T) { testLapiv(t, g) })
			t.Run(name+"/ColumnPivots", func(t *testing.T) { testColumnPivots(t, g) })
			t.Run(name+"/Gemr2d", func(t *testing.T) { testGemr2d(t, g) })
			mpitest.Must(t, g.Exit())
		}
	}, mpitest.AcrossNodes())
}

// get returns element (i, j) of a column-major n-row matrix, op'd.
func opAt[T Elem](v []T, n int, trans Trans, i, j int) T {
	if trans == Transpose {
		i, j = j, i
	}
	return v[i+j*n]
}

func testTrsm[T Elem](t *testing.T, g *blacs.Grid) {
	const n, k, nb = 13, 3, 4
	r := rand.New(rand.NewPCG(5, 5))
	for _, side := range []Side{Left, Right} {
		for _, uplo := range []Uplo{Upper, Lower} {
			for _, trans := range []Trans{NoTrans, Transpose} {
				for _, diag := range []Diag{NonUnit, Unit} {
					av := make([]T, n*n)
					for i := range av {
						av[i] = randVal[T](r)
					}
					for i := range n {
						av[i+i*n] += fromFloat[T](4)
					}
					// The triangle Trsm uses, as a full matrix.
					tri := make([]T, n*n)
					for i := range n {
						for j := range n {
							if (uplo == Upper && j >= i) || (uplo == Lower && j <= i) {
								tri[i+j*n] = av[i+j*n]
							}
						}
						if diag == Unit {
							tri[i+i*n] = 1
						}
					}
					bm, bn := n, k
					if side == Right {
						bm, bn = k, n
					}
					bv := make([]T, bm*bn)
					for i := range bv {
						bv[i] = randVal[T](r)
					}
					a, err := NewMatrix[T](g, n, n, nb, nb)
					mpitest.Must(t, err)
					b, err := NewMatrix[T](g, bm, bn, nb, nb)
					mpitest.Must(t, err)
					a.Fill(func(i, j int) T { return av[i+j*n] })
					b.Fill(func(i, j int) T { return bv[i+j*bm] })
					alpha := fromFloat[T](2)
					mpitest.Must(t, Trsm(side, uplo, trans, diag, alpha, a, b))
					x, err := b.Gather()
					mpitest.Must(t, err)
					// op(A)·X (left) or X·op(A) (right) must be alpha·B.
					worst := 0.0
					for i := range bm {
						for j := range bn {
							var s T
							for l := range n {
								if side == Left {
									s += opAt(tri, n, trans, i, l) * x[l+j*bm]
								} else {
									s += x[i+l*bm] * opAt(tri, n, trans, l, j)
								}
							}
							worst = max(worst, abs(s-alpha*bv[i+j*bm]))
						}
					}
					tol := 1e-10
					if eps[T]() > 1e-10 {
						tol = 1e-3 // single precision: about 8000 ulps
					}
					if worst > tol {
						mpitest.Fatalf(t, "Trsm %c %c %c %c: residual %g", side, uplo, trans, diag, worst)
					}
				}
			}
		}
	}
	a, err := NewMatrix[T](g, n, n, nb, nb)
	mpitest.Must(t, err)
	b, err := NewMatrix[T](g, n+1, k, nb, nb)
	mpitest.Must(t, err)
	if err := Trsm(Left, Upper, NoTrans, NonUnit, 1, a, b); err == nil {
		mpitest.Fatalf(t, "Trsm accepted a B with the wrong number of rows")
	}
	if err := Trsm('X', Upper, NoTrans, NonUnit, 1, a, a); err == nil {
		mpitest.Fatalf(t, "Trsm accepted side 'X'")
	}
}

// swapped applies the interchanges piv (1-based) to the rows or columns of the
// column-major m × n matrix v, sequentially.
func swapped(v []float64, m, n int, piv []int, rowsNotCols, forward bool) []float64 {
	out := append([]float64(nil), v...)
	order := make([]int, len(piv))
	for k := range order {
		order[k] = k
		if !forward {
			order[k] = len(piv) - 1 - k
		}
	}
	for _, k := range order {
		p := piv[k] - 1
		if rowsNotCols {
			for j := range n {
				out[k+j*m], out[p+j*m] = out[p+j*m], out[k+j*m]
			}
		} else {
			for i := range m {
				out[i+k*m], out[i+p*m] = out[i+p*m], out[i+k*m]
			}
		}
	}
	return out
}

func testLapiv(t *testing.T, g *blacs.Grid) {
	const m, n, mb, nb = 11, 9, 3, 2
	pr, pc, myrow, mycol := g.Info()
	fill := func(i, j int) float64 { return float64(1000*i + j) }
	// Pivots as LU makes them: k swaps with some index at or after k.
	pivots := func(count int) []int {
		p := make([]int, count)
		for k := range p {
			p[k] = k + 1 + (k*7)%(count-k)
		}
		return p
	}
	for _, forward := range []bool{true, false} {
		dir := Backward
		if forward {
			dir = Forward
		}
		// Rows.
		a, err := NewMatrix[float64](g, m, n, mb, nb)
		mpitest.Must(t, err)
		a.Fill(fill)
		want, err := a.Gather()
		mpitest.Must(t, err)
		rp := pivots(m)
		lr, lc := a.LocalShape()
		ipiv := make([]int32, lr+mb)
		for li := range lr {
			ipiv[li] = int32(rp[LocalToGlobal(li, mb, myrow, 0, pr)])
		}
		mpitest.Must(t, Lapiv(dir, blacs.Row, a, ipiv))
		got, err := a.Gather()
		mpitest.Must(t, err)
		if exp := swapped(want, m, n, rp, true, forward); fmt.Sprint(got) != fmt.Sprint(exp) {
			mpitest.Fatalf(t, "Lapiv %c rows: got %v, want %v", dir, got, exp)
		}
		// Columns.
		a.Fill(fill)
		cp := pivots(n)
		jpiv := make([]int32, lc+nb)
		for lj := range lc {
			jpiv[lj] = int32(cp[LocalToGlobal(lj, nb, mycol, 0, pc)])
		}
		mpitest.Must(t, Lapiv(dir, blacs.Column, a, jpiv))
		got, err = a.Gather()
		mpitest.Must(t, err)
		if exp := swapped(want, m, n, cp, false, forward); fmt.Sprint(got) != fmt.Sprint(exp) {
			mpitest.Fatalf(t, "Lapiv %c columns: got %v, want %v", dir, got, exp)
		}
		if err := Lapiv(dir, blacs.Column, a, jpiv[:lc]); err == nil {
			mpitest.Fatalf(t, "Lapiv accepted a pivot vector without its workspace block")
		}
	}
}

// The pivots of Getrf, turned by ColumnPivots, permute the columns of Yᵀ as
// the original pivots permute the rows of Y.
func testColumnPivots(t *testing.T, g *blacs.Grid) {
	const n, k, nb = 14, 3, 3
	r := rand.New(rand.NewPCG(9, 9))
	av := make([]float64, n*n)
	for i := range av {
		av[i] = r.Float64()*2 - 1
	}
	a, err := NewMatrix[float64](g, n, n, nb, nb)
	mpitest.Must(t, err)
	a.Fill(func(i, j int) float64 { return av[i+j*n] })
	ipiv, err := Getrf(a)
	mpitest.Must(t, err)
	fill := func(i, j int) float64 { return float64(100*i + j) }
	y, err := NewMatrix[float64](g, n, k, nb, 2)
	mpitest.Must(t, err)
	y.Fill(fill)
	yt, err := NewMatrix[float64](g, k, n, 2, nb)
	mpitest.Must(t, err)
	yt.Fill(func(i, j int) float64 { return fill(j, i) })
	cp, err := ColumnPivots(a, ipiv, yt)
	mpitest.Must(t, err)
	mpitest.Must(t, Lapiv(Forward, blacs.Row, y, ipiv))
	mpitest.Must(t, Lapiv(Forward, blacs.Column, yt, cp))
	rows, err := y.Gather()
	mpitest.Must(t, err)
	cols, err := yt.Gather()
	mpitest.Must(t, err)
	moved := false
	for i := range n {
		for j := range k {
			if rows[i+j*n] != cols[j+i*k] {
				mpitest.Fatalf(t, "row pivots put %g at (%d, %d), column pivots %g at (%d, %d)", rows[i+j*n], i, j, cols[j+i*k], j, i)
			}
			moved = moved || rows[i+j*n] != fill(i, j)
		}
	}
	if !moved {
		mpitest.Fatalf(t, "a random matrix's pivots left every row in place")
	}
}

// Gemr2d moves a matrix from g in 3 × 2 blocks to a one-row grid of every
// process in 4 × 5 blocks and back, entry for entry.
func testGemr2d(t *testing.T, g *blacs.Grid) {
	const m, n = 11, 13
	w := mpi.World()
	all, err := blacs.GridInit(w, blacs.RowMajor, 1, w.Size())
	mpitest.Must(t, err)
	defer mpitest.Cleanup(t, all.Exit)
	fill := func(i, j int) float64 { return float64(100*i + j) }
	a, err := NewMatrix[float64](g, m, n, 3, 2)
	mpitest.Must(t, err)
	a.Fill(fill)
	b, err := NewMatrix[float64](all, m, n, 4, 5)
	mpitest.Must(t, err)
	mpitest.Must(t, Gemr2d(m, n, a, b, all))
	got, err := b.Gather()
	mpitest.Must(t, err)
	for i := range m {
		for j := range n {
			if got[i+j*m] != fill(i, j) {
				mpitest.Fatalf(t, "Gemr2d: (%d, %d) = %g, want %g", i, j, got[i+j*m], fill(i, j))
			}
		}
	}
	a.Fill(func(int, int) float64 { return -1 })
	mpitest.Must(t, Gemr2d(m, n, b, a, all))
	back, err := a.Gather()
	mpitest.Must(t, err)
	for i := range back {
		if back[i] != got[i] {
			mpitest.Fatalf(t, "Gemr2d back: entry %d = %g, want %g", i, back[i], got[i])
		}
	}
	if err := Gemr2d(m+1, n, a, b, all); err == nil {
		mpitest.Fatalf(t, "Gemr2d copied more rows than a has")
	}
}
