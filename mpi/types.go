package mpi

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/goga-hpc/goga/cgo"
)

// Elem is the set of Go element types that MPI calls carry. Named types whose
// underlying type is one of these work too. int and uint are 64-bit here.
type Elem interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~int |
		~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uint |
		~float32 | ~float64 | ~complex64 | ~complex128
}

// kind classifies element types for operator checks.
type kind uint8

const (
	kindInt kind = iota
	kindFloat
	kindComplex
)

type elemInfo struct {
	dt   cgo.Datatype
	size int
	kind kind
	name string
}

var infoByKind map[reflect.Kind]elemInfo

func init() {
	infoByKind = map[reflect.Kind]elemInfo{
		reflect.Int8:       {cgo.Int8, 1, kindInt, "int8"},
		reflect.Int16:      {cgo.Int16, 2, kindInt, "int16"},
		reflect.Int32:      {cgo.Int32, 4, kindInt, "int32"},
		reflect.Int64:      {cgo.Int64, 8, kindInt, "int64"},
		reflect.Int:        {cgo.Int64, 8, kindInt, "int"},
		reflect.Uint8:      {cgo.Uint8, 1, kindInt, "uint8"},
		reflect.Uint16:     {cgo.Uint16, 2, kindInt, "uint16"},
		reflect.Uint32:     {cgo.Uint32, 4, kindInt, "uint32"},
		reflect.Uint64:     {cgo.Uint64, 8, kindInt, "uint64"},
		reflect.Uint:       {cgo.Uint64, 8, kindInt, "uint"},
		reflect.Float32:    {cgo.Float, 4, kindFloat, "float32"},
		reflect.Float64:    {cgo.Double, 8, kindFloat, "float64"},
		reflect.Complex64:  {cgo.FloatComplex, 8, kindComplex, "complex64"},
		reflect.Complex128: {cgo.DoubleComplex, 16, kindComplex, "complex128"},
	}
	if unsafe.Sizeof(int(0)) != 8 {
		panic("mpi: goga needs a 64-bit platform")
	}
}

// info returns the MPI datatype of T. The type switch catches the common
// unnamed types without reflection.
func info[T Elem]() elemInfo {
	var z T
	switch any(z).(type) {
	case float64:
		return elemInfo{cgo.Double, 8, kindFloat, "float64"}
	case int:
		return elemInfo{cgo.Int64, 8, kindInt, "int"}
	case int32:
		return elemInfo{cgo.Int32, 4, kindInt, "int32"}
	case int64:
		return elemInfo{cgo.Int64, 8, kindInt, "int64"}
	case float32:
		return elemInfo{cgo.Float, 4, kindFloat, "float32"}
	case complex128:
		return elemInfo{cgo.DoubleComplex, 16, kindComplex, "complex128"}
	case uint8:
		return elemInfo{cgo.Uint8, 1, kindInt, "uint8"}
	}
	return infoByKind[reflect.TypeFor[T]().Kind()]
}

// ptr returns the address of a slice's first element, or nil for an empty slice.
func ptr[T any](s []T) unsafe.Pointer {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Pointer(unsafe.SliceData(s))
}

// sendPtr is ptr but keeps a nil slice nil and gives an empty, non-nil slice a
// non-nil address, so that the shim can read nil as MPI_IN_PLACE.
func sendPtr[T any](s []T) unsafe.Pointer {
	if s == nil {
		return nil
	}
	if len(s) == 0 {
		var one [1]byte
		return unsafe.Pointer(&one[0])
	}
	return unsafe.Pointer(unsafe.SliceData(s))
}

const maxCount = 1<<31 - 1

// checkCount refuses counts that MPI's C int cannot carry.
func checkCount(op, arg string, n int) error {
	if n < 0 {
		return argErr(op, arg, "negative count %d", n)
	}
	if n > maxCount {
		return argErr(op, arg, "count %d exceeds MPI's limit of %d elements", n, maxCount)
	}
	return nil
}

func typeName[T Elem]() string { return fmt.Sprintf("%T", *new(T)) }
