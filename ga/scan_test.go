package ga_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestScan checks PatchEnum, ScanCopy, ScanAdd (inclusive and exclusive),
// Pack and Unpack on the manual's vectors and closed forms, against a
// sequential model on random data and random masks in every element type,
// on vectors of four layouts distributed differently from each other, over
// sub-ranges at odd offsets, with masks of int32 and of the element type,
// all-zero masks, and their refusal of bad arguments on every process with
// nothing changed, on 1-4 processes over shared memory and TCP.
func TestScan(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		eachType(t, scanOps[int32], scanOps[int64], scanOps[float32], scanOps[float64], scanOps[complex64], scanOps[complex128])
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

func scanOps[T ga.Elem](t *testing.T) {
	t.Run("Manual", scanManual[T])
	t.Run("ClosedForms", scanClosedForms[T])
	t.Run("CSR", scanCSR[T])
	t.Run("Model", scanModels[T])
	t.Run("Misuse", scanMisuse[T])
}

// vectorKinds are the layouts of the vectors under test: newLayout's, and
// irregular blocks of growing sizes.
var vectorKinds = []string{"regular", "irregular", "cyclic", "grid"}

// newVector makes a vector of n random elements in layout kind.
func newVector[T ga.Elem](t *testing.T, kind string, n int, rng *rand.Rand) made[T] {
	t.Helper()
	if kind != "irregular" {
		return newLayout[T](t, kind, []int{n}, rng)
	}
	np := ga.Nnodes()
	starts := make([]int, np)
	for k := 1; k < np; k++ {
		starts[k] = max(starts[k-1]+1, k*k*n/(np*np))
	}
	a, err := ga.New[T](n).Name(kind).Irregular(starts).Allocate()
	must(t, err)
	m := made[T]{a: a, model: make([]T, n)}
	m.assign(t, pattern([]int{n}, func(int) T { return mk[T](rng.IntN(41)-20, rng.IntN(41)-20) }))
	return m
}

// assign makes v the array's contents and its model.
func (m *made[T]) assign(t *testing.T, v []T) {
	t.Helper()
	m.model = v
	m.rewrite(t)
}

// randomMask is a mask of n elements, about one in four not zero (of
// various values: any nonzero value marks, a complex one with a zero real
// part too).
func randomMask[M ga.Elem](n int, rng *rand.Rand) []M {
	v := make([]M, n)
	for i := range v {
		if rng.IntN(4) == 0 {
			v[i] = mk[M](rng.IntN(5)-2|1, 0)
			if isComplex[M]() && rng.IntN(2) == 0 {
				v[i] = mk[M](0, 3)
			}
		}
	}
	return v
}

// ---- the sequential model, from the definitions ----

// scanModel is dst after ScanCopy (add false) or ScanAdd over [lo, hi]:
// each element's segment starts at the last mark at or before it in the
// range; before the first, ScanCopy gives 0 and ScanAdd leaves dst.
func scanModel[T, M ga.Elem](src, dst []T, mask []M, lo, hi int, add, excl bool) []T {
	out := slices.Clone(dst)
	for i := lo; i <= hi; i++ {
		s := i
		for s >= lo && mask[s] == 0 {
			s--
		}
		switch {
		case s < lo && !add:
			out[i] = 0
		case s < lo:
		case !add:
			out[i] = src[s]
		default:
			var sum T
			end := i
			if excl {
				end = i - 1
			}
			for j := s; j <= end; j++ {
				sum += src[j]
			}
			out[i] = sum
		}
	}
	return out
}

// packModel is dst after Pack (pack true) or Unpack over [lo, hi], and
// the count.
func packModel[T, M ga.Elem](src, dst []T, mask []M, lo, hi int, pack bool) ([]T, int) {
	out, k := slices.Clone(dst), 0
	for i := lo; i <= hi; i++ {
		if mask[i] != 0 {
			if pack {
				out[k] = src[i]
			} else {
				out[i] = src[k]
			}
			k++
		}
	}
	return out, k
}

// ints makes a []T of small integers.
func ints[T ga.Elem](v ...int) []T {
	out := make([]T, len(v))
	for i, x := range v {
		out[i] = mk[T](x, 0)
	}
	return out
}

// ---- the manual's vectors ----

func scanManual[T ga.Elem](t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 5))
	for _, kind := range vectorKinds {
		t.Run(kind, func(t *testing.T) {
			const n = 17
			src := newVector[T](t, "regular", n, rng)
			defer destroy(t, src.a)
			dst := newVector[T](t, kind, n, rng)
			defer destroy(t, dst.a)
			mask := newVector[int32](t, "cyclic", n, rng)
			defer destroy(t, mask.a)

			must(t, dst.a.PatchEnum(0, n-1, mk[T](1, 0), mk[T](1, 0)))
			sameElems(t, "patch_enum(g,1,n,1,1)", getAll(t, dst.a), ints[T](1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17))
			must(t, dst.a.Zero())
			must(t, dst.a.PatchEnum(4, n-1, mk[T](7, 0), mk[T](2, 0)))
			sameElems(t, "patch_enum(g,5,n,7,2) after zero", getAll(t, dst.a), ints[T](0, 0, 0, 0, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31))

			mask.assign(t, ints[int32](1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0))
			src.assign(t, ints[T](5, 8, 7, 3, 2, 6, 9, 7, 3, 4, 8, 2, 3, 6, 9, 10, 7))
			must(t, ga.ScanCopy(src.a, dst.a, mask.a, 0, n-1))
			sameElems(t, "scan_copy", getAll(t, dst.a), ints[T](5, 5, 5, 5, 5, 6, 6, 7, 7, 7, 8, 8, 8, 8, 9, 10, 10))

			mask.assign(t, ints[int32](1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 1, 0))
			must(t, src.a.PatchEnum(0, n-1, mk[T](1, 0), mk[T](1, 0)))
			must(t, ga.ScanAdd(src.a, dst.a, mask.a, 0, n-1, false))
			sameElems(t, "scan_add excl=0", getAll(t, dst.a), ints[T](1, 3, 6, 10, 15, 21, 7, 15, 9, 19, 30, 12, 25, 39, 15, 16, 33))
			must(t, ga.ScanAdd(src.a, dst.a, mask.a, 0, n-1, true))
			sameElems(t, "scan_add excl=1", getAll(t, dst.a), ints[T](0, 1, 3, 6, 10, 15, 0, 7, 0, 9, 19, 0, 12, 25, 0, 0, 16))

			mask.assign(t, ints[int32](1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0))
			src.assign(t, ints[T](1, 6, 8, 11, 15, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99))
			must(t, dst.a.Zero())
			count, err := ga.Unpack(src.a, dst.a, mask.a, 0, n-1)
			must(t, err)
			unpacked := ints[T](1, 0, 0, 0, 0, 6, 0, 8, 0, 0, 11, 0, 0, 0, 15, 0, 0)
			sameElems(t, "unpack", getAll(t, dst.a), unpacked)
			if count != 5 {
				t.Errorf("unpack: icount = %d, want 5", count)
			}
			src.assign(t, unpacked)
			must(t, dst.a.Zero())
			count, err = ga.Pack(src.a, dst.a, mask.a, 0, n-1)
			must(t, err)
			sameElems(t, "pack", getAll(t, dst.a), ints[T](1, 6, 8, 11, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
			if count != 5 {
				t.Errorf("pack: icount = %d, want 5", count)
			}
		})
	}
}

// scanCSR is the manual's sparse matrix-vector product of its 5x5 CSR
// matrix with x = 1 … 5: gather, ElemMultiply, ScanAdd over the rows,
// Pack of each row's last sum.
func scanCSR[T ga.Elem](t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 1))
	values := ints[T](1, 3, 2, 5, 7, 9, 3, 4, 5, 2, 6)
	jIndex := []int{3, 4, 1, 5, 2, 4, 1, 3, 5, 2, 5}
	iIndex := []int{1, 3, 5, 7, 10, 12}
	nnz := len(values)
	x := newVector[T](t, "grid", 5, rng)
	defer destroy(t, x.a)
	x.assign(t, ints[T](1, 2, 3, 4, 5))
	vecs := make([]made[T], 4) // the values, the gathered x, the products, the row sums
	for k := range vecs {
		vecs[k] = newVector[T](t, vectorKinds[k], nnz, rng)
		defer destroy(t, vecs[k].a)
	}
	vals, xg, prod, sums := vecs[0].a, vecs[1].a, vecs[2].a, vecs[3].a
	vecs[0].assign(t, values)
	if ga.Nodeid() == 0 {
		subs := make([][]int, nnz)
		for k, j := range jIndex {
			subs[k] = []int{j - 1}
		}
		gathered := make([]T, nnz)
		must(t, x.a.Gather(gathered, subs))
		must(t, xg.Put([]int{0}, []int{nnz - 1}, gathered, nil))
	}
	must(t, ga.Sync())
	must(t, ga.ElemMultiply(vals, xg, prod))
	starts, ends := make([]int32, nnz), make([]int32, nnz)
	for r := range 5 {
		starts[iIndex[r]-1], ends[iIndex[r+1]-2] = 1, 1
	}
	mask := newVector[int32](t, "irregular", nnz, rng)
	defer destroy(t, mask.a)
	mask.assign(t, starts)
	must(t, ga.ScanAdd(prod, sums, mask.a, 0, nnz-1, false))
	mask.assign(t, ends)
	y := newVector[T](t, "cyclic", 5, rng)
	defer destroy(t, y.a)
	count, err := ga.Pack(sums, y.a, mask.a, 0, nnz-1)
	must(t, err)
	sameElems(t, "A·x", getAll(t, y.a), ints[T](15, 27, 50, 40, 34))
	if count != 5 {
		t.Errorf("Pack of the row sums: count %d, want 5", count)
	}
}

