package ga_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingElempatch ports global/testing/elempatch.c of GlobalArrays/ga
// (commit dd40347): every element-wise patch operation it checks, on the
// whole patch of regular arrays of 1, 2 and 3 dimensions, in the element
// types it loops over (int32, float64, float32, int64 and, for all but the
// steps, complex128), with its data: A filled with -2, B with -3, J with the
// original's NGA_Pnfill_patch pattern (-2, -1, 0, 1 repeating along each
// process's block in storage order), and for complex128 its values
// (-sin 3, -cos 3) and (2 sin 3, 2 cos 3), those scaled by 100, and the
// latter with real and imaginary parts swapped. It checks
//
//   - AbsValuePatch, AddConstantPatch(-3), RecipPatch, ElemMultiplyPatch,
//     ElemDividePatch, ElemMaximumPatch and ElemMinimumPatch: the result
//     less the original's value, by AddPatch, has SelectElem "max" 0 (real
//     types) or |re| + |im| < 1e-5 (complex128), as the original checks; and
//     NormInfinity of that difference 0 (< 1e-5), which the original's
//     maximum alone does not hold for a difference with negative elements;
//   - StepMaxPatch(|B|, J) = |-3/-2| computed in the type (1 for integers,
//     1.5 for floats), exactly;
//   - StepBoundInfoPatch(|B|, J, |A|, 5): wolfemin = boundmin = 1/2 in the
//     type (0 for integers), and boundmax = GA's infinity of the type
//     (GA_INFINITY_I, _L, _F, _D: ga.InfinityI, InfinityL, InfinityF,
//     InfinityD), exactly, for J's zeros never meet a bound.
//
// The original's arrays are 100 along every dimension; the 3-dimensional
// ones here are 100 × 20 × 20, not 100³ (GA C takes 30 s over the program
// on 2 processes), so that the four launches stay within a few seconds
// each. Its indices are already C's 0-based, inclusive ones; a patch is
// the whole array, so nothing else needs translating.
func TestGATestingElempatch(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		for op := epMultiply; op <= epStepBoundInfo; op++ {
			t.Run(op.String(), func(t *testing.T) {
				for dim := 1; dim <= 3; dim++ {
					t.Run(fmt.Sprintf("dim=%d", dim), func(t *testing.T) {
						t.Run("int32", func(t *testing.T) { elempatchCase[int32](t, op, dim) })
						t.Run("float64", func(t *testing.T) { elempatchCase[float64](t, op, dim) })
						t.Run("float32", func(t *testing.T) { elempatchCase[float32](t, op, dim) })
						t.Run("int64", func(t *testing.T) { elempatchCase[int64](t, op, dim) })
						if op < epStepMax {
							t.Run("complex128", func(t *testing.T) { elempatchCase[complex128](t, op, dim) })
						}
					})
				}
			})
		}
	})
}

// epOp is one of elempatch.c's operations, in its order (OP_ELEM_MULT ...
// OP_STEP_BOUND_INFO): four binary ones, three unary ones, two steps.
type epOp int

const (
	epMultiply epOp = iota
	epDivide
	epMaximum
	epMinimum
	epAbs
	epAddConstant
	epRecip
	epStepMax
	epStepBoundInfo
)

func (op epOp) String() string {
	return [...]string{"ElemMultiplyPatch", "ElemDividePatch", "ElemMaximumPatch", "ElemMinimumPatch",
		"AbsValuePatch", "AddConstantPatch", "RecipPatch", "StepMaxPatch", "StepBoundInfoPatch"}[op]
}

// epThresh is elempatch.c's THRESH, its tolerance on complex results.
const epThresh = 1e-5

// epDims are the arrays' dimensions (see TestGATestingElempatch).
func epDims(dim int) []int {
	return [][]int{{100}, {100, 100}, {100, 20, 20}}[dim-1]
}

// epCheck is a result array and the value its every element must hold.
type epCheck[T ga.Elem] struct {
	what string
	got  *ga.Array[T]
	want T
}

