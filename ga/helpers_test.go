package ga_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// ---- failures ----

// must and fatalf abort the whole job on failures the ranks cannot survive in
// step (see mpitest.Must).
var (
	must   = mpitest.Must
	fatalf = mpitest.Fatalf
)

// wantErr checks that err is a *ga.Error from op naming array, wrapping
// sentinel (if not nil), whose message contains every string in values.
func wantErr(t *testing.T, what string, err error, op, array string, sentinel error, values ...string) {
	t.Helper()
	var e *ga.Error
	if !errors.As(err, &e) {
		t.Errorf("%s: got error %v (%T), want *ga.Error", what, err, err)
		return
	}
	if op != "" && e.Op != op {
		t.Errorf("%s: error %q names the call %q, want %q", what, err, e.Op, op)
	}
	if e.Array != array {
		t.Errorf("%s: error %q names the array %q, want %q", what, err, e.Array, array)
	}
	if array != "" && !strings.Contains(err.Error(), array) {
		t.Errorf("%s: message %q does not name the array %q", what, err, array)
	}
	if sentinel != nil && !errors.Is(err, sentinel) {
		t.Errorf("%s: error %q does not wrap %v", what, err, sentinel)
	}
	for _, v := range values {
		if !strings.Contains(err.Error(), v) {
			t.Errorf("%s: message %q does not mention %q", what, err, v)
		}
	}
}

// Collective clean-up in deferred calls keeps mpitest.Cleanup's rule: no
// collective call while the test body panics or after the test has failed.
// endGA and destroy are that rule for GA and its arrays, used as
// `defer endGA(t)` and `defer destroy(t, a)`; anything else collective is
// deferred through mpitest.Cleanup. (Each checks recover itself: only the
// deferred function can.)

// endGA ends GA at the end of a test; use it deferred.
func endGA(t *testing.T) {
	if r := recover(); r != nil {
		panic(r)
	}
	if !t.Failed() && ga.Initialized() {
		must(t, ga.Terminate())
	}
}

// destroy destroys a at the end of a test; use it deferred.
func destroy[T ga.Elem](t *testing.T, a *ga.Array[T]) {
	if r := recover(); r != nil {
		panic(r)
	}
	if !t.Failed() {
		must(t, a.Destroy())
	}
}

// onNodes runs body, after Init, on the machine's own nodes (one, two on
// the two-node tier, four on the four-node tier, as many as the job was
// placed on) and on nodes simulated inside it: a node per
// process, and nodes of two processes, the last one smaller on 3 ranks;
// over shared memory and TCP, unless opts say otherwise.
func onNodes(t *testing.T, body func(t *testing.T), opts ...mpitest.Option) {
	for _, c := range []struct {
		name   string
		nodeOf func(rank, size int) int
		ranks  []int
		opts   []mpitest.Option
	}{
		{"real nodes", nil, []int{1, 2, 3, 4}, []mpitest.Option{mpitest.ManyNodes()}},
		{"a node each", func(r, _ int) int { return r }, []int{2, 3}, nil},
		{"nodes of two", func(r, _ int) int { return r / 2 }, []int{3, 4}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			mpitest.Run(t, func(t *testing.T) {
				if c.nodeOf != nil {
					defer ga.SimulateNodes(c.nodeOf)()
				}
				must(t, ga.Init())
				defer endGA(t)
				if c.nodeOf == nil {
					if got, want := ga.ClusterNnodes(), len(placedNodes(ga.Nnodes())); got != want {
						fatalf(t, "GA sees %d nodes; the job was placed on %d", got, want)
					}
				}
				body(t)
			}, slices.Concat([]mpitest.Option{mpitest.Ranks(c.ranks...), mpitest.Transports(mpitest.SharedMemory, mpitest.TCP)}, c.opts, opts)...)
		})
	}
}

// ---- element types ----

// eachType runs one instantiation of a generic test per element type, in the
// order int32, int64, float32, float64, complex64, complex128.
func eachType(t *testing.T, fs ...func(*testing.T)) {
	t.Helper()
	names := []string{"int32", "int64", "float32", "float64", "complex64", "complex128"}
	if len(fs) != len(names) {
		fatalf(t, "eachType: %d functions", len(fs))
	}
	for i, f := range fs {
		t.Run(names[i], f)
	}
}

// mk makes a value of T from integers: re for the real types, re+im·i for the
// complex ones. Sums and products of small integers are exact in every type.
func mk[T ga.Elem](re, im int) T {
	var z T
	switch p := any(&z).(type) {
	case *int32:
		*p = int32(re)
	case *int64:
		*p = int64(re)
	case *float32:
		*p = float32(re)
	case *float64:
		*p = float64(re)
	case *complex64:
		*p = complex(float32(re), float32(im))
	case *complex128:
		*p = complex(float64(re), float64(im))
	}
	return z
}

func isComplex[T ga.Elem]() bool {
	var z T
	switch any(z).(type) {
	case complex64, complex128:
		return true
	}
	return false
}

func typeName[T ga.Elem]() string {
	var z T
	return fmt.Sprintf("%T", z)
}

// rnd draws a small random value of T.
func rnd[T ga.Elem](rng *rand.Rand) T {
	return mk[T](rng.IntN(2001)-1000, rng.IntN(2001)-1000)
}

// sentinel marks buffer elements that a transfer must not touch.
func sentinel[T ga.Elem]() T { return mk[T](-777777, 4242) }

// ---- index arithmetic (the plain reference the package is checked against) ----

func total(dims []int) int {
	n := 1
	for _, d := range dims {
		n *= d
	}
	return n
}

func volume(lo, hi []int) int {
	n := 1
	for d := range lo {
		n *= hi[d] - lo[d] + 1
	}
	return n
}

