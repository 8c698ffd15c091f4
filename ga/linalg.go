package ga

import (
	"cmp"
	"maps"
	"math"
	"slices"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/internal/layout"
	"github.com/goga-hpc/goga/scalapack"
)

// The linear solvers hand global arrays to ScaLAPACK. Arrays made with
// BlockCyclicGrid in square blocks are used where they lie
// (linalg_transposed.go); any other A is copied here into a block-cyclic
// matrix on a near-square process grid by one-sided Gets, solved there, and
// the result copied back.

// defaultSolverBlock is the block size of the copies the factorizations work
// on. Measured with gabench on 2 and 4 processes, 16 to 32 solve n = 1000 and
// 2000 fastest (n = 2000 on 2: 0.074 s at 32, 0.088 s at 64, where smaller
// panels shorten the one-process panel factorization that the others wait
// for); level-3 kernels want no less.
const defaultSolverBlock = 32

// SetSolverBlockSize sets the block size of the block-cyclic copies that the
// linear solvers hand to ScaLAPACK (default 32) for arrays of the default
// group. Every process must set the same value.
func SetSolverBlockSize(nb int) error {
	g, err := current("SetSolverBlockSize")
	if err != nil {
		return err
	}
	if nb < 1 {
		return errorf("SetSolverBlockSize", "", "block size %d; want at least 1", nb)
	}
	g.mu.Lock()
	g.solverBlock = nb
	g.mu.Unlock()
	return nil
}

// solverGrid returns the near-square BLACS grid of the group's processes,
// in column-major order: consecutive ranks, which mpirun places on one node,
// share a process column, where LU's pivot search and Cholesky's panel
// exchanges run once per matrix column. Across two simulated nodes (2 + 2
// ranks) the demo's regular-layout solve took 236-265 ms on a row-major
// grid, whose columns spanned the nodes, and 180-218 on this one.
func (g *group) solverGrid() (*blacs.Grid, error) {
	n := g.size()
	r := int(math.Sqrt(float64(n)))
	for n%r != 0 {
		r--
	}
	return g.grid(blacs.ColumnMajor, r, n/r)
}

// grid returns the rows × cols grid of the group's processes in the given
// order, made on first use. It is collective the first time.
func (g *group) grid(order blacs.Order, rows, cols int) (*blacs.Grid, error) {
	key := gridKey{order, rows, cols}
	g.mu.Lock()
	bg, ok := g.grids[key]
	g.mu.Unlock()
	if ok {
		return bg, nil
	}
	bg, err := blacs.GridInit(g.comm(), order, rows, cols)
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	g.grids[key] = bg
	g.mu.Unlock()
	return bg, nil
}

// exitGrids frees the group's grids, at Terminate.
func (g *group) exitGrids() error {
	g.mu.Lock()
	keys := slices.SortedFunc(maps.Keys(g.grids), func(a, b gridKey) int {
		return cmp.Or(cmp.Compare(a.order, b.order), cmp.Compare(a.rows, b.rows), cmp.Compare(a.cols, b.cols))
	})
	g.mu.Unlock()
	// The same order on every process: exiting is collective.
	for _, k := range keys {
		g.mu.Lock()
		bg := g.grids[k]
		delete(g.grids, k)
		g.mu.Unlock()
		if err := bg.Exit(); err != nil {
			return err
		}
	}
	return nil
}

// patch2 is a 2-D patch of a global array as the bridge to ScaLAPACK sees
// it: rows × cols elements from the corner lo on, along the array's
// dimensions rd (rows) and cd (columns), rd < cd, every other dimension
// fixed at lo's.
type patch2[T Elem] struct {
	x          *Array[T]
	lo         []int
	rd, cd     int
	rows, cols int
}

// leading is the leading rows × cols patch of the 2-D array x.
func leading[T Elem](x *Array[T], rows, cols int) patch2[T] {
	return patch2[T]{x: x, lo: []int{0, 0}, rd: 0, cd: 1, rows: rows, cols: cols}
}

// sub returns the bounds of the patch's rows r0..r0+h-1 and columns
// c0..c0+w-1 in x, and the leading dimensions of a buffer holding them
// row-major with ld elements from row to row.
func (p patch2[T]) sub(r0, c0, h, w, ld int) (lo, hi, lds []int) {
	lo, hi = slices.Clone(p.lo), slices.Clone(p.lo)
	lo[p.rd], hi[p.rd] = lo[p.rd]+r0, lo[p.rd]+r0+h-1
	lo[p.cd], hi[p.cd] = lo[p.cd]+c0, lo[p.cd]+c0+w-1
	lds = make([]int, len(lo)-1)
	for d := range lds {
		lds[d] = hi[d+1] - lo[d+1] + 1
	}
	lds[p.cd-1] = ld
	return lo, hi, lds
}

