package ga

import "slices"

// Sparse matrices from dense arrays and back, and a block of a matrix
// read by any process.

// CreateSparseFromDense makes an assembled sparse matrix of the 2-D array a
// (NGA_Sprs_array_create_from_dense): it stores a's non-zero elements and
// every diagonal element (i, i), zero or not, as GA does. The matrix lives
// on a's group. It is collective.
func CreateSparseFromDense[T Elem](a *Array[T]) (*Sparse[T], error) {
	const op = "CreateSparseFromDense"
	g, err := groupOf(op, a)
	if err != nil {
		return nil, err
	}
	check := a.valid(op)
	if check == nil && len(a.dims) != 2 {
		check = errorf(op, a.name, "a has dims %v; want a matrix", a.dims)
	}
	var z T
	if err := opening(g, op, a.Name(), check, array(newArgs(op), "a", a)); err != nil {
		return nil, err
	}
	idim, jdim := a.dims[0], a.dims[1]
	ilo, ihi := share(idim, g.rank, g.size())
	rows := max(ihi-ilo+1, 0)
	b := newBlockBuilder[T](rows, g.size(), jdim)
	if rows > 0 {
		buf := make([]T, rows*jdim)
		err = a.Get([]int{ilo, 0}, []int{ihi, jdim - 1}, buf, nil)
		for r := range rows {
			for j, v := range buf[r*jdim : (r+1)*jdim] {
				if v != z || ilo+r == j {
					b.add(r, j, v)
				}
			}
		}
	}
	if err := closing(g, op, a.Name(), err); err != nil {
		return nil, err
	}
	return assembledSparse(g, idim, jdim, b.done()), nil
}

// CreateDenseFromSparse makes a new idim × jdim array holding the matrix,
// zero where it stores no element (NGA_Sprs_array_create_from_sparse, which
// despite its name makes the dense array). The array is split by rows as
// the matrix is, and lives on its group. It is collective.
func CreateDenseFromSparse[T Elem](s *Sparse[T]) (*Array[T], error) {
	const op = "CreateDenseFromSparse"
	g, err := s.on(op)
	if err != nil {
		return nil, err
	}
	if err := opening(g, op, "", s.ready(op), s.args(op)); err != nil {
		return nil, err
	}
	a, err := byRows[T](g, op, "dense", s.idim, s.jdim)
	if err != nil {
		return nil, closing(g, op, "", err)
	}
	err = a.Zero()
	if rows := s.ihi - s.ilo + 1; err == nil && rows > 0 {
		buf := make([]T, rows*s.jdim)
		for _, c := range s.blocks {
			if c == nil {
				continue
			}
			for r := range rows {
				for k := c.idx[r]; k < c.idx[r+1]; k++ {
					buf[r*s.jdim+c.jdx[k]] = c.val[k]
				}
			}
		}
		err = a.Put([]int{s.ilo, 0}, []int{s.ihi, s.jdim - 1}, buf, nil)
	}
	return made(g, op, a, err)
}

// SparseBlock is block (irow, icol) of a sparse matrix: the rows Ilo to
// Ihi, those of process irow, and the columns Jlo to Jhi, those of column
// block icol, in compressed sparse row form: row Ilo+r's elements are
// Jdx[Idx[r]:Idx[r+1]] (global columns, ascending) and Val[Idx[r]:Idx[r+1]].
// Idx, Jdx and Val are nil for a block without elements.
type SparseBlock[T Elem] struct {
	Ilo, Ihi, Jlo, Jhi int
	Idx, Jdx           []int
	Val                []T
}

// Block returns a copy of block (irow, icol) of the matrix, wherever it
// lies, and whether it holds any element (NGA_Sprs_array_get_block). GA C
// reads the block one-sidedly from the global arrays that hold its matrix;
// goga's matrix lives in each process's own memory, so Block is
// collective: every process asks for a block of its own choice, and the
// processes that hold them send them.
func (s *Sparse[T]) Block(irow, icol int) (SparseBlock[T], bool, error) {
	const op = "SparseBlock"
	g, err := s.on(op)
	if err != nil {
		return SparseBlock[T]{}, false, err
	}
	check := s.ready(op)
	if check == nil && (irow < 0 || irow >= s.nproc || icol < 0 || icol >= s.nproc) {
		check = errorf(op, "", "block (%d, %d); the blocks are (0, 0) to (%d, %d)", irow, icol, s.nproc-1, s.nproc-1)
	}
	if err := opening(g, op, "", check, s.args(op)); err != nil {
		return SparseBlock[T]{}, false, err
	}
	blk, err := s.block(irow, icol)
	if err := closing(g, op, "", err); err != nil {
		return SparseBlock[T]{}, false, err
	}
	return blk, blk.Idx != nil, nil
}

// block is Block's work: the requests go to the blocks' holders, which
// send each block's offsets and columns together, then its values.
func (s *Sparse[T]) block(irow, icol int) (SparseBlock[T], error) {
	var blk SparseBlock[T]
	blk.Ilo, blk.Ihi = share(s.idim, irow, s.nproc)
	blk.Jlo, blk.Jhi = share(s.jdim, icol, s.nproc)
	c := s.g.comm()
	counts := make([]int, s.nproc)
	counts[irow] = 1
	asked, from, err := swap(c, []int{icol}, counts)
	if err != nil {
		return blk, err
	}
	var ints []int
	var vals []T
	icount, vcount := make([]int, s.nproc), make([]int, s.nproc)
	k := 0
	for p, n := range from {
		if n == 0 {
			continue
		}
		if b := s.blocks[asked[k]]; b != nil {
			ints = append(append(ints, b.idx...), b.jdx...)
			vals = append(vals, b.val...)
			icount[p], vcount[p] = len(b.idx)+len(b.jdx), len(b.val)
		}
		k++
	}
	gotInts, _, err := swap(c, ints, icount)
	if err != nil {
		return blk, err
	}
	gotVals, _, err := swap(c, vals, vcount)
	if err != nil || len(gotInts) == 0 { // no block, or one without elements
		return blk, err
	}
	rows := blk.Ihi - blk.Ilo + 1
	blk.Idx, blk.Jdx, blk.Val = slices.Clip(gotInts[:rows+1]), gotInts[rows+1:], gotVals
	return blk, nil
}

// Duplicate returns a new matrix with the same elements
// (NGA_Sprs_array_duplicate). It is collective.
func (s *Sparse[T]) Duplicate() (*Sparse[T], error) {
	const op = "SparseDuplicate"
	g, err := s.on(op)
	if err != nil {
		return nil, err
	}
	if err := agree(g, false, op, "", s.ready(op), s.args(op)); err != nil {
		return nil, err
	}
	blocks := make([]*csr[T], len(s.blocks))
	for b, c := range s.blocks {
		if c != nil {
			blocks[b] = &csr[T]{idx: slices.Clone(c.idx), jdx: slices.Clone(c.jdx), val: slices.Clone(c.val)}
		}
	}
	return assembledSparse(g, s.idim, s.jdim, blocks), nil
}
