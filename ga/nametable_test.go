package ga_test

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
// routine of the GA inventory has a row.
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
	inv, err := os.ReadFile("../../shared/spec/ga-api-inventory.md")
	if err != nil {
		t.Skipf("no inventory to check against: %v", err)
	}
	names := inventoryNames(string(inv))
	for _, n := range nametable.Uncovered(rows, names) {
		t.Errorf("%s, named in ga-api-inventory.md, has no row", n)
	}
	if len(names) < 250 {
		t.Errorf("found only %d routine names in the inventory", len(names))
	}
}

// inventoryNames are the C routines the inventory names: GA_Xxx and
// NGA_Xxx spelled out, and the shorthand it uses after one: `_patch` after
// `GA_Elem_maximum` (the name's patch form), `_add_element` after
// `NGA_Sprs_array_create` (the name without its last part, and the
// suffix), `Lldot_patch` after `NGA_Ldot_patch` (the prefix, and the name). Constants (GA_MAX_DIM), prefixes (GA_Set_),
// the placeholder GA_Xxx and the manual's lower-case misprints (GA_lock)
// are not routines.
func inventoryNames(inv string) []string {
	full := regexp.MustCompile(`^N?GA_[A-Z][a-z]\w*[a-z0-9]$`)
	tick := regexp.MustCompile("`([A-Za-z_][A-Za-z0-9_]*)")
	bare := regexp.MustCompile(`^[A-Z][a-z]+(_[a-z0-9]+)+$`)
	seen := map[string]bool{}
	var out []string
	add := func(n string) {
		if !seen[n] && !strings.Contains(n, "Xxx") {
			seen[n] = true
			out = append(out, n)
		}
	}
	word := regexp.MustCompile(`\bN?GA_\w+`)
	for _, line := range strings.Split(inv, "\n") {
		for _, n := range word.FindAllString(line, -1) {
			if full.MatchString(n) {
				add(n)
			}
		}
		last := ""
		for _, m := range tick.FindAllStringSubmatch(line, -1) {
			n := m[1]
			switch {
			case full.MatchString(n):
				last = n
			case last != "" && n == "_patch":
				add(last + n)
			case last != "" && strings.HasPrefix(n, "_") && len(n) > 1:
				add(last[:strings.LastIndex(last, "_")] + n)
			case last != "" && bare.MatchString(n):
				add(last[:strings.Index(last, "_")+1] + n)
			}
		}
	}
	return out
}
