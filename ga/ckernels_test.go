package ga_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestLongRuns: runs long enough for the C kernels (Add, Dot, ElemMultiply,
// the norms, SelectElem on float32 and float64) against a model, with the
// output a third array (with ordinary and non-temporal stores) or one of the
// operands, ties in SelectElem across the kernels' lanes, NaN, and
// arrays of -Inf (which the Go loop settles); and a Transpose large enough
// for several of its tiles each way.
func TestLongRuns(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		t.Run("float64", longRuns[float64])
		t.Run("float32", longRuns[float32])
		// The arrays are far below the size from which the kernels
		// stream (non-temporal stores); these runs make them stream.
		undo := ga.StreamKernels()
		defer undo()
		t.Run("float64/streaming", longRuns[float64])
		t.Run("float32/streaming", longRuns[float32])
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

func longRuns[T float32 | float64](t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 0))
	dims := []int{64, 100}
	n := total(dims)
	mkArray := func(name string) (*ga.Array[T], []T) {
		a, err := ga.Create[T](name, dims, nil)
		must(t, err)
		v := make([]T, n)
		for i := range v {
			v[i] = T(rng.IntN(21) - 10) // small integers: every sum below is exact in float32
		}
		putAll(t, a, v)
		return a, v
	}
	a, av := mkArray("a")
	defer destroy(t, a)
	b, bv := mkArray("b")
	defer destroy(t, b)

	// Into a third array (where the kernels may stream), then into an
	// operand.
	c, _ := mkArray("c")
	defer destroy(t, c)
	must(t, ga.Add(2, a, -3, b, c))
	cv := make([]T, n)
	for i := range cv {
		cv[i] = 2*av[i] - 3*bv[i]
	}
	sameElems(t, "Add into a third array", getAll(t, c), cv)
	must(t, ga.ElemMultiply(a, b, c))
	for i := range cv {
		cv[i] = av[i] * bv[i]
	}
	sameElems(t, "ElemMultiply into a third array", getAll(t, c), cv)
	must(t, ga.Add(2, a, -3, b, a))
	for i := range av {
		av[i] = 2*av[i] - 3*bv[i]
	}
	sameElems(t, "Add into its first operand", getAll(t, a), av)
	got, err := ga.Dot(a, b)
	must(t, err)
	var want T
	for i := range av {
		want += av[i] * bv[i]
	}
	if got != want {
		t.Errorf("Dot = %v, want %v", got, want)
	}
	must(t, ga.ElemMultiply(a, b, b))
	for i := range bv {
		bv[i] *= av[i]
	}
	sameElems(t, "ElemMultiply into its second operand", getAll(t, b), bv)
	var sum, most float64
	for _, x := range bv {
		sum += math.Abs(float64(x))
		most = max(most, math.Abs(float64(x)))
	}
	n1, err := b.Norm1()
	must(t, err)
	ninf, err := b.NormInfinity()
	must(t, err)
	if n1 != sum || ninf != most {
		t.Errorf("Norm1, NormInfinity = %v, %v; want %v, %v", n1, ninf, sum, most)
	}

	// The largest value twice, in different lanes, the smallest twice too,
	// and NaN before both: the first of each in C order wins.
	v := make([]T, n)
	for i := range v {
		v[i] = T(rng.IntN(1000))
	}
	nan := T(math.NaN())
	v[5], v[4100], v[4203], v[1000], v[2999] = nan, 5000, 5000, -7, -7
	putAll(t, a, v)
	for _, c := range []struct {
		op   ga.Op
		want T
		at   int
	}{{ga.OpMax, 5000, 4100}, {ga.OpMin, -7, 1000}} {
		val, idx, err := a.SelectElem(c.op)
		must(t, err)
		if val != c.want || !slices.Equal(idx, []int{c.at / 100, c.at % 100}) {
			t.Errorf("SelectElem(%q) = %v at %v, want %v at [%d %d]", c.op, val, idx, c.want, c.at/100, c.at%100)
		}
	}
	must(t, ga.Sync())

	tr, err := ga.Create[T]("tr", []int{dims[1], dims[0]}, nil)
	must(t, err)
	defer destroy(t, tr)
	must(t, ga.Transpose(b, tr))
	wt := make([]T, n)
	for i := range dims[0] {
		for j := range dims[1] {
			wt[j*dims[0]+i] = bv[i*dims[1]+j]
		}
	}
	sameElems(t, "Transpose of 64x100", getAll(t, tr), wt)
	must(t, ga.Sync())

	inf := T(math.Inf(-1))
	for i := range v {
		v[i] = inf
	}
	putAll(t, a, v)
	val, idx, err := a.SelectElem(ga.OpMax)
	must(t, err)
	if val != inf || !slices.Equal(idx, []int{0, 0}) {
		t.Errorf("SelectElem(max) of -Inf everywhere = %v at %v, want -Inf at [0 0]", val, idx)
	}
	must(t, ga.Sync())
}

// TestFillZero: Fill and Zero on every element type, with values whose
// bits matter (-0 keeps its sign, NaN its payload). (Filling with
// non-temporal stores was tried, see internal/kernels/ckernels.go: it lost.)
func TestFillZero(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		fillZero(t, float64(math.Copysign(0, -1)), math.Float64bits)
		fillZero(t, float32(math.Copysign(0, -1)), math.Float32bits)
		fillZero(t, math.Float64frombits(0x7ff8000000000123), math.Float64bits)
		fillZero(t, int32(-7), func(v int32) int32 { return v })
		fillZero(t, int64(1)<<40+3, func(v int64) int64 { return v })
		fillZero(t, complex64(complex(-1.5, 2)), func(v complex64) complex64 { return v })
		fillZero(t, complex(math.Copysign(0, -1), 0), func(v complex128) [2]uint64 {
			return [2]uint64{math.Float64bits(real(v)), math.Float64bits(imag(v))}
		})
	}, mpitest.Transports(mpitest.SharedMemory))
}

// fillZero fills a 37 × 53 array with v and then zeroes it, comparing
// every element's bits (through bits) with v's and then with zero's.
func fillZero[T ga.Elem, B comparable](t *testing.T, v T, bits func(T) B) {
	a, err := ga.Create[T]("fill", []int{37, 53}, nil)
	must(t, err)
	defer destroy(t, a)
	var zero T
	for _, c := range []struct {
		op   func() error
		want T
	}{{func() error { return a.Fill(v) }, v}, {a.Zero, zero}} {
		must(t, c.op())
		for i, got := range getAll(t, a) {
			if bits(got) != bits(c.want) {
				t.Errorf("%T: element %d is %v, want %v", v, i, got, c.want)
				break
			}
		}
		must(t, ga.Sync())
	}
}
