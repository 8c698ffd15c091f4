package h5_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/h5"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// dataset is one dataset of a test file, as the Python scripts take it.
type dataset struct {
	Path  string `json:"path"`
	Dtype string `json:"dtype"`
	Dims  []int  `json:"dims"`
	Chunk []int  `json:"chunk"`
	Name  string `json:"name"`
	Grid  []int  `json:"grid"`
	Order string `json:"order,omitempty"`
}

type attr struct {
	Path  string `json:"path"`
	Name  string `json:"name"`
	Value any    `json:"value"`
}

type spec struct {
	Datasets []dataset `json:"datasets"`
	Attrs    []attr    `json:"attrs"`
}

// kinds are write and read for each element type, by its NumPy name.
var kinds = map[string]struct {
	write func(*testing.T, *h5.File, *dataset)
	read  func(*testing.T, *h5.File, dataset)
}{
	"int32":      {write[int32], read[int32]},
	"int64":      {write[int64], read[int64]},
	"float32":    {write[float32], read[float32]},
	"float64":    {write[float64], read[float64]},
	"complex64":  {write[complex64], read[complex64]},
	"complex128": {write[complex128], read[complex128]},
}

// write writes a new array of d's type and dims, holding val, to f.
func write[T ga.Elem](t *testing.T, f *h5.File, d *dataset) {
	t.Helper()
	g := newArray[T](t, d.Name, d.Dims)
	defer mpitest.Cleanup(t, g.Destroy)
	var opt *h5.Options
	if d.Chunk != nil {
		opt = &h5.Options{Chunk: d.Chunk}
	}
	must(t, h5.Write(f, d.Path, g, opt))
	d.Grid = g.ProcGrid()
}

// TestH5pyReads: h5py reads what goga wrote, every element type, 1 to 3
// dimensions, contiguous and chunked, in groups, with attributes of each
// kind: dtypes, shapes, layouts, values and attributes as written.
func TestH5pyReads(t *testing.T) {
	py := python(t)
	mpitest.Run(t, func(t *testing.T) {
		dir := start(t)
		defer stop(t)
		name := filepath.Join(dir, "goga.h5")
		s := spec{Datasets: []dataset{
			{Path: "ints/i32", Dtype: "int32", Dims: []int{7}, Name: "i32"},
			{Path: "ints/i64", Dtype: "int64", Dims: []int{5, 3}, Chunk: []int{2, 3}, Name: "i64"},
			{Path: "run1/fields/f32", Dtype: "float32", Dims: []int{4, 3, 2}, Name: "f32"},
			{Path: "run1/fields/u", Dtype: "float64", Dims: []int{9, 11}, Chunk: []int{4, 4}, Name: "u"},
			{Path: "c64", Dtype: "complex64", Dims: []int{6, 5}, Name: "c64"},
			{Path: "run1/c128", Dtype: "complex128", Dims: []int{3, 4, 5}, Chunk: []int{1, 2, 5}, Name: "c128"},
		}, Attrs: []attr{
			{"run1/fields/u", "units", "m/s"},
			{"run1/fields/u", "dt", 0.125},
			{"run1", "steps", []int{1, 2, 3}},
			{"/", "title", "goga test"},
			{"ints/i32", "count", int32(-4)},
			{"c64", "weights", []float32{0.5, 1.5}},
		}}
		f, err := h5.Create(name)
		must(t, err)
		for i := range s.Datasets {
			kinds[s.Datasets[i].Dtype].write(t, f, &s.Datasets[i])
		}
		for _, a := range s.Attrs {
			must(t, f.SetAttr(a.Path, a.Name, a.Value))
		}
		must(t, f.SetAttr("run1/fields/u", "units", "m s-1")) // replaces
		s.Attrs[0].Value = "m s-1"
		if _, err := os.Stat(name); !os.IsNotExist(err) {
			t.Errorf("before Close: %s exists (%v); want it only at Close", name, err)
		}
		must(t, f.Close())
		runPython(t, py, "check.py", s, name)
	})
}

