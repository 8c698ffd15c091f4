package kernels

import (
	"math"
	"slices"
	"testing"
)

// TestRunArithmetic: the per-element arithmetic against closed forms, with
// integers wrapping and dividing as Go's do.
func TestRunArithmetic(t *testing.T) {
	run := []int64{1, -2, math.MaxInt64}
	AddConstant(run, 1)
	if want := []int64{2, -1, math.MinInt64}; !slices.Equal(run, want) {
		t.Errorf("AddConstant: %v, want %v", run, want)
	}
	Scale(run, 3)
	if want := []int64{6, -3, math.MinInt64}; !slices.Equal(run, want) {
		t.Errorf("Scale: %v, want %v", run, want)
	}
	Fill(run, 7)
	if want := []int64{7, 7, 7}; !slices.Equal(run, want) {
		t.Errorf("Fill: %v, want %v", run, want)
	}
	x := []int32{7, -7, 2}
	q := make([]int32, 3)
	Divide(q, x, []int32{2, 2, -3})
	if want := []int32{3, -3, 0}; !slices.Equal(q, want) {
		t.Errorf("Divide: %v, want %v", q, want)
	}
	r := []float64{2, -4, 0.5}
	Recip(r, r)
	if want := []float64{0.5, -0.25, 2}; !slices.Equal(r, want) {
		t.Errorf("Recip in place: %v, want %v", r, want)
	}
	if k := FirstZero([]complex64{1, 1i, 0, 0}); k != 2 {
		t.Errorf("FirstZero = %d, want 2", k)
	}
	if k := FirstZero([]float32{1, 2}); k != -1 {
		t.Errorf("FirstZero with no zero = %d, want -1", k)
	}
}

// TestTranspose: a 3 × 70 matrix (more than two tiles across) turned over.
func TestTranspose(t *testing.T) {
	const h, w = 70, 3
	src := make([]int32, h*w) // w × h, row-major
	for i := range src {
		src[i] = int32(i)
	}
	dst := make([]int32, h*w)
	Transpose(dst, src, h, w)
	for i := range h {
		for j := range w {
			if got, want := dst[i*w+j], src[j*h+i]; got != want {
				t.Fatalf("dst(%d, %d) = %d, want %d", i, j, got, want)
			}
		}
	}
}

// TestScans: a segmented sum and copy over a run whose first element
// starts no segment, and packing by a mask of another element type.
func TestScans(t *testing.T) {
	x := []float64{5, 1, 2, 3, 4}
	bits := []int32{0, 1, 0, 1, 0}
	for _, c := range []struct {
		add, excl bool
		want      []float64
	}{
		{true, false, []float64{-1, 1, 3, 3, 7}},
		{true, true, []float64{-1, 0, 1, 0, 3}},
		{false, false, []float64{-1, 1, 1, 3, 3}},
	} {
		dst := []float64{-1, -1, -1, -1, -1}
		s := Scan[float64]{Add: c.add}
		ScanRun(&s, x, bits, dst, c.excl)
		if !slices.Equal(dst, c.want) {
			t.Errorf("scan add %v excl %v: %v, want %v", c.add, c.excl, dst, c.want)
		}
	}
	mask := []complex128{0, 1i, 0, 2, 0}
	if n := Nonzero(mask); n != 2 {
		t.Errorf("Nonzero = %d, want 2", n)
	}
	if p := Pack(nil, x, mask); !slices.Equal(p, []float64{1, 3}) {
		t.Errorf("Pack = %v, want [1 3]", p)
	}
	u := []float64{9, 9, 9, 9, 9}
	Unpack(u, []float64{-1, -2}, mask)
	if want := []float64{9, -1, 9, -2, 9}; !slices.Equal(u, want) {
		t.Errorf("Unpack: %v, want %v", u, want)
	}
	e := make([]complex64, 3)
	Enum(e, 2, 1+1i, 0.5)
	if want := []complex64{2 + 1i, 2.5 + 1i, 3 + 1i}; !slices.Equal(e, want) {
		t.Errorf("Enum: %v, want %v", e, want)
	}
}

// TestSteps: StepMax's and StepBoundInfo's run work, and Bounds joined.
func TestSteps(t *testing.T) {
	k := Of[float64]()
	step, neg := k.StepMax([]float64{4, 1, 6}, []float64{-2, 1, -1})
	if step != 2 || neg {
		t.Errorf("StepMax = %v, %v; want 2, false", step, neg)
	}
	if _, neg := k.StepMax([]float64{-1}, []float64{1}); !neg {
		t.Error("StepMax missed a negative element")
	}
	// Moving up by 1 from 1 toward 3, down by 2 from 1 toward 0, still on
	// a bound, still inside.
	b := k.StepBounds([]float64{1, 1, 0, 1}, []float64{1, -2, 0, 0}, []float64{0, 0, 0, 0}, []float64{3, 3, 3, 3})
	want := Bounds{Min: 0, Wolfe: 0.5, Max: math.Inf(1)}
	if b != want {
		t.Errorf("StepBounds = %+v, want %+v", b, want)
	}
	j := NoBounds().Join(Bounds{Min: 1, Wolfe: 2, Max: 3, Above: true}).Join(Bounds{Min: 0.5, Wolfe: 4, Max: 2, Below: true})
	if want := (Bounds{Min: 0.5, Wolfe: 2, Max: 3, Above: true, Below: true}); j != want {
		t.Errorf("Join = %+v, want %+v", j, want)
	}
	if Of[complex64]().StepMax != nil || Of[complex128]().StepBounds != nil {
		t.Error("complex elements have step kernels")
	}
}
