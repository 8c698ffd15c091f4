package dra_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/goga-hpc/goga/dra"
	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

var (
	must   = mpitest.Must
	fatalf = mpitest.Fatalf
)

// start starts GA and DRA for a test and returns a directory every rank
// sees; stop ends them.
func start(t *testing.T, l dra.Limits) string {
	t.Helper()
	must(t, ga.Init())
	must(t, dra.Init(l))
	return mpitest.TempDir(t, mpi.World())
}

func stop(t *testing.T) {
	mpitest.Cleanup(t, func() error {
		return ga.Terminate()
	})
	if !t.Failed() {
		must(t, dra.Terminate())
	}
}

// val is a distinct value for element i, of any element type.
func val[T ga.Elem](i int) T {
	var z T
	switch p := any(&z).(type) {
	case *int32:
		*p = int32(i + 1)
	case *int64:
		*p = int64(i+1) << 33
	case *float32:
		*p = float32(i) + 0.5
	case *float64:
		*p = float64(i) + 0.25
	case *complex64:
		*p = complex(float32(i), -float32(i)-1)
	case *complex128:
		*p = complex(float64(i)+0.5, -float64(i))
	}
	return z
}

// fill sets element (linear index i) of g to f(i), each process its block.
func fill[T ga.Elem](t *testing.T, g *ga.Array[T], f func(i int) T) {
	t.Helper()
	if ga.Nodeid() == 0 {
		dims := g.Dims()
		buf := make([]T, product(dims))
		for i := range buf {
			buf[i] = f(i)
		}
		must(t, g.Put(make([]int, len(dims)), last(dims), buf, nil))
	}
	must(t, ga.Sync())
}

// whole reads all of g on every process.
func whole[T ga.Elem](t *testing.T, g *ga.Array[T]) []T {
	t.Helper()
	dims := g.Dims()
	buf := make([]T, product(dims))
	must(t, g.Get(make([]int, len(dims)), last(dims), buf, nil))
	return buf
}

func product(v []int) int {
	n := 1
	for _, x := range v {
		n *= x
	}
	return n
}

func last(dims []int) []int {
	hi := make([]int, len(dims))
	for k := range dims {
		hi[k] = dims[k] - 1
	}
	return hi
}

// wantWhole checks every element of g against f.
func wantWhole[T ga.Elem](t *testing.T, what string, g *ga.Array[T], f func(i int) T) {
	t.Helper()
	for i, v := range whole(t, g) {
		if v != f(i) {
			t.Errorf("%s: element %d is %v, want %v", what, i, v, f(i))
			return
		}
	}
	must(t, ga.Sync())
}

// done waits for a transfer that started.
func done[T ga.Elem](r *dra.Request[T], err error) error {
	if err != nil {
		return err
	}
	return r.Wait()
}

// roundTrip writes an array of dims through a disk array and reads it back
// into arrays of other distributions.
func roundTrip[T ga.Elem](t *testing.T, dir string, dims []int) {
	t.Helper()
	name := fmt.Sprintf("%T-%d", *new(T), len(dims))
	file := filepath.Join(dir, name+".dra")
	g, err := ga.Create[T]("src", dims, nil)
	must(t, err)
	defer mpitest.Cleanup(t, g.Destroy)
	fill(t, g, val[T])

	d, err := dra.Create[T](dims, name, file, dra.ModeWrite, nil)
	must(t, err)
	r, err := dra.Write(g, d)
	must(t, err)
	_, err = r.Probe() // either answer is right; Wait must follow
	must(t, err)
	must(t, r.Wait())
	must(t, d.Close())

	d, err = dra.Open[T](file, dra.ModeRead)
	must(t, err)
	typ, gotDims, gotName, gotFile := d.Inquire()
	if typ != fmt.Sprintf("%T", *new(T)) || !slices.Equal(gotDims, dims) || gotName != name || gotFile != file {
		t.Errorf("Inquire: %s %v %q %q", typ, gotDims, gotName, gotFile)
	}
	// A block-cyclic array (blocks of 2 along every dimension) reads it.
	block := make([]int, len(dims))
	for k := range block {
		block[k] = 2
	}
	h, err := ga.New[T](dims...).Name("dst").BlockCyclic(block...).Allocate()
	must(t, err)
	defer mpitest.Cleanup(t, h.Destroy)
	must(t, h.Zero())
	must(t, done(dra.Read(h, d)))
	wantWhole(t, name+" block-cyclic", h, val[T])
	must(t, d.Close())
}

