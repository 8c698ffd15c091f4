package ga_test

import (
	"testing"

	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/internal/nametable"
)

// TestNameTable holds the table of doc.go to the package: every Go name in
// it is exported, and every exported function and method has a row.
func TestNameTable(t *testing.T) {
	if mpitest.Child() {
		t.Skip("parent only")
	}
	_, bad, err := nametable.CheckDir(".", "# GA C names", "Error.Error")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range bad {
		t.Error(bad)
	}
}
