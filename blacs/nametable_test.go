package blacs_test

import (
	"bufio"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/internal/nametable"
)

// TestNameTable holds the table of doc.go to the package: every Go name in
// it is exported, every exported function and method has a row, and every
// routine of the BLACS's C interface has a row. testdata/blacs-names.txt
// lists that interface; scripts/gen-names.sh wrote it from the symbols that
// Debian's ScaLAPACK library (libscalapack-openmpi.so) exports, as Debian
// ships no BLACS header. The table names routines as the BLACS guide does
// (blacsName), and the MPI BLACS's handle calls by their C names.
func TestNameTable(t *testing.T) {
	if mpitest.Child() {
		t.Skip("parent only")
	}
	// Error and String make values print; they are no BLACS routine.
	rows, bad, err := nametable.CheckDir(".", "# BLACS names", "Error.Error", "What.String")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range bad {
		t.Error(bad)
	}
	cNames, err := readNames("testdata/blacs-names.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(cNames) < 75 {
		t.Fatalf("testdata/blacs-names.txt lists only %d routines", len(cNames))
	}
	seen := map[string]bool{}
	var names []string
	from := map[string]string{}
	for _, c := range cNames {
		n := blacsName(c)
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
			from[n] = c
		}
	}
	for _, n := range nametable.Uncovered(rows, names) {
		if c := from[n]; c != n {
			n += " (" + c + ")"
		}
		t.Errorf("%s, in the BLACS's C interface, has no row", n)
	}
}

// typed are the routines with a type letter (i, s, d, c or z) after the C.
var typed = regexp.MustCompile(`^C[isdcz]((ge|tr)(sd|rv|bs|br)|g(sum|amx|amn))2d$`)

// blacsName is the guide's name of a C routine: Cblacs_gridinit is
// BLACS_GRIDINIT, Cdgesd2d and its other types vGESD2D, Cdwalltime00
// DWALLTIME, Cksendid KSENDID; the handle calls keep their C names.
func blacsName(c string) string {
	switch {
	case strings.HasSuffix(c, "_handle"):
		return c
	case typed.MatchString(c):
		return "v" + strings.ToUpper(c[2:])
	default:
		return strings.ToUpper(strings.TrimSuffix(strings.TrimPrefix(c, "C"), "00"))
	}
}

// readNames reads a list that scripts/gen-names.sh wrote: a name a line;
// # starts a comment.
func readNames(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var names []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.Fields(sc.Text())
		if len(line) > 0 && !strings.HasPrefix(line[0], "#") {
			names = append(names, line[0])
		}
	}
	return names, sc.Err()
}
