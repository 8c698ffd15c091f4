package ga_test

import (
	"cmp"
	"errors"
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestElemOps checks AbsValue, AddConstant, Recip, ElemMultiply,
// ElemDivide, ElemMaximum, ElemMinimum and Median, whole and patch forms, against a
// sequential model on random data in every element type, on arrays of four
// layouts distributed differently from each other, with patches at odd
// offsets and of other shapes, aliased outputs, and zero divisors, on 1-4
// processes over shared memory and TCP.
func TestElemOps(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		mpitest.Must(t, ga.Init())
		defer endGA(t)
		eachType(t, elemOps[int32], elemOps[int64], elemOps[float32], elemOps[float64], elemOps[complex64], elemOps[complex128])
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

// absModel is |x| as GA_Abs_value gives it: (|z|, 0) for a complex z.
func absModel[T ga.Elem](x T) T {
	switch v := any(x).(type) {
	case complex64:
		return any(complex64(complex(cmplx.Abs(complex128(v)), 0))).(T)
	case complex128:
		return any(complex(cmplx.Abs(v), 0)).(T)
	}
	if cmpModel(x, 0) < 0 {
		return -x
	}
	return x
}

// cmpModel orders real values by value and complex ones by magnitude,
// comparing squared magnitudes (exact for the tests' small integer parts).
func cmpModel[T ga.Elem](x, y T) int {
	sq := func(z complex128) float64 { return real(z)*real(z) + imag(z)*imag(z) }
	switch v := any(x).(type) {
	case int32:
		return cmp.Compare(v, any(y).(int32))
	case int64:
		return cmp.Compare(v, any(y).(int64))
	case float32:
		return cmp.Compare(v, any(y).(float32))
	case float64:
		return cmp.Compare(v, any(y).(float64))
	case complex64:
		return cmp.Compare(sq(complex128(v)), sq(complex128(any(y).(complex64))))
	case complex128:
		return cmp.Compare(sq(v), sq(any(y).(complex128)))
	}
	panic("unreachable")
}

// pickModel is GA's element-wise maximum (larger) or minimum: x if it ranks
// strictly above (below) y, else y.
func pickModel[T ga.Elem](x, y T, larger bool) T {
	c := cmpModel(x, y)
	if larger && c > 0 || !larger && c < 0 {
		return x
	}
	return y
}

// medianModel is GA_Median's choice among x, y and z.
func medianModel[T ga.Elem](x, y, z T) T {
	c := cmpModel(x, y)
	if c == 0 {
		return x
	}
	if c > 0 {
		x, y = y, x
	}
	switch {
	case cmpModel(z, x) < 0:
		return x
	case cmpModel(z, y) <= 0:
		return z
	}
	return y
}

// wantZeroDivisor checks the error of a division that met a zero: the same
// on every process, naming the array and the first zero.
func wantZeroDivisor(t *testing.T, what string, err error, op, array string, sub []int) {
	t.Helper()
	if err == nil {
		mpitest.Fatalf(t, "%s: no error, want a zero divisor at %v", what, sub)
	}
	if errors.Is(err, ga.ErrPeer) {
		t.Errorf("%s: %v; want this process's own error", what, err)
	}
	wantErr(t, what, err, op, array, ga.ErrZeroDivisor, fmt.Sprint(sub))
}

// noZeros replaces the zeros of m's patch [lo, hi] by z in the model and
// the array.
func (m made[T]) noZeros(t *testing.T, lo, hi []int, z T) {
	for _, p := range order(m.a.Dims(), lo, hi, false) {
		if m.model[p] == 0 {
			m.model[p] = z
		}
	}
	m.rewrite(t)
}

// firstZero is the subscript of the model's first zero in C order.
func (m made[T]) firstZero() []int {
	k := slices.Index(m.model, 0)
	if k < 0 {
		return nil
	}
	sub := make([]int, len(m.a.Dims()))
	for d := len(sub) - 1; d >= 0; d-- {
		sub[d], k = k%m.a.Dims()[d], k/m.a.Dims()[d]
	}
	return sub
}

// rewrite writes the model into the array, once every process is done
// reading it.
func (m made[T]) rewrite(t *testing.T) {
	mpitest.Must(t, ga.Sync())
	putAll(t, m.a, m.model)
}

// set writes v at sub, in the model and the array.
func (m made[T]) set(t *testing.T, sub []int, v T) {
	m.model[linear(m.a.Dims(), sub)] = v
	m.rewrite(t)
}

func elemOps[T ga.Elem](t *testing.T) {
	rng := rand.New(rand.NewPCG(11, uint64(len(typeName[T]()))))
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) { unaryOps[T](t, kind, rng) })
	}
	for i, ka := range kinds {
		for j, kb := range kinds {
			kc := kinds[(i+j+1)%len(kinds)]
			t.Run(ka+"And"+kb+"To"+kc, func(t *testing.T) { binaryOps[T](t, ka, kb, kc, rng) })
		}
	}
	t.Run("Refused", refusedElemOps[T])
}

