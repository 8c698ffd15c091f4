// Command scalapackgen writes goga's ScaLAPACK bindings, cgo/scalapack_gen.h
// and cgo/scalapack_gen.go, from one table: every driver below is expanded
// for every element type (ScaLAPACK's s, d, c and z). A new driver is one
// entry; a new element type is one row of types. Run it with go generate in
// cgo/; `make test` checks that the files are current.
package main

import (
	"flag"
	"fmt"
	"log"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/goga-hpc/goga/cgo/internal/gen"
)

// typ is one of ScaLAPACK's element types.
type typ struct {
	Code    string // the Go constant's suffix: TypeS, TypeD, ...
	P       string // ScaLAPACK's letter
	T       string // the element's C type
	R       string // the real C type of its parts (W, workspace sizes, RWORK)
	Complex bool
	Doc     string
}

var types = []typ{
	{"S", "s", "float", "float", false, "float32"},
	{"D", "d", "double", "double", false, "float64"},
	{"C", "c", "float _Complex", "float", true, "complex64"},
	{"Z", "z", "double _Complex", "double", true, "complex128"},
}

// driver is one binding. Fortran is the routine's prototype, CParams the
// shim's parameters, Body the shim's body; all three are templates over a
// typ ({{.P}}, {{.T}}, {{.R}}, {{.Complex}}). GoParams are the Go wrapper's
// parameters, GoArgs the C arguments it passes, Ret "int" (INFO) or "".
// Name is the wrapper's name and the shim's stem (goga_p{{.P}}<stem>).
type driver struct {
	Name, Stem, Doc  string
	Fortran          string
	CParams, Body    string
	GoParams, GoArgs string
	Ret              string // "int": INFO; "found": INFO and PxxxGVX's M; "": nothing
}

const mat = "void *a, int *desca"

