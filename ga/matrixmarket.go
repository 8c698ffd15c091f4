package ga

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// ReadMatrixMarket parses a real matrix in Matrix Market format (coordinate
// or array; general, symmetric or skew-symmetric; "real" or "integer") and
// returns its shape and entries in C (row-major) order.
func ReadMatrixMarket(r io.Reader) (rows, cols int, data []float64, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	format, sym, err := mmHeader(sc)
	if err != nil {
		return 0, 0, nil, err
	}
	nums, err := mmNumbers(sc)
	if err != nil {
		return 0, 0, nil, err
	}
	need := 2
	if format == "coordinate" {
		need = 3
	}
	if len(nums) < need {
		return 0, 0, nil, fmt.Errorf("matrix market: no size line")
	}
	rows, cols = int(nums[0]), int(nums[1])
	if rows < 1 || cols < 1 || (sym != "general" && rows != cols) {
		return 0, 0, nil, fmt.Errorf("matrix market: size %d × %d", rows, cols)
	}
	m := mmMatrix{rows: rows, cols: cols, sym: sym, data: make([]float64, rows*cols)}
	if format == "array" {
		err = m.fillArray(nums[2:])
	} else {
		err = m.fillCoordinate(int(nums[2]), nums[3:])
	}
	if err != nil {
		return 0, 0, nil, err
	}
	return rows, cols, m.data, nil
}

// mmHeader reads and checks the header line, and returns its format
// (coordinate or array) and symmetry.
func mmHeader(sc *bufio.Scanner) (format, sym string, err error) {
	if !sc.Scan() {
		return "", "", fmt.Errorf("matrix market: empty input")
	}
	h := strings.Fields(strings.ToLower(sc.Text()))
	if len(h) != 5 || h[0] != "%%matrixmarket" || h[1] != "matrix" {
		return "", "", fmt.Errorf("matrix market: header %q is not %%%%MatrixMarket matrix <format> <field> <symmetry>", sc.Text())
	}
	format, field, sym := h[2], h[3], h[4]
	if format != "coordinate" && format != "array" {
		return "", "", fmt.Errorf("matrix market: format %q; want coordinate or array", format)
	}
	if field != "real" && field != "integer" && field != "double" {
		return "", "", fmt.Errorf("matrix market: field %q; only real matrices are read", field)
	}
	if sym != "general" && sym != "symmetric" && sym != "skew-symmetric" {
		return "", "", fmt.Errorf("matrix market: symmetry %q; want general, symmetric or skew-symmetric", sym)
	}
	return format, sym, nil
}

// mmNumbers reads the numbers after the header, comment lines skipped: the
// size line's, then the entries'.
func mmNumbers(sc *bufio.Scanner) ([]float64, error) {
	var nums []float64
	line := 1
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "%") {
			continue
		}
		for _, f := range strings.Fields(t) {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, fmt.Errorf("matrix market: line %d: %q is not a number", line, f)
			}
			nums = append(nums, v)
		}
	}
	return nums, sc.Err()
}

// mmMatrix is the matrix being read, row-major, and its symmetry.
type mmMatrix struct {
	rows, cols int
	sym        string
	data       []float64
}

// set sets entry (i, j) and, for a symmetric or skew-symmetric matrix, its
// mirror.
func (m *mmMatrix) set(i, j int, v float64) {
	m.data[i*m.cols+j] = v
	switch {
	case m.sym == "symmetric" && i != j:
		m.data[j*m.cols+i] = v
	case m.sym == "skew-symmetric" && i != j:
		m.data[j*m.cols+i] = -v
	}
}

// fillArray sets the entries of the array format: column-major, the lower
// triangle only when symmetric (without the diagonal when skew-symmetric).
func (m *mmMatrix) fillArray(vals []float64) error {
	k := 0
	for j := range m.cols {
		for i := range m.rows {
			if m.sym != "general" && i < j || m.sym == "skew-symmetric" && i == j {
				continue
			}
			if k >= len(vals) {
				return fmt.Errorf("matrix market: %d values; the %d × %d array needs more", len(vals), m.rows, m.cols)
			}
			m.set(i, j, vals[k])
			k++
		}
	}
	return nil
}

// fillCoordinate sets the nnz entries of the coordinate format: 1-based row,
// column and value each.
func (m *mmMatrix) fillCoordinate(nnz int, vals []float64) error {
	if len(vals) != 3*nnz {
		return fmt.Errorf("matrix market: %d numbers after the size line; %d entries need %d", len(vals), nnz, 3*nnz)
	}
	for k := range nnz {
		i, j := int(vals[3*k])-1, int(vals[3*k+1])-1
		if i < 0 || i >= m.rows || j < 0 || j >= m.cols {
			return fmt.Errorf("matrix market: entry %d at (%d, %d) is outside %d × %d", k+1, i+1, j+1, m.rows, m.cols)
		}
		m.set(i, j, vals[3*k+2])
	}
	return nil
}

// LoadMatrixMarket creates a float64 array named name from a Matrix Market
// file that every process can read (process 0 reads it and puts it in). It is
// collective; every process gets the same error, and on error no array is
// left.
func LoadMatrixMarket(name, path string) (*Array[float64], error) {
	const op = "LoadMatrixMarket"
	g, err := current(op)
	if err != nil {
		return nil, err
	}
	dims := []int{0, 0}
	var data []float64
	var rerr error
	if g.rank == 0 {
		if f, err := os.Open(path); err != nil {
			rerr = err
		} else {
			dims[0], dims[1], data, rerr = ReadMatrixMarket(f)
			f.Close()
		}
		if rerr != nil {
			rerr = errorf(op, name, "%v", rerr)
		}
	}
	if err := agree(g, false, op, name, rerr, newArgs(op).str("name", name).str("path", path)); err != nil {
		return nil, err
	}
	if err := Brdcst(dims, 0); err != nil {
		return nil, err
	}
	a, err := Create[float64](name, dims, nil)
	if err != nil {
		return nil, err
	}
	var perr error
	if g.rank == 0 {
		perr = a.Put([]int{0, 0}, []int{dims[0] - 1, dims[1] - 1}, data, nil)
	}
	if err := agree(g, true, op, name, perr, nil); err != nil {
		_ = a.Destroy()
		return nil, err
	}
	return a, nil
}
