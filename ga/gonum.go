package ga

import (
	"errors"

	"github.com/goga-hpc/goga/ga/internal/linalg"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/cblas128"
	"gonum.org/v1/gonum/mat"
)

// Global arrays meet gonum's matrices here, without copies by hand: a
// process's own block as a gonum matrix sharing its memory, and patches read
// into or written from gonum matrices, their stride as the leading
// dimension. Go numerical code speaks gonum.org/v1/gonum/mat, so these
// are the edges where a program hands a block to gonum (or to BLAS through
// it) and back.

// LocalDense returns this process's block of the 2-D float64 array a as a
// *mat.Dense that shares the block's memory (NGA_Access, seen through
// gonum): writing to it writes the array, and the usual rule holds that
// other processes see such writes after a Sync. lo is the block's first
// element; ok is false where this process stores no block. Block-cyclic
// arrays store several blocks: use BlockDense.
func LocalDense(a *Array[float64]) (m *mat.Dense, lo []int, ok bool, err error) {
	if err := matrixOnly("LocalDense", a); err != nil {
		return nil, nil, false, err
	}
	data, lo, hi, ld, ok, err := a.AccessLocal()
	if err != nil || !ok {
		return nil, nil, ok, renamed("LocalDense", err)
	}
	return denseOf(data, hi[0]-lo[0]+1, hi[1]-lo[1]+1, ld[0]), lo, true, nil
}

// LocalCDense is LocalDense for complex128 arrays, as a *mat.CDense.
func LocalCDense(a *Array[complex128]) (m *mat.CDense, lo []int, ok bool, err error) {
	if err := matrixOnly("LocalCDense", a); err != nil {
		return nil, nil, false, err
	}
	data, lo, hi, ld, ok, err := a.AccessLocal()
	if err != nil || !ok {
		return nil, nil, ok, renamed("LocalCDense", err)
	}
	return cdenseOf(data, hi[0]-lo[0]+1, hi[1]-lo[1]+1, ld[0]), lo, true, nil
}

// LocalVec returns this process's block of the 1-D float64 array a as a
// *mat.VecDense that shares its memory, as LocalDense does for matrices.
func LocalVec(a *Array[float64]) (v *mat.VecDense, lo int, ok bool, err error) {
	if err := a.valid("LocalVec"); err != nil {
		return nil, 0, false, err
	}
	if len(a.dims) != 1 {
		return nil, 0, false, errorf("LocalVec", a.name, "dims %v: a vector needs a 1-D array", a.dims)
	}
	data, l, hi, _, ok, err := a.AccessLocal()
	if err != nil || !ok {
		return nil, 0, ok, renamed("LocalVec", err)
	}
	n := hi[0] - l[0] + 1
	v = &mat.VecDense{}
	v.SetRawVector(blas64.Vector{N: n, Inc: 1, Data: data[:n]})
	return v, l[0], true, nil
}

// BlockDense returns block i of the 2-D float64 block-cyclic array a, which
// this process stores, as a *mat.Dense sharing its memory
// (NGA_Access_block through gonum).
func BlockDense(a *Array[float64], i int) (*mat.Dense, error) {
	if err := matrixOnly("BlockDense", a); err != nil {
		return nil, err
	}
	data, ld, err := a.AccessBlock(i)
	if err != nil {
		return nil, renamed("BlockDense", err)
	}
	lo, hi := a.m.Patch(i)
	return denseOf(data, hi[0]-lo[0]+1, hi[1]-lo[1]+1, ld[0]), nil
}

// matrixOnly checks that a is a valid 2-D array.
func matrixOnly[T Elem](op string, a *Array[T]) error {
	if err := a.valid(op); err != nil {
		return err
	}
	if len(a.dims) != 2 {
		return errorf(op, a.name, "dims %v: a matrix needs a 2-D array", a.dims)
	}
	return nil
}

func denseOf(data []float64, r, c, stride int) *mat.Dense {
	m := &mat.Dense{}
	m.SetRawMatrix(blas64.General{Rows: r, Cols: c, Stride: stride, Data: data[:(r-1)*stride+c]})
	return m
}

func cdenseOf(data []complex128, r, c, stride int) *mat.CDense {
	m := &mat.CDense{}
	m.SetRawCMatrix(cblas128.General{Rows: r, Cols: c, Stride: stride, Data: data[:(r-1)*stride+c]})
	return m
}