func unaryOps[T ga.Elem](t *testing.T, kind string, rng *rand.Rand) {
	dims := []int{9, 11}
	m := newLayout[T](t, kind, dims, rng)
	defer destroy(t, m.a)
	apply := func(lo, hi []int, f func(T) T) {
		for _, p := range order(dims, lo, hi, false) {
			m.model[p] = f(m.model[p])
		}
	}
	lo, hi := []int{1, 3}, []int{7, 9}
	mpitest.Must(t, m.a.AbsValuePatch(lo, hi))
	apply(lo, hi, absModel[T])
	m.check(t, "AbsValuePatch")
	alpha := mk[T](-7, 3)
	mpitest.Must(t, m.a.AddConstantPatch([]int{0, 4}, []int{8, 4}, alpha))
	apply([]int{0, 4}, []int{8, 4}, func(x T) T { return x + alpha })
	m.check(t, "AddConstantPatch of a column")
	mpitest.Must(t, m.a.AddConstant(alpha))
	apply([]int{0, 0}, []int{8, 10}, func(x T) T { return x + alpha })
	m.check(t, "AddConstant")

	// A patch with zeros: refused on every process, with the first zero in
	// C order named and nothing changed.
	lo, hi = []int{2, 1}, []int{6, 8}
	m.noZeros(t, []int{0, 0}, []int{8, 10}, mk[T](5, -1))
	m.set(t, []int{5, 2}, 0)
	m.set(t, []int{3, 7}, 0)
	err := m.a.RecipPatch(lo, hi)
	wantZeroDivisor(t, "RecipPatch over zeros", err, "RecipPatch", kind, []int{3, 7})
	m.check(t, "RecipPatch refused")
	err = m.a.Recip()
	wantZeroDivisor(t, "Recip over zeros", err, "Recip", kind, []int{3, 7})
	m.check(t, "Recip refused")

	m.noZeros(t, []int{0, 0}, []int{8, 10}, mk[T](-3, 2))
	mpitest.Must(t, m.a.Recip())
	apply([]int{0, 0}, []int{8, 10}, func(x T) T { return 1 / x })
	m.check(t, "Recip")
	m.noZeros(t, []int{0, 0}, []int{8, 10}, mk[T](2, 2))
	mpitest.Must(t, m.a.RecipPatch(lo, hi))
	apply(lo, hi, func(x T) T { return 1 / x })
	m.check(t, "RecipPatch")
	mpitest.Must(t, m.a.AbsValue())
	apply([]int{0, 0}, []int{8, 10}, absModel[T])
	m.check(t, "AbsValue")
}