// read loads d from f into a new array and checks its values, then reads
// it again into that array with Read.
func read[T ga.Elem](t *testing.T, f *h5.File, d dataset) {
	t.Helper()
	in, err := f.Inquire(d.Path)
	must(t, err)
	if in.Type != d.Dtype || !slices.Equal(in.Dims, d.Dims) || !slices.Equal(in.Chunk, d.Chunk) {
		t.Errorf("Inquire %s: %+v, want %s %v chunk %v", d.Path, in, d.Dtype, d.Dims, d.Chunk)
	}
	g, err := h5.Load[T](f, d.Path, d.Path)
	must(t, err)
	defer mpitest.Cleanup(t, g.Destroy)
	if !slices.Equal(g.Dims(), d.Dims) {
		t.Errorf("Load %s: dims %v, want %v", d.Path, g.Dims(), d.Dims)
	}
	wantVal(t, "Load "+d.Path, whole(t, g))
	must(t, g.Fill(0))
	must(t, h5.Read(f, d.Path, g))
	wantVal(t, "Read "+d.Path, whole(t, g))
}

// TestH5pyWrites: goga reads what h5py wrote: every element type (complex
// as h5py's compound of r and i), contiguous and chunked, big-endian, and
// attributes of every kind h5py writes; other types are ErrMismatch.
func TestH5pyWrites(t *testing.T) {
	py := python(t)
	mpitest.Run(t, func(t *testing.T) {
		dir := start(t)
		defer stop(t)
		name := filepath.Join(dir, "py.h5")
		s := spec{Datasets: []dataset{
			{Path: "fields/i32", Dtype: "int32", Dims: []int{3, 7}},
			{Path: "fields/i64", Dtype: "int64", Dims: []int{10}, Chunk: []int{3}},
			{Path: "f32", Dtype: "float32", Dims: []int{2, 3, 4}, Chunk: []int{1, 3, 2}},
			{Path: "fields/deep/f64", Dtype: "float64", Dims: []int{13, 6}},
			{Path: "be", Dtype: "float64", Dims: []int{5, 2}, Order: ">"},
			{Path: "c64", Dtype: "complex64", Dims: []int{4, 4}, Chunk: []int{2, 2}},
			{Path: "c128", Dtype: "complex128", Dims: []int{3, 2, 5}},
		}}
		runPython(t, py, "make.py", s, name)
		f, err := h5.Open(name, h5.ModeRead)
		must(t, err)
		for _, d := range s.Datasets {
			kinds[d.Dtype].read(t, f, d)
		}
		for _, a := range []attr{
			{"fields", "units", "K"},
			{"fields", "fixed", "fixed"},
			{"fields", "scale", 2.5},
			{"fields", "count", int32(7)},
			{"fields", "steps", []int64{1, 2, 3}},
			{"fields", "weights", []float32{0.5, 1.5}},
			{"fields", "z", complex(1, -2)},
			{"", "title", "made by h5py"},
		} {
			v, err := f.Attr(a.Path, a.Name)
			must(t, err)
			if !equal(v, a.Value) {
				t.Errorf("Attr %s %s: %#v, want %#v", a.Path, a.Name, v, a.Value)
			}
		}
		_, err = f.Attr("fields", "nothing")
		wantErr(t, "Attr of a missing attribute", err, h5.ErrNotFound, "nothing", "fields")
		_, err = h5.Load[int32](f, "other/u16", "u16")
		wantErr(t, "Load of uint16 as int32", err, h5.ErrMismatch, "uint16", "int32", "other/u16", name)
		_, err = h5.Load[float64](f, "other/text", "text")
		wantErr(t, "Load of strings as float64", err, h5.ErrMismatch, "string", "other/text")
		must(t, f.Close())
	})
}

// equal compares attribute values, slices by their elements.
func equal(a, b any) bool {
	switch x := a.(type) {
	case []int64:
		y, ok := b.([]int64)
		return ok && slices.Equal(x, y)
	case []float32:
		y, ok := b.([]float32)
		return ok && slices.Equal(x, y)
	}
	return a == b
}
