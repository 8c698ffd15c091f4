package kernels

import (
	"reflect"
	"unsafe"
)

// The per-element arithmetic of ga's array math, on runs. Integers wrap on
// overflow and divide as integers do, as Go's and GA C's do.

// AddConstant adds alpha to every element of run.
func AddConstant[T Elem](run []T, alpha T) {
	for i := range run {
		run[i] += alpha
	}
}

// Scale multiplies every element of run by v.
func Scale[T Elem](run []T, v T) {
	for i := range run {
		run[i] *= v
	}
}

// Fill sets every element of run to v.
func Fill[T Elem](run []T, v T) {
	for i := range run {
		run[i] = v
	}
}

// Recip sets dst[i] = 1/x[i]; dst may be x.
func Recip[T Elem](dst, x []T) {
	for i, v := range x[:len(dst)] {
		dst[i] = 1 / v
	}
}

// Divide sets dst[i] = x[i]/y[i]; dst may be x or y.
func Divide[T Elem](dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = x[i] / y[i]
	}
}

// FirstZero returns the index of run's first zero, or -1 if there is none.
func FirstZero[T Elem](run []T) int {
	for i, v := range run {
		if v == 0 {
			return i
		}
	}
	return -1
}

// Transpose sets dst (h × w, row-major) to the transpose of src (w × h,
// row-major), in square tiles that stay in cache: element by element, every
// read of a large src missed it (ga's Transpose of 2048 × 2048 ran at 0.77
// of GA C's speed).
func Transpose[T any](dst, src []T, h, w int) {
	const tile = 32
	for i0 := 0; i0 < h; i0 += tile {
		for j0 := 0; j0 < w; j0 += tile {
			for i := i0; i < min(i0+tile, h); i++ {
				row := dst[i*w+j0 : i*w+min(j0+tile, w)]
				for j := range row {
					row[j] = src[(j0+j)*h+i]
				}
			}
		}
	}
}

// IntTo returns the conversion of an int to T (k+0i for the complex
// types), which Go does not allow on a type set that holds both integer
// and complex types.
func IntTo[T Elem]() func(k int) T {
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Int32:
		return func(k int) T { return As[T](int32(k)) }
	case reflect.Int64:
		return func(k int) T { return As[T](int64(k)) }
	case reflect.Float32:
		return func(k int) T { return As[T](float32(k)) }
	case reflect.Float64:
		return func(k int) T { return As[T](float64(k)) }
	case reflect.Complex64:
		return func(k int) T { return As[T](complex(float32(k), 0)) }
	}
	return func(k int) T { return As[T](complex(float64(k), 0)) }
}

// As is v seen as T, where one of T and U is the other's underlying type.
func As[T, U any](v U) T { return *(*T)(unsafe.Pointer(&v)) }
