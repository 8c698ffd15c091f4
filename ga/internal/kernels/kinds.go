package kernels

import (
	"cmp"
	"math"
	"math/cmplx"
	"reflect"
	"unsafe"
)

// Elem is the set of ga's element types (ga.Elem): GA's C_INT, C_LONG,
// C_FLOAT, C_DBL, C_SCPL and C_DCPL.
type Elem interface {
	~int32 | ~int64 | ~float32 | ~float64 | ~complex64 | ~complex128
}

// Some operations depend on the kind of number an element is: real elements
// are ordered by value and complex ones by magnitude, as GA C orders them.
// Go's generics allow neither < nor an absolute value on a type set that
// holds complex types, so these kernels, one set per call, view each run as
// its element type's underlying type and work on whole runs.
type Kinds[T Elem] struct {
	// Abs sets each element to its absolute value; a complex z becomes
	// (|z|, 0), as GA_Abs_value does.
	Abs func(run []T)
	// Pick sets dst[i] to x[i] if it ranks above y[i] (below, if !larger),
	// else to y[i]: on ties, y.
	Pick func(dst, x, y []T, larger bool)
	// Median sets dst[i] to the median of x[i], y[i] and z[i], choosing
	// among ties as GA_Median does.
	Median func(dst, x, y, z []T)
	// Norms returns the sum and the maximum of |x| over the run.
	Norms func(run []T) (sum, most float64)
	// Best returns the index of the run's first largest element (smallest,
	// if !larger), NaN ranking below every number; 0 for an empty run.
	Best func(run []T, larger bool) int
	// StepMax and StepBounds are StepMax's and StepBoundInfo's work on
	// runs; nil for complex elements, which have no order for them.
	StepMax    func(x, y []T) (step float64, negative bool)
	StepBounds func(xx, vv, lower, upper []T) Bounds
}

// ordered are the underlying types of the real elements.
type ordered interface {
	~int32 | ~int64 | ~float32 | ~float64
}

// complexes are the underlying types of the complex elements.
type complexes interface {
	~complex64 | ~complex128
}

// View is run seen as []U, U being T's underlying type.
func View[U, T any](run []T) []U {
	return unsafe.Slice((*U)(unsafe.Pointer(unsafe.SliceData(run))), len(run))
}

// Of returns T's kernels.
func Of[T Elem]() Kinds[T] {
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Int32:
		return realKernels[T, int32]()
	case reflect.Int64:
		return realKernels[T, int64]()
	case reflect.Float32:
		return realKernels[T, float32]()
	case reflect.Float64:
		return realKernels[T, float64]()
	case reflect.Complex64:
		return complexKernels[T, complex64]()
	default:
		return complexKernels[T, complex128]()
	}
}

func realKernels[T Elem, U ordered]() Kinds[T] {
	k := kernelsOver[T](
		func(u []U) {
			for i, v := range u {
				if v < 0 {
					u[i] = -v
				}
			}
		},
		// GA's comparisons, not cmp.Compare's total order: NaN ties.
		func(x, y U) int {
			switch {
			case x > y:
				return 1
			case x < y:
				return -1
			}
			return 0
		},
		func(x U) float64 { return math.Abs(float64(x)) })
	k.Norms = func(run []T) (sum, most float64) {
		if sum, most, ok := cNorms(View[U](run)); ok {
			return sum, most
		}
		for _, v := range View[U](run) {
			m := math.Abs(float64(v))
			sum += m
			most = max(most, m)
		}
		return sum, most
	}
	k.Best = func(run []T, larger bool) int {
		if k, ok := cBest(View[U](run), larger); ok {
			return k
		}
		return bestReal(View[U](run), larger)
	}
	k.StepMax = func(x, y []T) (float64, bool) { return stepMaxRun(View[U](x), View[U](y)) }
	k.StepBounds = func(xx, vv, lower, upper []T) Bounds {
		return boundsRun(View[U](xx), View[U](vv), View[U](lower), View[U](upper))
	}
	return k
}