// ---- closed forms ----

func scanClosedForms[T ga.Elem](t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 3))
	const n = 37
	src := newVector[T](t, "grid", n, rng)
	defer destroy(t, src.a)
	dst := newVector[T](t, "irregular", n, rng)
	defer destroy(t, dst.a)
	mask := newVector[int32](t, "cyclic", n, rng)
	defer destroy(t, mask.a)
	ramp := func(i int) T { return mk[T](i+1, 0) } // src[i] = i+1

	// The scan of a ramp from one mark: triangular numbers.
	must(t, src.a.PatchEnum(0, n-1, mk[T](1, 0), mk[T](1, 0)))
	for _, lo := range []int{0, 5} {
		hi := n - 1 - lo
		marks := make([]int32, n)
		marks[lo] = 1
		mask.assign(t, marks)
		tri := func(i int) T { return mk[T](((i+1)*(i+2)-lo*(lo+1))/2, 0) } // src[lo] + … + src[i]
		for _, excl := range []bool{false, true} {
			dst.assign(t, pattern([]int{n}, func(i int) T { return mk[T](-i, 1) }))
			must(t, ga.ScanAdd(src.a, dst.a, mask.a, lo, hi, excl))
			want := slices.Clone(dst.model)
			for i := lo; i <= hi; i++ {
				want[i] = tri(i)
				if excl {
					want[i] -= ramp(i)
				}
			}
			sameElems(t, fmt.Sprintf("ScanAdd(exclusive %v) of a ramp over [%d, %d]", excl, lo, hi), getAll(t, dst.a), want)
		}
	}

	// ScanCopy of a ramp marked every fourth element: a staircase.
	marks := make([]int32, n)
	for i := 0; i < n; i += 4 {
		marks[i] = 7
	}
	mask.assign(t, marks)
	must(t, ga.ScanCopy(src.a, dst.a, mask.a, 0, n-1))
	sameElems(t, "ScanCopy of a ramp marked every fourth element", getAll(t, dst.a), pattern([]int{n}, func(i int) T { return ramp(i - i%4) }))

	// A mask of zeros: ScanAdd and Unpack change nothing, Pack packs
	// nothing, ScanCopy writes 0 over the range.
	mask.assign(t, make([]int32, n))
	dst.assign(t, pattern([]int{n}, func(i int) T { return mk[T](i, -i) }))
	must(t, ga.ScanAdd(src.a, dst.a, mask.a, 0, n-1, false))
	must(t, ga.ScanAdd(src.a, dst.a, mask.a, 3, 30, true))
	dst.check(t, "ScanAdd with a mask of zeros")
	for _, f := range []func(src, dst *ga.Array[T], mask *ga.Array[int32], lo, hi int) (int, error){ga.Pack[T, int32], ga.Unpack[T, int32]} {
		count, err := f(src.a, dst.a, mask.a, 0, n-1)
		must(t, err)
		if count != 0 {
			t.Errorf("Pack or Unpack with a mask of zeros: count %d", count)
		}
		dst.check(t, "Pack or Unpack with a mask of zeros")
	}
	must(t, ga.ScanCopy(src.a, dst.a, mask.a, 3, 30))
	for i := 3; i <= 30; i++ {
		dst.model[i] = 0
	}
	dst.check(t, "ScanCopy with a mask of zeros")
}

