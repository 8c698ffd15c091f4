package layout

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

func ints(t *testing.T, s string) []int {
	t.Helper()
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("bad number %q", f)
		}
		out = append(out, v)
	}
	return out
}

// TestRegularMatchesGA compares Regular with the GA C library's
// NGA_Distribution, recorded by scripts/gadist.sh.
func TestRegularMatchesGA(t *testing.T) {
	f, err := os.Open("../../testdata/ga_distribution.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	cases := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		fs := strings.Split(line, "\t")
		np, _ := strconv.Atoi(fs[0])
		dims := ints(t, fs[1])
		var chunk []int
		if fs[2] != "-" {
			chunk = ints(t, fs[2])
		}
		m, err := Regular(dims, chunk, np)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		for r := range np {
			want := fs[3+r]
			lo, hi, ok := m.Block(r)
			got := "empty"
			if ok {
				var parts []string
				for d := range lo {
					parts = append(parts, fmt.Sprintf("%d:%d", lo[d], hi[d]))
				}
				got = strings.Join(parts, ",")
			}
			if wantEmpty(want) {
				want = "empty"
			}
			if got != want {
				t.Errorf("np=%d dims=%v chunk=%v rank %d: got %s, GA has %s (starts %v)", np, dims, chunk, r, got, want, m.Starts)
			}
		}
		cases++
	}
	if cases < 300 {
		t.Fatalf("only %d cases read", cases)
	}
}

// wantEmpty reports whether GA's lo:hi list is an empty patch (hi < lo).
func wantEmpty(s string) bool {
	for _, p := range strings.Split(s, ",") {
		lh := strings.Split(p, ":")
		lo, _ := strconv.Atoi(lh[0])
		hi, _ := strconv.Atoi(lh[1])
		if hi < lo {
			return true
		}
	}
	return false
}

func TestOwners(t *testing.T) {
	m := Map{Dims: []int{10, 7}, Starts: [][]int{{0, 4, 8}, {0, 3}}}
	if err := m.Check(); err != nil {
		t.Fatal(err)
	}
	// The patch rows 3..8, columns 2..4 touches blocks (0,0) (0,1) (1,0) (1,1) (2,0) (2,1).
	var got []string
	m.Owners([]int{3, 2}, []int{8, 4}, func(r int, lo, hi []int) bool {
		got = append(got, fmt.Sprintf("%d:%v-%v", r, lo, hi))
		if m.Owner(lo) != r || m.Owner(hi) != r {
			t.Errorf("Owner disagrees with Owners for rank %d", r)
		}
		return true
	})
	want := []string{"0:[3 2]-[3 2]", "1:[3 3]-[3 4]", "2:[4 2]-[7 2]", "3:[4 3]-[7 4]", "4:[8 2]-[8 2]", "5:[8 3]-[8 4]"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("Owners = %v, want %v", got, want)
	}
	if lo, hi, ok := m.Block(5); !ok || fmt.Sprint(lo, hi) != "[8 3] [9 6]" {
		t.Fatalf("Block(5) = %v %v %v", lo, hi, ok)
	}
	if _, _, ok := m.Block(6); ok {
		t.Fatal("rank 6 owns a block of a 6-block map")
	}
	for _, bad := range []Map{
		{Dims: []int{5}, Starts: [][]int{{1}}},
		{Dims: []int{5}, Starts: [][]int{{0, 3, 3}}},
		{Dims: []int{5}, Starts: [][]int{{0, 5}}},
		{Dims: []int{0}, Starts: [][]int{{0}}},
	} {
		if bad.Check() == nil {
			t.Errorf("Check accepted %v", bad)
		}
	}
}
