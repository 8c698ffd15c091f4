// Command kernelsgen writes goga's vectorized kernels, cgo/kernels_gen.h and
// cgo/kernels_gen.go, from one table: the C loops are macros in cgo/kernels.h;
// the table says which macro is instantiated for which element type, and
// which Go wrapper calls the result. A kernel for another element type is
// one name more in its row; a new kernel is a macro in kernels.h and a row
// in each table. Run it with go generate in cgo/; `go test ./cgo/...`
// checks that the files are current.
package main

import (
	"flag"
	"fmt"
	"log"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"text/template"

	"github.com/goga-hpc/goga/cgo/internal/gen"
)

// typ is one element type. C is its C type, or its parts' for a complex
// type, as both C and cgo spell it (C.double). The float types carry what
// their macros need: fabs, infinity, and the AVX2 vector type, its width
// and the suffix of its intrinsics.
type typ struct {
	Go, Name, C string
	Complex     bool
	Abs, Inf    string
	Vec, Lanes  string
	Intrin      string
}

var types = map[string]typ{
	"int32":      {Go: "int32", Name: "Int32", C: "int32_t"},
	"int64":      {Go: "int64", Name: "Int64", C: "int64_t"},
	"float32":    {Go: "float32", Name: "Float32", C: "float", Abs: "__builtin_fabsf", Inf: "__builtin_inff()", Vec: "__m256", Lanes: "8", Intrin: "ps"},
	"float64":    {Go: "float64", Name: "Float64", C: "double", Abs: "__builtin_fabs", Inf: "__builtin_inf()", Vec: "__m256d", Lanes: "4", Intrin: "pd"},
	"complex64":  {Go: "complex64", Name: "Complex64", C: "float", Complex: true},
	"complex128": {Go: "complex128", Name: "Complex128", C: "double", Complex: true},
}

// The rows' lists of types, in the order their functions appear; in
// doubleFirst, float64 leads so that float32's wrapper can be documented
// as the float64 one over float32.
var (
	all         = []string{"int32", "int64", "float32", "float64", "complex64", "complex128"}
	floats      = []string{"float32", "float64"}
	doubleFirst = []string{"float64", "float32"}
)

// instance is one use of a kernels.h macro per type: Use is a template over
// typ ({{.Go}} names the element type in the C functions' names). With
// Else, Use stands where kernels.h defines its macro (the AVX2 streaming
// loops) and Else everywhere else.
type instance struct {
	Use, Else string
	Types     []string
}

var instances = []instance{
	{Use: "GOGA_NORMS(goga_norms_{{.Go}}, {{.C}}, {{.Abs}})", Types: doubleFirst},
	{Use: "GOGA_BEST(goga_argmax_{{.Go}}, {{.C}}, >, -{{.Inf}})", Types: doubleFirst},
	{Use: "GOGA_BEST(goga_argmin_{{.Go}}, {{.C}}, <, {{.Inf}})", Types: doubleFirst},
	{Use: "GOGA_ELEMWISE({{.Go}}, {{.C}})", Types: floats},
	{Use: "GOGA_STREAMING({{.Go}}, {{.C}}, {{.Vec}}, {{.Lanes}}, 32, _mm256_loadu_{{.Intrin}}, _mm256_mul_{{.Intrin}}, _mm256_add_{{.Intrin}}, _mm256_set1_{{.Intrin}}, _mm256_stream_{{.Intrin}})",
		Else: "GOGA_STREAMING_NONE({{.Go}}, {{.C}})", Types: floats},
	{Use: "GOGA_ACC_REAL(goga_acc_{{.Go}}, {{.C}})", Types: []string{"int32", "int64", "float32", "float64"}},
	{Use: "GOGA_ACC_COMPLEX(goga_acc_{{.Go}}, {{.C}})", Types: []string{"complex64", "complex128"}},
}