func complexKernels[T Elem, U complexes]() Kinds[T] {
	return kernelsOver[T](
		func(u []U) {
			for i, v := range u {
				u[i] = U(complex(cmplx.Abs(complex128(v)), 0))
			}
		},
		func(x, y U) int { return magCmp(complex128(x), complex128(y)) },
		func(x U) float64 { return cmplx.Abs(complex128(x)) })
}

// kernelsOver makes T's kernels from those of its underlying type U: abs on
// a run, the order that pick and median follow, and the magnitude the norms
// sum.
func kernelsOver[T Elem, U any](abs func(run []U), order func(x, y U) int, mag func(x U) float64) Kinds[T] {
	return Kinds[T]{
		Abs: func(run []T) { abs(View[U](run)) },
		Pick: func(dst, x, y []T, larger bool) {
			d, a, b := View[U](dst), View[U](x), View[U](y)
			for i := range d {
				c := order(a[i], b[i])
				if larger && c > 0 || !larger && c < 0 {
					d[i] = a[i]
				} else {
					d[i] = b[i]
				}
			}
		},
		Median: func(dst, x, y, z []T) {
			d, a, b, c := View[U](dst), View[U](x), View[U](y), View[U](z)
			for i := range d {
				lo, hi := a[i], b[i]
				o := order(lo, hi)
				if o == 0 {
					d[i] = lo
					continue
				}
				if o > 0 {
					lo, hi = hi, lo
				}
				switch {
				case order(c[i], lo) < 0:
					d[i] = lo
				case order(c[i], hi) <= 0:
					d[i] = c[i]
				default:
					d[i] = hi
				}
			}
		},
		Best: func(run []T, larger bool) int {
			u, k := View[U](run), 0
			for i := 1; i < len(u); i++ {
				switch {
				case isNaN(u[i]):
				case isNaN(u[k]):
					k = i
				case larger && order(u[i], u[k]) > 0, !larger && order(u[i], u[k]) < 0:
					k = i
				}
			}
			return k
		},
		Norms: func(run []T) (sum, most float64) {
			for _, v := range View[U](run) {
				m := mag(v)
				sum += m
				most = max(most, m)
			}
			return sum, most
		},
	}
}

// bestReal is the kernels' Best for real elements, with the comparisons
// inline and the best value in a register: SelectElem runs it over every
// element. A NaN never compares larger or smaller, so past the first
// number the loop needs no test for it.
func bestReal[U ordered](u []U, larger bool) int {
	k := 0
	for k < len(u) && u[k] != u[k] {
		k++
	}
	if k == len(u) {
		return 0
	}
	best := u[k]
	if larger {
		for i := k + 1; i < len(u); i++ {
			if v := u[i]; v > best {
				best, k = v, i
			}
		}
	} else {
		for i := k + 1; i < len(u); i++ {
			if v := u[i]; v < best {
				best, k = v, i
			}
		}
	}
	return k
}

// isNaN reports whether x (any element type) is or holds NaN.
func isNaN[U any](x U) bool {
	switch v := any(x).(type) {
	case complex64:
		return real(v) != real(v) || imag(v) != imag(v)
	case complex128:
		return cmplx.IsNaN(v)
	}
	return false
}

// magCmp compares |x| with |y| by their squares, which, scaled by a power of
// two (exactly) to neither overflow nor underflow, tie whenever the
// magnitudes do for exactly representable values (a rounded hypot may not).
func magCmp(x, y complex128) int {
	m := max(math.Abs(real(x)), math.Abs(imag(x)), math.Abs(real(y)), math.Abs(imag(y)))
	if m == 0 || math.IsInf(m, 0) || math.IsNaN(m) {
		return cmp.Compare(cmplx.Abs(x), cmplx.Abs(y))
	}
	_, e := math.Frexp(m)
	sq := func(z complex128) float64 {
		re, im := math.Ldexp(real(z), -e), math.Ldexp(imag(z), -e)
		return re*re + im*im
	}
	return cmp.Compare(sq(x), sq(y))
}
