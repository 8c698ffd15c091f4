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
	if !sc.Scan() {
		return 0, 0, nil, fmt.Errorf("matrix market: empty input")
	}
	h := strings.Fields(strings.ToLower(sc.Text()))
	if len(h) != 5 || h[0] != "%%matrixmarket" || h[1] != "matrix" {
		return 0, 0, nil, fmt.Errorf("matrix market: header %q is not %%%%MatrixMarket matrix <format> <field> <symmetry>", sc.Text())
	}
	format, field, sym := h[2], h[3], h[4]
	if format != "coordinate" && format != "array" {
		return 0, 0, nil, fmt.Errorf("matrix market: format %q; want coordinate or array", format)
	}
	if field != "real" && field != "integer" && field != "double" {
		return 0, 0, nil, fmt.Errorf("matrix market: field %q; only real matrices are read", field)
	}
	if sym != "general" && sym != "symmetric" && sym != "skew-symmetric" {
		return 0, 0, nil, fmt.Errorf("matrix market: symmetry %q; want general, symmetric or skew-symmetric", sym)
	}
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
				return 0, 0, nil, fmt.Errorf("matrix market: line %d: %q is not a number", line, f)
			}
			nums = append(nums, v)
		}
	}
	if err := sc.Err(); err != nil {
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
	data = make([]float64, rows*cols)
	set := func(i, j int, v float64) {
		data[i*cols+j] = v
		switch {
		case sym == "symmetric" && i != j:
			data[j*cols+i] = v
		case sym == "skew-symmetric" && i != j:
			data[j*cols+i] = -v
		}
	}
	if format == "array" {
		vals := nums[2:]
		k := 0
		for j := range cols { // column-major, lower triangle only when symmetric
			for i := range rows {
				if sym != "general" && i < j || sym == "skew-symmetric" && i == j {
					continue
				}
				if k >= len(vals) {
					return 0, 0, nil, fmt.Errorf("matrix market: %d values; the %d × %d array needs more", len(vals), rows, cols)
				}
				set(i, j, vals[k])
				k++
			}
		}
		return rows, cols, data, nil
	}
	nnz := int(nums[2])
	vals := nums[3:]
	if len(vals) != 3*nnz {
		return 0, 0, nil, fmt.Errorf("matrix market: %d numbers after the size line; %d entries need %d", len(vals), nnz, 3*nnz)
	}
	for k := range nnz {
		i, j := int(vals[3*k])-1, int(vals[3*k+1])-1
		if i < 0 || i >= rows || j < 0 || j >= cols {
			return 0, 0, nil, fmt.Errorf("matrix market: entry %d at (%d, %d) is outside %d × %d", k+1, i+1, j+1, rows, cols)
		}
		set(i, j, vals[3*k+2])
	}
	return rows, cols, data, nil
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