var drivers = []driver{
	{
		Name: "Pgesv", Stem: "gesv", Doc: "PxGESV on whole matrices; it returns INFO.",
		Fortran:  "void p{{.P}}gesv_(int *, int *, void *, int *, int *, int *, int *, void *, int *, int *, int *, int *);",
		CParams:  "int n, int nrhs, " + mat + ", int *ipiv, void *b, int *descb",
		Body:     "int one = 1, info = 0;\n\tp{{.P}}gesv_(&n, &nrhs, a, &one, &one, desca, ipiv, b, &one, &one, descb, &info);\n\treturn info;",
		GoParams: "n, nrhs int, a unsafe.Pointer, desca *[9]int32, ipiv []int32, b unsafe.Pointer, descb *[9]int32",
		GoArgs:   "C.int(n), C.int(nrhs), a, cdesc(desca), i32(ipiv), b, cdesc(descb)", Ret: "int",
	},
	{
		Name: "Pgetrf", Stem: "getrf", Doc: "PxGETRF; it returns INFO.",
		Fortran:  "void p{{.P}}getrf_(int *, int *, void *, int *, int *, int *, int *, int *);",
		CParams:  "int m, int n, " + mat + ", int *ipiv",
		Body:     "int one = 1, info = 0;\n\tp{{.P}}getrf_(&m, &n, a, &one, &one, desca, ipiv, &info);\n\treturn info;",
		GoParams: "m, n int, a unsafe.Pointer, desca *[9]int32, ipiv []int32",
		GoArgs:   "C.int(m), C.int(n), a, cdesc(desca), i32(ipiv)", Ret: "int",
	},
	{
		Name: "Pgetrs", Stem: "getrs", Doc: "PxGETRS; it returns INFO.",
		Fortran:  "void p{{.P}}getrs_(char *, int *, int *, void *, int *, int *, int *, int *, void *, int *, int *, int *, int *);",
		CParams:  "char trans, int n, int nrhs, " + mat + ", int *ipiv, void *b, int *descb",
		Body:     "int one = 1, info = 0;\n\tp{{.P}}getrs_(&trans, &n, &nrhs, a, &one, &one, desca, ipiv, b, &one, &one, descb, &info);\n\treturn info;",
		GoParams: "trans byte, n, nrhs int, a unsafe.Pointer, desca *[9]int32, ipiv []int32, b unsafe.Pointer, descb *[9]int32",
		GoArgs:   "C.char(trans), C.int(n), C.int(nrhs), a, cdesc(desca), i32(ipiv), b, cdesc(descb)", Ret: "int",
	},
	{
		Name: "Pposv", Stem: "posv", Doc: "PxPOSV; it returns INFO.",
		Fortran:  "void p{{.P}}posv_(char *, int *, int *, void *, int *, int *, int *, void *, int *, int *, int *, int *);",
		CParams:  "char uplo, int n, int nrhs, " + mat + ", void *b, int *descb",
		Body:     "int one = 1, info = 0;\n\tp{{.P}}posv_(&uplo, &n, &nrhs, a, &one, &one, desca, b, &one, &one, descb, &info);\n\treturn info;",
		GoParams: "uplo byte, n, nrhs int, a unsafe.Pointer, desca *[9]int32, b unsafe.Pointer, descb *[9]int32",
		GoArgs:   "C.char(uplo), C.int(n), C.int(nrhs), a, cdesc(desca), b, cdesc(descb)", Ret: "int",
	},
	{
		Name: "Ppotrf", Stem: "potrf", Doc: "PxPOTRF; it returns INFO.",
		Fortran:  "void p{{.P}}potrf_(char *, int *, void *, int *, int *, int *, int *);",
		CParams:  "char uplo, int n, " + mat,
		Body:     "int one = 1, info = 0;\n\tp{{.P}}potrf_(&uplo, &n, a, &one, &one, desca, &info);\n\treturn info;",
		GoParams: "uplo byte, n int, a unsafe.Pointer, desca *[9]int32",
		GoArgs:   "C.char(uplo), C.int(n), a, cdesc(desca)", Ret: "int",
	},
	{
		Name: "Ppotrs", Stem: "potrs", Doc: "PxPOTRS; it returns INFO.",
		Fortran:  "void p{{.P}}potrs_(char *, int *, int *, void *, int *, int *, int *, void *, int *, int *, int *, int *);",
		CParams:  "char uplo, int n, int nrhs, " + mat + ", void *b, int *descb",
		Body:     "int one = 1, info = 0;\n\tp{{.P}}potrs_(&uplo, &n, &nrhs, a, &one, &one, desca, b, &one, &one, descb, &info);\n\treturn info;",
		GoParams: "uplo byte, n, nrhs int, a unsafe.Pointer, desca *[9]int32, b unsafe.Pointer, descb *[9]int32",
		GoArgs:   "C.char(uplo), C.int(n), C.int(nrhs), a, cdesc(desca), b, cdesc(descb)", Ret: "int",
	},
	{
		Name: "Pgemm", Stem: "gemm", Doc: "PxGEMM; alpha and beta point to one element of the type.",
		Fortran:  "void p{{.P}}gemm_(char *, char *, int *, int *, int *, void *, void *, int *, int *, int *, void *, int *, int *, int *, void *, void *, int *, int *, int *);",
		CParams:  "char ta, char tb, int m, int n, int k, void *alpha, " + mat + ", void *b, int *descb, void *beta, void *c, int *descc",
		Body:     "int one = 1;\n\tp{{.P}}gemm_(&ta, &tb, &m, &n, &k, alpha, a, &one, &one, desca, b, &one, &one, descb, beta, c, &one, &one, descc);",
		GoParams: "ta, tb byte, m, n, k int, alpha, a unsafe.Pointer, desca *[9]int32, b unsafe.Pointer, descb *[9]int32, beta, c unsafe.Pointer, descc *[9]int32",
		GoArgs:   "C.char(ta), C.char(tb), C.int(m), C.int(n), C.int(k), alpha, a, cdesc(desca), b, cdesc(descb), beta, c, cdesc(descc)",
	},
	{
		Name: "Ptrsm", Stem: "trsm", Doc: "PxTRSM on whole matrices: B = alpha·op(A)⁻¹·B (side 'L') or alpha·B·op(A)⁻¹ (side 'R'); alpha points at one element of B's type.",
		Fortran:  "void p{{.P}}trsm_(char *, char *, char *, char *, int *, int *, void *, void *, int *, int *, int *, void *, int *, int *, int *);",
		CParams:  "char side, char uplo, char trans, char diag, int m, int n, void *alpha, " + mat + ", void *b, int *descb",
		Body:     "int one = 1;\n\tp{{.P}}trsm_(&side, &uplo, &trans, &diag, &m, &n, alpha, a, &one, &one, desca, b, &one, &one, descb);",
		GoParams: "side, uplo, trans, diag byte, m, n int, alpha, a unsafe.Pointer, desca *[9]int32, b unsafe.Pointer, descb *[9]int32",
		GoArgs:   "C.char(side), C.char(uplo), C.char(trans), C.char(diag), C.int(m), C.int(n), alpha, a, cdesc(desca), b, cdesc(descb)",
	},
	{
		Name: "Plapiv", Stem: "lapiv",
		Doc:      "PxLAPIV on a whole m × n matrix: the interchanges of ipiv, tied to A's rows (rowcol 'R') or columns ('C') and described by descip, applied forward ('F') or backward ('B'). The pivots are tied to the dimension they permute, so IWORK is not referenced.",
		Fortran:  "void p{{.P}}lapiv_(char *, char *, char *, int *, int *, void *, int *, int *, int *, int *, int *, int *, int *, int *);",
		CParams:  "char direc, char rowcol, int m, int n, " + mat + ", int *ipiv, int *descip",
		Body:     "int one = 1, iwork = 0;\n\tchar pivroc = rowcol == 'R' ? 'C' : 'R';\n\tp{{.P}}lapiv_(&direc, &rowcol, &pivroc, &m, &n, a, &one, &one, desca, ipiv, &one, &one, descip, &iwork);",
		GoParams: "direc, rowcol byte, m, n int, a unsafe.Pointer, desca *[9]int32, ipiv []int32, descip *[9]int32",
		GoArgs:   "C.char(direc), C.char(rowcol), C.int(m), C.int(n), a, cdesc(desca), i32(ipiv), cdesc(descip)",
	},
	{
		Name: "Pgemr2d", Stem: "gemr2d",
		Doc:      "PxGEMR2D (the REDIST library's C entry point): copies the m × n matrix A into B, each with its own blocks and grid; a descriptor's context is -1 on processes outside its grid. gctxt is a context holding every process of both.",
		Fortran:  "void Cp{{.P}}gemr2d(int, int, void *, int, int, int *, void *, int, int, int *, int);",
		CParams:  "int m, int n, " + mat + ", void *b, int *descb, int gctxt",
		Body:     "Cp{{.P}}gemr2d(m, n, a, 1, 1, desca, b, 1, 1, descb, gctxt);",
		GoParams: "m, n int, a unsafe.Pointer, desca *[9]int32, b unsafe.Pointer, descb *[9]int32, gctxt int",
		GoArgs:   "C.int(m), C.int(n), a, cdesc(desca), b, cdesc(descb), C.int(gctxt)",
	},
	{
		Name: "Pgetri", Stem: "getri", Doc: "PxGETRI with its workspace queried and allocated in C; it returns INFO (-1000 if the workspace could not be allocated).",
		Fortran:  "void p{{.P}}getri_(int *, void *, int *, int *, int *, int *, void *, int *, int *, int *, int *);",
		CParams:  "int n, " + mat + ", int *ipiv",
		Body:     queried(false, "", "p{{.P}}getri_(&n, a, &one, &one, desca, ipiv, WORKSPACE, &info);", ""),
		GoParams: "n int, a unsafe.Pointer, desca *[9]int32, ipiv []int32",
		GoArgs:   "C.int(n), a, cdesc(desca), i32(ipiv)", Ret: "int",
	},
	{
		Name: "Ppotri", Stem: "potri", Doc: "PxPOTRI; it returns INFO.",
		Fortran:  "void p{{.P}}potri_(char *, int *, void *, int *, int *, int *, int *);",
		CParams:  "char uplo, int n, " + mat,
		Body:     "int one = 1, info = 0;\n\tp{{.P}}potri_(&uplo, &n, a, &one, &one, desca, &info);\n\treturn info;",
		GoParams: "uplo byte, n int, a unsafe.Pointer, desca *[9]int32",
		GoArgs:   "C.char(uplo), C.int(n), a, cdesc(desca)", Ret: "int",
	},
	{
		Name: "Pevd", Stem: "evd",
		Doc: "PxSYEVD (real) or PxHEEVD (complex, with RWORK), workspace queried and allocated in C: every eigenvalue of the symmetric or Hermitian A into w (n reals of the type's precision), and the eigenvectors into Z when jobz is 'V'. It returns INFO (-1000 if the workspace could not be allocated).",
		Fortran: `{{if .Complex}}void p{{.P}}heevd_(char *, char *, int *, void *, int *, int *, int *, {{.R}} *, void *, int *, int *, int *, void *, int *, {{.R}} *, int *, int *, int *, int *);
{{- else}}void p{{.P}}syevd_(char *, char *, int *, void *, int *, int *, int *, {{.R}} *, void *, int *, int *, int *, void *, int *, int *, int *, int *);{{end}}`,
		CParams: "char jobz, char uplo, int n, " + mat + ", void *w, void *z, int *descz",
		Body: queried(true, "", "p{{.P}}{{if .Complex}}he{{else}}sy{{end}}evd_(&jobz, &uplo, &n, a, &one, &one, desca, w, z, &one, &one, descz, WORKSPACE, &info);",
			" + goga_ormtr_slack(n, desca)"),
		GoParams: "jobz, uplo byte, n int, a unsafe.Pointer, desca *[9]int32, w, z unsafe.Pointer, descz *[9]int32",
		GoArgs:   "C.char(jobz), C.char(uplo), C.int(n), a, cdesc(desca), w, z, cdesc(descz)", Ret: "int",
	},
	{
		Name: "Pevr", Stem: "evr",
		Doc: "PxSYEVR (real) or PxHEEVR (complex, with RWORK), workspace queried and allocated in C: the eigenvalues of the symmetric or Hermitian A that rng selects ('A' all, 'V' those in (vl, vu], 'I' the il-th to iu-th, 1-based) into w (n reals of the type's precision), their number into found, and their eigenvectors into Z's first found columns. It returns INFO (-1000 if the workspace could not be allocated).",
		Fortran: `{{if .Complex}}void p{{.P}}heevr_(char *, char *, char *, int *, void *, int *, int *, int *, {{.R}} *, {{.R}} *, int *, int *, int *, int *, {{.R}} *, void *, int *, int *, int *, void *, int *, {{.R}} *, int *, int *, int *, int *);
{{- else}}void p{{.P}}syevr_(char *, char *, char *, int *, void *, int *, int *, int *, {{.R}} *, {{.R}} *, int *, int *, int *, int *, {{.R}} *, void *, int *, int *, int *, void *, int *, int *, int *, int *);{{end}}`,
		CParams: "char rng, char uplo, int n, " + mat + ", double vl, double vu, int il, int iu, int *found, void *w, void *z, int *descz",
		Body: queried(true, "int nz = 0;\n\tchar jobz = 'V';\n\t{{.R}} lo = ({{.R}})vl, hi = ({{.R}})vu;",
			"p{{.P}}{{if .Complex}}he{{else}}sy{{end}}evr_(&jobz, &rng, &uplo, &n, a, &one, &one, desca, &lo, &hi, &il, &iu, found, &nz, w, z, &one, &one, descz, WORKSPACE, &info);",
			" + goga_ormtr_slack(n, desca)"),
		GoParams: "rng, uplo byte, n int, a unsafe.Pointer, desca *[9]int32, vl, vu float64, il, iu int, w, z unsafe.Pointer, descz *[9]int32",
		GoArgs:   "C.char(rng), C.char(uplo), C.int(n), a, cdesc(desca), C.double(vl), C.double(vu), C.int(il), C.int(iu), &found, w, z, cdesc(descz)",
		Ret:      "found",
	},
	{
		Name: "Pgst", Stem: "gst",
		Doc:      "PxSYGST (real) or PxHEGST (complex): A, symmetric or Hermitian, becomes inv(L)·A·inv(Lᴴ) (ibtype 1) or Lᴴ·A·L (2, 3) with B's Cholesky factor L (or U, by uplo); scale gets ScaLAPACK's SCALE. It returns INFO.",
		Fortran:  "void p{{.P}}{{if .Complex}}he{{else}}sy{{end}}gst_(int *, char *, int *, void *, int *, int *, int *, void *, int *, int *, int *, {{.R}} *, int *);",
		CParams:  "int ibtype, char uplo, int n, " + mat + ", void *b, int *descb, double *scale",
		Body:     "int one = 1, info = 0;\n\t{{.R}} s = 1;\n\tp{{.P}}{{if .Complex}}he{{else}}sy{{end}}gst_(&ibtype, &uplo, &n, a, &one, &one, desca, b, &one, &one, descb, &s, &info);\n\t*scale = s;\n\treturn info;",
		GoParams: "ibtype int, uplo byte, n int, a unsafe.Pointer, desca *[9]int32, b unsafe.Pointer, descb *[9]int32, scale *float64",
		GoArgs:   "C.int(ibtype), C.char(uplo), C.int(n), a, cdesc(desca), b, cdesc(descb), (*C.double)(unsafe.Pointer(scale))", Ret: "int",
	},
	{
		Name: "Ptrmm", Stem: "trmm", Doc: "PxTRMM on whole matrices: B = alpha·op(A)·B (side 'L') or alpha·B·op(A) (side 'R') with A triangular; alpha points at one element of B's type.",
		Fortran:  "void p{{.P}}trmm_(char *, char *, char *, char *, int *, int *, void *, void *, int *, int *, int *, void *, int *, int *, int *);",
		CParams:  "char side, char uplo, char trans, char diag, int m, int n, void *alpha, " + mat + ", void *b, int *descb",
		Body:     "int one = 1;\n\tp{{.P}}trmm_(&side, &uplo, &trans, &diag, &m, &n, alpha, a, &one, &one, desca, b, &one, &one, descb);",
		GoParams: "side, uplo, trans, diag byte, m, n int, alpha, a unsafe.Pointer, desca *[9]int32, b unsafe.Pointer, descb *[9]int32",
		GoArgs:   "C.char(side), C.char(uplo), C.char(trans), C.char(diag), C.int(m), C.int(n), alpha, a, cdesc(desca), b, cdesc(descb)",
	},
	{
		Name: "Pgvx", Stem: "gvx",
		Doc: "PxSYGVX (real) or PxHEGVX (complex, with RWORK) for every eigenpair (RANGE 'A'), workspace queried and allocated in C: w gets the eigenvalues (n reals of the type's precision), found the number found and ifail (n entries) the failures; nprocs is the grid's size, for ICLUSTR and GAP. It returns INFO (-1000 if the workspace could not be allocated).",
		Fortran: `void p{{.P}}{{if .Complex}}he{{else}}sy{{end}}gvx_(int *, char *, char *, char *, int *, void *, int *, int *, int *, void *, int *, int *, int *,
	{{.R}} *, {{.R}} *, int *, int *, {{.R}} *, int *, int *, {{.R}} *, {{.R}} *, void *, int *, int *, int *,
	void *, int *,{{if .Complex}} {{.R}} *, int *,{{end}} int *, int *, int *, int *, {{.R}} *, int *);`,
		CParams: "int ibtype, char uplo, int n, " + mat + ", void *b, int *descb, void *w, void *z, int *descz, int *found, int *ifail, int nprocs",
		Body: `int one = 1, info = 0, lwork = -1, liwork = -1, iq = 0, il = 0, iu = 0, nz = 0;
	char jobz = 'V', range = 'A';
	{{.R}} vl = 0, vu = 0, abstol = 0, orfac = -1;
	{{.T}} q[1];
{{- if .Complex}}
	int lrwork = -1;
	{{.R}} rq = 0;
#define GOGA_RW(r, l) r, l,
{{- else}}
#define GOGA_RW(r, l)
{{- end}}
	int *iclustr = malloc(sizeof(int) * 2 * nprocs);
	{{.R}} *gap = malloc(sizeof({{.R}}) * nprocs);
	if (!iclustr || !gap) { free(iclustr); free(gap); return -1000; }
	p{{.P}}{{if .Complex}}he{{else}}sy{{end}}gvx_(&ibtype, &jobz, &range, &uplo, &n, a, &one, &one, desca, b, &one, &one, descb, &vl, &vu, &il, &iu,
		&abstol, found, &nz, w, &orfac, z, &one, &one, descz, q, &lwork, GOGA_RW(&rq, &lrwork) &iq, &liwork, ifail, iclustr, gap, &info);
	if (info == 0) {
		lwork = (int)*({{.R}} *)q + 1;
		liwork = iq + 1;
		{{.T}} *work = malloc(sizeof({{.T}}) * lwork);
		int *iwork = malloc(sizeof(int) * liwork);
{{- if .Complex}}
		lrwork = (int)rq + 1;
		{{.R}} *rwork = malloc(sizeof({{.R}}) * lrwork);
		if (!work || !iwork || !rwork) {
			info = -1000;
		} else {
			p{{.P}}hegvx_(&ibtype, &jobz, &range, &uplo, &n, a, &one, &one, desca, b, &one, &one, descb, &vl, &vu, &il, &iu,
				&abstol, found, &nz, w, &orfac, z, &one, &one, descz, work, &lwork, rwork, &lrwork, iwork, &liwork, ifail, iclustr, gap, &info);
		}
		free(rwork);
{{- else}}
		if (!work || !iwork) {
			info = -1000;
		} else {
			p{{.P}}sygvx_(&ibtype, &jobz, &range, &uplo, &n, a, &one, &one, desca, b, &one, &one, descb, &vl, &vu, &il, &iu,
				&abstol, found, &nz, w, &orfac, z, &one, &one, descz, work, &lwork, iwork, &liwork, ifail, iclustr, gap, &info);
		}
{{- end}}
		free(work);
		free(iwork);
	}
#undef GOGA_RW
	free(iclustr);
	free(gap);
	return info;`,
		GoParams: "ibtype int, uplo byte, n int, a unsafe.Pointer, desca *[9]int32, b unsafe.Pointer, descb *[9]int32, w, z unsafe.Pointer, descz *[9]int32, ifail []int32, nprocs int",
		GoArgs:   "C.int(ibtype), C.char(uplo), C.int(n), a, cdesc(desca), b, cdesc(descb), w, z, cdesc(descz), &found, i32(ifail), C.int(nprocs)",
		Ret:      "found",
	},
}

