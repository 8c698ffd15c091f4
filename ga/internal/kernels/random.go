package kernels

import (
	"math/bits"
	"reflect"
	"unsafe"
)

// splitMix64 is the i-th output of SplitMix64 (Steele, Lea and Flood, 2014)
// seeded with seed: a counter-based generator, so any element's value is
// computed where it is stored.
func splitMix64(seed, i uint64) uint64 {
	z := seed + (i+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Random returns the function that fills dst, the elements at C-order
// positions first, first+1, ..., with ga's Randomize's values for val and
// seed: the element at position l gets SplitMix64's l-th output for seed (a
// complex element the 2l-th and the 2l+1-th), scaled by val.
func Random[T Elem](val T) func(dst []T, seed, first uint64) {
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Int32:
		return intRandom[T, int32](val)
	case reflect.Int64:
		return intRandom[T, int64](val)
	case reflect.Float32:
		return floatRandom[T, float32](val)
	case reflect.Float64:
		return floatRandom[T, float64](val)
	case reflect.Complex64:
		return complexRandom[T, complex64, float32](val)
	default:
		return complexRandom[T, complex128, float64](val)
	}
}

func intRandom[T Elem, U ~int32 | ~int64](val T) func(dst []T, seed, first uint64) {
	v := int64(As[U](val))
	m := uint64(v)
	if v < 0 {
		m = -m // |v|, MinInt64's included
	}
	return func(dst []T, seed, first uint64) {
		d := View[U](dst)
		for i := range d {
			// The high word of x·m is uniform over [0, m) to within 2⁻⁶⁴.
			r, _ := bits.Mul64(splitMix64(seed, first+uint64(i)), m)
			d[i] = U(r)
			if v < 0 {
				d[i] = -d[i]
			}
		}
	}
}

// scaled is v·u for u uniform over the multiples of 2⁻ᵖ in [0, 1), p being
// F's significand bits (24 or 53): u is exact in F, and v·u, rounded, stays
// short of v.
func scaled[F ~float32 | ~float64](v F, x uint64) F {
	p := 53
	if unsafe.Sizeof(v) == 4 {
		p = 24
	}
	return v * F(float64(x>>(64-p))/float64(uint64(1)<<p))
}

func floatRandom[T Elem, U ~float32 | ~float64](val T) func(dst []T, seed, first uint64) {
	v := As[U](val)
	return func(dst []T, seed, first uint64) {
		d := View[U](dst)
		for i := range d {
			d[i] = scaled(v, splitMix64(seed, first+uint64(i)))
		}
	}
}

func complexRandom[T Elem, U ~complex64 | ~complex128, F ~float32 | ~float64](val T) func(dst []T, seed, first uint64) {
	c := complex128(As[U](val))
	re, im := F(real(c)), F(imag(c))
	return func(dst []T, seed, first uint64) {
		d := View[U](dst)
		for i := range d {
			l := 2 * (first + uint64(i))
			d[i] = U(complex(float64(scaled(re, splitMix64(seed, l))), float64(scaled(im, splitMix64(seed, l+1)))))
		}
	}
}
