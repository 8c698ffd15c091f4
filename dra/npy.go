package dra

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/mpi"
)

// NumPy's .npy format (numpy.lib.format, versions 1.0 to 3.0): the magic
// "\x93NUMPY", a major and a minor version byte, the length of the header
// (2 bytes little-endian in version 1, 4 in versions 2 and 3), and the
// header, a Python dict literal with 'descr', 'fortran_order' and 'shape',
// padded with spaces and a newline so that the data starts at a multiple
// of 64 bytes; then the elements.

const npyMagic = "\x93NUMPY"

// npyDescr is the dtype string of T, little-endian.
func npyDescr[T ga.Elem]() string {
	switch any(*new(T)).(type) {
	case int32:
		return "<i4"
	case int64:
		return "<i8"
	case float32:
		return "<f4"
	case float64:
		return "<f8"
	case complex64:
		return "<c8"
	case complex128:
		return "<c16"
	}
	return "?"
}

// npyHeader is the whole header of a C-order array of T with dims, in
// version 1.0 (every goga array's header fits its 65535 bytes).
func npyHeader[T ga.Elem](dims []int) []byte {
	shape := make([]string, len(dims))
	for k, n := range dims {
		shape[k] = strconv.Itoa(n)
	}
	s := strings.Join(shape, ", ")
	if len(dims) == 1 {
		s += ","
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", npyDescr[T](), s)
	n := 10 + len(dict) + 1
	dict += strings.Repeat(" ", (64-n%64)%64) + "\n"
	b := append([]byte(npyMagic), 1, 0)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(dict)))
	return append(b, dict...)
}

// SaveNpy writes g to file in NumPy's .npy format (C order, little-endian),
// which numpy.load and other tools read. Each process writes its band of
// rows (see the package documentation) in one collective call; the file
// appears under its name only once complete. It is collective over g's
// group.
func SaveNpy[T ga.Elem](g *ga.Array[T], file string) error {
	const op = "SaveNpy"
	if !g.Valid() {
		return errorf(op, file, ga.ErrNil, "global array is nil or destroyed")
	}
	c := g.Pgroup().Comm()
	dims := g.Dims()
	p, err := planOf(op, file, g, make([]int, len(dims)), dims, g.Pgroup().Nnodes())
	head := npyHeader[T](dims)
	f, err := createPartial(op, c, file, len(head)+product(dims)*elemSize[T](), err)
	if err != nil {
		return err
	}
	herr := writeHead(op, c, f, file, head)
	buf := getBuffer[T](p.total)
	defer putBuffer(buf)
	if err = moveNow(disk{f, file + partial, len(head)}, g, p, buf, true, nil); err != nil {
		err = errorf(op, file, err, "%v", err)
	} else {
		err = herr
	}
	return publish(op, c, f, file, err)
}

// npyInfo is what a .npy header says.
type npyInfo struct {
	descr   string
	fortran bool
	dims    []int
	data    int // where the data starts
}

