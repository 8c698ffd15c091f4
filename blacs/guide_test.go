package blacs_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// Named element types: the BLACS type must follow the underlying type.
type (
	myInt int32
	myC64 complex64
)

// val makes the test value v in any element type: v itself for the real
// types, v − (v/2)i for the complex ones (so that sums stay exact and the
// complex magnitude |re|+|im| = 1.5|v| orders like |v|).
func val[T blacs.Elem](v float64) T {
	var z T
	r := reflect.ValueOf(&z).Elem()
	switch r.Kind() {
	case reflect.Int32:
		r.SetInt(int64(v))
	case reflect.Float32, reflect.Float64:
		r.SetFloat(v)
	case reflect.Complex64, reflect.Complex128:
		r.SetComplex(complex(v, -v/2))
	}
	return z
}

func filled[T blacs.Elem](n int, v float64) []T {
	a := make([]T, n)
	for i := range a {
		a[i] = val[T](v)
	}
	return a
}

// wantErr checks that err is a *blacs.Error about arg.
func wantErr(t *testing.T, what string, err error, arg string) {
	t.Helper()
	var e *blacs.Error
	if !errors.As(err, &e) {
		mpitest.Fatalf(t, "%s: got error %v (%T), want *blacs.Error", what, err, err)
		return
	}
	if e.Arg != arg {
		mpitest.Fatalf(t, "%s: error %q names %q, want %q", what, e, e.Arg, arg)
	}
}

// inTrap is the trapezoid rule of BI_GetMpiTrType (spec §2.2).
func inTrap(u blacs.Uplo, d blacs.Diag, m, n, i, j int) bool {
	if u == blacs.Upper {
		k := max(0, m-n)
		if d == blacs.Unit {
			return i-j < k
		}
		return i-j <= k
	}
	k := min(0, m-n)
	if d == blacs.Unit {
		return i-j > k
	}
	return i-j >= k
}

// nearSquare is the grid of HELLO: 1×1, 1×2, 1×3, 2×2 for 1..4 ranks.
func nearSquare(n int) (int, int) {
	r := 1
	for (r+1)*(r+1) <= n {
		r++
	}
	return r, n / r
}

func TestGuide(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		w := mpi.World()
		np := w.Size()

		// Column grid np×1: E1 swap, trapezoid point-to-point, E2, scope-of-one.
		col, err := blacs.GridInit(w, blacs.ColumnMajor, np, 1)
		mpitest.Must(t, err)
		if !col.In() {
			mpitest.Fatalf(t, "rank %d left out of a %d×1 grid", w.Rank(), np)
		}
		e1Swap[int32](t, col)
		e1Swap[float32](t, col)
		e1Swap[float64](t, col)
		e1Swap[complex64](t, col)
		e1Swap[complex128](t, col)
		e1Swap[myInt](t, col)
		e1Swap[myC64](t, col)
		trapP2P[float64](t, col)
		trapP2P[int32](t, col)
		trapP2P[complex128](t, col)
		e2ColumnBcast[float64](t, col)
		e2ColumnBcast[complex64](t, col)
		e6ScopeOfOne[float64](t, col)
		e6ScopeOfOne[int32](t, col)
		mpitest.Must(t, col.Exit())

		// Near-square grid: E3 with locations, Gsum2d scopes, trapezoid broadcast.
		rows, cols := nearSquare(np)
		g, err := blacs.GridInit(w, blacs.RowMajor, rows, cols)
		mpitest.Must(t, err)
		if g.In() {
			e3AbsMaxLoc[float64](t, g, false)
			e3AbsMaxLoc[float64](t, g, true)
			e3AbsMaxLoc[int32](t, g, true)
			e3AbsMaxLoc[complex128](t, g, false)
			e3AbsMaxLoc[float32](t, g, true)
			e3AbsMaxLoc[myInt](t, g, false)
			e3AbsMaxLoc[myC64](t, g, true)
			gsumScopes[int32](t, g)
			gsumScopes[float32](t, g)
			gsumScopes[float64](t, g)
			gsumScopes[complex64](t, g)
			gsumScopes[complex128](t, g)
			gsumScopes[myInt](t, g)
			gsumScopes[myC64](t, g)
			trapBcast[float64](t, g)
			trapBcast[complex64](t, g)
			badInput(t, g)
		} else if w.Rank() < rows*cols {
			mpitest.Fatalf(t, "rank %d left out of a %d×%d grid", w.Rank(), rows, cols)
		}
		mpitest.Must(t, g.Exit())
		wantErr(t, "second Exit", g.Exit(), "grid")
		wantErr(t, "Barrier after Exit", g.Barrier(blacs.All), "grid")
		if g.In() {
			mpitest.Fatalf(t, "In() after Exit")
		}

		// Row grid 1×np: E4/E5 signed abs-max and abs-min across a row.
		row, err := blacs.GridInit(w, blacs.RowMajor, 1, np)
		mpitest.Must(t, err)
		e45RowAbs[float64](t, row)
		e45RowAbs[int32](t, row)
		e45RowAbs[float32](t, row)
		e45RowAbs[complex64](t, row)
		e45RowAbs[complex128](t, row)
		e45RowAbs[myInt](t, row)
		mpitest.Must(t, row.Exit())

		partialGrids(t, w)
		mpitest.Must(t, w.Barrier())
	}, mpitest.AcrossNodes())
}