// TestRoundTrip writes and reads every element type, in 1 to 7 dimensions.
func TestRoundTrip(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		dir := start(t, dra.Limits{MaxArrays: 4})
		defer stop(t)
		shapes := [][]int{{13}, {7, 5}, {3, 4, 5}, {2, 3, 2, 3}, {2, 2, 3, 2, 2}, {2, 1, 2, 3, 2, 2}, {2, 2, 1, 2, 2, 3, 2}}
		for _, dims := range shapes {
			roundTrip[int32](t, dir, dims)
			roundTrip[int64](t, dir, dims)
			roundTrip[float32](t, dir, dims)
			roundTrip[float64](t, dir, dims)
			roundTrip[complex64](t, dir, dims)
			roundTrip[complex128](t, dir, dims)
		}
		// Bands of several 1 MiB steps, on one process at least.
		for _, dims := range [][]int{{400000}, {5, 300, 200}} {
			roundTrip[float64](t, dir, dims)
			roundTrip[int32](t, dir, dims)
		}
	})
}

// TestSections moves patches of a 9 × 8 global array to and from sections
// of a 13 × 11 disk array (larger than the global array) at odd offsets,
// aligned to its 4 × 3 tiles and not, plain and transposed.
func TestSections(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		dir := start(t, dra.Limits{})
		defer stop(t)
		file := filepath.Join(dir, "s.dra")
		const R, C = 13, 11
		g, err := ga.Create[float64]("g", []int{9, 8}, nil)
		must(t, err)
		defer mpitest.Cleanup(t, g.Destroy)
		gv := func(i int) float64 { return float64(i) + 0.5 }
		fill(t, g, gv)

		d, err := dra.Create[float64]([]int{R, C}, "s", file, dra.ModeReadWrite, []int{4, 3})
		must(t, err)
		if !slices.Equal(d.Tile(), []int{4, 3}) {
			t.Errorf("Tile %v, want [4 3]", d.Tile())
		}
		// The model of the disk array.
		want := make([]float64, R*C)
		put := func(trans bool, glo, ghi, dlo, dhi []int) {
			must(t, done(dra.WriteSection(trans, g, glo, ghi, d, dlo, dhi)))
			for i := dlo[0]; i <= dhi[0]; i++ {
				for j := dlo[1]; j <= dhi[1]; j++ {
					gi, gj := glo[0]+i-dlo[0], glo[1]+j-dlo[1]
					if trans {
						gi, gj = glo[0]+j-dlo[1], glo[1]+i-dlo[0]
					}
					want[i*C+j] = gv(gi*8 + gj)
				}
			}
		}
		put(false, []int{0, 0}, []int{7, 5}, []int{4, 3}, []int{11, 8})    // aligned to tiles
		put(false, []int{1, 2}, []int{5, 6}, []int{5, 1}, []int{9, 5})     // unaligned, odd
		put(true, []int{2, 1}, []int{8, 3}, []int{10, 2}, []int{12, 8})    // transposed, unaligned
		put(false, []int{3, 7}, []int{3, 7}, []int{12, 10}, []int{12, 10}) // one element in the last tile
		// The whole disk array through a global array of its size.
		all, err := ga.Create[float64]("all", []int{R, C}, []int{5, 4})
		must(t, err)
		defer mpitest.Cleanup(t, all.Destroy)
		must(t, done(dra.Read(all, d)))
		wantWhole(t, "whole after sections", all, func(i int) float64 { return want[i] })
		must(t, d.Close())

		// Read sections back after reopening, into a patch of another array.
		d, err = dra.Open[float64](file, dra.ModeRead)
		must(t, err)
		h, err := ga.Create[float64]("h", []int{6, 10}, nil)
		must(t, err)
		defer mpitest.Cleanup(t, h.Destroy)
		must(t, h.Fill(-1))
		must(t, done(dra.ReadSection(false, h, []int{1, 2}, []int{3, 8}, d, []int{7, 3}, []int{9, 9})))
		got := whole(t, h)
		for i := range 6 {
			for j := range 10 {
				w := -1.0
				if i >= 1 && i <= 3 && j >= 2 && j <= 8 {
					w = want[(7+i-1)*C+3+j-2]
				}
				if got[i*10+j] != w {
					t.Errorf("ReadSection: h[%d][%d] = %v, want %v", i, j, got[i*10+j], w)
				}
			}
		}
		must(t, ga.Sync())
		// Transposed: h's patch rows 0..5, columns 0..1 is section rows 11..12, columns 5..10 transposed.
		must(t, done(dra.ReadSection(true, h, []int{0, 0}, []int{5, 1}, d, []int{11, 5}, []int{12, 10})))
		got = whole(t, h)
		for i := range 6 {
			for j := range 2 {
				if w := want[(11+j)*C+5+i]; got[i*10+j] != w {
					t.Errorf("ReadSection transposed: h[%d][%d] = %v, want %v", i, j, got[i*10+j], w)
				}
			}
		}
		must(t, ga.Sync())
		if _, err := dra.WriteSection(false, g, []int{0, 0}, []int{0, 0}, d, []int{0, 0}, []int{0, 0}); err == nil {
			t.Errorf("WriteSection on a disk array opened ModeRead succeeded")
		}
		if _, err := dra.ReadSection(false, h, []int{0, 0}, []int{1, 1}, d, []int{0, 0}, []int{1, 2}); err == nil {
			t.Errorf("ReadSection of a 2×3 section into a 2×2 patch succeeded")
		}
		must(t, d.Close())
	})
}