// ---- against the model ----

// scanModels runs every operation against the model on vectors of every
// layout: each triple once all laid out alike (read in place), and once
// with source, output and mask all laid out differently.
func scanModels[T ga.Elem](t *testing.T) {
	rng := rand.New(rand.NewPCG(17, uint64(len(typeName[T]()))))
	for i, kind := range vectorKinds {
		other := func(k int) string { return vectorKinds[(i+k)%len(vectorKinds)] }
		t.Run(kind, func(t *testing.T) { scanModel3[T, int32](t, kind, kind, kind, rng) })
		t.Run(kind+"From"+other(1)+"Mask"+other(2), func(t *testing.T) { scanModel3[T, int32](t, kind, other(1), other(2), rng) })
	}
	// A mask of the element type, as GA C allows.
	t.Run("TypedMask", func(t *testing.T) { scanModel3[T, T](t, "cyclic", "regular", "irregular", rng) })
}

// scanModel3 checks the operations with an output of layout kd, a source
// of ks and a mask of km, over ranges at odd offsets.
func scanModel3[T, M ga.Elem](t *testing.T, kd, ks, km string, rng *rand.Rand) {
	const n = 37
	src := newVector[T](t, ks, n, rng)
	defer destroy(t, src.a)
	dst := newVector[T](t, kd, n, rng)
	defer destroy(t, dst.a)
	mask := newVector[M](t, km, n, rng)
	defer destroy(t, mask.a)
	for _, r := range [][2]int{{0, n - 1}, {3, 30}, {7, 7}, {1, 34}} {
		lo, hi := r[0], r[1]
		what := func(op string) string { return fmt.Sprintf("%s over [%d, %d]", op, lo, hi) }
		// No mark in the range's first few elements, so that it often
		// starts without one; marks before it do not count.
		marks := randomMask[M](n, rng)
		clear(marks[lo:min(lo+rng.IntN(6), hi+1)])
		mask.assign(t, marks)

		must(t, ga.ScanCopy(src.a, dst.a, mask.a, lo, hi))
		dst.model = scanModel(src.model, dst.model, mask.model, lo, hi, false, false)
		dst.check(t, what("ScanCopy"))
		for _, excl := range []bool{false, true} {
			dst.assign(t, pattern([]int{n}, func(int) T { return rnd[T](rng) }))
			must(t, ga.ScanAdd(src.a, dst.a, mask.a, lo, hi, excl))
			dst.model = scanModel(src.model, dst.model, mask.model, lo, hi, true, excl)
			dst.check(t, what(fmt.Sprintf("ScanAdd(exclusive %v)", excl)))
		}
		src.check(t, what("the scans' source"))
		mask.check(t, what("the scans' mask"))

		var want int
		count, err := ga.Pack(src.a, dst.a, mask.a, lo, hi)
		must(t, err)
		dst.model, want = packModel(src.model, dst.model, mask.model, lo, hi, true)
		dst.check(t, what("Pack"))
		if count != want {
			t.Errorf("%s: count %d, want %d", what("Pack"), count, want)
		}
		count, err = ga.Unpack(dst.a, src.a, mask.a, lo, hi)
		must(t, err)
		src.model, want = packModel(dst.model, src.model, mask.model, lo, hi, false)
		src.check(t, what("Unpack"))
		if count != want {
			t.Errorf("%s: count %d, want %d", what("Unpack"), count, want)
		}

		start, inc := rnd[T](rng), rnd[T](rng)
		must(t, dst.a.PatchEnum(lo, hi, start, inc))
		for i := lo; i <= hi; i++ {
			dst.model[i] = start + mk[T](i-lo, 0)*inc
		}
		dst.check(t, what("PatchEnum"))
	}
}