// linear is the C-order position of sub in an array of dims.
func linear(dims, sub []int) int {
	l := 0
	for d := range dims {
		l = l*dims[d] + sub[d]
	}
	return l
}

// eachSub calls f for every subscript of [lo, hi] in C order.
func eachSub(lo, hi []int, f func(sub []int)) {
	sub := slices.Clone(lo)
	for {
		f(sub)
		d := len(sub) - 1
		for ; d >= 0; d-- {
			if sub[d] < hi[d] {
				sub[d]++
				break
			}
			sub[d] = lo[d]
		}
		if d < 0 {
			return
		}
	}
}

// bufPos is where sub of the patch starting at lo sits in a buffer with
// leading dimensions ld (nil: packed for hi).
func bufPos(lo, hi, ld, sub []int) int {
	p := 0
	for d := range sub {
		if d > 0 {
			if ld != nil {
				p *= ld[d-1]
			} else {
				p *= hi[d] - lo[d] + 1
			}
		}
		p += sub[d] - lo[d]
	}
	return p
}

// bufLen is the number of elements a buffer with ld needs for [lo, hi].
func bufLen(lo, hi, ld []int) int { return bufPos(lo, hi, ld, hi) + 1 }

func fullPatch(dims []int) (lo, hi []int) {
	lo, hi = make([]int, len(dims)), make([]int, len(dims))
	for d := range dims {
		hi[d] = dims[d] - 1
	}
	return lo, hi
}

// intersect returns the overlap of two patches, and whether there is one.
func intersect(alo, ahi, blo, bhi []int) (lo, hi []int, ok bool) {
	lo, hi = make([]int, len(alo)), make([]int, len(alo))
	for d := range alo {
		lo[d], hi[d] = max(alo[d], blo[d]), min(ahi[d], bhi[d])
		if lo[d] > hi[d] {
			return nil, nil, false
		}
	}
	return lo, hi, true
}

// ---- whole-array helpers ----

// getAll reads the whole array.
func getAll[T ga.Elem](t *testing.T, a *ga.Array[T]) []T {
	t.Helper()
	lo, hi := fullPatch(a.Dims())
	buf := make([]T, total(a.Dims()))
	must(t, a.Get(lo, hi, buf, nil))
	return buf
}

// putAll writes the whole array from rank 0 and syncs.
func putAll[T ga.Elem](t *testing.T, a *ga.Array[T], data []T) {
	t.Helper()
	if ga.Nodeid() == 0 {
		lo, hi := fullPatch(a.Dims())
		must(t, a.Put(lo, hi, data, nil))
	}
	must(t, ga.Sync())
}

// pattern returns f over the C-order positions of dims.
func pattern[T ga.Elem](dims []int, f func(lin int) T) []T {
	v := make([]T, total(dims))
	for i := range v {
		v[i] = f(i)
	}
	return v
}

// sameElems compares got and want, reporting up to a few differences; NaN
// (the one value unequal to itself) matches NaN.
func sameElems[T comparable](t *testing.T, what string, got, want []T) bool {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d elements, want %d", what, len(got), len(want))
		return false
	}
	bad := 0
	for i := range got {
		if got[i] != want[i] && (got[i] == got[i] || want[i] == want[i]) {
			if bad < 5 {
				t.Errorf("%s: element %d = %v, want %v", what, i, got[i], want[i])
			}
			bad++
		}
	}
	if bad > 5 {
		t.Errorf("%s: %d elements differ in all", what, bad)
	}
	return bad == 0
}

// checkLocal checks that this rank's block, read in place with AccessLocal,
// holds ref (the whole array in C order) and agrees with Get of the block.
func checkLocal[T ga.Elem](t *testing.T, a *ga.Array[T], ref []T) {
	t.Helper()
	data, lo, hi, ld, ok, err := a.AccessLocal()
	if errors.Is(err, ga.ErrReadOnly) {
		// read_only refuses access that could write; AccessRead reads.
		lo, hi, ok = a.Distribution(ga.Nodeid())
		if err = nil; ok {
			data, ld, err = a.AccessRead(lo, hi)
		}
	}
	must(t, err)
	dlo, dhi, dok := a.Distribution(ga.Nodeid())
	if ok != dok {
		t.Errorf("AccessLocal ok = %v, Distribution ok = %v", ok, dok)
		return
	}
	if !ok {
		return
	}
	if !slices.Equal(lo, dlo) || !slices.Equal(hi, dhi) {
		t.Errorf("AccessLocal block lo %v hi %v, Distribution lo %v hi %v", lo, hi, dlo, dhi)
	}
	got := make([]T, 0, volume(lo, hi))
	want := make([]T, 0, volume(lo, hi))
	dims := a.Dims()
	eachSub(lo, hi, func(sub []int) {
		got = append(got, data[bufPos(lo, hi, ld, sub)])
		want = append(want, ref[linear(dims, sub)])
	})
	must(t, a.Release(lo, hi))
	sameElems(t, "block by AccessLocal", got, want)
	viaGet := make([]T, volume(lo, hi))
	must(t, a.Get(lo, hi, viaGet, nil))
	sameElems(t, "block by Get", viaGet, want)
}

// allgather returns every rank's xs concatenated in rank order (over ga.Comm).
func allgather(t *testing.T, xs []int) []int {
	t.Helper()
	c := ga.Comm()
	counts := make([]int, c.Size())
	must(t, mpi.Allgather(c, []int{len(xs)}, counts))
	displs := make([]int, len(counts))
	sum := 0
	for i, n := range counts {
		displs[i] = sum
		sum += n
	}
	out := make([]int, sum)
	must(t, mpi.Allgatherv(c, xs, out, counts, displs))
	return out
}
