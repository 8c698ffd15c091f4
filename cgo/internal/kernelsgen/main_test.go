package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestGeneratedFilesCurrent fails when the tables changed and go generate
// was not run in cgo/ (or a generated file was edited by hand).
func TestGeneratedFilesCurrent(t *testing.T) {
	dir := t.TempDir()
	if err := generate(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"kernels_gen.h", "kernels_gen.go"} {
		want, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join("..", "..", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("cgo/%s is not what the tables generate: run go generate in cgo/", name)
		}
	}
}
