package dra_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/goga-hpc/goga/dra"
	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// An independent .npy reader and writer, from NumPy's published format
// (numpy.lib.format): version 1.0, little-endian.

var npyDict = regexp.MustCompile(`^\{'descr': '([<>|=][a-z][0-9]+)', 'fortran_order': (True|False), 'shape': \(([0-9, ]*)\), \} *\n$`)

// readNpyFile parses a .npy file: its dtype, shape and raw data.
func readNpyFile(b []byte) (descr string, shape []int, data []byte, err error) {
	if len(b) < 10 || !bytes.Equal(b[:8], []byte("\x93NUMPY\x01\x00")) {
		return "", nil, nil, fmt.Errorf("no magic and version 1.0: % x", b[:min(len(b), 8)])
	}
	n := int(binary.LittleEndian.Uint16(b[8:]))
	if (10+n)%64 != 0 {
		return "", nil, nil, fmt.Errorf("data at %d, not a multiple of 64", 10+n)
	}
	m := npyDict.FindStringSubmatch(string(b[10 : 10+n]))
	if m == nil {
		return "", nil, nil, fmt.Errorf("header %q", b[10:10+n])
	}
	if m[2] != "False" {
		return "", nil, nil, fmt.Errorf("fortran_order %s", m[2])
	}
	for _, s := range strings.Split(m[3], ",") {
		if s = strings.TrimSpace(s); s != "" {
			k, _ := strconv.Atoi(s)
			shape = append(shape, k)
		}
	}
	return m[1], shape, b[10+n:], nil
}

// writeNpyFile makes a .npy file.
func writeNpyFile(descr string, fortran bool, shape []int, data []byte) []byte {
	s := make([]string, len(shape))
	for k, n := range shape {
		s[k] = strconv.Itoa(n) + ","
	}
	f := "False"
	if fortran {
		f = "True"
	}
	return npyWithDict(fmt.Sprintf("{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }", descr, f, strings.Join(s, " ")), data)
}

// npyWithDict makes a .npy file whose header is dict.
func npyWithDict(dict string, data []byte) []byte {
	dict += strings.Repeat(" ", 63-(10+len(dict))%64) + "\n"
	b := binary.LittleEndian.AppendUint16([]byte("\x93NUMPY\x01\x00"), uint16(len(dict)))
	return append(append(b, dict...), data...)
}

func raw[T ga.Elem](v []T) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), len(v)*int(unsafe.Sizeof(*new(T))))
}

func npyRoundTrip[T ga.Elem](t *testing.T, dir, descr string, dims []int) {
	t.Helper()
	n := product(dims)
	want := make([]T, n)
	for i := range want {
		want[i] = val[T](i)
	}
	// goga writes; the independent reader parses.
	g, err := ga.Create[T]("g", dims, nil)
	must(t, err)
	defer mpitest.Cleanup(t, g.Destroy)
	fill(t, g, val[T])
	file := filepath.Join(dir, fmt.Sprintf("%s-%d.npy", descr[1:], len(dims)))
	must(t, dra.SaveNpy(g, file))
	b, err := os.ReadFile(file)
	must(t, err)
	d, shape, data, err := readNpyFile(b)
	if err != nil || d != descr || !slices.Equal(shape, dims) || !bytes.Equal(data, raw(want)) {
		t.Errorf("SaveNpy %s %v: read back %q %v, %d data bytes (equal %v), error %v", descr, dims, d, shape, len(data), bytes.Equal(data, raw(want)), err)
	}
	must(t, ga.Sync())
	// The independent writer writes; goga loads.
	file = filepath.Join(dir, fmt.Sprintf("in-%s-%d.npy", descr[1:], len(dims)))
	onRoot(t, func() error { return os.WriteFile(file, writeNpyFile(descr, false, dims, raw(want)), 0o644) })
	h, err := dra.LoadNpy[T]("h", file)
	must(t, err)
	defer mpitest.Cleanup(t, h.Destroy)
	if !slices.Equal(h.Dims(), dims) {
		t.Errorf("LoadNpy %s: dims %v, want %v", descr, h.Dims(), dims)
	}
	wantWhole(t, "LoadNpy "+descr, h, val[T])
}

// TestNpy writes and reads .npy files of the six element types.
func TestNpy(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		dir := start(t, dra.Limits{})
		defer stop(t)
		for _, dims := range [][]int{{11}, {5, 7}, {3, 2, 5}} {
			npyRoundTrip[int32](t, dir, "<i4", dims)
			npyRoundTrip[int64](t, dir, "<i8", dims)
			npyRoundTrip[float32](t, dir, "<f4", dims)
			npyRoundTrip[float64](t, dir, "<f8", dims)
			npyRoundTrip[complex64](t, dir, "<c8", dims)
			npyRoundTrip[complex128](t, dir, "<c16", dims)
		}
		// Refused, on every process: another dtype, Fortran order, a
		// truncated file, a shape given twice, a missing file.
		data := raw(make([]float64, 6))
		bad := map[string][]byte{
			"dtype":     writeNpyFile("<f4", false, []int{2, 3}, data[:24]),
			"Fortran":   writeNpyFile("<f8", true, []int{2, 3}, data),
			"truncated": writeNpyFile("<f8", false, []int{2, 3}, data[:40]),
			"duplicate": npyWithDict("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), 'shape': (6,), }", data),
		}
		says := map[string]string{"dtype": "<f4", "Fortran": "Fortran", "truncated": "truncated", "duplicate": `key "shape" is given twice`}
		for _, what := range []string{"dtype", "Fortran", "truncated", "duplicate"} {
			file := filepath.Join(dir, what+".npy")
			onRoot(t, func() error { return os.WriteFile(file, bad[what], 0o644) })
			if _, err := dra.LoadNpy[float64]("x", file); err == nil {
				t.Errorf("LoadNpy of a file with a bad %s succeeded", what)
			} else if !strings.Contains(err.Error(), says[what]) {
				t.Errorf("LoadNpy, bad %s: %v", what, err)
			}
		}
		_, err := dra.LoadNpy[float64]("x", filepath.Join(dir, "none.npy"))
		wantErr(t, "LoadNpy of a missing file", err, nil, "none.npy")
	})
}
