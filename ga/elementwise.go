package ga

import (
	"errors"
	"fmt"
	"math"

	"github.com/goga-hpc/goga/ga/internal/kernels"
	"github.com/goga-hpc/goga/internal/layout"
	"github.com/goga-hpc/goga/mpi"
)

// Element-wise operations (GA's elem_alg.c) treat arrays as containers of
// elements. The whole-array forms are the patch forms on whole arrays. Two-
// and three-operand forms pair elements in linear (C) order through combine,
// as AddPatch does: operands laid out like the output are read in place,
// others fetched by one-sided Gets; the output may be one of the operands.

// ErrZeroDivisor is wrapped by the error of an element-wise division or
// reciprocal that meets a zero (GA C aborts the job there).
var ErrZeroDivisor = errors.New("zero divisor")

// patchOf is the patch that covers all of a, or none for a nil array (which
// the call then refuses).
func patchOf[T Elem](a *Array[T]) side[T] {
	s := side[T]{a: a}
	if a != nil {
		s.lo, s.hi = a.whole()
	}
	return s
}

// elemOp sets out's patch, collectively, to f of the operands' patches,
// paired in C order (see combine). pre, if not nil, runs on every process
// after the start sync and before anything is read or written; an error it
// returns (the same on every process) ends the call with nothing changed.
func elemOp[T Elem](op string, out side[T], ops []side[T], pre func() error, f func(dst []T, src [][]T)) error {
	check := checkSides(op, out, ops...)
	l, more := sidesArgs(op, ops)
	writing(patchArgs(l, "out", out.a, out.lo, out.hi, 0), out.a)
	return out.a.collective(op, l, check, func([]T) error {
		if pre != nil {
			if err := pre(); err != nil {
				return err
			}
		}
		return combine(op, out.a, out.lo, out.hi, ops, f)
	}, more...)
}

// sidesArgs returns the text of the operands' identities and patches, and
// their arrays.
func sidesArgs[T Elem](op string, ops []side[T]) (*args, []*Array[T]) {
	l := newArgs(op)
	arrays := make([]*Array[T], len(ops))
	for k, s := range ops {
		patchArgs(l, string(rune('A'+k)), s.a, s.lo, s.hi, 0)
		arrays[k] = s.a
	}
	return l, arrays
}

// noZero returns an ErrZeroDivisor error naming the first zero, in C order,
// of a's patch [lo, hi], or nil if there is none. Every process of a's group
// calls it within a collective call, and all get the same answer.
func noZero[T Elem](op string, a *Array[T], lo, hi []int) error {
	shape := side[T]{lo: lo, hi: hi}.shape()
	first := int64(math.MaxInt64) // the first zero's position in the patch
	local, err := a.localData()
	if err == nil {
		err = a.regions(lo, hi, func(r region) error {
			rshape := side[T]{lo: r.lo, hi: r.hi}.shape()
			r.runs(func(off, at, n int) {
				if i := kernels.FirstZero(local[off : off+n]); i >= 0 {
					// From the region's packed order to the patch's.
					sub, p := layout.Unravel(rshape, at+i), 0
					for d := range sub {
						p = p*shape[d] + r.lo[d] + sub[d] - lo[d]
					}
					first = min(first, int64(p))
				}
			})
			return nil
		})
	}
	v := []int64{first}
	if err != nil {
		v[0] = -1 // so that every process fails
	}
	if rerr := mpi.Allreduce(a.g.comm(), nil, v, mpi.Min); rerr != nil {
		return rerr
	}
	switch {
	case err != nil:
		return err
	case v[0] < 0:
		return errorf(op, a.name, "another process could not read its part of the patch")
	case v[0] == math.MaxInt64:
		return nil
	}
	sub := layout.Unravel(shape, int(v[0]))
	for d := range sub {
		sub[d] += lo[d]
	}
	return &Error{Op: op, Array: a.name, Err: ErrZeroDivisor, Msg: fmt.Sprintf("element %v is zero; nothing was changed", sub)}
}

// AbsValue sets every element to its absolute value (GA_Abs_value); a
// complex element z becomes (|z|, 0). Integers wrap as Go's and GA C's do:
// the absolute value of math.MinInt64 (or MinInt32) is itself. It is
// collective.
func (a *Array[T]) AbsValue() error {
	s := patchOf(a)
	return a.absValue("AbsValue", s.lo, s.hi)
}