// getTransposed reads the patch p into a new matrix, its transpose, on g in
// mb × nb blocks, whose local part lives in s. The transpose's local part,
// column-major, is p's elements row-major, so each local block is one Get
// of a patch of p's array straight into place, with the local part's
// leading dimension.
func getTransposed[T scalapack.Elem](g *blacs.Grid, p patch2[T], mb, nb int, s *scratch) (*scalapack.Matrix[T], error) {
	m, err := emptyTransposed[T](g, p.rows, p.cols, mb, nb, s)
	if err != nil {
		return nil, err
	}
	return m, refillTransposed(m, p)
}

// emptyTransposed is getTransposed of a p0 × p1 patch without the reading.
func emptyTransposed[T scalapack.Elem](g *blacs.Grid, p0, p1, mb, nb int, s *scratch) (*scalapack.Matrix[T], error) {
	pr, pc, myrow, mycol := g.Info()
	lr, lc := layout.Numroc(p1, mb, myrow, 0, pr), layout.Numroc(p0, nb, mycol, 0, pc)
	d, err := scalapack.NewDesc(g, p1, p0, mb, nb, 0, 0, max(1, lr))
	if err != nil {
		return nil, err
	}
	return &scalapack.Matrix[T]{Grid: g, Desc: d, Data: scratchOf[T](s, max(1, d.LLD*lc))}, nil
}

// refillTransposed reads p into m = pᵀ again. Other processes' parts are
// mapped in first, in one call each rather than a page fault per page.
func refillTransposed[T scalapack.Elem](m *scalapack.Matrix[T], p patch2[T]) error {
	x := p.x
	for r := range x.g.size() {
		if r != x.g.rank {
			if err := x.seg.MapIn(r); err != nil {
				return err
			}
		}
	}
	// The blocks are read with non-blocking gets, a bounded number in
	// flight: across nodes each is a request to the owner, and they overlap.
	const inFlight = 256
	var pending []*Handle
	complete := func() error {
		var first error
		for _, h := range pending {
			if err := h.Wait(); err != nil && first == nil {
				first = err
			}
		}
		pending = pending[:0]
		return first
	}
	err := blocksAt(m, func(i0, j0, h, w, li, lj int) error {
		lo, hi, ld := p.sub(j0, i0, w, h, m.Desc.LLD)
		nb, err := x.NbGet(lo, hi, m.Data[li+lj*m.Desc.LLD:], ld)
		if err != nil {
			return err
		}
		if pending = append(pending, nb); len(pending) == inFlight {
			return complete()
		}
		return nil
	})
	if werr := complete(); err == nil {
		err = werr
	}
	return err
}

// putTransposed writes m = pᵀ back into p, one Put per local block.
func putTransposed[T scalapack.Elem](m *scalapack.Matrix[T], p patch2[T]) error {
	return blocksAt(m, func(i0, j0, h, w, li, lj int) error {
		lo, hi, ld := p.sub(j0, i0, w, h, m.Desc.LLD)
		return p.x.Put(lo, hi, m.Data[li+lj*m.Desc.LLD:], ld)
	})
}

// blocksAt calls f for every local block of m, with its global corner and
// size and its local corner; local blocks that are also neighbours in the
// global matrix go as one (on a grid of one process row, a whole column of
// blocks), so that the copies to and from arrays move longer runs.
func blocksAt[T scalapack.Elem](m *scalapack.Matrix[T], f func(i0, j0, h, w, li, lj int) error) error {
	pr, pc, myrow, mycol := m.Grid.Info()
	lr, lc := m.LocalShape()
	d := m.Desc
	for lj := 0; lj < lc; lj += d.NB {
		j0, w := scalapack.LocalToGlobal(lj, d.NB, mycol, d.CSrc, pc), min(d.NB, lc-lj)
		for li := 0; li < lr; {
			i0, h := scalapack.LocalToGlobal(li, d.MB, myrow, d.RSrc, pr), min(d.MB, lr-li)
			for li+h < lr && scalapack.LocalToGlobal(li+h, d.MB, myrow, d.RSrc, pr) == i0+h {
				h += min(d.MB, lr-li-h)
			}
			if err := f(i0, j0, h, w, li, lj); err != nil {
				return err
			}
			li += h
		}
	}
	return nil
}

