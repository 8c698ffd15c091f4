package ga

import (
	"slices"

	"github.com/goga-hpc/goga/mpi"
)

// Products of a sparse matrix with a sparse or a dense matrix. gonum has
// no sparse matrix type, so the kernels work on goga's own compressed
// sparse row slices.

// MatMat returns the sparse product S·B, assembled, as GA stores it
// (NGA_Sprs_array_matmat_multiply): S's columns must be B's rows, and the
// product has S's rows and B's columns, split by rows as they are. Each
// process asks the others for just the rows of B that its rows of S touch,
// then forms its rows of the product by Gustavson's method; an element the
// structure yields is stored even where its terms cancel. It is
// collective.
func (s *Sparse[T]) MatMat(b *Sparse[T]) (*Sparse[T], error) {
	const op = "SparseMatMat"
	g, err := s.on(op)
	if err != nil {
		return nil, err
	}
	check := s.ready(op)
	if check == nil {
		check = b.live(op)
	}
	if check == nil {
		check = b.ready(op)
	}
	switch {
	case check != nil:
	case b.g != g:
		check = errorf(op, "", "B lives on another group of processes than S")
	case s.jdim != b.idim:
		check = errorf(op, "", "S is %d × %d and B %d × %d; S's columns must be B's rows", s.idim, s.jdim, b.idim, b.jdim)
	}
	l := s.args(op)
	if b != nil {
		l.ints("b", b.idim, b.jdim)
	}
	if err := opening(g, op, "", check, l); err != nil {
		return nil, err
	}
	c, err := s.matMat(b)
	if err := closing(g, op, "", err); err != nil {
		return nil, err
	}
	return c, nil
}

// matMat is MatMat's work.
func (s *Sparse[T]) matMat(b *Sparse[T]) (*Sparse[T], error) {
	bcol, bval, start, want, err := s.fetchRows(b)
	if err != nil {
		return nil, err
	}
	// where[j-base]: row j of B among those fetched (want is ascending).
	var base int
	var where []int
	if len(want) > 0 {
		base = want[0]
		where = make([]int, want[len(want)-1]-base+1)
	}
	for k, j := range want {
		where[j-base] = k
	}
	rows := max(s.ihi-s.ilo+1, 0)
	acc, mark := make([]T, b.jdim), make([]int, b.jdim)
	for j := range mark {
		mark[j] = -1
	}
	var pat []int
	out := newBlockBuilder[T](rows, s.nproc, b.jdim)
	ar := s.localRows()
	for r := range rows {
		pat = pat[:0]
		for k := ar.ptr[r]; k < ar.ptr[r+1]; k++ {
			a, w := ar.val[k], where[ar.col[k]-base]
			for m := start[w]; m < start[w+1]; m++ {
				j := bcol[m]
				if mark[j] != r {
					mark[j], acc[j] = r, a*bval[m]
					pat = append(pat, j)
				} else {
					acc[j] += a * bval[m]
				}
			}
		}
		slices.Sort(pat)
		for _, j := range pat {
			out.add(r, j, acc[j])
		}
	}
	return assembledSparse(s.g, s.idim, b.jdim, out.done()), nil
}

// fetchRows brings the rows of B that this process's rows of S touch:
// want, ascending, and row want[k]'s elements at bcol[start[k]:start[k+1]]
// and bval. Column block q of S names rows that process q holds of B.
func (s *Sparse[T]) fetchRows(b *Sparse[T]) (bcol []int, bval []T, start, want []int, err error) {
	P, c := s.nproc, s.g.comm()
	counts := make([]int, P)
	for q, blk := range s.blocks {
		if blk != nil {
			cols := slices.Compact(slices.Sorted(slices.Values(blk.jdx)))
			want = append(want, cols...)
			counts[q] = len(cols)
		}
	}
	asked, from, err := swap(c, want, counts)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	rs := b.localRows()
	lens, ccount := make([]int, len(asked)), make([]int, P)
	var cols []int
	var vals []T
	k := 0
	for p, n := range from {
		for range n {
			lo, hi := rs.ptr[asked[k]-b.ilo], rs.ptr[asked[k]-b.ilo+1]
			lens[k] = hi - lo
			cols, vals = append(cols, rs.col[lo:hi]...), append(vals, rs.val[lo:hi]...)
			ccount[p] += hi - lo
			k++
		}
	}
	got, _, err := swap(c, lens, from)
	if err == nil {
		bcol, _, err = swap(c, cols, ccount)
	}
	if err == nil {
		bval, _, err = swap(c, vals, ccount)
	}
	start = make([]int, len(got)+1)
	for k, n := range got {
		start[k+1] = start[k] + n
	}
	return bcol, bval, start, want, err
}

