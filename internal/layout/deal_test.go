package layout

import (
	"fmt"
	"testing"
)

func TestSpans(t *testing.T) {
	regular, err := Regular([]int{10, 8}, nil, 4)
	if err != nil {
		t.Fatal(err)
	}
	cyclic, err := NewCyclic([]int{7, 9}, []int{2, 3}, 4)
	if err != nil {
		t.Fatal(err)
	}
	grid, err := NewProcGrid([]int{7, 9}, []int{2, 3}, []int{2, 2})
	if err != nil {
		t.Fatal(err)
	}
	// 10 × 8 in blocks of 5 × 4 and 5 × 4, with a halo of 1: storage 7 × 6,
	// the owned rows 4 long at 7, 13, 19, 25, 31.
	ghost := Map{Dims: []int{10, 8}, Starts: [][]int{{0, 5}, {0, 4}}, deal: Ghosts{Width: []int{1, 1}}}
	ghost1 := Map{Dims: []int{6}, Starts: [][]int{{0, 3}}, deal: Ghosts{Width: []int{2}}}
	// 4 × 2 × 3 in one block, storage 6 × 4 × 5: runs of 3 at
	// ((1+i)·4 + 1+j)·5 + 1.
	ghost3 := Map{Dims: []int{4, 2, 3}, Starts: [][]int{{0}, {0}, {0}}, deal: Ghosts{Width: []int{1, 1, 1}}}
	for _, c := range []struct {
		name string
		m    Map
		rank int
		want string
	}{
		{"regular", regular, 3, "[{0 20}]"},
		{"regular, rank past the grid", regular, 4, "[]"},
		{"cyclic", cyclic, 1, "[{0 15}]"},
		{"process grid", grid, 3, "[{0 9}]"},
		{"halo", ghost, 2, "[{7 4} {13 4} {19 4} {25 4} {31 4}]"},
		{"halo, 1-D", ghost1, 1, "[{2 3}]"},
		{"halo, 3-D", ghost3, 0, "[{26 3} {31 3} {46 3} {51 3} {66 3} {71 3} {86 3} {91 3}]"},
	} {
		if got := fmt.Sprint(c.m.Spans(c.rank)); got != c.want {
			t.Errorf("%s: Spans(%d) = %s, want %s", c.name, c.rank, got, c.want)
		}
	}
}
