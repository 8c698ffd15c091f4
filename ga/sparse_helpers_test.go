package ga_test

import (
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// The dense models the sparse tests hold the package to.

// newDense is an idim × jdim matrix of zeros.
func newDense[T ga.Elem](idim, jdim int) [][]T {
	m := make([][]T, idim)
	for i := range m {
		m[i] = make([]T, jdim)
	}
	return m
}

// mulDense is the plain product a·b.
func mulDense[T ga.Elem](a, b [][]T) [][]T {
	c := newDense[T](len(a), len(b[0]))
	for i, row := range a {
		for k, x := range row {
			for j, y := range b[k] {
				c[i][j] += x * y
			}
		}
	}
	return c
}

// flat is m's elements in C order.
func flat[T ga.Elem](m [][]T) []T {
	var v []T
	for _, row := range m {
		v = append(v, row...)
	}
	return v
}

// sparseOf makes an assembled matrix of dense's non-zero elements, each
// added by process (i + j) mod n.
func sparseOf[T ga.Elem](t *testing.T, dense [][]T) *ga.Sparse[T] {
	t.Helper()
	me, n := ga.Nodeid(), ga.Nnodes()
	s, err := ga.CreateSparse[T](len(dense), len(dense[0]))
	must(t, err)
	var z T
	for i, row := range dense {
		for j, x := range row {
			if x != z && (i+j)%n == me {
				must(t, s.AddElement(i, j, x))
			}
		}
	}
	must(t, s.Assemble())
	return s
}

// sameRows checks this process's rows of s, read through AccessColBlock,
// against want, the whole matrix: every element where it belongs, no
// element outside its column block, columns ascending, and, with
// structure, an element stored exactly where want is non-zero or stored
// is true.
func sameRows[T ga.Elem](t *testing.T, what string, s *ga.Sparse[T], want [][]T, stored func(i, j int) bool) {
	t.Helper()
	lo, hi, ok := s.RowDistribution(ga.Nodeid())
	if !ok {
		return
	}
	jdim := len(want[0])
	got := newDense[T](hi-lo+1, jdim)
	has := newDense[int32](hi-lo+1, jdim)
	for b := range ga.Nnodes() {
		idx, jdx, val, err := s.AccessColBlock(b)
		must(t, err)
		if idx == nil {
			continue
		}
		clo, chi, _ := s.ColumnDistribution(b)
		for r := range hi - lo + 1 {
			prev := -1
			for k := idx[r]; k < idx[r+1]; k++ {
				j := jdx[k]
				if j < clo || j > chi || j <= prev {
					mpitest.Fatalf(t, "%s: block %d (columns %d..%d), row %d: column %d after %d", what, b, clo, chi, lo+r, j, prev)
				}
				prev = j
				got[r][j], has[r][j] = val[k], 1
			}
		}
	}
	var z T
	for r := range got {
		sameElems(t, what, got[r], want[lo+r])
		if stored == nil {
			continue
		}
		for j := range jdim {
			if (has[r][j] == 1) != (want[lo+r][j] != z || stored(lo+r, j)) {
				t.Errorf("%s: element (%d, %d) stored: %v", what, lo+r, j, has[r][j] == 1)
			}
		}
	}
}

// denseArray makes a global array holding m.
func denseArray[T ga.Elem](t *testing.T, name string, m [][]T) *ga.Array[T] {
	t.Helper()
	a, err := ga.Create[T](name, []int{len(m), len(m[0])}, nil)
	must(t, err)
	putAll(t, a, flat(m))
	return a
}