// parseNpy reads the header at the start of b (at least its first 12
// bytes; more returns need with the bytes it takes).
func parseNpy(b []byte) (info *npyInfo, need int, err error) {
	if len(b) < 10 || string(b[:6]) != npyMagic {
		return nil, 0, fmt.Errorf("not a .npy file (no \\x93NUMPY at the start)")
	}
	var start, hlen int
	switch b[6] {
	case 1:
		start, hlen = 10, int(binary.LittleEndian.Uint16(b[8:]))
	case 2, 3:
		if len(b) < 12 {
			return nil, 12, nil
		}
		start, hlen = 12, int(binary.LittleEndian.Uint32(b[8:]))
	default:
		return nil, 0, fmt.Errorf(".npy format version %d.%d is unknown", b[6], b[7])
	}
	if len(b) < start+hlen {
		return nil, start + hlen, nil
	}
	fields, err := npyDict(string(b[start : start+hlen]))
	if err != nil {
		return nil, 0, err
	}
	info = &npyInfo{data: start + hlen}
	v := fields["descr"]
	if len(v) < 2 || v[0] != '\'' && v[0] != '"' {
		return nil, 0, fmt.Errorf(".npy descr %s is not a simple type", v)
	}
	info.descr = v[1 : len(v)-1]
	switch v = fields["fortran_order"]; v {
	case "True", "False":
		info.fortran = v == "True"
	default:
		return nil, 0, fmt.Errorf(".npy fortran_order %s is not True or False", v)
	}
	v = fields["shape"]
	if v[0] != '(' {
		return nil, 0, fmt.Errorf(".npy shape %s is not a tuple", v)
	}
	for _, s := range strings.Split(v[1:len(v)-1], ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			return nil, 0, fmt.Errorf(".npy shape %s: %v", v, err)
		}
		info.dims = append(info.dims, n)
	}
	return info, 0, nil
}

// npyKeys are the keys of a .npy header, each present exactly once.
var npyKeys = []string{"descr", "fortran_order", "shape"}

// npyDict reads a .npy header's dict literal into its values' source
// text: a quoted string, a bare word (True, False) or a parenthesized
// tuple. It refuses what NumPy's loader would not take as the three
// keys once each, and a key given twice, which Python's dict literal
// would quietly resolve to the last value.
func npyDict(dict string) (map[string]string, error) {
	bad := func(format string, a ...any) (map[string]string, error) {
		return nil, fmt.Errorf(".npy header %q: "+format, append([]any{dict}, a...)...)
	}
	s := strings.TrimSpace(dict)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return bad("not a dict")
	}
	s = strings.TrimSpace(s[1 : len(s)-1])
	fields := make(map[string]string)
	// quoted returns the quoted string at the start of s and the rest.
	quoted := func(s string) (string, string, bool) {
		if s == "" || s[0] != '\'' && s[0] != '"' {
			return "", s, false
		}
		end := strings.IndexByte(s[1:], s[0])
		if end < 0 {
			return "", s, false
		}
		return s[:end+2], s[end+2:], true
	}
	for s != "" {
		key, rest, ok := quoted(s)
		if !ok {
			return bad("a key is not a quoted string at %q", s)
		}
		key = key[1 : len(key)-1]
		rest = strings.TrimSpace(rest)
		if !strings.HasPrefix(rest, ":") {
			return bad("no ':' after key %q", key)
		}
		rest = strings.TrimSpace(rest[1:])
		var v string
		switch {
		case strings.HasPrefix(rest, "("):
			end := strings.IndexByte(rest, ')')
			if end < 0 {
				return bad("the tuple of %q is not closed", key)
			}
			v, rest = rest[:end+1], rest[end+1:]
		case strings.HasPrefix(rest, "'") || strings.HasPrefix(rest, "\""):
			if v, rest, ok = quoted(rest); !ok {
				return bad("the string of %q is not closed", key)
			}
		default:
			end := strings.IndexAny(rest, ", ")
			if end < 0 {
				end = len(rest)
			}
			v, rest = rest[:end], rest[end:]
		}
		if !slices.Contains(npyKeys, key) {
			return bad("unknown key %q (a .npy header has %s)", key, strings.Join(npyKeys, ", "))
		}
		if _, dup := fields[key]; dup {
			return bad("key %q is given twice", key)
		}
		fields[key] = v
		rest = strings.TrimSpace(rest)
		if rest != "" && !strings.HasPrefix(rest, ",") {
			return bad("no ',' after the value of %q", key)
		}
		s = strings.TrimSpace(strings.TrimPrefix(rest, ","))
	}
	for _, k := range npyKeys {
		if _, ok := fields[k]; !ok {
			return bad("no %q", k)
		}
	}
	return fields, nil
}