// queried is the body of a shim whose driver takes workspace queries: it
// calls call (a template over typ) twice, WORKSPACE standing for WORK,
// LWORK, IWORK, LIWORK, and RWORK, LRWORK after LWORK for complex types if
// rwork: first to ask the sizes, then with workspaces of those sizes (plus
// extra, a C expression appended to LWORK's). pre declares what call needs.
// It returns INFO, -1000 if the workspace could not be allocated.
func queried(rwork bool, pre, call, extra string) string {
	query, args := "q, &lwork, &iq, &liwork", "work, &lwork, iwork, &liwork"
	decl, alloc, check, free := "", "", "", ""
	if rwork {
		query = "q, &lwork,{{if .Complex}} &rq, &lrwork,{{end}} &iq, &liwork"
		args = "work, &lwork,{{if .Complex}} rwork, &lrwork,{{end}} iwork, &liwork"
		decl = "{{if .Complex}}\n\tint lrwork = -1;\n\t{{.R}} rq = 0;{{end}}"
		alloc = "{{if .Complex}}\n\tlrwork = (int)rq + 1;\n\t{{.R}} *rwork = malloc(sizeof({{.R}}) * lrwork);{{end}}"
		check = "{{if .Complex}} || !rwork{{end}}"
		free = "{{if .Complex}}\n\tfree(rwork);{{end}}"
	}
	if pre != "" {
		pre = "\n\t" + pre
	}
	return `int one = 1, info = 0, lwork = -1, liwork = -1, iq = 0;
	{{.T}} q[1];` + decl + pre + `
	` + strings.Replace(call, "WORKSPACE", query, 1) + `
	if (info != 0) return info;
	lwork = (int)*({{.R}} *)q + 1` + extra + `;
	liwork = iq + 1;
	{{.T}} *work = malloc(sizeof({{.T}}) * lwork);
	int *iwork = malloc(sizeof(int) * liwork);` + alloc + `
	if (!work || !iwork` + check + `) {
		free(work);
		free(iwork);` + strings.ReplaceAll(free, "\n\t", "\n\t\t") + `
		return -1000;
	}
	` + strings.Replace(call, "WORKSPACE", args, 1) + `
	free(work);
	free(iwork);` + free + `
	return info;`
}

