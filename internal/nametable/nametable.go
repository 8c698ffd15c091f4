// Package nametable reads the name table of a package's documentation (the
// C names and their Go spellings, one row a line) and the package's exported
// functions and methods, so that tests can hold the two together.
package nametable

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Row is one line of a table: the C names (left) and the Go text (right),
// separated by two spaces or more.
type Row struct {
	C, Go string
}

// Read returns the rows of the table that follows heading in the package
// documentation of doc.go in dir: its indented lines up to the next line
// that is not indented.
func Read(dir, heading string) ([]Row, error) {
	src, err := os.ReadFile(filepath.Join(dir, "doc.go"))
	if err != nil {
		return nil, err
	}
	var rows []Row
	in := false
	for _, line := range strings.Split(string(src), "\n") {
		text, ok := strings.CutPrefix(line, "//")
		if !ok {
			if in {
				break
			}
			continue
		}
		if strings.TrimSpace(text) == heading {
			in = true
			continue
		}
		if !in {
			continue
		}
		body, indented := strings.CutPrefix(text, "\t")
		if !indented {
			if len(rows) > 0 {
				break
			}
			continue
		}
		c, g, ok := cut2(body)
		if !ok {
			return nil, fmt.Errorf("table row %q has no two spaces between its columns", body)
		}
		rows = append(rows, Row{C: c, Go: g})
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("no table under %q in %s/doc.go", heading, dir)
	}
	return rows, nil
}

// cut2 splits at the first run of two or more spaces.
func cut2(s string) (left, right string, ok bool) {
	i := strings.Index(s, "  ")
	if i < 0 {
		return "", "", false
	}
	return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i:]), true
}

// NotGo reports whether a row says that no Go name is needed: its Go text
// is a parenthesized sentence.
func (r Row) NotGo() bool { return strings.HasPrefix(r.Go, "(") }

// Names are a row's Go names: the comma-separated items of its Go text
// once every parenthesized part is dropped, each without its receiver
// (a., p., (*Builder).) and type parameters. A receiver written as (*T)
// is kept as "T.Name".
func (r Row) Names() []string {
	if r.NotGo() {
		return nil
	}
	var out []string
	for _, item := range strings.Split(dropParens(r.Go), ",") {
		f := strings.Fields(item)
		if len(f) == 0 {
			continue
		}
		out = append(out, f[0])
	}
	return out
}

var recvType = regexp.MustCompile(`^\(\*(\w+)\)\.(\w+)`)

// dropParens removes parenthesized parts except a (*T) receiver.
func dropParens(s string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		switch {
		case depth == 0 && recvType.MatchString(s[i:]):
			m := recvType.FindStringSubmatch(s[i:])
			b.WriteString(m[1] + "." + m[2])
			i += len(m[0]) - 1
		case s[i] == '(':
			depth++
		case s[i] == ')':
			depth--
		case depth == 0 && s[i] == '[':
			// type parameters: Create[T]
			for i < len(s) && s[i] != ']' {
				i++
			}
		case depth == 0:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// Exported are the package's exported functions (by name) and methods of its
// exported types ("Type.Method"), from its non-test files.
func Exported(dir string) (funcs map[string]bool, methods map[string]bool, err error) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ParseComments)
	if err != nil {
		return nil, nil, err
	}
	funcs, methods = map[string]bool{}, map[string]bool{}
	for _, p := range pkgs {
		var files []*ast.File
		for _, f := range p.Files {
			files = append(files, f)
		}
		d, err := doc.NewFromFiles(fset, files, "x")
		if err != nil {
			return nil, nil, err
		}
		for _, f := range d.Funcs {
			funcs[f.Name] = true
		}
		for _, t := range d.Types {
			for _, f := range t.Funcs {
				funcs[f.Name] = true
			}
			for _, m := range t.Methods {
				methods[t.Name+"."+m.Name] = true
			}
		}
	}
	return funcs, methods, nil
}

// Check returns what does not hold: a Go name of the table that the package
// does not export, and an exported function or method that the table does
// not mention (skip names those that need no row, such as "Error.Error").
func Check(rows []Row, funcs, methods map[string]bool, skip ...string) []string {
	var bad []string
	methodNames := map[string]bool{}
	for m := range methods {
		methodNames[m[strings.Index(m, ".")+1:]] = true
	}
	var text strings.Builder
	for _, r := range rows {
		text.WriteString(" " + r.Go + " ")
		for _, n := range r.Names() {
			recv, name, isMethod := strings.Cut(n, ".")
			switch {
			case !isMethod && !funcs[n]:
				bad = append(bad, fmt.Sprintf("row %q: %s is not an exported function", r.C, n))
			case isMethod && recv[0] >= 'A' && recv[0] <= 'Z' && !methods[n]:
				bad = append(bad, fmt.Sprintf("row %q: %s is not a method", r.C, n))
			case isMethod && !methodNames[name]:
				bad = append(bad, fmt.Sprintf("row %q: %s is not a method of an exported type", r.C, name))
			}
		}
	}
	all := text.String()
	skipped := map[string]bool{}
	for _, s := range skip {
		skipped[s] = true
	}
	for f := range funcs {
		if !regexp.MustCompile(`[^.\w]`+f+`\b`).MatchString(all) && !skipped[f] {
			bad = append(bad, fmt.Sprintf("exported function %s has no row", f))
		}
	}
	for m := range methods {
		typ, name, _ := strings.Cut(m, ".")
		re := regexp.MustCompile(`(\b[a-z]\w*|\(\*` + typ + `\))\.` + name + `\b`)
		if !re.MatchString(all) && !skipped[m] {
			bad = append(bad, fmt.Sprintf("exported method %s has no row", m))
		}
	}
	sort.Strings(bad)
	return bad
}

// CheckDir reads the table under heading in dir's doc.go and the package's
// exported names, and returns the rows and what Check finds.
func CheckDir(dir, heading string, skip ...string) ([]Row, []string, error) {
	rows, err := Read(dir, heading)
	if err != nil {
		return nil, nil, err
	}
	funcs, methods, err := Exported(dir)
	if err != nil {
		return nil, nil, err
	}
	return rows, Check(rows, funcs, methods, skip...), nil
}

// Uncovered returns the names, C routines, that no row's C column names.
func Uncovered(rows []Row, names []string) []string {
	var left strings.Builder
	for _, r := range rows {
		left.WriteString(" " + r.C + " ")
	}
	have := left.String()
	var out []string
	for _, n := range names {
		if !regexp.MustCompile(`\b` + regexp.QuoteMeta(n) + `\b`).MatchString(have) {
			out = append(out, n)
		}
	}
	return out
}