// LoadNpy creates a global array called name, on GA's default group, from
// the .npy file file: C order, little-endian elements of T (NumPy's
// '<i4', '<i8', '<f4', '<f8', '<c8', '<c16'), 1 to ga.MaxDim dimensions.
// Each process reads its band of rows in one collective call. It is
// collective; every process gets the same error, and on error no array
// is left.
func LoadNpy[T ga.Elem](name, file string) (*ga.Array[T], error) {
	const op = "LoadNpy"
	_, c, err := group(op, file)
	if err != nil {
		return nil, err
	}
	if err := agree(c, op, file, notRegular(op, file)); err != nil {
		return nil, err
	}
	f, err := openShared(op, c, file, file, mpi.ModeRdonly)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := readNpy[T](op, f, file)
	if err = agree(c, op, file, err); err != nil {
		return nil, err
	}
	g, err := ga.Create[T](name, info.dims, nil)
	if err != nil {
		return nil, errorf(op, file, err, "%v", err)
	}
	p, err := planOf(op, file, g, make([]int, len(info.dims)), info.dims, g.Pgroup().Nnodes())
	var buf []T
	if err == nil {
		buf = getBuffer[T](p.total)
		defer putBuffer(buf)
		if err = moveNow(disk{f, file, info.data}, g, p, buf, false, nil); err != nil {
			err = errorf(op, file, err, "%v", err)
		}
	}
	if err = agree(c, op, file, err); err == nil {
		err = agree(c, op, file, store(op, file, g, p, buf))
	}
	if err != nil {
		g.Destroy()
		return nil, err
	}
	return g, nil
}

// readNpy reads and checks the header of a .npy file for elements of T.
func readNpy[T ga.Elem](op string, f *mpi.File, file string) (*npyInfo, error) {
	size, err := f.Size()
	if err != nil {
		return nil, errorf(op, file, err, "%v", err)
	}
	bad := func(format string, a ...any) (*npyInfo, error) {
		return nil, errorf(op, file, ErrFormat, format, a...)
	}
	b := make([]byte, min(size, 12))
	for {
		if _, err := mpi.ReadAtAll(f, 0, b); err != nil {
			return nil, errorf(op, file, err, "%v", err)
		}
		info, need, err := parseNpy(b)
		if err != nil {
			return bad("%v", err)
		}
		if info != nil {
			return checkNpy[T](op, file, info, size)
		}
		if need > size {
			return bad("truncated: %d bytes, shorter than its header of %d", size, need)
		}
		b = make([]byte, need)
	}
}

// checkNpy refuses a .npy file that does not hold a C-order array of T of
// the size the file has.
func checkNpy[T ga.Elem](op, file string, info *npyInfo, size int) (*npyInfo, error) {
	want := npyDescr[T]()
	d := info.descr
	if len(d) > 1 && (d[0] == '=' || d[0] == '|') {
		d = "<" + d[1:] // native order is little-endian here
	}
	if d != want {
		return nil, errorf(op, file, ErrMismatch, "the file holds dtype %q, not %q (%T)", info.descr, want, *new(T))
	}
	if info.fortran {
		return nil, errorf(op, file, ErrFormat, "the array is in Fortran order; save it in C order (numpy.ascontiguousarray)")
	}
	if len(info.dims) < 1 || len(info.dims) > ga.MaxDim {
		return nil, errorf(op, file, ErrFormat, "shape %v: a global array has 1 to %d dimensions", info.dims, ga.MaxDim)
	}
	n := 1
	for _, x := range info.dims {
		if x < 1 || x > (1<<50)/n {
			return nil, errorf(op, file, ErrFormat, "shape %v: extents must be at least 1, and the size plausible", info.dims)
		}
		n *= x
	}
	if want := info.data + n*elemSize[T](); size != want {
		return nil, errorf(op, file, ErrFormat, "truncated or extended: %d bytes, want %d for shape %v", size, want, info.dims)
	}
	return info, nil
}