const header = `// Code generated by cgo/internal/scalapackgen; DO NOT EDIT.

// scalapack_gen.h: ScaLAPACK's drivers (Fortran symbols, 4-byte INTEGER) and a
// shim per driver and element type, goga_p<x><driver>, that passes scalars by
// address, starts every matrix at (1, 1) and allocates workspaces. Character
// arguments are passed without Fortran's hidden lengths: ScaLAPACK reads one
// character.
#ifndef GOGA_SCALAPACK_GEN_H
#define GOGA_SCALAPACK_GEN_H

#include <stdlib.h>

void Cblacs_gridinfo(int, int *, int *, int *, int *);
int numroc_(int *, int *, int *, int *, int *);

// goga_ormtr_slack is the workspace PxORMTR / PxUNMTR needs (side 'L', on
// the whole n × n Z of A's blocks), which the eigensolvers' workspace
// queries leave out when n is small beside the block size: their back
// transformation then fails with an illegal LWORK and the eigenvectors
// are wrong with INFO 0. It is added to the queried size.
static inline int goga_ormtr_slack(int n, int *desca) {
	int nprow, npcol, myrow, mycol, zero = 0, nb = desca[5];
	Cblacs_gridinfo(desca[1], &nprow, &npcol, &myrow, &mycol);
	int mp = numroc_(&n, &nb, &myrow, &zero, &nprow), nq = numroc_(&n, &nb, &mycol, &zero, &npcol);
	int a = nb * (nb - 1) / 2, b = (mp + nq + 2 * nb) * nb;
	return (a > b ? a : b) + nb * nb;
}
{{range $d := .Drivers}}
// ---- {{$d.Name}} ----
{{range $t := $.Types}}{{fortran $d $t}}
{{end}}{{range $t := $.Types}}static inline {{if $d.Ret}}int{{else}}void{{end}} goga_p{{$t.P}}{{$d.Stem}}({{$d.CParams}}) {
	{{body $d $t}}
}
{{end}}{{end}}
#endif
`

