package ga_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestTranspose checks Transpose against a sequential model on random data in
// every element type, from and to arrays of five layouts (irregular
// included) distributed differently from each other, on odd shapes, plus a
// closed form and refused calls, on 1-4 processes over shared memory and
// TCP.
func TestTranspose(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		mpitest.Must(t, ga.Init())
		defer endGA(t)
		eachType(t, transposes[int32], transposes[int64], transposes[float32], transposes[float64], transposes[complex64], transposes[complex128])
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

// TestSymmetrize checks Symmetrize against a sequential model on random data
// in the floating-point and complex types, in five layouts, plus a closed
// form and refused calls (integer types among them), on 1-4 processes over
// shared memory and TCP.
func TestSymmetrize(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		mpitest.Must(t, ga.Init())
		defer endGA(t)
		eachType(t, symmetrizes[int32], symmetrizes[int64], symmetrizes[float32], symmetrizes[float64], symmetrizes[complex64], symmetrizes[complex128])
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

// layouts are newLayout's kinds and an irregular one.
var layouts = append(slices.Clone(kinds), "irregular")

// newKind is newLayout, with "irregular": a block of one row and, on four
// processes or more, one of the last two columns.
func newKind[T ga.Elem](t *testing.T, kind string, dims []int, rng *rand.Rand) made[T] {
	t.Helper()
	if kind != "irregular" {
		return newLayout[T](t, kind, dims, rng)
	}
	np := ga.Nnodes()
	starts := make([][]int, len(dims))
	for d := range starts {
		starts[d] = []int{0}
	}
	if np >= 2 && dims[0] > 1 {
		starts[0] = []int{0, 1}
	}
	if np >= 4 && len(dims) > 1 && dims[1] > 2 {
		starts[1] = []int{0, dims[1] - 2}
	}
	a, err := ga.CreateIrreg[T](kind, dims, starts)
	mpitest.Must(t, err)
	m := made[T]{a: a, model: make([]T, total(dims))}
	for i := range m.model {
		m.model[i] = mk[T](rng.IntN(41)-20, rng.IntN(41)-20)
	}
	putAll(t, a, m.model)
	return m
}

// transposed is the model of xᵀ for x of dims.
func transposed[T ga.Elem](x []T, dims []int) []T {
	out := make([]T, len(x))
	for i := range dims[0] {
		for j := range dims[1] {
			out[j*dims[0]+i] = x[i*dims[1]+j]
		}
	}
	return out
}

func transposes[T ga.Elem](t *testing.T) {
	rng := rand.New(rand.NewPCG(23, uint64(len(typeName[T]()))))
	for _, dims := range [][]int{{9, 11}, {1, 7}, {13, 2}} {
		for _, ka := range layouts {
			for _, kb := range layouts {
				a := newKind[T](t, ka, dims, rng)
				b := newKind[T](t, kb, []int{dims[1], dims[0]}, rng)
				mpitest.Must(t, ga.Transpose(a.a, b.a))
				b.model = transposed(a.model, dims)
				b.check(t, "Transpose from "+ka+" "+fmt.Sprint(dims))
				a.check(t, "Transpose's source")
				mpitest.Must(t, a.a.Destroy())
				mpitest.Must(t, b.a.Destroy())
			}
		}
	}

	// A closed form: [[1 2 3] [4 5 6]]ᵀ = [[1 4] [2 5] [3 6]].
	a := newKind[T](t, "regular", []int{2, 3}, rng)
	defer destroy(t, a.a)
	b := newKind[T](t, "cyclic", []int{3, 2}, rng)
	defer destroy(t, b.a)
	a.model = []T{mk[T](1, 1), mk[T](2, 0), mk[T](3, 0), mk[T](4, 0), mk[T](5, 0), mk[T](6, -6)}
	a.rewrite(t)
	mpitest.Must(t, ga.Transpose(a.a, b.a))
	b.model = []T{mk[T](1, 1), mk[T](4, 0), mk[T](2, 0), mk[T](5, 0), mk[T](3, 0), mk[T](6, -6)}
	b.check(t, "Transpose of [[1 2 3] [4 5 6]]")

	// Refused, on every process, with nothing changed.
	same := newKind[T](t, "rows", []int{2, 3}, rng)
	defer destroy(t, same.a)
	cube := newKind[T](t, "regular", []int{2, 3, 2}, rng)
	defer destroy(t, cube.a)
	wantErr(t, "Transpose into the same shape", ga.Transpose(a.a, same.a), "Transpose", "rows", nil, "[2 3]")
	wantErr(t, "Transpose into itself", ga.Transpose(a.a, a.a), "Transpose", "regular", nil, "same array")
	wantErr(t, "Transpose of a 3-D array", ga.Transpose(cube.a, b.a), "Transpose", "regular", nil, "[2 3 2]")
	wantErr(t, "Transpose into a 3-D array", ga.Transpose(b.a, cube.a), "Transpose", "regular", nil, "[2 3 2]")
	wantErr(t, "Transpose of a nil array", ga.Transpose(nil, b.a), "Transpose", "", ga.ErrNil)
	a.check(t, "refused Transposes")
	b.check(t, "refused Transposes")
	same.check(t, "refused Transposes")
	cube.check(t, "refused Transposes")
}

func symmetrizes[T ga.Elem](t *testing.T) {
	rng := rand.New(rand.NewPCG(29, uint64(len(typeName[T]()))))
	if typeName[T]() == "int32" || typeName[T]() == "int64" {
		m := newKind[T](t, "regular", []int{5, 5}, rng)
		defer destroy(t, m.a)
		wantErr(t, "Symmetrize of integers", m.a.Symmetrize(), "Symmetrize", "regular", nil, typeName[T]())
		m.check(t, "refused Symmetrize")
		return
	}
	for _, n := range []int{9, 1, 14} {
		for _, kind := range layouts {
			m := newKind[T](t, kind, []int{n, n}, rng)
			mpitest.Must(t, m.a.Symmetrize())
			mt := transposed(m.model, []int{n, n})
			for k := range m.model {
				m.model[k] = (m.model[k] + mt[k]) / 2
			}
			m.check(t, "Symmetrize "+fmt.Sprint([]int{n, n}))
			mpitest.Must(t, m.a.Destroy())
		}
	}

	// A closed form: [[1 2] [5 3]] becomes [[1 3.5] [3.5 3]].
	m := newKind[T](t, "grid", []int{2, 2}, rng)
	defer destroy(t, m.a)
	m.model = []T{mk[T](1, 0), mk[T](2, 4), mk[T](5, 0), mk[T](3, 0)}
	m.rewrite(t)
	mpitest.Must(t, m.a.Symmetrize())
	half := mk[T](1, 0) / 2
	m.model = []T{mk[T](1, 0), mk[T](7, 4) * half, mk[T](7, 4) * half, mk[T](3, 0)}
	m.check(t, "Symmetrize of [[1 2] [5 3]]")

	wide := newKind[T](t, "cyclic", []int{3, 4}, rng)
	defer destroy(t, wide.a)
	vec := newKind[T](t, "regular", []int{4}, rng)
	defer destroy(t, vec.a)
	wantErr(t, "Symmetrize of a 3x4 matrix", wide.a.Symmetrize(), "Symmetrize", "cyclic", nil, "[3 4]")
	wantErr(t, "Symmetrize of a vector", vec.a.Symmetrize(), "Symmetrize", "regular", nil, "[4]")
	var nilArray *ga.Array[T]
	wantErr(t, "Symmetrize of a nil array", nilArray.Symmetrize(), "Symmetrize", "", ga.ErrNil)
	wide.check(t, "refused Symmetrize")
	vec.check(t, "refused Symmetrize")
}