// binaryOps checks the two-operand operations on arrays of layouts ka and
// kb into one of layout kc.
func binaryOps[T ga.Elem](t *testing.T, ka, kb, kc string, rng *rand.Rand) {
	a := newLayout[T](t, ka, []int{9, 11}, rng)
	defer destroy(t, a.a)
	b := newLayout[T](t, kb, []int{8, 13}, rng)
	defer destroy(t, b.a)
	c := newLayout[T](t, kc, []int{10, 10}, rng)
	defer destroy(t, c.a)
	d := newLayout[T](t, kb, []int{11, 9}, rng) // a's element count
	defer destroy(t, d.a)
	e := newLayout[T](t, kc, []int{3, 33}, rng) // a's element count
	defer destroy(t, e.a)

	alo, ahi := []int{2, 1}, []int{7, 4}  // 6x4
	blo, bhi := []int{3, 5}, []int{6, 10} // 4x6
	clo, chi := []int{1, 1}, []int{3, 8}  // 3x8
	// Ties for the maximum and minimum: the same magnitude, another value.
	a.set(t, []int{2, 1}, mk[T](3, 4))
	b.set(t, []int{3, 5}, mk[T](-5, 0))
	a.set(t, []int{2, 2}, mk[T](-6, 0))
	b.set(t, []int{3, 6}, mk[T](6, 0))

	// binary runs op on the patches and checks c against the model.
	binary := func(what string, x made[T], xlo, xhi []int, y made[T], ylo, yhi []int, z made[T], zlo, zhi []int,
		op func(*ga.Array[T], []int, []int, *ga.Array[T], []int, []int, *ga.Array[T], []int, []int) error, f func(x, y T) T) {
		t.Helper()
		mpitest.Must(t, op(x.a, xlo, xhi, y.a, ylo, yhi, z.a, zlo, zhi))
		px, py := order(x.a.Dims(), xlo, xhi, false), order(y.a.Dims(), ylo, yhi, false)
		xs, ys := slices.Clone(x.model), slices.Clone(y.model) // z may be x or y
		for k, p := range order(z.a.Dims(), zlo, zhi, false) {
			z.model[p] = f(xs[px[k]], ys[py[k]])
		}
		z.check(t, what)
		x.check(t, what+": first operand")
		y.check(t, what+": second operand")
	}
	mul := func(x, y T) T { return x * y }
	maxOf := func(x, y T) T { return pickModel(x, y, true) }
	minOf := func(x, y T) T { return pickModel(x, y, false) }
	div := func(x, y T) T { return x / y }

	binary("ElemMultiplyPatch", a, alo, ahi, b, blo, bhi, c, clo, chi, ga.ElemMultiplyPatch[T], mul)
	binary("ElemMaximumPatch", a, alo, ahi, b, blo, bhi, c, clo, chi, ga.ElemMaximumPatch[T], maxOf)
	binary("ElemMinimumPatch", a, alo, ahi, b, blo, bhi, c, clo, chi, ga.ElemMinimumPatch[T], minOf)
	binary("ElemMaximumPatch with the operands swapped", b, blo, bhi, a, alo, ahi, c, clo, chi, ga.ElemMaximumPatch[T], maxOf)

	// The median of three patches, into the third's; ties in c too.
	c.set(t, []int{1, 1}, mk[T](5, 0))
	c.set(t, []int{1, 2}, mk[T](0, 6))
	mpitest.Must(t, ga.MedianPatch(a.a, alo, ahi, b.a, blo, bhi, c.a, clo, chi, c.a, clo, chi))
	pa, pb := order(a.a.Dims(), alo, ahi, false), order(b.a.Dims(), blo, bhi, false)
	zs := slices.Clone(c.model)
	for k, p := range order(c.a.Dims(), clo, chi, false) {
		c.model[p] = medianModel(a.model[pa[k]], b.model[pb[k]], zs[p])
	}
	c.check(t, "MedianPatch into its third operand")

	// A zero in the divisor's patch: refused everywhere, c unchanged.
	b.noZeros(t, blo, bhi, mk[T](-2, 1))
	b.set(t, []int{5, 7}, 0)
	b.set(t, []int{4, 9}, 0)
	err := ga.ElemDividePatch(a.a, alo, ahi, b.a, blo, bhi, c.a, clo, chi)
	wantZeroDivisor(t, "ElemDividePatch by zeros", err, "ElemDividePatch", kb, []int{4, 9})
	c.check(t, "ElemDividePatch refused")
	b.noZeros(t, blo, bhi, mk[T](-2, 1))
	binary("ElemDividePatch", a, alo, ahi, b, blo, bhi, c, clo, chi, ga.ElemDividePatch[T], div)

	// Outputs that alias an operand: the same patch, read in place, and an
	// overlapping one, read before anything is written.
	binary("ElemMultiplyPatch into its first operand's overlapping patch", a, alo, ahi, b, blo, bhi, a, []int{3, 2}, []int{5, 9}, ga.ElemMultiplyPatch[T], mul)
	binary("ElemMinimumPatch into its second operand's patch", a, []int{0, 0}, []int{3, 5}, b, blo, bhi, b, blo, bhi, ga.ElemMinimumPatch[T], minOf)
	a.noZeros(t, []int{1, 6}, []int{6, 9}, mk[T](1, -1))
	binary("ElemDividePatch of a patch by itself, in place", a, []int{1, 6}, []int{6, 9}, a, []int{1, 6}, []int{6, 9}, a, []int{1, 6}, []int{6, 9}, ga.ElemDividePatch[T], div)

	// Whole arrays of one element count, shaped and distributed apart.
	whole := func(what string, x, y, z made[T], op func(x, y, z *ga.Array[T]) error, f func(x, y T) T) {
		t.Helper()
		mpitest.Must(t, op(x.a, y.a, z.a))
		xs, ys := slices.Clone(x.model), slices.Clone(y.model)
		for k := range z.model {
			z.model[k] = f(xs[k], ys[k])
		}
		z.check(t, what)
	}
	whole("ElemMultiply into its first operand", a, d, a, ga.ElemMultiply[T], mul)
	whole("ElemMaximum into its first operand", d, a, d, ga.ElemMaximum[T], maxOf)
	whole("ElemMinimum into its second operand", d, a, a, ga.ElemMinimum[T], minOf)
	mpitest.Must(t, ga.Median(a.a, d.a, e.a, d.a))
	for k := range d.model {
		d.model[k] = medianModel(a.model[k], d.model[k], e.model[k])
	}
	d.check(t, "Median into its second operand")
	a.noZeros(t, []int{0, 0}, []int{8, 10}, mk[T](3, 0))
	d.set(t, []int{10, 8}, 0)
	err = ga.ElemDivide(d.a, a.a, d.a)
	if err != nil {
		mpitest.Fatalf(t, "ElemDivide with a zero in the dividend only: %v", err)
	}
	xs := slices.Clone(d.model)
	for k := range d.model {
		d.model[k] = xs[k] / a.model[k]
	}
	d.check(t, "ElemDivide")
	err = ga.ElemDivide(a.a, d.a, a.a)
	wantZeroDivisor(t, "ElemDivide by a zero", err, "ElemDivide", kb, d.firstZero())
	a.check(t, "ElemDivide refused")
}

