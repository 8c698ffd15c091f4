// Package gen holds what cgo's generators (scalapackgen, kernelsgen) share:
// expanding their templates, writing a file, and the test that fails while
// a generated file is stale.
package gen

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"testing"
	"text/template"
)

// Expand executes text, a template using funcs, on data.
func Expand(text string, funcs template.FuncMap, data any) (string, error) {
	var b bytes.Buffer
	err := template.Must(template.New("").Funcs(funcs).Parse(text)).Execute(&b, data)
	return b.String(), err
}

// Write expands text on data into the file path, through gofmt if gofmt.
func Write(path, text string, funcs template.FuncMap, data any, gofmt bool) error {
	s, err := Expand(text, funcs, data)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	src := []byte(s)
	if gofmt {
		if src, err = format.Source(src); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
	}
	return os.WriteFile(path, src, 0o644)
}

// CheckCurrent fails t when a file of names in cgo/ (two levels above a
// generator's directory) differs from what generate writes into a fresh
// directory: the table changed and go generate was not run in cgo/, or the
// file was edited by hand.
func CheckCurrent(t *testing.T, generate func(dir string) error, names ...string) {
	t.Helper()
	dir := t.TempDir()
	if err := generate(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		want, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join("..", "..", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("cgo/%s is not what its table generates: run go generate in cgo/", name)
		}
	}
}