// e1Swap is guide §6.3: {0,0} and {1,0} each send X and then receive the
// other's X (both send first: sends are locally blocking). On one process it
// sends to itself, which is legal for a small message.
func e1Swap[T blacs.Elem](t *testing.T, g *blacs.Grid) {
	rows, _, me, _ := g.Info()
	other := 1 - me
	if rows == 1 {
		other = 0
	}
	if me > 1 {
		return
	}
	x := make([]T, 5)
	for i := range x {
		x[i] = val[T](float64(10*me + i + 1))
	}
	mpitest.Must(t, blacs.Gesd2d(g, 5, 1, x, 5, other, 0))
	mpitest.Must(t, blacs.Gerv2d(g, 5, 1, x, 5, other, 0))
	for i := range x {
		if want := val[T](float64(10*other + i + 1)); x[i] != want {
			mpitest.Fatalf(t, "%T swap on {%d,0}: x[%d] = %v, want %v", x[0], me, i, x[i], want)
		}
	}
}

// trapP2P sends every (uplo, diag, shape) trapezoid from {0,0} to {1,0} (or to
// itself on one process) with a different LDA on each side and checks which
// elements arrive and that all others stay untouched.
func trapP2P[T blacs.Elem](t *testing.T, g *blacs.Grid) {
	rows, _, me, _ := g.Info()
	dst := min(1, rows-1)
	if me > 1 {
		return
	}
	const sentinel = -7
	for _, sh := range [][2]int{{3, 5}, {5, 3}, {4, 4}, {1, 7}, {2, 2}} {
		m, n := sh[0], sh[1]
		for _, u := range []blacs.Uplo{blacs.Upper, blacs.Lower} {
			for _, d := range []blacs.Diag{blacs.NonUnit, blacs.Unit} {
				lda, ldb := m+1, m+3
				if me == 0 {
					a := make([]T, lda*n)
					for k := range a {
						a[k] = val[T](float64(k + 1))
					}
					mpitest.Must(t, blacs.Trsd2d(g, u, d, m, n, a, lda, dst, 0))
				}
				if me == dst {
					b := filled[T](ldb*n+2, sentinel)
					mpitest.Must(t, blacs.Trrv2d(g, u, d, m, n, b, ldb, 0, 0))
					count := 0
					for k := range b {
						i, j := k%ldb, k/ldb
						want := val[T](sentinel)
						if i < m && j < n && inTrap(u, d, m, n, i, j) {
							want = val[T](float64(i + j*lda + 1))
							count++
						}
						if b[k] != want {
							mpitest.Fatalf(t, "%T Trrv2d %c%c %d×%d: b(%d,%d) = %v, want %v", b[0], u, d, m, n, i, j, b[k], want)
						}
					}
					// The spec's trsize formula.
					want := 0
					if m > n {
						want = n*(m-n) + n*(n+1)/2
					} else {
						want = m*(n-m) + m*(m+1)/2
					}
					if d == blacs.Unit {
						want -= min(m, n)
					}
					if count != want {
						mpitest.Fatalf(t, "Trrv2d %c%c %d×%d moved %d elements, want %d", u, d, m, n, count, want)
					}
				}
			}
		}
	}
}

