package blacs

import (
	"strings"
	"unsafe"

	"github.com/goga-hpc/goga/cgo"
)

// Matrices are column-major, as in the BLACS: element (i, j) of an m × n
// matrix a with leading dimension lda is a[i+j*lda].

func checkMatrix[T Elem](op string, m, n int, a []T, lda int) error {
	if m < 0 || n < 0 {
		return errf(op, "m", "a %d×%d matrix", m, n)
	}
	if lda < max(1, m) {
		return errf(op, "lda", "%d is less than max(1, m = %d)", lda, m)
	}
	if m > 0 && n > 0 && len(a) < lda*(n-1)+m {
		return errf(op, "a", "holds %d elements; a %d×%d matrix with lda %d needs %d", len(a), m, n, lda, lda*(n-1)+m)
	}
	return nil
}

func ptr[T any](a []T) unsafe.Pointer {
	if len(a) == 0 {
		var one [1]T
		return unsafe.Pointer(&one[0])
	}
	return unsafe.Pointer(&a[0])
}

// Uplo selects a trapezoid: the upper or the lower part of a matrix.
type Uplo byte

// Diag says whether the trapezoid's diagonal is sent (NonUnit) or not (Unit).
type Diag byte

// Trapezoid shapes.
const (
	Upper   Uplo = 'U'
	Lower   Uplo = 'L'
	Unit    Diag = 'U'
	NonUnit Diag = 'N'
)

func checkTrap(op string, u Uplo, d Diag) error {
	if u != Upper && u != Lower {
		return errf(op, "uplo", "%q; want Upper or Lower", byte(u))
	}
	if d != Unit && d != NonUnit {
		return errf(op, "diag", "%q; want Unit or NonUnit", byte(d))
	}
	return nil
}

// Gesd2d sends the m × n matrix a to the process at (row, col) (xGESD2D). It
// returns once a may be reused.
func Gesd2d[T Elem](g *Grid, m, n int, a []T, lda, row, col int) error {
	if err := pt2pt(g, "Gesd2d", m, n, a, lda, row, col); err != nil {
		return err
	}
	cgo.BlacsGesd2d(typeOf[T](), g.ctxt, m, n, ptr(a), lda, row, col)
	return nil
}

// Gerv2d receives an m × n matrix into a from the process at (row, col)
// (xGERV2D).
func Gerv2d[T Elem](g *Grid, m, n int, a []T, lda, row, col int) error {
	if err := pt2pt(g, "Gerv2d", m, n, a, lda, row, col); err != nil {
		return err
	}
	cgo.BlacsGerv2d(typeOf[T](), g.ctxt, m, n, ptr(a), lda, row, col)
	return nil
}

// Trsd2d sends the uplo trapezoid of the m × n matrix a, with or without its
// diagonal, to (row, col) (xTRSD2D).
func Trsd2d[T Elem](g *Grid, uplo Uplo, diag Diag, m, n int, a []T, lda, row, col int) error {
	if err := checkTrap("Trsd2d", uplo, diag); err != nil {
		return err
	}
	if err := pt2pt(g, "Trsd2d", m, n, a, lda, row, col); err != nil {
		return err
	}
	cgo.BlacsTrsd2d(typeOf[T](), g.ctxt, byte(uplo), byte(diag), m, n, ptr(a), lda, row, col)
	return nil
}

// Trrv2d receives a trapezoid sent by Trsd2d into a (xTRRV2D).
func Trrv2d[T Elem](g *Grid, uplo Uplo, diag Diag, m, n int, a []T, lda, row, col int) error {
	if err := checkTrap("Trrv2d", uplo, diag); err != nil {
		return err
	}
	if err := pt2pt(g, "Trrv2d", m, n, a, lda, row, col); err != nil {
		return err
	}
	cgo.BlacsTrrv2d(typeOf[T](), g.ctxt, byte(uplo), byte(diag), m, n, ptr(a), lda, row, col)
	return nil
}

func pt2pt[T Elem](g *Grid, op string, m, n int, a []T, lda, row, col int) error {
	if err := g.valid(op); err != nil {
		return err
	}
	if err := g.coord(op, "row", row, col, false); err != nil {
		return err
	}
	return checkMatrix(op, m, n, a, lda)
}

// checkTop refuses a topology the BLACS do not know. Only the first character
// counts, in either case, as in the BLACS: " " (or "") is the default, I, D,
// S and M rings, H hypercube or exchange, T and 1-9 trees, F fully connected.
func checkTop(op string, top Topology) error {
	if top == "" || strings.ContainsRune(" IDSMHTFidsmhtf123456789", rune(top[0])) {
		return nil
	}
	return errf(op, "top", "%q is not a BLACS topology (one of ' ', I, D, S, M, H, T, F, 1-9)", top)
}

// broadcastArgs checks a broadcast or combine.
func broadcastArgs[T Elem](g *Grid, op string, scope Scope, top Topology, m, n int, a []T, lda int) error {
	if err := g.valid(op); err != nil {
		return err
	}
	if err := checkScope(op, scope); err != nil {
		return err
	}
	if err := checkTop(op, top); err != nil {
		return err
	}
	return checkMatrix(op, m, n, a, lda)
}

