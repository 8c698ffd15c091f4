package linalg

import "testing"

// TestByRows checks how the in-place product shares C out: by columns only
// where their even shares fall on C's block boundaries and rows' do not, or
// where columns are the longer side.
func TestByRows(t *testing.T) {
	whole := bound{starts: []int{0}}
	halves := bound{starts: []int{0, 500}}
	for _, c := range []struct {
		name         string
		rows, cols   int
		cRows, cCols bound
		want         bool
	}{
		// gabench's dgemm on 2 ranks: C in two column blocks.
		{"column blocks", 1000, 1000, whole, halves, false},
		{"row blocks", 1000, 1000, halves, whole, true},
		{"both", 1000, 1000, halves, halves, true},
		{"one block, square", 1000, 1000, whole, whole, true},
		{"one block, wide", 10, 20, whole, whole, false},
		// gabench's matmul_patch: C's patch from column 40 of an array
		// in two column blocks of 1024: the share at 500 is column 540.
		{"patch off the boundary", 1000, 1000, whole, bound{starts: []int{0, 1024}, base: 40}, true},
		{"patch on the boundary", 1000, 1000, whole, bound{starts: []int{0, 1024}, base: 524}, false},
	} {
		if got := byRows(c.rows, c.cols, 2, c.cRows, c.cCols); got != c.want {
			t.Errorf("%s: byRows = %v, want %v", c.name, got, c.want)
		}
	}
}