// e2ColumnBcast is guide §7.3 scaled down: {0,c} owns a 9×10 B and broadcasts
// the 3×4 block at B(2,3) down its column; {1,c} receives into WORK with LDA
// 3, the others into their own B(2,3) with LDA 9.
func e2ColumnBcast[T blacs.Elem](t *testing.T, g *blacs.Grid) {
	_, cols, me, mycol := g.Info()
	c := cols - 1
	if mycol != c {
		return
	}
	const ldb, m, n, i0, j0, sentinel = 9, 3, 4, 2, 3, -1
	src := func(i, j int) T { return val[T](float64(100 + i + 10*j)) }
	b := filled[T](ldb*10, sentinel)
	work := filled[T](m*n+3, sentinel)
	off := i0 + j0*ldb
	switch me {
	case 0:
		for k := range b {
			b[k] = src(k%ldb, k/ldb)
		}
		mpitest.Must(t, blacs.Gebs2d(g, blacs.Column, "", m, n, b[off:], ldb))
	case 1:
		mpitest.Must(t, blacs.Gebr2d(g, blacs.Column, " ", m, n, work, m, 0, c))
	default:
		mpitest.Must(t, blacs.Gebr2d(g, blacs.Column, "", m, n, b[off:], ldb, 0, c))
	}
	for k := range b {
		i, j := k%ldb, k/ldb
		want := val[T](sentinel)
		if me == 0 || (me >= 2 && i >= i0 && i < i0+m && j >= j0 && j < j0+n) {
			want = src(i, j)
		}
		if b[k] != want {
			mpitest.Fatalf(t, "%T E2 on {%d,%d}: B(%d,%d) = %v, want %v", b[0], me, c, i, j, b[k], want)
		}
	}
	for k := range work {
		want := val[T](sentinel)
		if me == 1 && k < m*n {
			want = src(i0+k%m, j0+k/m)
		}
		if work[k] != want {
			mpitest.Fatalf(t, "%T E2 on {%d,%d}: WORK[%d] = %v, want %v", work[0], me, c, k, work[k], want)
		}
	}
}

// e6ScopeOfOne: on an np×1 grid each Row scope holds one process, so every
// combine leaves the data as it was.
func e6ScopeOfOne[T blacs.Elem](t *testing.T, g *blacs.Grid) {
	_, _, me, _ := g.Info()
	const lda, m, n = 4, 3, 2
	orig := make([]T, lda*n)
	for k := range orig {
		orig[k] = val[T](float64((k%3 - 1) * (10*me + k + 1)))
	}
	check := func(what string, a []T) {
		for k := range a {
			if a[k] != orig[k] {
				mpitest.Fatalf(t, "%T %s over one process changed a[%d]: %v, want %v", a[0], what, k, a[k], orig[k])
			}
		}
	}
	a := append([]T(nil), orig...)
	mpitest.Must(t, blacs.Gsum2d(g, blacs.Row, "", m, n, a, lda, -1, -1))
	check("Gsum2d", a)
	mpitest.Must(t, blacs.Gsum2d(g, blacs.Row, "", m, n, a, lda, me, 0))
	check("Gsum2d leave-on-one", a)
	mpitest.Must(t, blacs.Gamx2d(g, blacs.Row, "", m, n, a, lda, nil, nil, -1, -1, -1))
	check("Gamx2d", a)
	mpitest.Must(t, blacs.Gamn2d(g, blacs.Row, "", m, n, a, lda, nil, nil, -1, me, 0))
	check("Gamn2d", a)
}

