package ga

import (
	"slices"

	"github.com/goga-hpc/goga/mpi"
)

// The helpers the operations on assembled sparse matrices share: the
// checks, the rows of a process as one compressed sparse row set, the
// building of column blocks row by row, and the arrays made by rows.

// ready is this process's verdict on s for an operation that needs the
// matrix assembled.
func (s *Sparse[T]) ready(op string) error {
	switch {
	case s == nil:
		return stateErr(op, "", ErrNil)
	case !s.assembled:
		return errorf(op, "", "the matrix is not assembled yet")
	}
	return nil
}

// col is the column block that holds column j.
func (s *Sparse[T]) col(j int) int { return j * s.nproc / s.jdim }

// rowSet is a set of whole rows in compressed sparse row form: row r's
// elements are col[ptr[r]:ptr[r+1]] (global columns, ascending) and
// val[ptr[r]:ptr[r+1]].
type rowSet[T Elem] struct {
	ptr, col []int
	val      []T
}

// localRows is this process's rows, every column block's elements of a
// row together, in column order.
func (s *Sparse[T]) localRows() rowSet[T] {
	n := max(s.ihi-s.ilo+1, 0)
	rs := rowSet[T]{ptr: make([]int, n+1)}
	for _, c := range s.blocks {
		if c != nil {
			for r := range n {
				rs.ptr[r+1] += c.idx[r+1] - c.idx[r]
			}
		}
	}
	for r := range n {
		rs.ptr[r+1] += rs.ptr[r]
	}
	rs.col, rs.val = make([]int, rs.ptr[n]), make([]T, rs.ptr[n])
	at := slices.Clone(rs.ptr[:n])
	for _, c := range s.blocks {
		if c == nil {
			continue
		}
		for r := range n {
			lo, hi := c.idx[r], c.idx[r+1]
			copy(rs.col[at[r]:], c.jdx[lo:hi])
			copy(rs.val[at[r]:], c.val[lo:hi])
			at[r] += hi - lo
		}
	}
	return rs
}

// row returns row i's (a local row's) elements in column block b.
func (s *Sparse[T]) row(b, i int) (jdx []int, val []T) {
	c := s.blocks[b]
	if c == nil {
		return nil, nil
	}
	lo, hi := c.idx[i-s.ilo], c.idx[i-s.ilo+1]
	return c.jdx[lo:hi], c.val[lo:hi]
}

// at returns element (i, j) of a local row i, and whether it is stored.
func (s *Sparse[T]) at(i, j int) (T, bool) {
	jdx, val := s.row(s.col(j), i)
	if k, ok := slices.BinarySearch(jdx, j); ok {
		return val[k], true
	}
	var z T
	return z, false
}

// blockBuilder makes a process's column blocks from its rows, given in
// order, each with its columns ascending.
type blockBuilder[T Elem] struct {
	blocks     []*csr[T]
	rows       int
	nproc, dim int // the column blocks: column j is in block j·nproc/dim
}

func newBlockBuilder[T Elem](rows, nproc, jdim int) *blockBuilder[T] {
	return &blockBuilder[T]{blocks: make([]*csr[T], nproc), rows: rows, nproc: nproc, dim: jdim}
}

// add appends element (r, j) of local row r, the last row added or a later
// one.
func (b *blockBuilder[T]) add(r, j int, v T) {
	k := j * b.nproc / b.dim
	c := b.blocks[k]
	if c == nil {
		c = &csr[T]{idx: make([]int, b.rows+1)}
		b.blocks[k] = c
	}
	c.jdx, c.val = append(c.jdx, j), append(c.val, v)
	c.idx[r+1]++
}

// done turns the row counts into offsets and returns the blocks.
func (b *blockBuilder[T]) done() []*csr[T] {
	for _, c := range b.blocks {
		if c != nil {
			for r := range b.rows {
				c.idx[r+1] += c.idx[r]
			}
		}
	}
	return b.blocks
}

// assembled is a matrix on g whose rows this process has built: blocks, as
// a blockBuilder made them.
func assembledSparse[T Elem](g *group, idim, jdim int, blocks []*csr[T]) *Sparse[T] {
	s := &Sparse[T]{g: g, idim: idim, jdim: jdim, nproc: g.size(), assembled: true, blocks: blocks}
	s.ilo, s.ihi = share(idim, g.rank, s.nproc)
	return s
}

// swap sends send[at:at+counts[p]] to each process p, at the sum of the
// counts before p, and returns what each sent this one, in rank order,
// with the counts.
func swap[E mpi.Elem](c *mpi.Comm, send []E, counts []int) ([]E, []int, error) {
	recv := make([]int, len(counts))
	if err := mpi.Alltoall(c, counts, recv); err != nil {
		return nil, nil, err
	}
	n := 0
	for _, r := range recv {
		n += r
	}
	got := make([]E, n)
	if err := mpi.Alltoallv(c, send, counts, nil, got, recv, nil); err != nil {
		return nil, nil, err
	}
	return got, recv, nil
}

// byRows makes an array of dims on g whose first dimension is split as a
// sparse matrix's rows are, when every process has some; GA's default
// distribution otherwise.
func byRows[E Elem](g *group, op, name string, dims ...int) (*Array[E], error) {
	b := New[E](dims...).Name(name).Pgroup(g.pg)
	P := g.size()
	if dims[0] >= P {
		starts := make([][]int, len(dims))
		for d := range starts {
			starts[d] = []int{0}
		}
		starts[0] = make([]int, P)
		for p := range P {
			starts[0][p], _ = share(dims[0], p, P)
		}
		b.Irregular(starts...)
	}
	return b.allocate(op)
}

// made ends a collective call that made x: closing's agreement on err, and,
// if a process failed, x destroyed on all of them.
func made[E Elem](g *group, op string, x *Array[E], err error) (*Array[E], error) {
	if err := closing(g, op, x.Name(), err); err != nil {
		x.Destroy()
		return nil, err
	}
	return x, nil
}