// AbsValuePatch sets every element of the patch [lo, hi] to its absolute
// value (GA_Abs_value_patch), as AbsValue does. It is collective.
func (a *Array[T]) AbsValuePatch(lo, hi []int) error { return a.absValue("AbsValuePatch", lo, hi) }

func (a *Array[T]) absValue(op string, lo, hi []int) error {
	return a.eachRun(op, lo, hi, kernels.Of[T]().Abs)
}

// AddConstant adds alpha to every element (GA_Add_constant). Integer sums
// wrap on overflow without an error, as in GA C (math.MaxInt64 + 1 is
// math.MinInt64). It is collective.
func (a *Array[T]) AddConstant(alpha T) error {
	s := patchOf(a)
	return a.addConstant("AddConstant", s.lo, s.hi, alpha)
}

// AddConstantPatch adds alpha to every element of the patch [lo, hi]
// (GA_Add_constant_patch), wrapping as AddConstant does. It is collective.
func (a *Array[T]) AddConstantPatch(lo, hi []int, alpha T) error {
	return a.addConstant("AddConstantPatch", lo, hi, alpha)
}

func (a *Array[T]) addConstant(op string, lo, hi []int, alpha T) error {
	return a.eachRun(op, lo, hi, func(run []T) { kernels.AddConstant(run, alpha) })
}

// Recip sets every element x to 1/x (GA_Recip); integer elements divide as
// integers do (1/x truncated). Where GA C aborts the job on a zero, Recip
// returns an error wrapping ErrZeroDivisor that names the first zero in C
// order, on every process, and changes nothing. It is collective.
func (a *Array[T]) Recip() error { return recip("Recip", patchOf(a)) }

// RecipPatch sets every element x of the patch [lo, hi] to 1/x
// (GA_Recip_patch), as Recip does, refusing a patch with a zero in it the
// same way. It is collective.
func (a *Array[T]) RecipPatch(lo, hi []int) error {
	return recip("RecipPatch", side[T]{a: a, lo: lo, hi: hi})
}

func recip[T Elem](op string, s side[T]) error {
	return elemOp(op, s, []side[T]{s}, func() error { return noZero(op, s.a, s.lo, s.hi) }, func(dst []T, src [][]T) {
		kernels.Recip(dst, src[0])
	})
}

// The two-operand forms: c = f(a, b). The whole-array forms, as in GA, take
// arrays with the same number of elements, whose shapes and distributions
// may differ; the patch forms take patches with the same number of
// elements. c may be a or b, and its patch may overlap theirs.

// ElemMultiply sets c to the element-wise product of a and b
// (GA_Elem_multiply). Integer products wrap on overflow without an error,
// as in GA C (math.MaxInt64 squared is 1). It is collective.
func ElemMultiply[T Elem](a, b, c *Array[T]) error {
	return elemOp("ElemMultiply", patchOf(c), []side[T]{patchOf(a), patchOf(b)}, nil, multiply[T])
}

// multiply is combine's f for the element-wise product.
func multiply[T Elem](dst []T, src [][]T) { kernels.Multiply(dst, src[0], src[1]) }

// ElemMultiplyPatch sets c's patch to the element-wise product of a's and
// b's patches (GA_Elem_multiply_patch), wrapping as ElemMultiply does. It
// is collective.
func ElemMultiplyPatch[T Elem](a *Array[T], alo, ahi []int, b *Array[T], blo, bhi []int, c *Array[T], clo, chi []int) error {
	return elemOp("ElemMultiplyPatch", side[T]{a: c, lo: clo, hi: chi}, []side[T]{{a, alo, ahi, false}, {b, blo, bhi, false}}, nil, multiply[T])
}

// ElemDivide sets c to the element-wise quotient a/b (GA_Elem_divide);
// integers divide as integers do. Where GA C aborts the job on a zero in b
// (the manual's GA_NEGATIVE_INFINITY result is gone from GA 5), ElemDivide
// returns an error wrapping ErrZeroDivisor that names b's first zero in C
// order, on every process, and changes nothing. It is collective.
func ElemDivide[T Elem](a, b, c *Array[T]) error {
	return elemDivide("ElemDivide", patchOf(a), patchOf(b), patchOf(c))
}

