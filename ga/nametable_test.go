package ga_test

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/internal/nametable"
)

// TestNameTable holds the table of doc.go to the package: every Go name in
// it is exported, every exported function and method has a row, and every
// routine of GA's ga.h has a row. testdata/ga-names.txt lists ga.h's
// routines; scripts/gen-names.sh wrote it from global/src/ga.h of
// GlobalArrays/ga at dd4034712e5ecc88d08a8c0d4ef56a45230660e4. ga.h declares
// most routines twice, as GA_X and NGA_X with the same parameters (capi.c
// makes both one call), and the 64-bit ones again with int64_t indices
// (NGA_Get64): the list pairs each such name with the routine it is, and a
// row for either spelling covers both; a 64-bit name is covered by its
// routine's row where a row names 64-bit routines (doc.go: goga's indices
// are 64 bits wide), not the other way round.
func TestNameTable(t *testing.T) {
	if mpitest.Child() {
		t.Skip("parent only")
	}
	rows, bad, err := nametable.CheckDir(".", "# GA C names", "Error.Error")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range bad {
		t.Error(bad)
	}
	names, same, err := readNames("testdata/ga-names.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 450 {
		t.Fatalf("testdata/ga-names.txt lists only %d routines", len(names))
	}
	rowed := map[string]bool{}
	for _, n := range names {
		rowed[n] = true
	}
	for _, n := range nametable.Uncovered(rows, names) {
		rowed[n] = false
	}
	// alias holds the pairs that cover each other: X's GA_ and NGA_ names;
	// wide, whether a row covers 64-bit names at all.
	alias := map[string]string{}
	wide := false
	for n, s := range same {
		if n != s+"64" {
			alias[n], alias[s] = s, n
		} else if rowed[n] {
			wide = true
		}
	}
	var covered func(n string) bool
	covered = func(n string) bool {
		if rowed[n] || rowed[alias[n]] {
			return true
		}
		s, ok := same[n]
		return ok && n == s+"64" && wide && covered(s)
	}
	for _, n := range names {
		if !covered(n) {
			t.Errorf("%s, declared in GA's ga.h, has no row", n)
		}
	}
}

// readNames reads a list that scripts/gen-names.sh wrote: a name a line,
// optionally followed by the name of the routine it is; # starts a comment.
func readNames(path string) (names []string, same map[string]string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	same = map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.Fields(sc.Text())
		if len(line) == 0 || strings.HasPrefix(line[0], "#") {
			continue
		}
		names = append(names, line[0])
		if len(line) > 1 {
			same[line[0]] = line[1]
		}
	}
	return names, same, sc.Err()
}
