package archtest

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const (
	module       = "github.com/goga-hpc/goga/"
	maxFileLines = 800
	maxFuncLines = 80
)

// root is the repository's top directory.
func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// importTable reads the indented block under "## Who may import whom" in
// docs/ARCHITECTURE.md: a package pattern, then the patterns it may import.
// A pattern ending in "/..." matches the package and everything below it.
func importTable(t *testing.T, top string) map[string][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(top, "docs", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := map[string][]string{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## Who may import whom"
		case in && strings.HasPrefix(line, "    "):
			fields := strings.Fields(line)
			if fields[0] == "package" { // the block's header
				continue
			}
			rows[fields[0]] = fields[1:]
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatal("docs/ARCHITECTURE.md has no table under \"## Who may import whom\"")
	}
	return rows
}

func matches(pattern, pkg string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	}
	return pkg == pattern
}

// rowOf returns the most specific row whose pattern matches pkg.
func rowOf(rows map[string][]string, pkg string) (string, bool) {
	best := ""
	for p := range rows {
		if matches(p, pkg) && len(p) > len(best) {
			best = p
		}
	}
	return best, best != ""
}

func TestImportsFollowTheTable(t *testing.T) {
	top := root(t)
	rows := importTable(t, top)
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		if program(pkg) {
			continue
		}
		row, ok := rowOf(rows, pkg)
		if !ok {
			t.Errorf("%s has no row in docs/ARCHITECTURE.md's import table", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			dep, ours := strings.CutPrefix(imp, module)
			if !ours {
				continue
			}
			allowed := false
			for _, p := range rows[row] {
				allowed = allowed || matches(p, dep)
			}
			if !allowed {
				t.Errorf("%s imports %s, which its row (%s: %s) does not allow", pkg, dep, row, strings.Join(rows[row], " "))
			}
		}
	}
}

// program says whether a package is a program, held to no layout rule.
func program(pkg string) bool {
	return strings.HasPrefix(pkg, "cmd/") || strings.HasPrefix(pkg, "examples/")
}

// libraryFiles returns the library's Go files, tests and generated files left out.
func libraryFiles(t *testing.T, top string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(top, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(top, path)
		if d.IsDir() {
			if rel == "cmd" || rel == "examples" || rel == "bin" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

func TestLibraryFilesAndFunctionsAreShort(t *testing.T) {
	top := root(t)
	fset := token.NewFileSet()
	for _, rel := range libraryFiles(t, top) {
		f, err := parser.ParseFile(fset, filepath.Join(top, rel), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if ast.IsGenerated(f) {
			continue
		}
		if n := fset.Position(f.End()).Line; n > maxFileLines {
			t.Errorf("%s has %d lines, more than %d: split it by concern", rel, n, maxFileLines)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
			if n > maxFuncLines {
				t.Errorf("%s: %s has %d lines, more than %d", rel, fd.Name.Name, n, maxFuncLines)
			}
		}
	}
}