// wrapper is one exported Go function per type, named Name and the type's
// Name (Name alone where Types is empty: CopyStream). Doc, Params, Results
// and Body are templates over typ; {{scalar . "a"}} is the Go value a as
// the C arguments the type's macro takes (a complex one as two parts).
// With Like, the types after the first are documented as "X is Y over T."
// Intro, if any, is a comment printed above the group.
type wrapper struct {
	Name, Intro, Doc      string
	Params, Results, Body string
	Types                 []string
	Like                  bool
}

var wrappers = []wrapper{
	{
		Name: "Acc", Types: all,
		Doc:    "{{.Fn}} is dst += a*src over {{.Go}}.",
		Params: "dst, src unsafe.Pointer, n int, a {{.Go}}",
		Body:   "asIntegers(dst, src, func(d, s C.uintptr_t) { C.goga_acc_{{.Go}}(d, s, C.long(n), {{scalar . \"a\"}}) })",
	},
	{
		Name: "Axpby", Types: floats,
		Intro: `Element-wise kernels on n elements: c = alpha*a + beta*b, c = a*b, and
the sum of a*b. c may be a or b itself but must not overlap them
otherwise. With stream, on a CPU that has them (Streams), c is written with
non-temporal stores: for runs far larger than the last-level cache, whose
c would not stay there anyway.`,
		Doc:    "{{.Fn}} is c = alpha*a + beta*b over {{.Go}}.",
		Params: "c, a, b unsafe.Pointer, n int, alpha, beta {{.Go}}, stream bool",
		Body: `if stream && Streams {
	C.goga_axpby_nt_{{.Go}}(c, a, b, C.long(n), {{scalar . "alpha"}}, {{scalar . "beta"}})
	return
}
C.goga_axpby_{{.Go}}(c, a, b, C.long(n), {{scalar . "alpha"}}, {{scalar . "beta"}})`,
	},
	{
		Name: "Mul", Types: floats,
		Doc:    "{{.Fn}} is c = a*b over {{.Go}}.",
		Params: "c, a, b unsafe.Pointer, n int, stream bool",
		Body: `if stream && Streams {
	C.goga_mul_nt_{{.Go}}(c, a, b, C.long(n))
	return
}
C.goga_mul_{{.Go}}(c, a, b, C.long(n))`,
	},
	{
		Name: "CopyStream",
		Doc: `CopyStream copies n bytes from src to dst, which must not overlap, with
non-temporal stores (memcpy on a CPU without them, Streams false): for
copies whose source and destination together outgrow the last-level
cache. Like the accumulates, it takes its buffers as integers.`,
		Params: "dst, src unsafe.Pointer, n int",
		Body:   "asIntegers(dst, src, func(d, s C.uintptr_t) { C.goga_copy_nt(d, s, C.long(n)) })",
	},
	{
		Name: "Dot", Types: floats,
		Doc:     "{{.Fn}} is the sum of a*b over {{.Go}}, in eight partial sums.",
		Params:  "a, b unsafe.Pointer, n int",
		Results: "{{.Go}}",
		Body:    "return {{.Go}}(C.goga_dot_{{.Go}}(a, b, C.long(n)))",
	},
	{
		Name: "Best", Types: doubleFirst, Like: true,
		Doc: `{{.Fn}} is the index of a's first largest element of n (smallest if
!larger), NaN never winning; -1 when no element is above -Inf (below
+Inf).`,
		Params:  "a unsafe.Pointer, n int, larger bool",
		Results: "int",
		Body: `if larger {
	return int(C.goga_argmax_{{.Go}}(a, C.long(n)))
}
return int(C.goga_argmin_{{.Go}}(a, C.long(n)))`,
	},
	{
		Name: "Norms", Types: doubleFirst, Like: true,
		Doc: `{{.Fn}} returns the sum and the maximum of |a| over n {{.Go}},
both NaN if any element is.`,
		Params:  "a unsafe.Pointer, n int",
		Results: "(sum, most float64)",
		Body: `var s, m C.double
C.goga_norms_{{.Go}}(a, C.long(n), &s, &m)
return float64(s), float64(m)`,
	},
}