// ---- misuse ----

// scanMisuse checks that bad arguments are refused on every process,
// naming the array at fault, with every array unchanged.
func scanMisuse[T ga.Elem](t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 7))
	const n = 37
	vector := func(name string, dims ...int) made[T] {
		a, err := ga.New[T](dims...).Name(name).BlockCyclic(slices.Repeat([]int{3}, len(dims))...).Allocate()
		must(t, err)
		m := made[T]{a: a}
		m.assign(t, pattern(dims, func(int) T { return rnd[T](rng) }))
		return m
	}
	src, dst, long, short, matrix := vector("src", n), vector("dst", n), vector("long", n+2), vector("short", 3), vector("matrix", 3, 5)
	arrays := []made[T]{src, dst, long, short, matrix}
	for _, m := range arrays {
		defer destroy(t, m.a)
	}
	mask, err := ga.New[int32](n).Name("mask").Allocate()
	must(t, err)
	defer destroy(t, mask)
	marks := randomMask[int32](n, rng)
	marks[0], marks[n-1] = 1, 1 // more marks than short holds
	putAll(t, mask, marks)

	scanAdd := func(src, dst *ga.Array[T], lo, hi int) error { return ga.ScanAdd(src, dst, mask, lo, hi, false) }
	pack := func(src, dst *ga.Array[T], lo, hi int) error { _, err := ga.Pack(src, dst, mask, lo, hi); return err }
	unpack := func(src, dst *ga.Array[T], lo, hi int) error { _, err := ga.Unpack(src, dst, mask, lo, hi); return err }
	cases := []struct {
		what, op string
		err      error
		array    string
		values   []string
	}{
		{"ScanAdd from a longer source", "ScanAdd", scanAdd(long.a, dst.a, 0, n-1), "long", []string{"39", "37"}},
		{"ScanCopy of a matrix", "ScanCopy", ga.ScanCopy(matrix.a, dst.a, mask, 0, 2), "matrix", []string{"2 dimensions"}},
		{"ScanAdd with lo > hi", "ScanAdd", scanAdd(src.a, dst.a, 5, 4), "dst", []string{"lo 5 hi 4"}},
		{"ScanAdd past the end", "ScanAdd", scanAdd(src.a, dst.a, 0, n), "dst", []string{"hi 37"}},
		{"ScanCopy before the start", "ScanCopy", ga.ScanCopy(src.a, dst.a, mask, -1, 3), "dst", []string{"lo -1"}},
		{"ScanCopy in place", "ScanCopy", ga.ScanCopy(dst.a, dst.a, mask, 0, n-1), "dst", []string{"different arrays"}},
		{"ScanAdd into its mask", "ScanAdd", ga.ScanAdd(src.a, dst.a, dst.a, 0, n-1, true), "dst", []string{"different arrays"}},
		{"Pack with a shorter mask", "Pack", pack(long.a, dst.a, 0, 3), "mask", []string{"37", "39"}},
		{"Pack into too short a vector", "Pack", pack(src.a, short.a, 0, n-1), "short", []string{"has 3 elements"}},
		{"Pack in place", "Pack", pack(dst.a, dst.a, 0, n-1), "dst", []string{"different arrays"}},
		{"Pack into a matrix", "Pack", pack(src.a, matrix.a, 0, n-1), "matrix", []string{"2 dimensions"}},
		{"Unpack from too short a vector", "Unpack", unpack(short.a, dst.a, 0, n-1), "short", []string{"has 3 elements"}},
		{"Unpack into a longer vector than the mask", "Unpack", unpack(src.a, long.a, 0, n-1), "mask", []string{"37", "39"}},
		{"Unpack past the end", "Unpack", unpack(src.a, dst.a, 2, n+3), "dst", []string{"hi 40"}},
		{"PatchEnum of a matrix", "PatchEnum", matrix.a.PatchEnum(0, 2, 1, 1), "matrix", []string{"2 dimensions"}},
		{"PatchEnum with lo > hi", "PatchEnum", dst.a.PatchEnum(9, 8, 1, 1), "dst", []string{"lo 9 hi 8"}},
		{"ScanAdd from a nil source", "ScanAdd", scanAdd(nil, dst.a, 0, n-1), "", []string{"nil"}},
	}
	for _, c := range cases {
		wantErr(t, c.what, c.err, c.op, c.array, nil, c.values...)
	}
	// With both syncs masked the processes still agree on the arguments
	// before they exchange anything: a refusal reaches every process.
	ga.MaskSync(false, false)
	wantErr(t, "ScanCopy with its syncs masked, lo > hi", ga.ScanCopy(src.a, dst.a, mask, 4, 3), "ScanCopy", "dst", nil, "lo 4 hi 3")
	for _, m := range arrays {
		m.check(t, "after the refused calls")
	}
	sameElems(t, "the mask after the refused calls", getAll(t, mask), marks)

	must(t, ga.Sync())
	ga.MaskSync(false, false)
	must(t, ga.ScanAdd(src.a, dst.a, mask, 2, n-2, true))
	must(t, ga.Sync())
	dst.model = scanModel(src.model, dst.model, marks, 2, n-2, true, true)
	dst.check(t, "ScanAdd with its syncs masked")
}