const gofile = `// Code generated by cgo/internal/scalapackgen; DO NOT EDIT.

package cgo

/*
#include "scalapack_gen.h"
*/
import "C"

import "unsafe"

// Type is a ScaLAPACK element type: the s, d, c or z of its routines' names.
type Type int

// The element types.
const (
{{- range $i, $t := .Types}}
	Type{{$t.Code}}{{if eq $i 0}} Type = iota{{end}} // {{$t.Doc}}
{{- end}}
)
{{range $d := .Drivers}}
// {{$d.Name}} is {{$d.Doc}}
func {{$d.Name}}(t Type, {{$d.GoParams}}) {{if eq $d.Ret "int"}}int {{else if eq $d.Ret "found"}}(info, found int) {{end}}{
{{- if eq $d.Ret "found"}}
	var m C.int
{{- end}}
	switch t {
{{- range $t := $.Types}}
	case Type{{$t.Code}}:
		{{call $d $t}}
{{- end}}
	}
	panic("cgo: unknown element type")
}
{{end}}`

func main() {
	out := flag.String("o", ".", "the directory to write into (cgo/)")
	flag.Parse()
	if err := generate(*out); err != nil {
		log.Fatal(err)
	}
}

var funcs = template.FuncMap{
	"fortran": func(d driver, t typ) string { return expand(d.Fortran, t) },
	"body":    func(d driver, t typ) string { return expand(d.Body, t) },
	"call": func(d driver, t typ) string {
		c := fmt.Sprintf("C.goga_p%s%s(%s)", t.P, d.Stem, d.GoArgs)
		switch d.Ret {
		case "int":
			return "return int(" + c + ")"
		case "found":
			// m is read after the call returns.
			c = strings.Replace(c, "&found", "&m", 1)
			return "info = int(" + c + ")\n\t\treturn info, int(m)"
		}
		return c + "\n\t\treturn"
	},
}

// generate writes both files into dir.
func generate(dir string) error {
	data := struct {
		Drivers []driver
		Types   []typ
	}{drivers, types}
	if err := gen.Write(filepath.Join(dir, "scalapack_gen.h"), header, funcs, data, false); err != nil {
		return err
	}
	return gen.Write(filepath.Join(dir, "scalapack_gen.go"), gofile, funcs, data, true)
}

// expand is text, a template over t; a template that does not execute is
// a fault of the table.
func expand(text string, t typ) string {
	s, err := gen.Expand(text, nil, t)
	if err != nil {
		panic(err)
	}
	return s
}
