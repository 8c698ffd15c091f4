package cgo

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// wrapperPkgs are the packages that wrap this one in checked calls, with every
// package under them; they may use any of its names.
var wrapperPkgs = []string{"mpi", "blacs", "scalapack", "armci"}

// entryPoints are the names each caller above armci may use (doc.go's
// list), for the package and every package under it.
var entryPoints = map[string][]string{
	"ga": {"AxpbyFloat32", "AxpbyFloat64", "MulFloat32", "MulFloat64", "DotFloat32", "DotFloat64",
		"BestFloat32", "BestFloat64", "NormsFloat32", "NormsFloat64", "Gemm"},
	"cmd/gabench": {"Dgemm"},
}

// TestCallers walks the module and fails where a package other than the
// wrapperPkgs imports this one, or uses a name of it that is not among its
// entry points, or a package other than h5 imports cgo/hdf5: doc.go says
// who calls cgo, and this keeps it true.
func TestCallers(t *testing.T) {
	const path = "github.com/goga-hpc/goga/cgo"
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	seen := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "cgo" || strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if importName(f, path+"/hdf5") != "" && under(filepath.ToSlash(filepath.Dir(rel)), []string{"h5"}) == "" {
			t.Errorf("%s imports cgo/hdf5: only h5 may", rel)
		}
		name := importName(f, path)
		if name == "" {
			return nil
		}
		seen++
		dir := filepath.ToSlash(filepath.Dir(rel))
		if under(dir, wrapperPkgs) != "" {
			return nil
		}
		caller := under(dir, slices.Collect(maps.Keys(entryPoints)))
		if caller == "" {
			t.Errorf("%s imports cgo: only %v and the callers in doc.go may", rel, wrapperPkgs)
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := s.X.(*ast.Ident); ok && x.Name == name && !slices.Contains(entryPoints[caller], s.Sel.Name) {
					t.Errorf("%s: cgo.%s is not among %s's entry points in doc.go", fset.Position(s.Pos()), s.Sel.Name, caller)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen == 0 {
		t.Fatalf("no file under %s imports %s: the walk is broken", root, path)
	}
}

// importName is the name f imports path by, or "" if it does not.
func importName(f *ast.File, path string) string {
	for _, s := range f.Imports {
		if p, _ := strconv.Unquote(s.Path.Value); p == path {
			if s.Name != nil {
				return s.Name.Name
			}
			return "cgo"
		}
	}
	return ""
}

// under is the element of pkgs that dir is or lies under, or "".
func under(dir string, pkgs []string) string {
	for _, p := range pkgs {
		if dir == p || strings.HasPrefix(dir, p+"/") {
			return p
		}
	}
	return ""
}