func elempatchCase[T ga.Elem](t *testing.T, op epOp, dim int) {
	dims := epDims(dim)
	lo, hi := fullPatch(dims)
	a, err := ga.Create[T]("A", dims, nil)
	must(t, err)
	defer destroy(t, a)
	dup := func(name string) *ga.Array[T] {
		d, err := a.Duplicate(name)
		must(t, err)
		must(t, d.Zero())
		return d
	}
	b, c, d, e, j := dup("B"), dup("C"), dup("D"), dup("E"), dup("J")
	for _, x := range []*ga.Array[T]{b, c, d, e, j} {
		defer destroy(t, x)
	}
	must(t, a.Zero())

	// The original's values: val, val2, val5 for the real types; for the
	// complex ones also val3 = 100·val, val4 = 100·val2, and val6, val7:
	// val3 and val4 with their parts swapped.
	s3, c3 := math.Sin(3), math.Cos(3)
	val, val2, val5 := fromC[T](complex(-s3, -c3)), fromC[T](complex(2*s3, 2*c3)), fromC[T](5)
	if !isComplex[T]() {
		val, val2 = mk[T](-2, 0), mk[T](-3, 0)
	}
	val3, val4 := fromC[T](complex(-s3*100, -c3*100)), fromC[T](complex(2*s3*100, 2*c3*100))
	val6, val7 := fromC[T](complex(-c3*100, -s3*100)), fromC[T](complex(2*c3*100, 2*s3*100))

	must(t, a.FillPatch(lo, hi, val))
	must(t, b.FillPatch(lo, hi, val2))
	pnFill(t, j)

	// The original's arrays F, G, H and K, L, M, for its checks on complex
	// values 100 times larger (and swapped): the unary operations on F and
	// K in place, the binary ones on F, G into H and on K, L into M.
	type scaledSet struct {
		x, y, out *ga.Array[T]
		vx, vy    T
	}
	var sets []scaledSet
	if isComplex[T]() {
		f, g, h, k, l, m := dup("F"), dup("G"), dup("H"), dup("K"), dup("L"), dup("M")
		for _, x := range []*ga.Array[T]{f, g, h, k, l, m} {
			defer destroy(t, x)
		}
		sets = []scaledSet{{f, g, h, val3, val4}, {k, l, m, val6, val7}}
	}
	var checks []epCheck[T]
	binary := func(f func(x *ga.Array[T], xlo, xhi []int, y *ga.Array[T], ylo, yhi []int, z *ga.Array[T], zlo, zhi []int) error, want func(x, y T) T) {
		must(t, f(a, lo, hi, b, lo, hi, c, lo, hi))
		checks = append(checks, epCheck[T]{fmt.Sprintf("%v on %v, %v", op, val, val2), c, want(val, val2)})
		for _, s := range sets {
			must(t, s.x.FillPatch(lo, hi, s.vx))
			must(t, s.y.FillPatch(lo, hi, s.vy))
			must(t, f(s.x, lo, hi, s.y, lo, hi, s.out, lo, hi))
			checks = append(checks, epCheck[T]{fmt.Sprintf("%v on %v, %v", op, s.vx, s.vy), s.out, want(s.vx, s.vy)})
		}
	}
	unary := func(f func(x *ga.Array[T]) error, want func(x T) T) {
		must(t, f(a))
		checks = append(checks, epCheck[T]{fmt.Sprintf("%v on %v", op, val), a, want(val)})
		for _, s := range sets {
			must(t, s.x.FillPatch(lo, hi, s.vx))
			must(t, f(s.x))
			checks = append(checks, epCheck[T]{fmt.Sprintf("%v on %v", op, s.vx), s.x, want(s.vx)})
		}
	}

	switch op {
	case epMultiply:
		binary(ga.ElemMultiplyPatch[T], func(x, y T) T { return x * y })
	case epDivide:
		binary(ga.ElemDividePatch[T], epDivModel[T])
	case epMaximum:
		binary(ga.ElemMaximumPatch[T], func(x, y T) T { return pickModel(x, y, true) })
	case epMinimum:
		// The original checks ElemMinimum's scaled values on single complex
		// only, a type its main does not run: none here.
		must(t, ga.ElemMinimumPatch(a, lo, hi, b, lo, hi, c, lo, hi))
		checks = append(checks, epCheck[T]{fmt.Sprintf("%v on %v, %v", op, val, val2), c, pickModel(val, val2, false)})
	case epAbs:
		unary(func(x *ga.Array[T]) error { return x.AbsValuePatch(lo, hi) }, absModel[T])
	case epAddConstant:
		// No scaled values: the original checks them for the other unary
		// operations only.
		must(t, a.AddConstantPatch(lo, hi, val2))
		checks = append(checks, epCheck[T]{fmt.Sprintf("%v on %v, %v", op, val, val2), a, val + val2})
	case epRecip:
		unary(func(x *ga.Array[T]) error { return x.RecipPatch(lo, hi) }, func(x T) T { return epDivModel(mk[T](1, 0), x) })
	case epStepMax:
		must(t, b.AbsValuePatch(lo, hi))
		got, err := ga.StepMaxPatch(b, lo, hi, j, lo, hi)
		must(t, err)
		// J's least element is -2: the step is 3/2 in the element type.
		if want := real64(absModel(val2) / absModel(val)); got != want {
			t.Errorf("StepMaxPatch(|B|, J) = %v, want %v", got, want)
		}
	case epStepBoundInfo:
		must(t, b.AbsValuePatch(lo, hi))
		must(t, a.AbsValuePatch(lo, hi))
		must(t, c.FillPatch(lo, hi, val5))
		bmin, wmin, bmax, err := ga.StepBoundInfoPatch(b, lo, hi, j, lo, hi, a, lo, hi, c, lo, hi)
		must(t, err)
		// 3 between 2 and 5: J's -2 reaches the lower bound at 1/2 (0 in
		// integers), its 1 the upper at 2, and its 0 none.
		half := real64(mk[T](1, 0) / mk[T](2, 0))
		if inf := gaInfinity[T](); wmin != half || bmin != half || bmax != inf {
			t.Errorf("StepBoundInfoPatch(|B|, J, |A|, 5) = boundmin %v, wolfemin %v, boundmax %v; want %v, %v, %v", bmin, wmin, bmax, half, half, inf)
		}
	}

	// The original's check: E = result - D, where D holds the value, and the
	// largest element of E (by magnitude, for complex) must be zero.
	one, minus := mk[T](1, 0), mk[T](-1, 0)
	for _, ch := range checks {
		must(t, d.FillPatch(lo, hi, ch.want))
		must(t, ga.AddPatch(one, ch.got, lo, hi, minus, d, lo, hi, e, lo, hi))
		most, at, err := e.SelectElem(ga.OpMax)
		must(t, err)
		norm, err := e.NormInfinity()
		must(t, err)
		z := complexOf(most)
		if isComplex[T]() {
			if math.Abs(real(z))+math.Abs(imag(z)) >= epThresh || norm >= epThresh {
				t.Errorf("%s: result - %v has largest element %v at %v and largest magnitude %v, want < %v", ch.what, ch.want, most, at, norm, epThresh)
			}
		} else if z != 0 || norm != 0 {
			t.Errorf("%s: result - %v has largest element %v at %v and largest magnitude %v, want 0", ch.what, ch.want, most, at, norm)
		}
	}
}

