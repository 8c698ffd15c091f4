package ga_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestPatchOps checks ZeroPatch, FillPatch, ScalePatch, CopyPatch, AddPatch
// and DotPatch against a sequential model, on random data in every element
// type, on arrays of four layouts distributed differently from each other,
// with patches at odd offsets, reshapes, transposes and aliased outputs, on
// 1-4 processes over shared memory and TCP.
func TestPatchOps(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		mpitest.Must(t, ga.Init())
		defer endGA(t)
		eachType(t, patchOps[int32], patchOps[int64], patchOps[float32], patchOps[float64], patchOps[complex64], patchOps[complex128])
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

// made is an array under test with its model: the whole array, row-major.
type made[T ga.Elem] struct {
	a     *ga.Array[T]
	model []T
}

// newLayout makes a dims array in layout kind, filled with random values
// (the same on every process).
func newLayout[T ga.Elem](t *testing.T, kind string, dims []int, rng *rand.Rand) made[T] {
	t.Helper()
	np := ga.Nnodes()
	b := ga.New[T](dims...).Name(kind)
	switch kind {
	case "regular":
	case "rows": // blocks of whole rows: distributed unlike "regular"
		chunk := slices.Clone(dims)
		chunk[0] = 1
		b.Chunk(chunk...)
	case "cyclic":
		block := make([]int, len(dims))
		for d := range block {
			block[d] = 2 + d
		}
		b.BlockCyclic(block...)
	case "grid":
		block, grid := make([]int, len(dims)), make([]int, len(dims))
		for d := range block {
			block[d], grid[d] = 3, 1
		}
		grid[0] = np
		b.BlockCyclicGrid(block, grid)
	case "tiled": // blocks over a process grid, stored one after another
		block, grid := make([]int, len(dims)), make([]int, len(dims))
		for d := range block {
			block[d], grid[d] = 2, 1
		}
		grid[len(dims)-1] = np
		b.SetTiledProcGrid(block, grid)
	default:
		mpitest.Fatalf(t, "unknown layout %q", kind)
	}
	a, err := b.Allocate()
	mpitest.Must(t, err)
	m := made[T]{a: a, model: make([]T, total(dims))}
	for i := range m.model {
		// Small values: every sum and product below stays exact in float32.
		m.model[i] = mk[T](rng.IntN(41)-20, rng.IntN(41)-20)
	}
	if ga.Nodeid() == 0 {
		lo, hi := fullPatch(dims)
		mpitest.Must(t, a.Put(lo, hi, m.model, nil))
	}
	mpitest.Must(t, ga.Sync())
	return m
}

// check compares the whole array with its model.
func (m made[T]) check(t *testing.T, what string) {
	t.Helper()
	sameElems(t, fmt.Sprintf("%s: %s", what, m.a.Name()), getAll(t, m.a), m.model)
}

// order lists the positions, in an array of dims, of the patch [lo, hi]'s
// elements read row-major, or column-major (the first index fastest).
func order(dims, lo, hi []int, colMajor bool) []int {
	var out []int
	if !colMajor {
		eachSub(lo, hi, func(sub []int) { out = append(out, linear(dims, sub)) })
		return out
	}
	n := len(lo)
	rlo, rhi := slices.Clone(lo), slices.Clone(hi)
	slices.Reverse(rlo)
	slices.Reverse(rhi)
	sub := make([]int, n)
	eachSub(rlo, rhi, func(r []int) {
		for d := range n {
			sub[d] = r[n-1-d]
		}
		out = append(out, linear(dims, sub))
	})
	return out
}

var kinds = []string{"regular", "rows", "cyclic", "grid"}

func patchOps[T ga.Elem](t *testing.T) {
	rng := rand.New(rand.NewPCG(7, uint64(len(typeName[T]()))))
	dims := []int{9, 11}
	for _, kind := range kinds {
		m := newLayout[T](t, kind, dims, rng)
		lo, hi := []int{1, 2}, []int{7, 8}
		v := mk[T](3, -2)
		mpitest.Must(t, m.a.ScalePatch(lo, hi, v))
		for _, p := range order(dims, lo, hi, false) {
			m.model[p] *= v
		}
		m.check(t, "ScalePatch")
		mpitest.Must(t, m.a.FillPatch([]int{0, 10}, []int{8, 10}, v))
		for _, p := range order(dims, []int{0, 10}, []int{8, 10}, false) {
			m.model[p] = v
		}
		m.check(t, "FillPatch of the last column")
		mpitest.Must(t, m.a.ZeroPatch([]int{4, 0}, []int{4, 10}))
		for _, p := range order(dims, []int{4, 0}, []int{4, 10}, false) {
			m.model[p] = 0
		}
		m.check(t, "ZeroPatch of a row")
		mpitest.Must(t, m.a.Destroy())
	}
	for _, ka := range kinds {
		for _, kb := range kinds {
			t.Run(ka+"To"+kb, func(t *testing.T) { pairOps[T](t, ka, kb, rng) })
		}
	}
}

// pairOps checks the two-array operations from an array of layout ka into
// one of layout kb.
func pairOps[T ga.Elem](t *testing.T, ka, kb string, rng *rand.Rand) {
	a := newLayout[T](t, ka, []int{9, 11}, rng)
	defer destroy(t, a.a)
	b := newLayout[T](t, kb, []int{8, 13}, rng)
	defer destroy(t, b.a)
	copies := []struct {
		trans    ga.TransOp
		alo, ahi []int
		blo, bhi []int
		what     string
	}{
		{ga.NoTrans, []int{2, 3}, []int{6, 9}, []int{1, 0}, []int{5, 6}, "same shape, other offset"},
		{'n', []int{0, 0}, []int{6, 10}, []int{0, 0}, []int{6, 10}, "same shape and place"},
		{'n', []int{2, 2}, []int{4, 5}, []int{3, 4}, []int{6, 6}, "the manual's reshape, 3x4 into 4x3"},
		{'t', []int{2, 2}, []int{4, 5}, []int{3, 4}, []int{6, 6}, "the manual's transpose, 3x4 into 4x3"},
		{ga.Trans, []int{1, 1}, []int{4, 3}, []int{7, 1}, []int{7, 12}, "4x3 column-major into a row of 12"},
		{'n', []int{0, 0}, []int{8, 6}, []int{1, 4}, []int{7, 12}, "9x7 into 7x9"},
		{'t', []int{0, 4}, []int{8, 10}, []int{1, 4}, []int{7, 12}, "9x7 transposed into 7x9"},
	}
	for _, c := range copies {
		mpitest.Must(t, ga.CopyPatch(c.trans, a.a, c.alo, c.ahi, b.a, c.blo, c.bhi))
		src := order(a.a.Dims(), c.alo, c.ahi, c.trans == 't' || c.trans == ga.Trans)
		for k, p := range order(b.a.Dims(), c.blo, c.bhi, false) {
			b.model[p] = a.model[src[k]]
		}
		b.check(t, "CopyPatch "+c.what)
		a.check(t, "CopyPatch's source "+c.what)
	}

	// c = alpha·a + beta·b, then in place with overlapping patches of one
	// array: the operands are read before anything is written.
	alpha, beta := mk[T](2, 1), mk[T](-3, 0)
	alo, ahi := []int{0, 1}, []int{5, 4}  // 6x4
	blo, bhi := []int{4, 5}, []int{7, 10} // 4x6: paired in C order
	clo, chi := []int{1, 2}, []int{6, 5}  // 6x4, overlapping a's
	mpitest.Must(t, ga.AddPatch(alpha, a.a, alo, ahi, beta, b.a, blo, bhi, a.a, clo, chi))
	pa, pb := order(a.a.Dims(), alo, ahi, false), order(b.a.Dims(), blo, bhi, false)
	next := slices.Clone(a.model)
	for k, p := range order(a.a.Dims(), clo, chi, false) {
		next[p] = alpha*a.model[pa[k]] + beta*b.model[pb[k]]
	}
	a.model = next
	a.check(t, "AddPatch into an overlapping patch of its first operand")
	mpitest.Must(t, ga.AddPatch(alpha, b.a, blo, bhi, beta, b.a, blo, bhi, b.a, blo, bhi))
	for _, p := range order(b.a.Dims(), blo, bhi, false) {
		b.model[p] = alpha*b.model[p] + beta*b.model[p]
	}
	b.check(t, "AddPatch of a patch with itself, in place")

	for _, c := range []struct {
		ta, tb ga.TransOp
		colA   bool
		colB   bool
	}{{'n', 'n', false, false}, {'t', 'n', true, false}, {ga.NoTrans, ga.Trans, false, true}, {'t', 't', false, false}} {
		got, err := ga.DotPatch(a.a, c.ta, alo, ahi, b.a, c.tb, blo, bhi)
		mpitest.Must(t, err)
		var want T
		qa, qb := order(a.a.Dims(), alo, ahi, c.colA), order(b.a.Dims(), blo, bhi, c.colB)
		for k := range qa {
			want += a.model[qa[k]] * b.model[qb[k]]
		}
		if got != want {
			t.Errorf("DotPatch(%c, %c) = %v, want %v", c.ta, c.tb, got, want)
		}
	}
}
