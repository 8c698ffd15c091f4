package ga

import (
	"reflect"
	"slices"
)

// Transpose and Symmetrize are patch operations on whole matrices: the
// transposed operand is read through combine, one Get per owner's region of
// the mirror patch, for any distributions, block-cyclic ones included.

// Transpose sets b to the transpose of a (GA_Transpose): b[j][i] = a[i][j].
// a and b are matrices of one element type, b's shape is a's reversed, and
// their distributions may differ. As in GA, they are different arrays (GA C
// does not check b's shape; a wrong one is an error here). It is collective.
func Transpose[T Elem](a, b *Array[T]) error {
	const op = "Transpose"
	var check error
	if a.valid(op) == nil && b.valid(op) == nil {
		switch {
		case a == b:
			check = errorf(op, a.name, "source and destination are the same array")
		case len(a.dims) != 2:
			check = errorf(op, a.name, "dims %v: Transpose takes matrices", a.dims)
		case !slices.Equal(b.dims, []int{a.dims[1], a.dims[0]}):
			check = errorf(op, b.name, "dims %v are not %s's %v reversed", b.dims, a.name, a.dims)
		}
	}
	return b.collective(op, writing(newArgs(op), b), check, func([]T) error {
		alo, ahi := a.whole()
		blo, bhi := b.whole()
		return combine(op, b, blo, bhi, []side[T]{{a, alo, ahi, true}}, func(dst []T, s [][]T) { copy(dst, s[0]) })
	}, a)
}

// Symmetrize sets the square matrix a to (a + aᵀ)/2 (GA_Symmetrize), in
// place: every process reads the mirrors of the elements it stores before
// any process writes. GA C takes float64 only; float32 and the complex types
// work here too (complex elements are not conjugated: a becomes symmetric,
// not Hermitian). Integer elements are refused, on every process: their
// halves would not be (a + aᵀ)/2. It is collective.
func (a *Array[T]) Symmetrize() error {
	const op = "Symmetrize"
	var check error
	if a.valid(op) == nil {
		var z T
		switch k := reflect.TypeFor[T]().Kind(); {
		case k == reflect.Int32 || k == reflect.Int64:
			check = errorf(op, a.name, "%T elements: Symmetrize takes floating-point and complex ones", z)
		case len(a.dims) != 2 || a.dims[0] != a.dims[1]:
			check = errorf(op, a.name, "dims %v: Symmetrize takes a square matrix", a.dims)
		}
	}
	return a.collective(op, nil, check, func([]T) error {
		lo, hi := a.whole()
		return combine(op, a, lo, hi, []side[T]{{a, lo, hi, false}, {a, lo, hi, true}}, func(dst []T, s [][]T) {
			x, y := s[0], s[1]
			for i := range dst {
				dst[i] = (x[i] + y[i]) / 2
			}
		})
	})
}
