package dra

import (
	"encoding/binary"
	"slices"
	"strings"
	"testing"
)

// headerBytes makes the first bytes of a version 1.0 .npy file whose header
// is dict.
func headerBytes(dict string) []byte {
	dict += strings.Repeat(" ", 63-(10+len(dict))%64) + "\n"
	b := binary.LittleEndian.AppendUint16([]byte(npyMagic+"\x01\x00"), uint16(len(dict)))
	return append(b, dict...)
}

// TestParseNpyHeader reads headers as NumPy writes them, and refuses
// malformed ones with an error that names what is wrong, where a lenient
// reading would have picked one of two shapes.
func TestParseNpyHeader(t *testing.T) {
	good := []struct {
		dict    string
		descr   string
		fortran bool
		dims    []int
	}{
		{"{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }", "<f8", false, []int{3, 4}},
		{"{'descr': '<i4', 'fortran_order': False, 'shape': (5,), }", "<i4", false, []int{5}},
		{"{'descr': '<c16', 'fortran_order': True, 'shape': (2, 3, 4)}", "<c16", true, []int{2, 3, 4}},
		{`{"shape": (7,), "descr": "<f4", "fortran_order": False}`, "<f4", false, []int{7}},
		{"{'descr': '<i8', 'fortran_order': False, 'shape': (), }", "<i8", false, nil},
	}
	for _, c := range good {
		info, need, err := parseNpy(headerBytes(c.dict))
		if err != nil || need != 0 {
			t.Errorf("%s: need %d, error %v", c.dict, need, err)
			continue
		}
		if info.descr != c.descr || info.fortran != c.fortran || !slices.Equal(info.dims, c.dims) {
			t.Errorf("%s: descr %q, fortran %v, dims %v; want %q, %v, %v", c.dict, info.descr, info.fortran, info.dims, c.descr, c.fortran, c.dims)
		}
	}
	bad := []struct{ dict, says string }{
		{"{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), 'shape': (6,), }", `key "shape" is given twice`},
		{"{'descr': '<f8', 'descr': '<f4', 'fortran_order': False, 'shape': (6,), }", `key "descr" is given twice`},
		{"{'descr': '<f8', 'fortran_order': False, }", `no "shape"`},
		{"{'descr': '<f8', 'fortran_order': False, 'shape': (6,), 'extra': 1, }", `unknown key "extra"`},
		{"{'descr': '<f8', 'fortran_order': Maybe, 'shape': (6,), }", "fortran_order Maybe"},
		{"{'descr': '<f8', 'fortran_order': False, 'shape': 6, }", "shape 6 is not a tuple"},
		{"{'descr': '<f8', 'fortran_order': False, 'shape': (6, }", "not closed"},
		{"{'descr': '<f8 'fortran_order': False, 'shape': (6,), }", "no ','"},
		{"'descr': '<f8', 'fortran_order': False, 'shape': (6,)", "not a dict"},
		{"{'descr': '<f8', 'fortran_order': False, 'shape': (2, x), }", "shape (2, x)"},
	}
	for _, c := range bad {
		_, _, err := parseNpy(headerBytes(c.dict))
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: error %v, want one that says %q", c.dict, err, c.says)
		}
	}
}