// TestProcessCounts reads, on each job, the file the job before wrote on
// another number of processes, then writes it again.
func TestProcessCounts(t *testing.T) {
	const env = "GOGA_DRA_TEST_SHARED"
	if !mpitest.Child() {
		t.Setenv(env, t.TempDir())
	}
	mpitest.Run(t, func(t *testing.T) {
		start(t, dra.Limits{})
		defer stop(t)
		file := filepath.Join(os.Getenv(env), "np.dra")
		dims := []int{37, 23}
		n := ga.Nnodes()
		g, err := ga.Create[float64]("g", dims, nil)
		must(t, err)
		defer mpitest.Cleanup(t, g.Destroy)
		if _, err := os.Stat(file); err == nil {
			d, err := dra.Open[float64](file, dra.ModeRead)
			must(t, err)
			_, _, by, _ := d.Inquire()
			must(t, done(dra.Read(g, d)))
			wantWhole(t, "written by "+by, g, val[float64])
			must(t, d.Close())
		}
		must(t, ga.Sync())
		fill(t, g, val[float64])
		d, err := dra.Create[float64](dims, fmt.Sprintf("np=%d", n), file, dra.ModeWrite, []int{5, 23})
		must(t, err)
		must(t, done(dra.Write(g, d)))
		must(t, d.Close())
	})
}

// TestOutOfCore keeps a 64 × 40 disk array four times larger than the
// 16 × 40 global array that fills and checks it slab by slab, with each
// process's transfer buffer limited to a slab's bytes (MaxMemory).
func TestOutOfCore(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		const R, C, slab = 64, 40, 16
		dir := start(t, dra.Limits{MaxMemory: slab * C * 8, MaxArraySize: R * C * 8})
		defer stop(t)
		file := filepath.Join(dir, "big.dra")
		g, err := ga.Create[float64]("slab", []int{slab, C}, nil)
		must(t, err)
		defer mpitest.Cleanup(t, g.Destroy)
		d, err := dra.Create[float64]([]int{R, C}, "big", file, dra.ModeWrite, []int{slab, C})
		must(t, err)
		for s := range R / slab {
			fill(t, g, func(i int) float64 { return val[float64](s*slab*C + i) })
			must(t, done(dra.WriteSection(false, g, []int{0, 0}, []int{slab - 1, C - 1}, d, []int{s * slab, 0}, []int{s*slab + slab - 1, C - 1})))
		}
		must(t, d.Close())
		d, err = dra.Open[float64](file, dra.ModeRead)
		must(t, err)
		for s := R/slab - 1; s >= 0; s-- {
			must(t, done(dra.ReadSection(false, g, []int{0, 0}, []int{slab - 1, C - 1}, d, []int{s * slab, 0}, []int{s*slab + slab - 1, C - 1})))
			wantWhole(t, fmt.Sprintf("slab %d", s), g, func(i int) float64 { return val[float64](s*slab*C + i) })
		}
		// The whole array in one read would need more buffer than allowed
		// on one process.
		if ga.Nnodes() == 1 {
			all, err := ga.Create[float64]("all", []int{R, C}, nil)
			must(t, err)
			defer mpitest.Cleanup(t, all.Destroy)
			_, err = dra.Read(all, d)
			wantErr(t, "whole read past MaxMemory", err, dra.ErrLimit, "MaxMemory")
		}
		must(t, d.Close())
	})
}
