package ga

import (
	"errors"
	"math"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/scalapack"
)

// The linear solvers hand global arrays to ScaLAPACK. Arrays made with
// BlockCyclicGrid in square blocks are used where they lie (linalg_direct.go);
// any other A is copied into a block-cyclic matrix on a near-square process
// grid, solved there, and the result copied back.

// solverBlock is the block size of the copies handed to ScaLAPACK: large
// enough for its level-3 kernels, small enough to balance n of a few hundred.
var solverBlock = 64

// SetSolverBlockSize sets the block size of the block-cyclic copies that the
// linear solvers hand to ScaLAPACK (default 64). Every process must set the
// same value.
func SetSolverBlockSize(nb int) error {
	if nb < 1 {
		return errorf("SetSolverBlockSize", "", "block size %d; want at least 1", nb)
	}
	st.mu.Lock()
	solverBlock = nb
	st.mu.Unlock()
	return nil
}

// solverGrid makes a near-square BLACS grid of every GA process.
func solverGrid(op string) (*blacs.Grid, error) {
	if _, err := runtime(op); err != nil {
		return nil, err
	}
	n := Nnodes()
	r := int(math.Sqrt(float64(n)))
	for n%r != 0 {
		r--
	}
	return blacs.GridInit(Comm(), blacs.RowMajor, r, n/r)
}

// toMatrix copies the rows × cols global array a into a block-cyclic matrix
// on g whose local part lives in s. It reads one band of nb whole rows per
// local row block (one Get each, the grid's column count times more data
// than this process keeps, but far fewer calls) and keeps the local columns.
func toMatrix(g *blacs.Grid, a *Array[float64], rows, cols int, s *scratch) (*scalapack.Matrix[float64], error) {
	nb := min(solverBlock, max(rows, 1))
	pr, pc, myrow, mycol := g.Info()
	lr, lc := scalapack.Numroc(rows, nb, myrow, 0, pr), scalapack.Numroc(cols, nb, mycol, 0, pc)
	d, err := scalapack.NewDesc(g, rows, cols, nb, nb, 0, 0, max(1, lr))
	if err != nil {
		return nil, err
	}
	m := &scalapack.Matrix[float64]{Grid: g, Desc: d, Data: s.floats(max(1, d.LLD*lc))}
	lld := m.Desc.LLD
	band := scratchBand.floats(nb * cols)
	gcol := make([]int, lc) // global column of each local column
	for lj := range gcol {
		gcol[lj] = scalapack.LocalToGlobal(lj, nb, mycol, 0, pc)
	}
	const tile = 64 // columns per pass, so that reads and writes stay in cache
	for li := 0; li < lr; li += nb {
		i0, h := scalapack.LocalToGlobal(li, nb, myrow, 0, pr), min(nb, lr-li)
		if err := a.Get([]int{i0, 0}, []int{i0 + h - 1, cols - 1}, band, nil); err != nil {
			return nil, err
		}
		for t0 := 0; t0 < lc; t0 += tile {
			t1 := min(t0+tile, lc)
			for r := range h {
				row := band[r*cols : (r+1)*cols]
				for lj := t0; lj < t1; lj++ {
					m.Data[li+r+lj*lld] = row[gcol[lj]]
				}
			}
		}
	}
	return m, nil
}

// fromMatrix copies m back into the global array a, one Put per local block.
func fromMatrix(m *scalapack.Matrix[float64], a *Array[float64]) error {
	lld := m.Desc.LLD
	return blocksAt(m, func(i0, j0, h, w, li, lj int) error {
		buf := make([]float64, h*w)
		for c := range w {
			col := m.Data[li+(lj+c)*lld : li+(lj+c)*lld+h]
			for r, v := range col {
				buf[r*w+c] = v
			}
		}
		return a.Put([]int{i0, j0}, []int{i0 + h - 1, j0 + w - 1}, buf, nil)
	})
}

// blocksAt calls f for every local block of m: its global corner and size and
// its local corner.
func blocksAt(m *scalapack.Matrix[float64], f func(i0, j0, h, w, li, lj int) error) error {
	pr, pc, myrow, mycol := m.Grid.Info()
	lr, lc := m.LocalShape()
	d := m.Desc
	for lj := 0; lj < lc; lj += d.NB {
		j0, w := scalapack.LocalToGlobal(lj, d.NB, mycol, d.CSrc, pc), min(d.NB, lc-lj)
		for li := 0; li < lr; li += d.MB {
			i0, h := scalapack.LocalToGlobal(li, d.MB, myrow, d.RSrc, pr), min(d.MB, lr-li)
			if err := f(i0, j0, h, w, li, lj); err != nil {
				return err
			}
		}
	}
	return nil
}