// systemShape checks A (n × n) and B (n × nrhs) and returns n and nrhs.
func systemShape[T scalapack.Elem](op string, a, b *Array[T]) (n, nrhs int, err error) {
	if err := a.valid(op); err != nil {
		return 0, 0, err
	}
	if err := b.valid(op); err != nil {
		return 0, 0, err
	}
	if len(a.dims) != 2 || a.dims[0] != a.dims[1] {
		return 0, 0, errorf(op, a.name, "dims %v: A must be a square matrix", a.dims)
	}
	n = a.dims[0]
	if len(b.dims) != 2 || b.dims[0] != n {
		return 0, 0, errorf(op, b.name, "dims %v: B must be %d × nrhs for A of dims %v", b.dims, n, a.dims)
	}
	if a == b {
		return 0, 0, errorf(op, a.name, "A and B are the same array")
	}
	return n, b.dims[1], nil
}

// solve solves op(A)·X = B, overwriting B with X and leaving A as it was. It
// works on M = Aᵀ and Y = Bᵀ (see linalg_transposed.go): in the arrays'
// storage when they are BlockCyclicGrid in square blocks, else read by Gets
// into block-cyclic matrices (B on A's grid when A is in place, else both on
// a near-square grid of every process), with Y written back by Puts. Where
// Cholesky may be used, A is checked for symmetry first (see
// linalg_check.go). It is collective.
func solve[T scalapack.Elem](op string, how solveMethod, trans TransOp, a, b *Array[T]) error {
	g, err := groupOf(op, a)
	if err != nil {
		return err
	}
	n, nrhs, check := systemShape(op, a, b)
	l := newArgs(op).ints("how", int(how), int(trans)).ints("nb", g.block())
	if err := opening(g, op, a.Name(), check, writing(array(array(l, "A", a), "B", b), b)); err != nil {
		return err
	}
	scanA := how == byLU // otherwise the symmetry check reads all of A
	if how != byLU {
		sym, err := checkSymmetric(g, op, a, how == byCholesky)
		if err != nil {
			return err
		}
		if !sym {
			how = byLU
		}
	}
	if inPlace(a, b) {
		return solveInPlace(g, op, how, trans, a, b, scanA)
	}
	m, y, refill, err := readSystem(g, op, a, b, n, nrhs, scanA)
	// Everyone has read B before anyone writes it, and found it sound.
	if err := agree(g, true, op, a.name, err, nil); err != nil {
		return err
	}
	// ScaLAPACK's INFO is the same on every process, so all fail alike.
	if err := solveTransposed(how, trans, m, y, refill); err != nil {
		return err
	}
	return closing(g, op, b.name, putTransposed(y, leading(b, n, nrhs)))
}

// readSystem reads M = Aᵀ and Y = Bᵀ for solve and checks that they hold no
// NaN or Inf (M only if scanA). refill reads M again.
func readSystem[T scalapack.Elem](g *group, op string, a, b *Array[T], n, nrhs int, scanA bool) (m, y *scalapack.Matrix[T], refill func() error, err error) {
	refill = func() error { return refillTransposed(m, leading(a, n, n)) }
	if inPlace(a, nil) {
		local, err := a.localData()
		if err != nil {
			return nil, nil, nil, err
		}
		if m, err = storageOf(a, workCopy(&g.scratchA, local)); err != nil {
			return nil, nil, nil, err
		}
		refill = func() error { copy(m.Data, local); return nil }
	} else {
		grid, err := g.solverGrid()
		if err != nil {
			return nil, nil, nil, err
		}
		nb := min(g.block(), max(n, 1))
		if m, err = getTransposed(grid, leading(a, n, n), nb, nb, &g.scratchA); err != nil {
			return nil, nil, nil, err
		}
	}
	if y, err = getTransposed(m.Grid, leading(b, n, nrhs), min(m.Desc.MB, nrhs), m.Desc.MB, &g.scratchB); err != nil {
		return nil, nil, nil, err
	}
	if scanA {
		if err := finiteTransposed(op, a, m); err != nil {
			return nil, nil, nil, err
		}
	}
	return m, y, refill, finiteTransposed(op, b, y)
}

// LuSolve solves op(A)·X = B by LU factorization with partial pivoting
// (GA_Lu_solve, which is double only: goga's takes single and double, real
// and complex), trans NoTrans for A, Trans for Aᵀ, ConjTrans for Aᴴ (Aᵀ for
// real A). A is n × n and left as it was; B is n × nrhs and is overwritten
// by X. A singular A returns a *scalapack.SingularError. It is collective.
func LuSolve[T scalapack.Elem](trans TransOp, a, b *Array[T]) error {
	t := upperTrans(trans)
	if t != NoTrans && t != Trans && t != ConjTrans {
		return errorf("LuSolve", "", "trans %q; want NoTrans, Trans or ConjTrans ('N', 'T' or 'C')", trans)
	}
	return solve("LuSolve", byLU, t, a, b)
}

