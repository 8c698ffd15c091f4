package main

import (
	"testing"

	"github.com/goga-hpc/goga/cgo/internal/gen"
)

// TestGeneratedFilesCurrent fails when the table changed and go generate was
// not run in cgo/ (or a generated file was edited by hand).
func TestGeneratedFilesCurrent(t *testing.T) {
	gen.CheckCurrent(t, generate, "scalapack_gen.h", "scalapack_gen.go")
}
