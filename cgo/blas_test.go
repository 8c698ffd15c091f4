package cgo

import (
	"slices"
	"testing"
)

// TestDgemm checks the BLAS product in column-major order against one
// worked by hand: [1 3; 2 4]·[5 7; 6 8] = [23 31; 34 46].
func TestDgemm(t *testing.T) {
	a, b, c := []float64{1, 2, 3, 4}, []float64{5, 6, 7, 8}, make([]float64, 4)
	Dgemm(2, a, b, c)
	if want := []float64{23, 34, 31, 46}; !slices.Equal(c, want) {
		t.Errorf("Dgemm = %v, want %v", c, want)
	}
	Dgemm(0, nil, nil, nil)
}
