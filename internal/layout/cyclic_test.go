package layout

import (
	"fmt"
	"strings"
	"testing"
)

// segments lays the 7×9 array with element (i, j) = 10i+j out in each rank's
// storage as m says.
func segments(t *testing.T, m Map, nproc int) []string {
	t.Helper()
	seg := make([][]int, nproc)
	for r := range seg {
		seg[r] = make([]int, m.LocalSize(r))
		for k := range seg[r] {
			seg[r][k] = -1
		}
	}
	ext := make([]int, 2)
	for i := range m.Dims[0] {
		for j := range m.Dims[1] {
			c := []int{m.BlockOf(0, i), m.BlockOf(1, j)}
			r, off := m.Place(c, []int{i, j}, ext)
			if got := m.Owner([]int{i, j}); got != r {
				t.Fatalf("Owner(%d,%d) = %d, Place says %d", i, j, got, r)
			}
			seg[r][off] = 10*i + j
		}
	}
	out := make([]string, nproc)
	for r, s := range seg {
		out[r] = strings.Trim(fmt.Sprint(s), "[]")
	}
	return out
}

// The expected storage is what GA 5.8's NGA_Access_block_segment returned for
// the same arrays on 4 processes.
func TestCyclicMatchesGA(t *testing.T) {
	m, err := NewCyclic([]int{7, 9}, []int{2, 3}, 4)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"0 1 2 10 11 12 23 24 25 33 34 35 46 47 48 56 57 58",
		"3 4 5 13 14 15 26 27 28 36 37 38 60 61 62",
		"6 7 8 16 17 18 40 41 42 50 51 52 63 64 65",
		"20 21 22 30 31 32 43 44 45 53 54 55 66 67 68",
	}
	if got := segments(t, m, 4); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("simple block-cyclic storage\n got %q\nwant %q", got, want)
	}
	if m.Blocks() != 12 || fmt.Sprint(m.LocalBlocks(1)) != "[1 5 9]" {
		t.Errorf("blocks %d, rank 1 owns %v", m.Blocks(), m.LocalBlocks(1))
	}
	if lo, hi := m.Patch(10); fmt.Sprint(lo, hi) != "[6 3] [6 5]" {
		t.Errorf("Patch(10) = %v %v", lo, hi)
	}

	g, err := NewProcGrid([]int{7, 9}, []int{2, 3}, []int{2, 2})
	if err != nil {
		t.Fatal(err)
	}
	want = []string{
		"0 1 2 6 7 8 10 11 12 16 17 18 40 41 42 46 47 48 50 51 52 56 57 58",
		"3 4 5 13 14 15 43 44 45 53 54 55",
		"20 21 22 26 27 28 30 31 32 36 37 38 60 61 62 66 67 68",
		"23 24 25 33 34 35 63 64 65",
	}
	if got := segments(t, g, 4); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ScaLAPACK-style storage\n got %q\nwant %q", got, want)
	}
	if fmt.Sprint(g.LocalBlocks(2)) != "[3 5 9 11]" {
		t.Errorf("rank 2 owns %v", g.LocalBlocks(2))
	}
	if c, ok := g.Coords(2); !ok || fmt.Sprint(c) != "[1 0]" {
		t.Errorf("Coords(2) = %v %v", c, ok)
	}
}

func TestCyclicRejects(t *testing.T) {
	for _, c := range []struct {
		dims, block, grid []int
	}{
		{[]int{4, 4}, []int{0, 2}, nil},
		{[]int{4, 4}, []int{2}, nil},
		{[]int{4, 0}, []int{2, 2}, nil},
		{[]int{4, 4}, []int{2, 2}, []int{2}},
		{[]int{4, 4}, []int{2, 2}, []int{2, 0}},
	} {
		var err error
		if c.grid == nil {
			_, err = NewCyclic(c.dims, c.block, 2)
		} else {
			_, err = NewProcGrid(c.dims, c.block, c.grid)
		}
		if err == nil {
			t.Errorf("dims %v block %v grid %v accepted", c.dims, c.block, c.grid)
		}
	}
}

// Numroc is checked against ScaLAPACK's own in package scalapack; here a
// closed form: the counts over all processes add up, from any first process.
func TestNumrocCovers(t *testing.T) {
	for n := 1; n < 40; n++ {
		for nb := 1; nb < 9; nb++ {
			for np := 1; np < 6; np++ {
				for src := range np {
					s := 0
					for p := range np {
						s += Numroc(n, nb, p, src, np)
					}
					if s != n {
						t.Fatalf("Numroc(%d, %d, ·, %d, %d) sums to %d", n, nb, src, np, s)
					}
				}
			}
		}
	}
}
