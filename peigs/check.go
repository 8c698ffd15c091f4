package peigs

import (
	"fmt"
	"math"
	"math/cmplx"

	"github.com/goga-hpc/goga/mpi"
	"github.com/goga-hpc/goga/scalapack"
)

// Error is an argument a solver refuses before it starts.
type Error struct {
	Op, Arg, Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("peigs: %s: %s: %s", e.Op, e.Arg, e.Msg) }

func indexMsg(il, iu, n int) string {
	return fmt.Sprintf("indices %d to %d; an order-%d matrix has 0 to %d", il, iu, n, n-1)
}

func shapeMsg(d scalapack.Desc) string {
	return fmt.Sprintf("%d×%d in %d×%d blocks; want a square matrix in square blocks", d.M, d.N, d.MB, d.NB)
}

func ibtypeMsg(t int) string { return fmt.Sprintf("%d; want 1, 2 or 3", t) }

// NotSymmetricError is a matrix that the check found not symmetric
// (Hermitian) within the tolerance, or holding NaN or Inf (Asymmetry NaN).
type NotSymmetricError struct {
	Op, Matrix     string
	Asymmetry, Tol float64
}

func (e *NotSymmetricError) Error() string {
	if math.IsNaN(e.Asymmetry) {
		return fmt.Sprintf("peigs: %s: %s holds NaN or Inf", e.Op, e.Matrix)
	}
	return fmt.Sprintf("peigs: %s: %s is not symmetric: relative asymmetry %.3g exceeds the tolerance %.3g", e.Op, e.Matrix, e.Asymmetry, e.Tol)
}

// NotFinite reports whether the matrix held NaN or Inf.
func (e *NotSymmetricError) NotFinite() bool { return math.IsNaN(e.Asymmetry) }

// eps is the machine epsilon of T's precision.
func eps[T scalapack.Elem]() float64 {
	var z T
	switch any(z).(type) {
	case float32, complex64:
		return 0x1p-23
	}
	return 0x1p-52
}

// CheckSymmetric returns a *NotSymmetricError (op and name naming the call
// and the matrix) unless m is symmetric (Hermitian) within tol. The check is
// a probe, not a comparison of every element with its mirror, which would
// move the whole matrix between processes: with fixed pseudo-random vectors
// x and y, known to every process, it measures
//
//	|yᴴ·(M − Mᴴ)·x| / Σ |m_ij|·(|y_i|·|x_j| + |y_j|·|x_i|)
//
// which each process sums over its own elements in one pass, and one
// reduction adds up. It is 0 for a symmetric matrix and, for any other, not
// 0 but for vectors of measure zero; a matrix that is symmetric but for
// rounding gives about ε/n, one without symmetry about 1/n. NaN or Inf
// anywhere makes it NaN. It is collective over m's grid, and every process
// gets the same answer.
func CheckSymmetric[T scalapack.Elem](op, name string, m *scalapack.Matrix[T], tol float64) error {
	c, err := m.Grid.Comm()
	if err != nil {
		return err
	}
	var s [3]float64 // Re d, Im d, the scale
	switch data := any(m.Data).(type) {
	case []float32:
		s = probeReal(m, data)
	case []float64:
		s = probeReal(m, data)
	case []complex64:
		s = probeComplex(m, data)
	case []complex128:
		s = probeComplex(m, data)
	}
	// Reduced on one process and broadcast, so that every process takes the
	// same verdict: a split one would leave some in the solver alone.
	sum := make([]float64, 3)
	if err := mpi.Reduce(c, s[:], sum, mpi.Sum, 0); err != nil {
		return err
	}
	if err := mpi.Bcast(c, sum, 0); err != nil {
		return err
	}
	asym := cmplx.Abs(complex(sum[0], sum[1])) / sum[2]
	switch {
	case math.IsNaN(asym) && sum[2] == 0: // 0/0: a zero matrix, or of order 0
		return nil
	case math.IsNaN(asym) || math.IsInf(sum[2], 0):
		return &NotSymmetricError{Op: op, Matrix: name, Asymmetry: math.NaN(), Tol: tol}
	case asym > tol:
		return &NotSymmetricError{Op: op, Matrix: name, Asymmetry: asym, Tol: tol}
	}
	return nil
}

// probe returns the probe's value at global index i, two numbers in
// [-1, 1) from a hash of i (SplitMix64), the same on every process.
func probe(i int) (float64, float64) {
	z := uint64(i)*0x9e3779b97f4a7c15 + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>40)/(1<<23) - 1, float64(z&(1<<24-1))/(1<<23) - 1
}

// locals returns, for each local row (or column) of m, its global index.
func locals[T scalapack.Elem](m *scalapack.Matrix[T]) (rows, cols []int) {
	pr, pc, myrow, mycol := m.Grid.Info()
	lr, lc := m.LocalShape()
	rows, cols = make([]int, lr), make([]int, lc)
	for l := range rows {
		rows[l] = scalapack.LocalToGlobal(l, m.Desc.MB, myrow, m.Desc.RSrc, pr)
	}
	for l := range cols {
		cols[l] = scalapack.LocalToGlobal(l, m.Desc.NB, mycol, m.Desc.CSrc, pc)
	}
	return rows, cols
}

func probeReal[T scalapack.Elem, F float32 | float64](m *scalapack.Matrix[T], data []F) [3]float64 {
	rows, cols := locals(m)
	xr, yr := make([]float64, len(rows)), make([]float64, len(rows))
	for l, i := range rows {
		xr[l], yr[l] = probe(i)
	}
	var d, scale float64
	for lj, j := range cols {
		xj, yj := probe(j)
		col := data[lj*m.Desc.LLD : lj*m.Desc.LLD+len(rows)]
		for li, v := range col {
			a, b := yr[li]*xj, yj*xr[li]
			d += float64(v) * (a - b)
			scale += math.Abs(float64(v)) * (math.Abs(a) + math.Abs(b))
		}
	}
	return [3]float64{d, 0, scale}
}

func probeComplex[T scalapack.Elem, C complex64 | complex128](m *scalapack.Matrix[T], data []C) [3]float64 {
	rows, cols := locals(m)
	xr, yr := make([]complex128, len(rows)), make([]complex128, len(rows))
	for l, i := range rows {
		p, q := probe(i)
		r, s := probe(i + m.Desc.N) // a second pair, for the imaginary parts
		xr[l], yr[l] = complex(p, r), complex(q, s)
	}
	var d complex128
	var scale float64
	for lj, j := range cols {
		p, q := probe(j)
		r, s := probe(j + m.Desc.N)
		xj, yj := complex(p, r), complex(q, s)
		col := data[lj*m.Desc.LLD : lj*m.Desc.LLD+len(rows)]
		for li, v := range col {
			// ȳ_i·m_ij·x_j − x_i·ȳ_j·conj(m_ij)
			a, b := cmplx.Conj(yr[li])*xj, xr[li]*cmplx.Conj(yj)
			z := complex128(v)
			d += z*a - cmplx.Conj(z)*b
			scale += (math.Abs(real(z)) + math.Abs(imag(z))) * (cmplx.Abs(a) + cmplx.Abs(b))
		}
	}
	return [3]float64{real(d), imag(d), scale}
}