const header = `// Code generated by cgo/internal/kernelsgen; DO NOT EDIT.

// kernels_gen.h: the kernels of kernels.h, one instance of its macros per
// element type.
#ifndef GOGA_KERNELS_GEN_H
#define GOGA_KERNELS_GEN_H

#include "kernels.h"
{{range .}}{{if .Else}}
#ifdef {{.Macro}}
{{range .Lines}}{{.}}
{{end}}#else
{{range .Else}}{{.}}
{{end}}#endif
{{else}}
{{range .Lines}}{{.}}
{{end}}{{end}}{{end}}
#endif
`

const gofile = `// Code generated by cgo/internal/kernelsgen; DO NOT EDIT.

package cgo

/*
#include "kernels_gen.h"
{{range .Calls}}
#cgo noescape {{.}}
#cgo nocallback {{.}}
{{- end}}
*/
import "C"

import "unsafe"
{{range .Funcs}}{{if .Intro}}
{{comment .Intro}}
{{end}}
{{comment .Doc}}
func {{.Fn}}({{.Params}}) {{.Results}} {
{{.Body}}
}
{{end}}`

// fn is one generated Go function.
type fn struct {
	Fn, Intro, Doc, Params, Results, Body string
}

// use is one instance row expanded over its types.
type use struct {
	Macro       string
	Lines, Else []string
}

var calls = regexp.MustCompile(`C\.(goga_\w+)\(`)

func main() {
	out := flag.String("o", ".", "the directory to write into (cgo/)")
	flag.Parse()
	if err := generate(*out); err != nil {
		log.Fatal(err)
	}
}

// generate writes both files into dir.
func generate(dir string) error {
	var uses []use
	for _, in := range instances {
		u := use{Macro: in.Use[:strings.IndexByte(in.Use, '(')]}
		for _, t := range in.Types {
			u.Lines = append(u.Lines, expand(in.Use, types[t]))
			if in.Else != "" {
				u.Else = append(u.Else, expand(in.Else, types[t]))
			}
		}
		uses = append(uses, u)
	}
	funcs, names := goFuncs()
	if err := gen.Write(filepath.Join(dir, "kernels_gen.h"), header, tmplFuncs, uses, false); err != nil {
		return err
	}
	data := struct {
		Calls []string
		Funcs []fn
	}{names, funcs}
	return gen.Write(filepath.Join(dir, "kernels_gen.go"), gofile, tmplFuncs, data, true)
}

// goFuncs expands the wrappers, and lists the C functions they call, in
// the order of their first call.
func goFuncs() ([]fn, []string) {
	var funcs []fn
	var names []string
	for _, w := range wrappers {
		ts := w.Types
		if len(ts) == 0 {
			ts = []string{""}
		}
		lead := w.Name + types[ts[0]].Name
		for i, name := range ts {
			t := types[name]
			f := fn{Fn: w.Name + t.Name, Params: expand(w.Params, t), Results: expand(w.Results, t), Body: expand(w.Body, t)}
			if i == 0 {
				f.Intro = w.Intro
			}
			f.Doc = expand(strings.ReplaceAll(w.Doc, "{{.Fn}}", f.Fn), t)
			if w.Like && i > 0 {
				f.Doc = fmt.Sprintf("%s is %s over %s.", f.Fn, lead, t.Go)
			}
			for _, m := range calls.FindAllStringSubmatch(f.Body, -1) {
				if !slices.Contains(names, m[1]) {
					names = append(names, m[1])
				}
			}
			funcs = append(funcs, f)
		}
	}
	return funcs, names
}

var tmplFuncs = template.FuncMap{
	"scalar": func(t typ, v string) string {
		if t.Complex {
			return fmt.Sprintf("C.%s(real(%s)), C.%s(imag(%s))", t.C, v, t.C, v)
		}
		return fmt.Sprintf("C.%s(%s)", t.C, v)
	},
	"comment": func(s string) string { return "// " + strings.ReplaceAll(s, "\n", "\n// ") },
}

// expand is text, a template over t; a template that does not execute is
// a fault of the table.
func expand(text string, t typ) string {
	s, err := gen.Expand(text, tmplFuncs, t)
	if err != nil {
		panic(err)
	}
	return s
}