// e3AbsMaxLoc is guide §8.3 example 1 on the grid at hand: B(i,j) on {p,q} is
// (-1)^(p+q)·(10p+q+i+j+1), so {R-1,C-1} wins everywhere except at (1,2),
// where {0,0} plants -1000. Leave-on-one at {R-1,C-1} or leave-on-all.
func e3AbsMaxLoc[T blacs.Elem](t *testing.T, g *blacs.Grid, all bool) {
	rows, cols, p, q := g.Info()
	const lda, ldia, sentinel = 5, 6, -3
	b := filled[T](lda*4, sentinel)
	for j := range 4 {
		for i := range 4 {
			s := 1 - 2*((p+q)%2)
			b[i+j*lda] = val[T](float64(s * (10*p + q + i + j + 1)))
		}
	}
	if p == 0 && q == 0 {
		b[1+2*lda] = val[T](-1000)
	}
	ra := make([]int32, ldia*4)
	ca := make([]int32, ldia*4)
	for k := range ra {
		ra[k], ca[k] = -9, -9
	}
	dr, dc := rows-1, cols-1
	if all {
		dr, dc = -1, -1
	}
	mpitest.Must(t, blacs.Gamx2d(g, blacs.All, "", 4, 4, b, lda, ra, ca, ldia, dr, dc))
	if !all && (p != dr || q != dc) {
		return // intermediate values: not specified
	}
	wr, wc := rows-1, cols-1
	ws := 1 - 2*((wr+wc)%2)
	for k := range b {
		i, j := k%lda, k/lda
		want, wantR, wantC := val[T](sentinel), int32(-9), int32(-9)
		if i < 4 {
			want, wantR, wantC = val[T](float64(ws*(10*wr+wc+i+j+1))), int32(wr), int32(wc)
			if i == 1 && j == 2 {
				want, wantR, wantC = val[T](-1000), 0, 0
			}
		}
		if b[k] != want {
			mpitest.Fatalf(t, "%T Gamx2d (all=%v) on {%d,%d}: B(%d,%d) = %v, want %v", b[0], all, p, q, i, j, b[k], want)
		}
		if i < 4 && (ra[i+j*ldia] != wantR || ca[i+j*ldia] != wantC) {
			mpitest.Fatalf(t, "Gamx2d (all=%v) on {%d,%d}: location of (%d,%d) = {%d,%d}, want {%d,%d}", all, p, q, i, j, ra[i+j*ldia], ca[i+j*ldia], wantR, wantC)
		}
	}
	for k := range ra {
		if i := k % ldia; i >= 4 && (ra[k] != -9 || ca[k] != -9) {
			mpitest.Fatalf(t, "Gamx2d wrote RA/CA padding at %d", k)
		}
	}
}