// systemShape checks A (n × n) and B (n × nrhs) and returns n and nrhs.
func systemShape(op string, a, b *Array[float64]) (n, nrhs int, err error) {
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

// solve solves with A and B in place when their layouts allow, else runs f
// on copies of them in ScaLAPACK and writes the result (X) into B. A is left
// as it was. It is collective.
func solve(op string, how int, trans scalapack.Trans, a, b *Array[float64], f func(am, bm *scalapack.Matrix[float64]) error) error {
	n, nrhs, err := systemShape(op, a, b)
	if err != nil {
		return err
	}
	if err := Sync(); err != nil {
		return err
	}
	if inPlace(a, b) {
		return solveInPlace(op, how, trans, a, b)
	}
	if inPlace(a, nil) {
		// B is small beside A: move it into a compatible layout and back.
		tmp, err := New[float64](n, nrhs).Name(b.name+" (block-cyclic)").
			BlockCyclicGrid([]int{a.m.BlockSize(0), max(1, min(nrhs, a.m.BlockSize(0)))}, a.m.ProcGrid).Allocate()
		if err != nil {
			return err
		}
		defer tmp.Destroy()
		if err := Copy(b, tmp); err != nil {
			return err
		}
		if err := solveInPlace(op, how, trans, a, tmp); err != nil {
			return err
		}
		return Copy(tmp, b)
	}
	g, err := solverGrid(op)
	if err != nil {
		return err
	}
	defer g.Exit()
	am, err := toMatrix(g, a, n, n, &scratchA)
	if err != nil {
		return err
	}
	bm, err := toMatrix(g, b, n, nrhs, &scratchB)
	if err != nil {
		return err
	}
	if err := Sync(); err != nil { // everyone has read B before anyone writes it
		return err
	}
	// ScaLAPACK's INFO is the same on every process, so all fail alike.
	if err := f(am, bm); err != nil {
		return err
	}
	if err := fromMatrix(bm, b); err != nil {
		return err
	}
	return Sync()
}

// LuSolve solves op(A)·X = B by LU factorization with partial pivoting
// (GA_Lu_solve), trans 'N' for A, 'T' for Aᵀ. A is n × n and left as it was;
// B is n × nrhs and is overwritten by X. A singular A returns a
// *scalapack.SingularError. It is collective.
func LuSolve(trans byte, a, b *Array[float64]) error {
	if trans != 'N' && trans != 'T' && trans != 'n' && trans != 't' {
		return errorf("LuSolve", "", "trans %q; want 'N' or 'T'", trans)
	}
	t := scalapack.NoTrans
	if trans == 'T' || trans == 't' {
		t = scalapack.Transpose
	}
	return solve("LuSolve", byLU, t, a, b, func(am, bm *scalapack.Matrix[float64]) error {
		ipiv, err := scalapack.Getrf(am)
		if err != nil {
			return err
		}
		return scalapack.Getrs(t, am, ipiv, bm)
	})
}

// LltSolve solves A·X = B for symmetric positive definite A by Cholesky
// factorization (GA_Llt_solve). A is left as it was and B overwritten by X;
// an A that is not positive definite returns a
// *scalapack.NotPositiveDefiniteError. It is collective.
func LltSolve(a, b *Array[float64]) error {
	return solve("LltSolve", byCholesky, scalapack.NoTrans, a, b, func(am, bm *scalapack.Matrix[float64]) error {
		return scalapack.Posv(scalapack.Lower, am, bm)
	})
}

// Solve solves A·X = B by Cholesky factorization, and by LU when A turns out
// not to be positive definite (GA_Solve). Unlike GA, which would apply
// Cholesky to a nonsymmetric A's lower triangle and return a wrong answer,
// Solve checks for symmetry first and takes LU at once for a nonsymmetric A.
// A is left as it was and B overwritten by X. It is collective.
func Solve(a, b *Array[float64]) error {
	if _, _, err := systemShape("Solve", a, b); err != nil {
		return err
	}
	sym, err := symmetric(a)
	if err != nil {
		return err
	}
	how := byCholeskyOrLU
	if !sym {
		how = byLU
	}
	return solve("Solve", how, scalapack.NoTrans, a, b, func(am, bm *scalapack.Matrix[float64]) error {
		if !sym {
			return scalapack.Gesv(am, bm)
		}
		keep := slicesClone(am.Data)
		err := scalapack.Posv(scalapack.Lower, am, bm)
		var npd *scalapack.NotPositiveDefiniteError
		if !errors.As(err, &npd) {
			return err
		}
		// Posv stopped before touching B; factor the original A by LU.
		copy(am.Data, keep)
		return scalapack.Gesv(am, bm)
	})
}

// symmetric reports whether the square array a equals its transpose; every
// process compares its blocks with the mirror patches. It is collective.
func symmetric(a *Array[float64]) (bool, error) {
	if err := Sync(); err != nil {
		return false, err
	}
	ok := int32(1)
	err := a.storedBlocks(func(lo, hi []int, off int, pitch []int) error {
		local, err := a.localData()
		if err != nil {
			return err
		}
		h := hi[0] - lo[0] + 1
		tr := make([]float64, (hi[1]-lo[1]+1)*h)
		if err := a.Get([]int{lo[1], lo[0]}, []int{hi[1], hi[0]}, tr, nil); err != nil {
			return err
		}
		for i := lo[0]; i <= hi[0] && ok == 1; i++ {
			for j := lo[1]; j <= hi[1]; j++ {
				if local[off+(i-lo[0])*pitch[0]+(j-lo[1])] != tr[(j-lo[1])*h+(i-lo[0])] {
					ok = 0
					break
				}
			}
		}
		return nil
	})
	if err != nil {
		return false, err
	}
	all := []int32{ok}
	if err := Gop(all, "min"); err != nil {
		return false, err
	}
	return all[0] == 1, nil
}

// mirror makes the square array a symmetric from one triangle (the upper one
// if upper, else the lower): every process fills the other triangle's entries
// of its blocks from the mirror patches, read in one Get each. Nobody writes
// the triangle that is read. It is collective; the caller has synchronized.
func mirror(a *Array[float64], upper bool) error {
	return a.storedBlocks(func(lo, hi []int, off int, pitch []int) error {
		local, err := a.localData()
		if err != nil {
			return err
		}
		h := hi[0] - lo[0] + 1
		tr := make([]float64, (hi[1]-lo[1]+1)*h)
		if err := a.Get([]int{lo[1], lo[0]}, []int{hi[1], hi[0]}, tr, nil); err != nil {
			return err
		}
		for i := lo[0]; i <= hi[0]; i++ {
			for j := lo[1]; j <= hi[1]; j++ {
				if (upper && j < i) || (!upper && j > i) {
					local[off+(i-lo[0])*pitch[0]+(j-lo[1])] = tr[(j-lo[1])*h+(i-lo[0])]
				}
			}
		}
		return nil
	})
}

// SpdInvert replaces the symmetric positive definite A by its inverse
// (GA_Spd_invert); if A is not positive definite it is left as it was and a
// *scalapack.NotPositiveDefiniteError returned. It is collective.
func SpdInvert(a *Array[float64]) error {
	if err := a.valid("SpdInvert"); err != nil {
		return err
	}
	if len(a.dims) != 2 || a.dims[0] != a.dims[1] {
		return errorf("SpdInvert", a.name, "dims %v: A must be a square matrix", a.dims)
	}
	n := a.dims[0]
	if err := Sync(); err != nil {
		return err
	}
	if inPlace(a, nil) {
		return spdInvertInPlace(a)
	}
	g, err := solverGrid("SpdInvert")
	if err != nil {
		return err
	}
	defer g.Exit()
	am, err := toMatrix(g, a, n, n, &scratchA)
	if err != nil {
		return err
	}
	if err := scalapack.Potrf(scalapack.Lower, am); err != nil {
		return err
	}
	if err := scalapack.Potri(scalapack.Lower, am); err != nil {
		return err
	}
	if err := Sync(); err != nil {
		return err
	}
	// Potri leaves the lower triangle: write it, then mirror it.
	if err := fromMatrix(am, a); err != nil {
		return err
	}
	if err := Sync(); err != nil {
		return err
	}
	if err := mirror(a, false); err != nil {
		return err
	}
	return Sync()
}

func slicesClone(v []float64) []float64 { return append([]float64(nil), v...) }