// SparseDenseMultiply returns the dense product S·B of the sparse matrix s
// and the 2-D array b (NGA_Sprs_array_sprsdns_multiply): b's rows must be
// S's columns; the product, a new array on the matrix's group, has S's rows,
// split as S's are, and b's columns. Each process reads the rows of b under
// its non-empty column blocks. It is collective.
func SparseDenseMultiply[T Elem](s *Sparse[T], b *Array[T]) (*Array[T], error) {
	const op = "SparseDenseMultiply"
	g, c, err := denseProduct(op, s, b, false)
	if err != nil {
		return nil, err
	}
	n := b.dims[1]
	rows := s.ihi - s.ilo + 1
	if rows <= 0 {
		return made(g, op, c, nil)
	}
	buf := make([]T, rows*n)
	for q, blk := range s.blocks {
		if blk == nil || err != nil {
			continue
		}
		jlo, jhi, _ := s.ColumnDistribution(q)
		x := make([]T, (jhi-jlo+1)*n)
		if err = b.Get([]int{jlo, 0}, []int{jhi, n - 1}, x, nil); err != nil {
			continue
		}
		for r := range rows {
			dst := buf[r*n : (r+1)*n]
			for k := blk.idx[r]; k < blk.idx[r+1]; k++ {
				axpy(dst, blk.val[k], x[(blk.jdx[k]-jlo)*n:][:n])
			}
		}
	}
	if err == nil {
		err = c.Put([]int{s.ilo, 0}, []int{s.ihi, n - 1}, buf, nil)
	}
	return made(g, op, c, err)
}

// axpy adds a·x to dst, as long as each other.
func axpy[T Elem](dst []T, a T, x []T) {
	x = x[:len(dst)]
	for j, v := range x {
		dst[j] += a * v
	}
}

// denseProduct is the start of a product of s and the dense matrix x, on
// the left of s or on its right: the checks, the agreement, and the new
// product array, split by rows; or an error every process has.
func denseProduct[T Elem](op string, s *Sparse[T], x *Array[T], left bool) (*group, *Array[T], error) {
	g, err := s.on(op)
	if err != nil {
		return nil, nil, err
	}
	check, name := s.ready(op), "b"
	switch {
	case check != nil:
	case left:
		check, name = s.matrixCheck(op, g, x, 1, s.idim), "a"
	default:
		check = s.matrixCheck(op, g, x, 0, s.jdim)
	}
	if err := opening(g, op, x.Name(), check, array(s.args(op), name, x)); err != nil {
		return nil, nil, err
	}
	rows, cols := s.idim, x.dims[1]
	if left {
		rows, cols = x.dims[0], s.jdim
	}
	c, err := byRows[T](g, op, "c", rows, cols)
	if err != nil {
		return nil, nil, closing(g, op, "", err)
	}
	return g, c, nil
}

// matrixCheck is the verdict on x, a dense argument that must be a matrix
// on g with n rows (dim 0) or columns (dim 1).
func (s *Sparse[T]) matrixCheck(op string, g *group, x *Array[T], dim, n int) error {
	if err := x.valid(op); err != nil {
		return err
	}
	what := [2]string{"rows", "columns"}
	switch {
	case x.g != g:
		return errorf(op, x.name, "the dense matrix lives on another group of processes than the sparse one")
	case len(x.dims) != 2 || x.dims[dim] != n:
		return errorf(op, x.name, "the dense matrix has dims %v; want %d %s", x.dims, n, what[dim])
	}
	return nil
}

// DenseSparseMultiply returns the dense product A·S of the 2-D array a and
// the sparse matrix s (NGA_Sprs_array_dnssprs_multiply): a's columns must
// be S's rows; the product, a new array on the matrix's group, has a's rows,
// split as a sparse matrix's are, and S's columns. As in GA C, every process
// holds all of S for the product (a copy of its elements, gathered from
// their holders), and reads its rows of a. It is collective.
func DenseSparseMultiply[T Elem](a *Array[T], s *Sparse[T]) (*Array[T], error) {
	const op = "DenseSparseMultiply"
	g, c, err := denseProduct(op, s, a, true)
	if err != nil {
		return nil, err
	}
	m, k, n := a.dims[0], s.idim, s.jdim
	all, err := s.gatherRows()
	lo, hi := share(m, g.rank, g.size())
	if rows := hi - lo + 1; err == nil && rows > 0 {
		x := make([]T, rows*k)
		buf := make([]T, rows*n)
		err = a.Get([]int{lo, 0}, []int{hi, k - 1}, x, nil)
		var z T
		for r := range rows {
			dst := buf[r*n : (r+1)*n]
			for i, f := range x[r*k : (r+1)*k] {
				if f == z {
					continue
				}
				for e := all.ptr[i]; e < all.ptr[i+1]; e++ {
					dst[all.col[e]] += f * all.val[e]
				}
			}
		}
		if err == nil {
			err = c.Put([]int{lo, 0}, []int{hi, n - 1}, buf, nil)
		}
	}
	return made(g, op, c, err)
}

// gatherRows gives every process all of the matrix's rows.
func (s *Sparse[T]) gatherRows() (rowSet[T], error) {
	c := s.g.comm()
	mine := s.localRows()
	lens := make([]int, len(mine.ptr)-1)
	for r := range lens {
		lens[r] = mine.ptr[r+1] - mine.ptr[r]
	}
	all := rowSet[T]{ptr: make([]int, s.idim+1)}
	got, err := gatherAll(c, lens)
	if err == nil {
		all.col, err = gatherAll(c, mine.col)
	}
	if err == nil {
		all.val, err = gatherAll(c, mine.val)
	}
	for i, n := range got {
		all.ptr[i+1] = all.ptr[i] + n
	}
	return all, err
}

// gatherAll returns every process's mine, in rank order, on every process.
func gatherAll[E mpi.Elem](c *mpi.Comm, mine []E) ([]E, error) {
	counts := make([]int, c.Size())
	if err := mpi.Allgather(c, []int{len(mine)}, counts); err != nil {
		return nil, err
	}
	n := 0
	for _, k := range counts {
		n += k
	}
	all := make([]E, n)
	return all, mpi.Allgatherv(c, mine, all, counts, nil)
}
