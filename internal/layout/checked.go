package layout

import (
	"fmt"
	"math/bits"
	"slices"
)

// Every size, pitch and offset that goga derives from a caller's numbers is
// computed here, with overflow checks: a leading dimension of 1<<62 must be an
// error, never a pitch that wraps around to a small number and lets a
// transfer write where nobody asked.

// Mul returns a·b for a, b ≥ 0, and false if it does not fit an int.
func Mul(a, b int) (int, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > 1<<63-1 {
		return 0, false
	}
	return int(lo), true
}

// Add returns a+b for a, b ≥ 0, and false if it does not fit an int.
func Add(a, b int) (int, bool) {
	s := a + b
	return s, s >= a
}

// CheckedProduct is Product with overflow checks: the product of dims (each
// at least 1) times es, the size of one element in bytes, and false if it does
// not fit an int.
func CheckedProduct(dims []int, es int) (int, bool) {
	n := es
	for _, d := range dims {
		var ok bool
		if n, ok = Mul(n, d); !ok {
			return 0, false
		}
	}
	return n, true
}

// Buffer is how a caller's buffer holds a patch: the distance, in elements,
// between neighbours along each dimension, and how many elements the buffer
// must hold to reach the patch's last element.
type Buffer struct {
	Pitch [MaxDim]int
	Need  int
}

// LayoutError is a leading-dimension or buffer-size mistake; its text names
// the values, for the caller to wrap with the operation and the array.
type LayoutError struct{ msg string }

func (e *LayoutError) Error() string { return e.msg }

func layoutErr(format string, a ...any) error { return &LayoutError{fmt.Sprintf(format, a...)} }

// BufferOf checks the leading dimensions ld of a buffer that holds a patch of
// count[d] ≥ 1 elements along each dimension d (ld nil: packed; otherwise
// len(count)-1 values, ld[d] at least count[d+1]) with elements of es bytes,
// and fills b with its layout. Every pitch, in bytes too, must fit an int, so
// that no path that derives offsets or strides from it can overflow.
func BufferOf(count, ld []int, es int, b *Buffer) error {
	nd := len(count)
	if nd < 1 || nd > MaxDim {
		return layoutErr("%d dimensions", nd)
	}
	if ld != nil && len(ld) != nd-1 {
		return layoutErr("ld %v has %d entries; a %d-dimensional patch needs %d", slices.Clone(ld), len(ld), nd, nd-1)
	}
	b.Pitch[nd-1] = 1
	ok := true
	for d := nd - 2; d >= 0 && ok; d-- {
		l := count[d+1]
		if ld != nil {
			if ld[d] < l {
				return layoutErr("ld[%d] = %d is less than the patch's extent %d along dimension %d", d, ld[d], l, d+1)
			}
			l = ld[d]
		}
		b.Pitch[d], ok = Mul(b.Pitch[d+1], l)
	}
	if ok {
		// The pitches grow towards dimension 0: the first is the largest.
		_, ok = Mul(b.Pitch[0], es)
	}
	if !ok {
		return layoutErr("ld %v: the buffer's pitches overflow", slices.Clone(ld))
	}
	need := 1
	for d := range nd {
		step, ok := Mul(count[d]-1, b.Pitch[d])
		if ok {
			need, ok = Add(need, step)
		}
		if !ok {
			return layoutErr("ld %v: a patch of %v elements would need a buffer larger than memory", slices.Clone(ld), slices.Clone(count))
		}
	}
	if _, ok := Mul(need, es); !ok {
		return layoutErr("ld %v: a patch of %v elements would need a buffer larger than memory", slices.Clone(ld), slices.Clone(count))
	}
	b.Need = need
	return nil
}
