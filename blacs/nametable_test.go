package blacs_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/internal/nametable"
)

// TestNameTable holds the table of doc.go to the package: every Go name in
// it is exported, every exported function and method has a row, and every
// routine of the BLACS inventory has a row.
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
	inv, err := os.ReadFile("../../shared/spec/blacs-api-inventory.md")
	if err != nil {
		t.Skipf("no inventory to check against: %v", err)
	}
	// The guide's names: support routines, typed routines (v is the type
	// letter in the table), the MPI BLACS's handle calls, the unofficial ones.
	name := regexp.MustCompile(`\b(BLACS_[A-Z]+|[ISDCZ](?:(?:GE|TR)(?:SD|RV|BS|BR)|G(?:SUM|AMX|AMN))2D|C\w+_handle|SETPVMTIDS|DCPUTIME|DWALLTIME|K(?:SEND|RECV|BS|BR)ID)\b`)
	seen := map[string]bool{}
	var names []string
	for _, n := range name.FindAllString(string(inv), -1) {
		if strings.HasSuffix(n, "2D") && !strings.HasPrefix(n, "BLACS") {
			n = "v" + n[1:]
		}
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	for _, n := range nametable.Uncovered(rows, names) {
		t.Errorf("%s, named in blacs-api-inventory.md, has no row", n)
	}
	if len(seen) < 30 {
		t.Errorf("found only %d routine names in the inventory", len(seen))
	}
}