// ElemDividePatch sets c's patch to the element-wise quotient of a's and
// b's patches (GA_Elem_divide_patch), refusing a zero in b's patch as
// ElemDivide does. It is collective.
func ElemDividePatch[T Elem](a *Array[T], alo, ahi []int, b *Array[T], blo, bhi []int, c *Array[T], clo, chi []int) error {
	return elemDivide("ElemDividePatch", side[T]{a, alo, ahi, false}, side[T]{b, blo, bhi, false}, side[T]{a: c, lo: clo, hi: chi})
}

func elemDivide[T Elem](op string, a, b, c side[T]) error {
	return elemOp(op, c, []side[T]{a, b}, func() error { return noZero(op, b.a, b.lo, b.hi) }, func(dst []T, src [][]T) {
		kernels.Divide(dst, src[0], src[1])
	})
}

// ElemMaximum sets c to the element-wise maximum of a and b
// (GA_Elem_maximum): a where a > b, else b. Complex elements compare by
// magnitude and c gets the operand itself, b on ties, as GA C 5 does (the
// manual's (|z|, 0) is not what GA computes). It is collective.
func ElemMaximum[T Elem](a, b, c *Array[T]) error {
	return elemPick("ElemMaximum", patchOf(a), patchOf(b), patchOf(c), true)
}

// ElemMaximumPatch is ElemMaximum on patches (GA_Elem_maximum_patch). It is
// collective.
func ElemMaximumPatch[T Elem](a *Array[T], alo, ahi []int, b *Array[T], blo, bhi []int, c *Array[T], clo, chi []int) error {
	return elemPick("ElemMaximumPatch", side[T]{a, alo, ahi, false}, side[T]{b, blo, bhi, false}, side[T]{a: c, lo: clo, hi: chi}, true)
}

// ElemMinimum sets c to the element-wise minimum of a and b
// (GA_Elem_minimum): a where a < b, else b. Complex elements compare by
// magnitude and c gets the operand itself, b on ties, as GA C 5 does. It is
// collective.
func ElemMinimum[T Elem](a, b, c *Array[T]) error {
	return elemPick("ElemMinimum", patchOf(a), patchOf(b), patchOf(c), false)
}

// ElemMinimumPatch is ElemMinimum on patches (GA_Elem_minimum_patch). It is
// collective.
func ElemMinimumPatch[T Elem](a *Array[T], alo, ahi []int, b *Array[T], blo, bhi []int, c *Array[T], clo, chi []int) error {
	return elemPick("ElemMinimumPatch", side[T]{a, alo, ahi, false}, side[T]{b, blo, bhi, false}, side[T]{a: c, lo: clo, hi: chi}, false)
}

func elemPick[T Elem](op string, a, b, c side[T], larger bool) error {
	pick := kernels.Of[T]().Pick
	return elemOp(op, c, []side[T]{a, b}, nil, func(dst []T, src [][]T) { pick(dst, src[0], src[1], larger) })
}

// Median sets m to the element-wise median of a, b and c (GA_Median): of
// two equal operands, a's; complex elements compare by magnitude and m gets
// the operand itself. The four arrays have the same number of elements;
// shapes and distributions may differ, and m may be any of a, b and c. It
// is collective.
func Median[T Elem](a, b, c, m *Array[T]) error {
	return median("Median", patchOf(a), patchOf(b), patchOf(c), patchOf(m))
}

// MedianPatch is Median on patches with the same number of elements
// (GA_Median_patch). It is collective.
func MedianPatch[T Elem](a *Array[T], alo, ahi []int, b *Array[T], blo, bhi []int, c *Array[T], clo, chi []int, m *Array[T], mlo, mhi []int) error {
	return median("MedianPatch", side[T]{a, alo, ahi, false}, side[T]{b, blo, bhi, false}, side[T]{c, clo, chi, false}, side[T]{a: m, lo: mlo, hi: mhi})
}

func median[T Elem](op string, a, b, c, m side[T]) error {
	med := kernels.Of[T]().Median
	return elemOp(op, m, []side[T]{a, b, c}, nil, func(dst []T, src [][]T) { med(dst, src[0], src[1], src[2]) })
}