// LltSolve solves A·X = B for symmetric (complex: Hermitian) positive
// definite A by Cholesky factorization (GA_Llt_solve). A is left as it was and B overwritten by X;
// an A that is not positive definite returns a
// *scalapack.NotPositiveDefiniteError. Unlike GA, which factors a
// nonsymmetric A's lower triangle and returns the solution of another
// system, LltSolve checks that A is symmetric (a pass over A that costs
// about as much as reading it once) and returns an error wrapping
// ErrNotSymmetric if it is not. It is collective.
func LltSolve[T scalapack.Elem](a, b *Array[T]) error {
	return solve("LltSolve", byCholesky, NoTrans, a, b)
}

// Solve solves A·X = B by Cholesky factorization, and by LU when A turns out
// not to be positive definite (GA_Solve). Unlike GA, which would apply
// Cholesky to a nonsymmetric A's lower triangle and return a wrong answer,
// Solve checks for symmetry first and takes LU at once for a nonsymmetric A.
// A is left as it was and B overwritten by X. It is collective.
func Solve[T scalapack.Elem](a, b *Array[T]) error {
	return solve("Solve", byCholeskyOrLU, NoTrans, a, b)
}

// mirror makes the square array a symmetric (complex: Hermitian) from one
// triangle (the upper one if upper, else the lower): every process fills
// the other triangle's entries of its blocks from the mirror patches.
// Nobody writes the triangle that is read. It is collective; the caller has
// synchronized.
func mirror[T scalapack.Elem](a *Array[T], upper bool) error {
	conj := conjOf[T]()
	return withMirrors(a, func(i, j int, v *T, mirror T) {
		if (upper && j < i) || (!upper && j > i) {
			*v = conj(mirror)
		}
	})
}

// conjOf is T's complex conjugation; the identity for real T.
func conjOf[T scalapack.Elem]() func(T) T {
	switch any(*new(T)).(type) {
	case complex64:
		return func(v T) T { c := any(v).(complex64); return any(complex(real(c), -imag(c))).(T) }
	case complex128:
		return func(v T) T { c := any(v).(complex128); return any(complex(real(c), -imag(c))).(T) }
	}
	return func(v T) T { return v }
}

// withMirrors calls f for every element (i, j) this process stores of the
// square array a, in place, with a[j][i], read in one Get per block.
func withMirrors[T scalapack.Elem](a *Array[T], f func(i, j int, v *T, mirror T)) error {
	local, err := a.localData()
	if err != nil {
		return err
	}
	return a.storedBlocks(func(lo, hi []int, off int, ext []int) error {
		h := hi[0] - lo[0] + 1
		tr := make([]T, (hi[1]-lo[1]+1)*h)
		if err := a.Get([]int{lo[1], lo[0]}, []int{hi[1], hi[0]}, tr, nil); err != nil {
			return err
		}
		for i := lo[0]; i <= hi[0]; i++ {
			for j := lo[1]; j <= hi[1]; j++ {
				f(i, j, &local[off+(i-lo[0])*ext[1]+(j-lo[1])], tr[(j-lo[1])*h+(i-lo[0])])
			}
		}
		return nil
	})
}

// SpdInvert replaces the symmetric (complex: Hermitian) positive definite
// A by its inverse (GA_Spd_invert). A that is not symmetric (checked, unlike GA), holds NaN
// or Inf, or is not positive definite is left as it was and an error
// returned: one wrapping ErrNotSymmetric or ErrNotFinite, or a
// *scalapack.NotPositiveDefiniteError. It is collective.
func SpdInvert[T scalapack.Elem](a *Array[T]) error {
	const op = "SpdInvert"
	g, err := groupOf(op, a)
	if err != nil {
		return err
	}
	check := a.valid(op)
	if check == nil && (len(a.dims) != 2 || a.dims[0] != a.dims[1]) {
		check = errorf(op, a.name, "dims %v: A must be a square matrix", a.dims)
	}
	if err := opening(g, op, a.Name(), check, array(newArgs(op).ints("nb", g.block()), "A", a)); err != nil {
		return err
	}
	if _, err := checkSymmetric(g, op, a, true); err != nil {
		return err
	}
	if inPlace(a, nil) {
		return spdInvertInPlace(g, a)
	}
	grid, err := g.solverGrid()
	if err != nil {
		return err
	}
	n := a.dims[0]
	nb := min(g.block(), max(n, 1))
	m, err := getTransposed[T](grid, leading(a, n, n), nb, nb, &g.scratchA)
	// Everyone has read A before anyone writes it.
	if err := agree(g, true, op, a.name, err, nil); err != nil {
		return err
	}
	if err := invertTransposed(m); err != nil {
		return err
	}
	return mirrorUpper(g, a, putTransposed(m, leading(a, n, n)))
}
