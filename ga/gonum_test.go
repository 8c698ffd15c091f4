package ga_test

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGonum checks the gonum edges: a process's block as a gonum matrix or
// vector sharing its memory, and patches read into and written or
// accumulated from gonum matrices (views of larger ones too, whose stride is
// the leading dimension), against a model, on 1-4 processes.
func TestGonum(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		t.Run("LocalDense", testLocalDense)
		t.Run("LocalVec", testLocalVec)
		t.Run("BlockDense", testBlockDense)
		t.Run("Patches", testGonumPatches)
		t.Run("Misuse", testGonumMisuse)
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

// value is the model's element (i, j) of a rows × cols matrix.
func value(i, j int) float64 { return float64(100*i + j) }

func testLocalDense(t *testing.T) {
	const r, c = 7, 9
	a, err := ga.Create[float64]("dense", []int{r, c}, nil)
	must(t, err)
	defer destroy(t, a)
	z, err := ga.Create[complex128]("cdense", []int{r, c}, nil)
	must(t, err)
	defer destroy(t, z)
	// Every process writes its block through gonum; the array holds them.
	if m, lo, ok, err := ga.LocalDense(a); err != nil {
		fatalf(t, "LocalDense: %v", err)
	} else if ok {
		wantLo, _, _ := a.Distribution(ga.Nodeid())
		if lo[0] != wantLo[0] || lo[1] != wantLo[1] {
			t.Errorf("LocalDense lo %v, Distribution says %v", lo, wantLo)
		}
		rows, cols := m.Dims()
		for i := range rows {
			for j := range cols {
				m.Set(i, j, value(lo[0]+i, lo[1]+j))
			}
		}
	}
	if m, lo, ok, err := ga.LocalCDense(z); err != nil {
		fatalf(t, "LocalCDense: %v", err)
	} else if ok {
		rows, cols := m.Dims()
		for i := range rows {
			for j := range cols {
				m.Set(i, j, complex(value(lo[0]+i, lo[1]+j), -1))
			}
		}
	}
	must(t, ga.Sync())
	want, cwant := make([]float64, r*c), make([]complex128, r*c)
	for i := range r {
		for j := range c {
			want[i*c+j], cwant[i*c+j] = value(i, j), complex(value(i, j), -1)
		}
	}
	sameElems(t, "blocks written through LocalDense", getAll(t, a), want)
	sameElems(t, "blocks written through LocalCDense", getAll(t, z), cwant)
	must(t, ga.Sync())
}

func testLocalVec(t *testing.T) {
	const n = 23
	v, err := ga.Create[float64]("vec", []int{n}, nil)
	must(t, err)
	defer destroy(t, v)
	if x, lo, ok, err := ga.LocalVec(v); err != nil {
		fatalf(t, "LocalVec: %v", err)
	} else if ok {
		for i := range x.Len() {
			x.SetVec(i, float64(lo+i)*0.5)
		}
	}
	must(t, ga.Sync())
	want := make([]float64, n)
	for i := range want {
		want[i] = float64(i) * 0.5
	}
	sameElems(t, "vector written through LocalVec", getAll(t, v), want)
	must(t, ga.Sync())
}

func testBlockDense(t *testing.T) {
	const r, c = 10, 11
	a, err := ga.New[float64](r, c).Name("bc").BlockCyclic(3, 4).Allocate()
	must(t, err)
	defer destroy(t, a)
	if _, _, _, err := ga.LocalDense(a); err == nil {
		t.Errorf("LocalDense of a block-cyclic array: no error")
	}
	for _, i := range a.LocalBlocks() {
		m, err := ga.BlockDense(a, i)
		must(t, err)
		lo, _, _ := a.Distribution(i)
		rows, cols := m.Dims()
		for x := range rows {
			for y := range cols {
				m.Set(x, y, value(lo[0]+x, lo[1]+y))
			}
		}
	}
	must(t, ga.Sync())
	want := make([]float64, r*c)
	for i := range r {
		for j := range c {
			want[i*c+j] = value(i, j)
		}
	}
	sameElems(t, "blocks written through BlockDense", getAll(t, a), want)
	must(t, ga.Sync())
}

func testGonumPatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 0))
	for _, kind := range kinds {
		a := newLayout[float64](t, kind, []int{9, 12}, rng)
		lo, hi := []int{2, 3}, []int{6, 10} // 5 × 8
		m, err := ga.GetDense(a.a, lo, hi)
		must(t, err)
		pos := order(a.a.Dims(), lo, hi, false)
		for k, p := range pos {
			if got := m.At(k/8, k%8); got != a.model[p] {
				t.Errorf("%s: GetDense (%d, %d) = %v, want %v", kind, k/8, k%8, got, a.model[p])
			}
		}
		must(t, ga.Sync())
		// A view of a larger matrix: its stride (20) is not its width.
		big := mat.NewDense(6, 20, nil)
		view := big.Slice(1, 6, 3, 11).(*mat.Dense)
		for i := range 5 {
			for j := range 8 {
				view.Set(i, j, float64(i*8+j))
			}
		}
		if ga.Nodeid() == 0 {
			must(t, ga.PutDense(a.a, lo, hi, view))
			must(t, ga.AccDense(a.a, lo, hi, view, 0.5))
		}
		for k, p := range pos {
			a.model[p] = float64(k) * 1.5
		}
		must(t, ga.Sync())
		a.check(t, "PutDense and AccDense of a strided view")
		into := mat.NewDense(7, 30, nil).Slice(2, 7, 5, 13).(*mat.Dense)
		must(t, ga.GetIntoDense(a.a, lo, hi, into))
		for k := range pos {
			if got := into.At(k/8, k%8); got != float64(k)*1.5 {
				t.Errorf("%s: GetIntoDense (%d, %d) = %v, want %v", kind, k/8, k%8, got, float64(k)*1.5)
			}
		}
		must(t, ga.Sync())
		must(t, a.a.Destroy())
	}

	// A 2-D slice of a 3-D complex array: rows along the first dimension,
	// columns along the last.
	z := newLayout[complex128](t, "cyclic", []int{4, 3, 5}, rng)
	defer destroy(t, z.a)
	lo, hi := []int{0, 1, 1}, []int{3, 1, 4} // 4 × 4
	pos := order(z.a.Dims(), lo, hi, false)
	m, err := ga.GetCDense(z.a, lo, hi)
	must(t, err)
	for k, p := range pos {
		if got := m.At(k/4, k%4); got != z.model[p] {
			t.Errorf("GetCDense (%d, %d) = %v, want %v", k/4, k%4, got, z.model[p])
		}
	}
	must(t, ga.Sync())
	w := mat.NewCDense(4, 4, nil)
	for k := range 16 {
		w.Set(k/4, k%4, complex(float64(k), 1))
	}
	if ga.Nodeid() == 0 {
		must(t, ga.PutCDense(z.a, lo, hi, w))
		must(t, ga.AccCDense(z.a, lo, hi, w, 2i))
	}
	for k, p := range pos {
		v := complex(float64(k), 1)
		z.model[p] = v + 2i*v
	}
	must(t, ga.Sync())
	z.check(t, "PutCDense and AccCDense of a 3-D slice")
	into := mat.NewCDense(4, 4, nil)
	must(t, ga.GetIntoCDense(z.a, lo, hi, into))
	for k, p := range pos {
		if got := into.At(k/4, k%4); got != z.model[p] {
			t.Errorf("GetIntoCDense (%d, %d) = %v, want %v", k/4, k%4, got, z.model[p])
		}
	}
	must(t, ga.Sync())
}