// refusedElemOps checks that misuse is an error on every process and
// changes nothing.
func refusedElemOps[T ga.Elem](t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	a := newLayout[T](t, "regular", []int{6, 7}, rng)
	defer destroy(t, a.a)
	b := newLayout[T](t, "cyclic", []int{7, 6}, rng)
	defer destroy(t, b.a)
	c := newLayout[T](t, "rows", []int{5, 9}, rng)
	defer destroy(t, c.a)
	err := ga.ElemMultiply(a.a, b.a, c.a)
	wantErr(t, "ElemMultiply with 45 elements out of 42", err, "ElemMultiply", "regular", nil, "42", "45")
	err = ga.ElemMaximumPatch(a.a, []int{0, 0}, []int{1, 2}, b.a, []int{0, 0}, []int{2, 1}, c.a, []int{0, 0}, []int{0, 6})
	wantErr(t, "ElemMaximumPatch with 7 elements out of 6", err, "ElemMaximumPatch", "regular", nil, "7", "6")
	err = ga.ElemDividePatch(a.a, []int{0, 0}, []int{1, 2}, b.a, []int{0, 0}, []int{1, 6}, c.a, []int{0, 0}, []int{0, 5})
	wantErr(t, "ElemDividePatch outside the divisor", err, "ElemDividePatch", "cyclic", nil, "[1 6]")
	err = a.a.AddConstantPatch([]int{0, 0}, []int{6, 0}, mk[T](1, 1))
	wantErr(t, "AddConstantPatch outside the array", err, "AddConstantPatch", "regular", nil, "[6 0]")
	err = a.a.RecipPatch([]int{2}, []int{3})
	wantErr(t, "RecipPatch with one index", err, "RecipPatch", "regular", nil)
	err = ga.Median(a.a, b.a, c.a, a.a)
	wantErr(t, "Median with 45 elements out of 42", err, "Median", "rows", nil, "42", "45")
	err = ga.ElemMinimum(a.a, nil, a.a)
	wantErr(t, "ElemMinimum of a nil array", err, "ElemMinimum", "", ga.ErrNil)
	a.check(t, "refused calls")
	b.check(t, "refused calls")
	c.check(t, "refused calls")
}