// GetDense reads the 2-D patch [lo, hi] of a into a new *mat.Dense
// (NGA_Get). A patch of an n-D array is read as MatmulPatch reads an
// operand, but for one along a dimension that is neither the first nor
// the last, which GetDense reads as a column (MatmulPatch reads it as a
// row unless the product's shapes make it a column).
func GetDense(a *Array[float64], lo, hi []int) (*mat.Dense, error) {
	p, err := matrixPatch("GetDense", a, lo, hi)
	if err != nil {
		return nil, err
	}
	m := mat.NewDense(p.Rows, p.Cols, nil)
	return m, moveMatrix("GetDense", p, m.RawMatrix().Stride, m.RawMatrix().Data, a.Get)
}

// GetIntoDense reads the patch [lo, hi] of a into m, whose shape must be
// the patch's; m's stride is the leading dimension, so m may be a view of
// a larger matrix.
func GetIntoDense(a *Array[float64], lo, hi []int, m *mat.Dense) error {
	raw := m.RawMatrix()
	return matrixMove("GetIntoDense", a, lo, hi, raw.Rows, raw.Cols, raw.Stride, raw.Data, a.Get)
}

// PutDense writes m into the patch [lo, hi] of a (NGA_Put); m's shape must
// be the patch's, its stride is the leading dimension.
func PutDense(a *Array[float64], lo, hi []int, m mat.RawMatrixer) error {
	raw := m.RawMatrix()
	return matrixMove("PutDense", a, lo, hi, raw.Rows, raw.Cols, raw.Stride, raw.Data, a.Put)
}

// AccDense adds alpha·m to the patch [lo, hi] of a (NGA_Acc), atomically
// per element as Acc is.
func AccDense(a *Array[float64], lo, hi []int, m mat.RawMatrixer, alpha float64) error {
	raw := m.RawMatrix()
	return matrixMove("AccDense", a, lo, hi, raw.Rows, raw.Cols, raw.Stride, raw.Data, accWith(a, alpha))
}

// GetCDense is GetDense for complex128 arrays.
func GetCDense(a *Array[complex128], lo, hi []int) (*mat.CDense, error) {
	p, err := matrixPatch("GetCDense", a, lo, hi)
	if err != nil {
		return nil, err
	}
	m := mat.NewCDense(p.Rows, p.Cols, nil)
	return m, moveMatrix("GetCDense", p, m.RawCMatrix().Stride, m.RawCMatrix().Data, a.Get)
}

// GetIntoCDense is GetIntoDense for complex128 arrays.
func GetIntoCDense(a *Array[complex128], lo, hi []int, m *mat.CDense) error {
	raw := m.RawCMatrix()
	return matrixMove("GetIntoCDense", a, lo, hi, raw.Rows, raw.Cols, raw.Stride, raw.Data, a.Get)
}

// PutCDense is PutDense for complex128 arrays.
func PutCDense(a *Array[complex128], lo, hi []int, m mat.RawCMatrixer) error {
	raw := m.RawCMatrix()
	return matrixMove("PutCDense", a, lo, hi, raw.Rows, raw.Cols, raw.Stride, raw.Data, a.Put)
}

// AccCDense is AccDense for complex128 arrays.
func AccCDense(a *Array[complex128], lo, hi []int, m mat.RawCMatrixer, alpha complex128) error {
	raw := m.RawCMatrix()
	return matrixMove("AccCDense", a, lo, hi, raw.Rows, raw.Cols, raw.Stride, raw.Data, accWith(a, alpha))
}

// accWith is a's Acc with alpha, shaped like Get and Put.
func accWith[T Elem](a *Array[T], alpha T) func(lo, hi []int, buf []T, ld []int) error {
	return func(lo, hi []int, buf []T, ld []int) error { return a.Acc(lo, hi, buf, ld, alpha) }
}

// matrixMove checks that the patch [lo, hi] of a is rows × cols and moves
// it to or from data, rows stride apart.
func matrixMove[T Elem](op string, a *Array[T], lo, hi []int, rows, cols, stride int, data []T, move func(lo, hi []int, buf []T, ld []int) error) error {
	p, err := matrixPatch(op, a, lo, hi)
	if err != nil {
		return err
	}
	if p.Rows != rows || p.Cols != cols {
		return errorf(op, a.name, "patch lo %v hi %v is %d × %d; the matrix is %d × %d", lo, hi, p.Rows, p.Cols, rows, cols)
	}
	return moveMatrix(op, p, stride, data, move)
}

// moveMatrix moves the patch p to or from data, its rows stride apart.
func moveMatrix[T Elem](op string, p linalg.Patch[T], stride int, data []T, move func(lo, hi []int, buf []T, ld []int) error) error {
	lo, hi, ld := p.Sub(0, 0, p.Rows, p.Cols, stride)
	return renamed(op, move(lo, hi, data, ld))
}

// renamed returns err as the error of the call op, which made the call
// that failed on its behalf (nil stays nil).
func renamed(op string, err error) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	c := *e
	c.Op = op
	return &c
}