// testGonumMisuse: a matrix whose shape is not the patch's, a patch over
// three dimensions, and a vector call on a matrix are errors that name the
// call and change nothing.
func testGonumMisuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 0))
	a := newLayout[float64](t, "regular", []int{6, 7}, rng)
	defer destroy(t, a.a)
	cube := newLayout[float64](t, "regular", []int{3, 3, 3}, rng)
	defer destroy(t, cube.a)
	lo, hi := []int{1, 1}, []int{3, 4} // 3 × 4
	wrong := mat.NewDense(4, 3, nil)
	wantErr(t, "PutDense of a 4 × 3 matrix into a 3 × 4 patch", ga.PutDense(a.a, lo, hi, wrong), "PutDense", "regular", nil, "3 × 4", "4 × 3")
	wantErr(t, "AccDense of a 4 × 3 matrix", ga.AccDense(a.a, lo, hi, wrong, 1), "AccDense", "regular", nil)
	wantErr(t, "GetIntoDense into a 4 × 3 matrix", ga.GetIntoDense(a.a, lo, hi, wrong), "GetIntoDense", "regular", nil)
	_, err := ga.GetDense(cube.a, []int{0, 0, 0}, []int{1, 1, 1})
	wantErr(t, "GetDense of a patch over three dimensions", err, "GetDense", "regular", nil)
	_, err = ga.GetDense(a.a, []int{0, 0}, []int{6, 1})
	wantErr(t, "GetDense past the end", err, "GetDense", "regular", nil)
	_, _, _, err = ga.LocalVec(a.a)
	wantErr(t, "LocalVec of a matrix", err, "LocalVec", "regular", nil)
	_, _, _, err = ga.LocalDense(cube.a)
	wantErr(t, "LocalDense of a 3-D array", err, "LocalDense", "regular", nil)
	must(t, ga.Sync())
	a.check(t, "after refused calls")
	must(t, ga.Sync())
}
