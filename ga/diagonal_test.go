package ga_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestMatrixOps checks ShiftDiagonal, SetDiagonal, AddDiagonal,
// ZeroDiagonal, GetDiag, ScaleRows and ScaleCols against a sequential model
// on random data in every element type, on wide and tall matrices of four
// layouts with vectors distributed otherwise, and their refusal of vectors
// of the wrong length, on 1-4 processes over shared memory and TCP.
func TestMatrixOps(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		mpitest.Must(t, ga.Init())
		defer endGA(t)
		eachType(t, matrixOps[int32], matrixOps[int64], matrixOps[float32], matrixOps[float64], matrixOps[complex64], matrixOps[complex128])
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

func matrixOps[T ga.Elem](t *testing.T) {
	rng := rand.New(rand.NewPCG(13, uint64(len(typeName[T]()))))
	for i, ka := range kinds {
		kv := kinds[(i+1)%len(kinds)]
		for _, dims := range [][]int{{9, 11}, {11, 7}} {
			t.Run(fmt.Sprintf("%s%dx%dWith%s", ka, dims[0], dims[1], kv), func(t *testing.T) { diagonalOps[T](t, ka, kv, dims, rng) })
		}
	}
	t.Run("Refused", refusedMatrixOps[T])
}

func diagonalOps[T ga.Elem](t *testing.T, ka, kv string, dims []int, rng *rand.Rand) {
	a := newLayout[T](t, ka, dims, rng)
	defer destroy(t, a.a)
	n := min(dims[0], dims[1])
	v := newLayout[T](t, kv, []int{n}, rng)
	defer destroy(t, v.a)
	w := newLayout[T](t, kv, []int{n}, rng)
	defer destroy(t, w.a)
	rows := newLayout[T](t, kv, []int{dims[0]}, rng)
	defer destroy(t, rows.a)
	cols := newLayout[T](t, ka, []int{dims[1]}, rng)
	defer destroy(t, cols.a)
	diag := func(f func(x *T, i int)) {
		for i := range n {
			f(&a.model[i*dims[1]+i], i)
		}
	}

	c := mk[T](4, -3)
	mpitest.Must(t, a.a.ShiftDiagonal(c))
	diag(func(x *T, _ int) { *x += c })
	a.check(t, "ShiftDiagonal")
	mpitest.Must(t, a.a.SetDiagonal(v.a))
	diag(func(x *T, i int) { *x = v.model[i] })
	a.check(t, "SetDiagonal")
	mpitest.Must(t, a.a.AddDiagonal(v.a))
	diag(func(x *T, i int) { *x += v.model[i] })
	a.check(t, "AddDiagonal")
	v.check(t, "AddDiagonal's vector")
	mpitest.Must(t, a.a.ZeroDiagonal())
	diag(func(x *T, _ int) { *x = 0 })
	a.check(t, "ZeroDiagonal")
	mpitest.Must(t, a.a.AddDiagonal(w.a))
	diag(func(x *T, i int) { *x += w.model[i] })
	a.check(t, "AddDiagonal to the zeroed diagonal")
	mpitest.Must(t, a.a.GetDiag(v.a))
	diag(func(x *T, i int) { v.model[i] = *x })
	v.check(t, "GetDiag")
	a.check(t, "GetDiag's matrix")

	mpitest.Must(t, a.a.ScaleRows(rows.a))
	for k := range a.model {
		a.model[k] *= rows.model[k/dims[1]]
	}
	a.check(t, "ScaleRows")
	mpitest.Must(t, a.a.ScaleCols(cols.a))
	for k := range a.model {
		a.model[k] *= cols.model[k%dims[1]]
	}
	a.check(t, "ScaleCols")
	rows.check(t, "ScaleRows' vector")
	cols.check(t, "ScaleCols' vector")
}

// refusedMatrixOps checks that vectors of the wrong length or shape, and
// arrays that are not matrices, are refused on every process with nothing
// changed.
func refusedMatrixOps[T ga.Elem](t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 17))
	a := newLayout[T](t, "regular", []int{6, 8}, rng)
	defer destroy(t, a.a)
	short := newLayout[T](t, "cyclic", []int{5}, rng)
	defer destroy(t, short.a)
	rows := newLayout[T](t, "grid", []int{6}, rng) // the diagonal's and the rows' length
	defer destroy(t, rows.a)
	long := newLayout[T](t, "rows", []int{8}, rng) // the columns' length
	defer destroy(t, long.a)
	flat := newLayout[T](t, "rows", []int{2, 3}, rng)
	defer destroy(t, flat.a)

	err := a.a.SetDiagonal(short.a)
	wantErr(t, "SetDiagonal with a vector of 5", err, "SetDiagonal", "cyclic", nil, "[5]", "[6]", "diagonal")
	err = a.a.AddDiagonal(long.a)
	wantErr(t, "AddDiagonal with a vector of 8", err, "AddDiagonal", "rows", nil, "[8]", "[6]", "diagonal")
	err = a.a.GetDiag(short.a)
	wantErr(t, "GetDiag into a vector of 5", err, "GetDiag", "cyclic", nil, "[5]", "[6]")
	err = a.a.ScaleRows(long.a)
	wantErr(t, "ScaleRows with a vector of 8", err, "ScaleRows", "rows", nil, "[8]", "[6]", "rows")
	err = a.a.ScaleCols(rows.a)
	wantErr(t, "ScaleCols with a vector of 6", err, "ScaleCols", "grid", nil, "[6]", "[8]", "columns")
	err = a.a.SetDiagonal(flat.a)
	wantErr(t, "SetDiagonal with a matrix for a vector", err, "SetDiagonal", "rows", nil, "[2 3]")
	err = rows.a.ShiftDiagonal(mk[T](1, 0))
	wantErr(t, "ShiftDiagonal of a vector", err, "ShiftDiagonal", "grid", nil, "[6]", "matrix")
	err = rows.a.ZeroDiagonal()
	wantErr(t, "ZeroDiagonal of a vector", err, "ZeroDiagonal", "grid", nil, "matrix")
	err = a.a.AddDiagonal(nil)
	wantErr(t, "AddDiagonal with a nil vector", err, "AddDiagonal", "", ga.ErrNil)
	for _, m := range []made[T]{a, short, rows, long, flat} {
		m.check(t, "refused calls")
	}
}
