package linalg

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/goga-hpc/goga/scalapack"
)

// The solvers refuse input that ScaLAPACK would turn into a wrong answer
// with INFO = 0: NaN or Inf anywhere in A or B (X comes back NaN, or the
// pivots meaningless), and a nonsymmetric A where Cholesky is asked for (it
// reads one triangle and solves another system). The checks are local passes
// over data each process reads anyway; their verdicts ride on agreements
// the solvers make anyway, so that every process refuses alike before
// anything is written.

// allFinite reports whether s holds no NaN or Inf, whose exponent bits are
// all ones: adding 1 to such an exponent carries into the sign bit. Integer
// operations, four independent ones a step, keep the pass at memory speed.
func allFinite(s []float64) bool {
	const exp, one = 0x7ff0_0000_0000_0000, 1 << 52
	var a0, a1, a2, a3 uint64
	i := 0
	for ; i+4 <= len(s); i += 4 {
		a0 |= math.Float64bits(s[i])&exp + one
		a1 |= math.Float64bits(s[i+1])&exp + one
		a2 |= math.Float64bits(s[i+2])&exp + one
		a3 |= math.Float64bits(s[i+3])&exp + one
	}
	for ; i < len(s); i++ {
		a0 |= math.Float64bits(s[i])&exp + one
	}
	return (a0|a1|a2|a3)>>63 == 0
}

// allFinite32 is allFinite for float32.
func allFinite32(s []float32) bool {
	const exp, one = 0x7f80_0000, 1 << 23
	var a0, a1 uint32
	i := 0
	for ; i+2 <= len(s); i += 2 {
		a0 |= math.Float32bits(s[i])&exp + one
		a1 |= math.Float32bits(s[i+1])&exp + one
	}
	for ; i < len(s); i++ {
		a0 |= math.Float32bits(s[i])&exp + one
	}
	return (a0|a1)>>31 == 0
}

// finite reports whether s holds no NaN or Inf (in either part, if complex).
func finite[T scalapack.Elem](s []T) bool {
	p := unsafe.Pointer(unsafe.SliceData(s))
	switch any(*new(T)).(type) {
	case float32:
		return allFinite32(unsafe.Slice((*float32)(p), len(s)))
	case complex64:
		return allFinite32(unsafe.Slice((*float32)(p), 2*len(s)))
	case complex128:
		return allFinite(unsafe.Slice((*float64)(p), 2*len(s)))
	}
	return allFinite(unsafe.Slice((*float64)(p), len(s)))
}

// finiteTransposed checks the local part of m, the transpose of the array
// x (as the solvers hold their operands), and names the first element that
// is NaN or Inf by its place in x.
func finiteTransposed[T scalapack.Elem](c Call, x Array[T], m *scalapack.Matrix[T]) error {
	rows, cols := m.LocalShape()
	if rows == 0 {
		return nil // nothing here; Data is a placeholder
	}
	ok := true
	for j := 0; j < cols && ok; j++ {
		ok = finite(m.Data[j*m.Desc.LLD : j*m.Desc.LLD+rows])
	}
	if ok {
		return nil
	}
	var err error
	m.Each(func(i, j int, v *T) {
		if err == nil && !finite([]T{*v}) {
			err = notFinite(c, x, j, i, *v)
		}
	})
	return err
}

func notFinite[T scalapack.Elem](c Call, x Array[T], i, j int, v T) error {
	return c.Refuse(x.Name(), NotFinite, fmt.Sprintf("element [%d %d] is %v", i, j, v))
}

// checkSymmetric checks that the square array a equals its transpose
// (complex: its conjugate transpose) and holds no NaN or Inf: every process
// compares the elements it stores with their mirrors, read in one Get per
// block. The processes agree first on whether any found NaN or Inf (a
// NotFinite refusal), then on symmetry: a nonsymmetric a is a NotSymmetric
// refusal if refuse, else the answer sym = false, alike on every process.
// It is collective; the caller has synchronized.
func checkSymmetric[T scalapack.Elem](c Call, a Array[T], refuse bool) (sym bool, err error) {
	var bad, asym error
	conj := conjOf[T]()
	err = withMirrors(a, func(i, j int, v *T, mirror T) {
		switch {
		case bad != nil:
		case !finite([]T{*v}):
			bad = notFinite(c, a, i, j, *v)
		case !finite([]T{mirror}):
			bad = notFinite(c, a, j, i, mirror)
		case asym == nil && *v != conj(mirror):
			asym = c.Refuse(a.Name(), NotSymmetric, fmt.Sprintf("element [%d %d] is %v, [%d %d] is %v", i, j, *v, j, i, mirror))
		}
	})
	if err == nil {
		err = bad
	}
	if err := c.Agree(false, a.Name(), err); err != nil {
		return false, err
	}
	if refuse {
		return true, c.Agree(false, a.Name(), asym)
	}
	v := []int64{0}
	if asym != nil {
		v[0] = 1
	}
	if err := c.AllMax(v); err != nil {
		return false, err
	}
	return v[0] == 0, nil
}