// Gebs2d broadcasts the m × n matrix a to the other processes of the scope
// (xGEBS2D); they call Gebr2d. top names the topology (DefaultTopology,
// or "", for the BLACS's choice).
func Gebs2d[T Elem](g *Grid, scope Scope, top Topology, m, n int, a []T, lda int) error {
	if err := broadcastArgs(g, "Gebs2d", scope, top, m, n, a, lda); err != nil {
		return err
	}
	cgo.BlacsGebs2d(typeOf[T](), g.ctxt, byte(scope), string(top), m, n, ptr(a), lda)
	return nil
}

// Gebr2d receives the broadcast sent by the process at (row, col) (xGEBR2D).
func Gebr2d[T Elem](g *Grid, scope Scope, top Topology, m, n int, a []T, lda, row, col int) error {
	if err := broadcastArgs(g, "Gebr2d", scope, top, m, n, a, lda); err != nil {
		return err
	}
	if err := g.coord("Gebr2d", "row", row, col, false); err != nil {
		return err
	}
	cgo.BlacsGebr2d(typeOf[T](), g.ctxt, byte(scope), string(top), m, n, ptr(a), lda, row, col)
	return nil
}

// Trbs2d broadcasts a trapezoid (xTRBS2D).
func Trbs2d[T Elem](g *Grid, scope Scope, top Topology, uplo Uplo, diag Diag, m, n int, a []T, lda int) error {
	if err := checkTrap("Trbs2d", uplo, diag); err != nil {
		return err
	}
	if err := broadcastArgs(g, "Trbs2d", scope, top, m, n, a, lda); err != nil {
		return err
	}
	cgo.BlacsTrbs2d(typeOf[T](), g.ctxt, byte(scope), string(top), byte(uplo), byte(diag), m, n, ptr(a), lda)
	return nil
}

// Trbr2d receives a trapezoid broadcast from (row, col) (xTRBR2D).
func Trbr2d[T Elem](g *Grid, scope Scope, top Topology, uplo Uplo, diag Diag, m, n int, a []T, lda, row, col int) error {
	if err := checkTrap("Trbr2d", uplo, diag); err != nil {
		return err
	}
	if err := broadcastArgs(g, "Trbr2d", scope, top, m, n, a, lda); err != nil {
		return err
	}
	if err := g.coord("Trbr2d", "row", row, col, false); err != nil {
		return err
	}
	cgo.BlacsTrbr2d(typeOf[T](), g.ctxt, byte(scope), string(top), byte(uplo), byte(diag), m, n, ptr(a), lda, row, col)
	return nil
}

// Gsum2d sums a element-wise over the scope (xGSUM2D); the result lands at
// (row, col), or on every process of the scope when row or col is -1.
func Gsum2d[T Elem](g *Grid, scope Scope, top Topology, m, n int, a []T, lda, row, col int) error {
	if err := broadcastArgs(g, "Gsum2d", scope, top, m, n, a, lda); err != nil {
		return err
	}
	if err := g.coord("Gsum2d", "row", row, col, true); err != nil {
		return err
	}
	cgo.BlacsGsum2d(typeOf[T](), g.ctxt, byte(scope), string(top), m, n, ptr(a), lda, row, col)
	return nil
}

// Gamx2d leaves in a, element-wise over the scope, the entry of largest
// magnitude with its sign (xGAMX2D). If ra and ca are not nil they get the
// grid row and column of the process that held each winner; ldia is their
// leading dimension (at least m). row, col as in Gsum2d.
func Gamx2d[T Elem](g *Grid, scope Scope, top Topology, m, n int, a []T, lda int, ra, ca []int32, ldia, row, col int) error {
	rcflag, err := absArgs(g, "Gamx2d", scope, top, m, n, a, lda, ra, ca, ldia, row, col)
	if err != nil {
		return err
	}
	cgo.BlacsGamx2d(typeOf[T](), g.ctxt, byte(scope), string(top), m, n, ptr(a), lda, ra, ca, rcflag, row, col)
	return nil
}

// Gamn2d is Gamx2d for the entry of smallest magnitude (xGAMN2D).
func Gamn2d[T Elem](g *Grid, scope Scope, top Topology, m, n int, a []T, lda int, ra, ca []int32, ldia, row, col int) error {
	rcflag, err := absArgs(g, "Gamn2d", scope, top, m, n, a, lda, ra, ca, ldia, row, col)
	if err != nil {
		return err
	}
	cgo.BlacsGamn2d(typeOf[T](), g.ctxt, byte(scope), string(top), m, n, ptr(a), lda, ra, ca, rcflag, row, col)
	return nil
}

// absArgs checks Gamx2d and Gamn2d and returns RCFLAG.
func absArgs[T Elem](g *Grid, op string, scope Scope, top Topology, m, n int, a []T, lda int, ra, ca []int32, ldia, row, col int) (int, error) {
	if err := broadcastArgs(g, op, scope, top, m, n, a, lda); err != nil {
		return 0, err
	}
	if err := g.coord(op, "row", row, col, true); err != nil {
		return 0, err
	}
	if ra == nil && ca == nil {
		return -1, nil
	}
	if ra == nil || ca == nil {
		return 0, errf(op, "ra", "ra and ca must both be given or both be nil")
	}
	if ldia < max(1, m) {
		return 0, errf(op, "ldia", "%d is less than max(1, m = %d)", ldia, m)
	}
	if need := ldia*(n-1) + m; m > 0 && n > 0 && (len(ra) < need || len(ca) < need) {
		return 0, errf(op, "ra", "ra and ca hold %d and %d; %d×%d with ldia %d needs %d", len(ra), len(ca), m, n, ldia, need)
	}
	return ldia, nil
}