// epDivModel is x/y as elempatch.c computes the expected quotient: in the
// element type for real types, and by Smith's scaling for complex ones
// (independent of Go's complex division).
func epDivModel[T ga.Elem](x, y T) T {
	if !isComplex[T]() {
		return x / y
	}
	xz, yz := complexOf(x), complexOf(y)
	a, b, c, d := real(xz), imag(xz), real(yz), imag(yz)
	if math.Abs(c) >= math.Abs(d) {
		r := d / c
		s := 1 / (c * (1 + r*r))
		return fromC[T](complex((a+b*r)*s, (b-a*r)*s))
	}
	r := c / d
	s := 1 / (d * (1 + r*r))
	return fromC[T](complex((a*r+b)*s, (b*r-a)*s))
}

// pnFill is elempatch.c's NGA_Pnfill_patch on a whole regular array: each
// process sets the elements of its block to (k mod 4) - 2, k being the
// element's offset in the block's storage (GA's Fortran order over the
// reversed dimensions is the same storage as goga's C order).
func pnFill[T ga.Elem](t *testing.T, a *ga.Array[T]) {
	must(t, ga.Sync())
	data, lo, hi, ld, ok, err := a.AccessLocal()
	must(t, err)
	if ok {
		eachSub(lo, hi, func(sub []int) {
			k := bufPos(lo, hi, ld, sub)
			data[k] = mk[T](k&3-2, k&3-2)
		})
		must(t, a.ReleaseUpdate(lo, hi))
	}
	must(t, ga.Sync())
}