// e45RowAbs is guide §8.3 example 2 and the §8 text: process {0,q} holds the
// q-th of -5, 3, 1, -8; abs-max and abs-min across the row, leave-on-all,
// without locations, are signed (-8 and 1 on four processes).
func e45RowAbs[T blacs.Elem](t *testing.T, g *blacs.Grid) {
	_, cols, _, q := g.Info()
	vals := []float64{-5, 3, 1, -8}
	wantMax, wantMin := vals[0], vals[0]
	for _, v := range vals[1:cols] {
		if abs(v) > abs(wantMax) {
			wantMax = v
		}
		if abs(v) < abs(wantMin) {
			wantMin = v
		}
	}
	if cols == 4 && (wantMax != -8 || wantMin != 1) {
		mpitest.Fatalf(t, "oracle broken")
	}
	x := []T{val[T](vals[q])}
	mpitest.Must(t, blacs.Gamx2d(g, blacs.Row, "", 1, 1, x, 1, nil, nil, -1, -1, -1))
	if x[0] != val[T](wantMax) {
		mpitest.Fatalf(t, "%T Gamx2d over %v on {0,%d} = %v, want %v", x[0], vals[:cols], q, x[0], wantMax)
	}
	y := []T{val[T](vals[q])}
	mpitest.Must(t, blacs.Gamn2d(g, blacs.Row, "", 1, 1, y, 1, nil, nil, -1, -1, -1))
	if y[0] != val[T](wantMin) {
		mpitest.Fatalf(t, "%T Gamn2d over %v on {0,%d} = %v, want %v", y[0], vals[:cols], q, y[0], wantMin)
	}
	// Leave-on-one with locations, at the last column.
	z := []T{val[T](vals[q])}
	ra, ca := []int32{-9}, []int32{-9}
	mpitest.Must(t, blacs.Gamn2d(g, blacs.Row, "", 1, 1, z, 1, ra, ca, 1, 0, cols-1))
	if q == cols-1 {
		wq := 0
		for k := range cols {
			if vals[k] == wantMin {
				wq = k
			}
		}
		if z[0] != val[T](wantMin) || ra[0] != 0 || ca[0] != int32(wq) {
			mpitest.Fatalf(t, "%T Gamn2d leave-on-one = %v at {%d,%d}, want %v at {0,%d}", z[0], z[0], ra[0], ca[0], wantMin, wq)
		}
	}
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// gsumScopes sums v(p,q,i,j) = 100p + 10q + i + 2j over Row, Column and All,
// leave-on-all and leave-on-one, against closed forms.
func gsumScopes[T blacs.Elem](t *testing.T, g *blacs.Grid) {
	R, C, p, q := g.Info()
	const m, n, lda, sentinel = 3, 2, 4, -11
	input := func() []T {
		a := filled[T](lda*n, sentinel)
		for j := range n {
			for i := range m {
				a[i+j*lda] = val[T](float64(100*p + 10*q + i + 2*j))
			}
		}
		return a
	}
	type tc struct {
		scope  blacs.Scope
		dr, dc int
		sum    func(i, j int) int
	}
	cases := []tc{
		{blacs.Row, -1, -1, func(i, j int) int { return C*(100*p+i+2*j) + 10*C*(C-1)/2 }},
		{blacs.Column, -1, -1, func(i, j int) int { return R*(10*q+i+2*j) + 100*R*(R-1)/2 }},
		{blacs.All, -1, -1, func(i, j int) int { return R*C*(i+2*j) + 100*C*R*(R-1)/2 + 10*R*C*(C-1)/2 }},
		{blacs.Row, p, C - 1, func(i, j int) int { return C*(100*p+i+2*j) + 10*C*(C-1)/2 }},
		{blacs.Column, R - 1, q, func(i, j int) int { return R*(10*q+i+2*j) + 100*R*(R-1)/2 }},
		{blacs.All, 0, C - 1, func(i, j int) int { return R*C*(i+2*j) + 100*C*R*(R-1)/2 + 10*R*C*(C-1)/2 }},
	}
	for _, c := range cases {
		a := input()
		mpitest.Must(t, blacs.Gsum2d(g, c.scope, "", m, n, a, lda, c.dr, c.dc))
		if c.dr != -1 && (p != c.dr || q != c.dc) {
			continue
		}
		for k := range a {
			i, j := k%lda, k/lda
			want := val[T](sentinel)
			if i < m {
				want = val[T](float64(c.sum(i, j)))
			}
			if a[k] != want {
				mpitest.Fatalf(t, "%T Gsum2d %c to {%d,%d} on {%d,%d}: a(%d,%d) = %v, want %v", a[0], c.scope, c.dr, c.dc, p, q, i, j, a[k], want)
			}
		}
	}
	mpitest.Must(t, g.Barrier(blacs.All))
}

// trapBcast: {0,0} broadcasts trapezoids over All; the others receive them
// with another LDA, and only the trapezoid lands.
func trapBcast[T blacs.Elem](t *testing.T, g *blacs.Grid) {
	_, _, p, q := g.Info()
	const sentinel = -5
	for _, sh := range [][2]int{{2, 4}, {4, 2}, {3, 3}} {
		m, n := sh[0], sh[1]
		for _, u := range []blacs.Uplo{blacs.Upper, blacs.Lower} {
			for _, d := range []blacs.Diag{blacs.NonUnit, blacs.Unit} {
				lda, ldb := m, m+2
				if p == 0 && q == 0 {
					a := make([]T, lda*n)
					for k := range a {
						a[k] = val[T](float64(k + 1))
					}
					mpitest.Must(t, blacs.Trbs2d(g, blacs.All, "", u, d, m, n, a, lda))
					continue
				}
				b := filled[T](ldb*n, sentinel)
				mpitest.Must(t, blacs.Trbr2d(g, blacs.All, "", u, d, m, n, b, ldb, 0, 0))
				for k := range b {
					i, j := k%ldb, k/ldb
					want := val[T](sentinel)
					if i < m && inTrap(u, d, m, n, i, j) {
						want = val[T](float64(i + j*lda + 1))
					}
					if b[k] != want {
						mpitest.Fatalf(t, "%T Trbr2d %c%c %d×%d on {%d,%d}: b(%d,%d) = %v, want %v", b[0], u, d, m, n, p, q, i, j, b[k], want)
					}
				}
			}
		}
	}
}

// badInput: every refusal is local, so no process waits on another.
func badInput(t *testing.T, g *blacs.Grid) {
	R, C, _, _ := g.Info()
	a := make([]float64, 12)
	ra, ca := make([]int32, 12), make([]int32, 12)
	wantErr(t, "Gesd2d row=R", blacs.Gesd2d(g, 2, 2, a, 2, R, 0), "row")
	wantErr(t, "Gesd2d col=-1", blacs.Gesd2d(g, 2, 2, a, 2, 0, -1), "row")
	wantErr(t, "Gerv2d col=C", blacs.Gerv2d(g, 2, 2, a, 2, 0, C), "row")
	wantErr(t, "Gesd2d short", blacs.Gesd2d(g, 3, 5, a, 3, 0, 0), "a")
	wantErr(t, "Gerv2d lda<m", blacs.Gerv2d(g, 3, 2, a, 2, 0, 0), "lda")
	wantErr(t, "Gesd2d m<0", blacs.Gesd2d(g, -1, 2, a, 2, 0, 0), "m")
	wantErr(t, "Trsd2d uplo", blacs.Trsd2d(g, 'X', blacs.Unit, 2, 2, a, 2, 0, 0), "uplo")
	wantErr(t, "Trrv2d diag", blacs.Trrv2d(g, blacs.Upper, 'X', 2, 2, a, 2, 0, 0), "diag")
	wantErr(t, "Trbs2d diag", blacs.Trbs2d(g, blacs.All, "", blacs.Lower, 'x', 2, 2, a, 2), "diag")
	wantErr(t, "Gebs2d scope", blacs.Gebs2d(g, 'X', "", 2, 2, a, 2), "scope")
	wantErr(t, "Gebr2d src", blacs.Gebr2d(g, blacs.All, "", 2, 2, a, 2, -1, 0), "row")
	wantErr(t, "Trbr2d src", blacs.Trbr2d(g, blacs.All, "", blacs.Upper, blacs.Unit, 2, 2, a, 2, R, C), "row")
	wantErr(t, "Barrier scope", g.Barrier('r'), "scope")
	wantErr(t, "Gsum2d dest", blacs.Gsum2d(g, blacs.All, "", 2, 2, a, 2, R, 0), "row")
	wantErr(t, "Gsum2d dest -2", blacs.Gsum2d(g, blacs.All, "", 2, 2, a, 2, -2, 0), "row")
	wantErr(t, "Gsum2d scope", blacs.Gsum2d(g, 'Z', "", 2, 2, a, 2, -1, -1), "scope")
	wantErr(t, "Gamx2d ra w/o ca", blacs.Gamx2d(g, blacs.All, "", 2, 2, a, 2, ra, nil, 2, -1, -1), "ra")
	wantErr(t, "Gamn2d ca w/o ra", blacs.Gamn2d(g, blacs.All, "", 2, 2, a, 2, nil, ca, 2, -1, -1), "ra")
	wantErr(t, "Gamx2d ldia<m", blacs.Gamx2d(g, blacs.All, "", 3, 2, a, 3, ra, ca, 2, -1, -1), "ldia")
	wantErr(t, "Gamx2d short ra", blacs.Gamx2d(g, blacs.All, "", 3, 2, a, 3, ra[:5], ca, 3, -1, -1), "ra")
	wantErr(t, "Gamn2d dest", blacs.Gamn2d(g, blacs.All, "", 2, 2, a, 2, nil, nil, -1, 0, C), "row")
	_, err := g.Pnum(R, 0)
	wantErr(t, "Pnum", err, "row")
	_, _, err = g.Pcoord(R * C)
	wantErr(t, "Pcoord", err, "pnum")
	_, _, err = g.Pcoord(-1)
	wantErr(t, "Pcoord -1", err, "pnum")
	// A nil grid is refused too.
	wantErr(t, "Gesd2d nil grid", blacs.Gesd2d(nil, 1, 1, a, 1, 0, 0), "grid")
	// Grid creation refusals are local as well.
	w := mpi.World()
	_, err = blacs.GridInit(w, 'X', 1, 1)
	wantErr(t, "GridInit order", err, "order")
	_, err = blacs.GridInit(w, blacs.RowMajor, w.Size()+1, 1)
	wantErr(t, "GridInit too big", err, "rows")
	_, err = blacs.GridInit(w, blacs.RowMajor, 0, 1)
	wantErr(t, "GridInit 0 rows", err, "rows")
	_, err = blacs.GridInit(nil, blacs.RowMajor, 1, 1)
	wantErr(t, "GridInit nil", err, "comm")
	for _, um := range [][][]int{{}, {{0}, {}}, {{0, 0}}, {{w.Size()}}, {{-1}}} {
		_, err = blacs.GridMap(w, um)
		wantErr(t, fmt.Sprintf("GridMap %v", um), err, "usermap")
	}
}

// partialGrids builds grids that leave ranks out: GridInit 1×2 and a GridMap
// of the ranks 1..np-1 in reverse (rank 0 alone when np == 1), and checks
// membership, Pnum/Pcoord, the communicator and refusals on left-out ranks.
func partialGrids(t *testing.T, w *mpi.Comm) {
	np, me := w.Size(), w.Rank()
	type gridCase struct {
		order blacs.Order // GridInit with this order; 0 means GridMap
		um    [][]int     // the map it should produce
	}
	cases := []gridCase{{0, [][]int{{0}}}}
	if np >= 2 {
		cases = append(cases, gridCase{blacs.RowMajor, [][]int{{0, 1}}}, gridCase{blacs.ColumnMajor, [][]int{{0}, {1}}})
		var rev []int
		for r := np - 1; r >= 1; r-- {
			rev = append(rev, r)
		}
		cases = append(cases, gridCase{0, [][]int{rev}})
	}
	if np >= 3 {
		cases = append(cases, gridCase{0, [][]int{{2}, {0}}}) // 2×1 subset
	}
	if np == 4 {
		cases = append(cases,
			gridCase{0, [][]int{{3, 1}, {0, 2}}},                 // 2×2 permutation
			gridCase{blacs.ColumnMajor, [][]int{{0, 2}, {1, 3}}}, // column-major numbering
			gridCase{blacs.RowMajor, [][]int{{0, 1, 2}}},
		)
	}
	for _, tc := range cases {
		um := tc.um
		var g *blacs.Grid
		var err error
		if tc.order != 0 {
			g, err = blacs.GridInit(w, tc.order, len(um), len(um[0]))
		} else {
			g, err = blacs.GridMap(w, um)
		}
		mpitest.Must(t, err)
		R, C := len(um), len(um[0])
		at := [2]int{-1, -1}
		for i := range R {
			for j := range C {
				if um[i][j] == me {
					at = [2]int{i, j}
				}
			}
		}
		if at[0] < 0 {
			checkLeftOut(t, g, um)
		} else {
			checkMember(t, g, um, at)
		}
		mpitest.Must(t, g.Exit())
	}
}

func checkLeftOut(t *testing.T, g *blacs.Grid, um [][]int) {
	if g.In() {
		mpitest.Fatalf(t, "rank %d left out of %v but In() is true", mpi.World().Rank(), um)
	}
	a := []float64{1}
	_, err := g.Pnum(0, 0)
	wantErr(t, "left-out Pnum", err, "grid")
	_, _, err = g.Pcoord(0)
	wantErr(t, "left-out Pcoord", err, "grid")
	_, err = g.Comm()
	wantErr(t, "left-out Comm", err, "grid")
	wantErr(t, "left-out Barrier", g.Barrier(blacs.All), "grid")
	wantErr(t, "left-out Gesd2d", blacs.Gesd2d(g, 1, 1, a, 1, 0, 0), "grid")
	wantErr(t, "left-out Gerv2d", blacs.Gerv2d(g, 1, 1, a, 1, 0, 0), "grid")
	wantErr(t, "left-out Gebs2d", blacs.Gebs2d(g, blacs.All, "", 1, 1, a, 1), "grid")
	wantErr(t, "left-out Gsum2d", blacs.Gsum2d(g, blacs.All, "", 1, 1, a, 1, -1, -1), "grid")
	wantErr(t, "left-out Gamx2d", blacs.Gamx2d(g, blacs.All, "", 1, 1, a, 1, nil, nil, -1, -1, -1), "grid")
	wantErr(t, "left-out Trbr2d", blacs.Trbr2d(g, blacs.All, "", blacs.Upper, blacs.Unit, 1, 1, a, 1, 0, 0), "grid")
}

func checkMember(t *testing.T, g *blacs.Grid, um [][]int, at [2]int) {
	R, C := len(um), len(um[0])
	rows, cols, myrow, mycol := g.Info()
	if !g.In() || rows != R || cols != C || myrow != at[0] || mycol != at[1] {
		mpitest.Fatalf(t, "grid %v: Info = %d×%d at {%d,%d}, In=%v; want %d×%d at {%d,%d}", um, rows, cols, myrow, mycol, g.In(), R, C, at[0], at[1])
	}
	for i := range R {
		for j := range C {
			p, err := g.Pnum(i, j)
			mpitest.Must(t, err)
			if p != i*C+j {
				mpitest.Fatalf(t, "grid %v: Pnum(%d,%d) = %d, want %d", um, i, j, p, i*C+j)
			}
			r, c, err := g.Pcoord(p)
			mpitest.Must(t, err)
			if r != i || c != j {
				mpitest.Fatalf(t, "grid %v: Pcoord(%d) = {%d,%d}, want {%d,%d}", um, p, r, c, i, j)
			}
		}
	}
	comm, err := g.Comm()
	mpitest.Must(t, err)
	me, _ := g.Pnum(myrow, mycol)
	if comm.Size() != R*C || comm.Rank() != me {
		mpitest.Fatalf(t, "grid %v: Comm has size %d, rank %d; want %d, %d", um, comm.Size(), comm.Rank(), R*C, me)
	}
	// The communicator's rank k is the world rank the map puts at Pcoord(k).
	world := make([]int32, R*C)
	mpitest.Must(t, mpi.Allgather(comm, []int32{int32(mpi.World().Rank())}, world))
	for k, wr := range world {
		if want := um[k/C][k%C]; int(wr) != want {
			mpitest.Fatalf(t, "grid %v: Comm rank %d is world rank %d, want %d", um, k, wr, want)
		}
	}
	// Traffic works on the grid: sum of the world ranks of the members.
	x := []int32{int32(mpi.World().Rank())}
	mpitest.Must(t, blacs.Gsum2d(g, blacs.All, "", 1, 1, x, 1, -1, -1))
	want := int32(0)
	for _, wr := range world {
		want += wr
	}
	if x[0] != want {
		mpitest.Fatalf(t, "grid %v: Gsum2d of world ranks = %d, want %d", um, x[0], want)
	}
}
