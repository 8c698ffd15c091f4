package ga

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/goga-hpc/goga/mpi"
)

// Sparse is a distributed sparse matrix, GA 5's sparse array
// (NGA_Sprs_array_*). Each process adds elements, wherever they lie;
// Assemble then gives process p the rows i with i·P/idim = p (P
// processes), in compressed sparse row form cut into P column blocks, block
// b holding the columns j with j·P/jdim = b, as GA lays them out. An element
// added more than once holds the sum of what was added, as GA's product
// counts each addition. gonum has no sparse matrix type, so the blocks
// are plain compressed sparse row slices (AccessColBlock, Block).
type Sparse[T Elem] struct {
	g          *group
	idim, jdim int
	nproc      int // the group's, which the distributions follow
	dead       bool
	// Before Assemble: the elements this process added.
	is, js []int
	vs     []T
	// After Assemble: this process's rows and its non-empty column blocks.
	assembled bool
	ilo, ihi  int
	blocks    []*csr[T] // by column block; nil: no element there
	// MatVec's buffers, kept from one call to the next: made anew, a
	// product of order 250000 spent 8% of its time allocating and clearing
	// them.
	x, sum []T
}

// csr is a column block of a process's rows: row ilo+r's elements are
// jdx[idx[r]:idx[r+1]] (global columns, ascending) and val[idx[r]:idx[r+1]].
type csr[T Elem] struct {
	idx, jdx []int
	val      []T
}

// CreateSparse makes an idim × jdim sparse matrix with no elements on the
// default group (NGA_Sprs_array_create). It is collective.
func CreateSparse[T Elem](idim, jdim int) (*Sparse[T], error) {
	const op = "CreateSparse"
	g, err := current(op)
	if err != nil {
		return nil, err
	}
	var check error
	if idim < 1 || jdim < 1 {
		check = errorf(op, "", "dimensions %d × %d; want 1 or more each", idim, jdim)
	}
	s := &Sparse[T]{g: g, idim: idim, jdim: jdim, nproc: g.size()}
	if err := agree(g, false, op, "", check, s.args(op)); err != nil {
		return nil, err
	}
	return s, nil
}

// on returns the group op on s runs on: for a nil s the default group,
// whose other processes then hear of the refusal; an error if s is
// destroyed or its GA has ended, which every process sees alike.
func (s *Sparse[T]) on(op string) (*group, error) {
	switch {
	case s == nil:
		return current(op)
	case s.dead:
		return nil, stateErr(op, "", ErrDestroyed)
	}
	return s.g.running(op)
}

// live refuses a nil, destroyed or ended s, for the local calls.
func (s *Sparse[T]) live(op string) error {
	if s == nil {
		return stateErr(op, "", ErrNil)
	}
	_, err := s.on(op)
	return err
}

// AddElement adds v at row i, column j (NGA_Sprs_array_add_element). It is
// local, and refused once the matrix is assembled.
func (s *Sparse[T]) AddElement(i, j int, v T) error {
	const op = "SparseAddElement"
	if err := s.live(op); err != nil {
		return err
	}
	switch {
	case s.assembled:
		return errorf(op, "", "the matrix is assembled; elements are added before Assemble")
	case i < 0 || i >= s.idim || j < 0 || j >= s.jdim:
		return errorf(op, "", "element (%d, %d) is outside %d × %d", i, j, s.idim, s.jdim)
	}
	s.is, s.js, s.vs = append(s.is, i), append(s.js, j), append(s.vs, v)
	return nil
}

// share is the part [lo, hi] of n indices that GA gives to part p of P: the
// indices x with x·P/n = p.
func share(n, p, P int) (lo, hi int) {
	return (p*n + P - 1) / P, ((p+1)*n+P-1)/P - 1
}

// RowDistribution returns the rows that process rank holds once the matrix
// is assembled (NGA_Sprs_array_row_distribution); ok is false when it holds
// none or there is no such process.
func (s *Sparse[T]) RowDistribution(rank int) (lo, hi int, ok bool) {
	if s == nil || rank < 0 || rank >= s.nproc {
		return 0, -1, false
	}
	lo, hi = share(s.idim, rank, s.nproc)
	return lo, hi, lo <= hi
}

// ColumnDistribution returns the columns of column block b
// (NGA_Sprs_array_column_distribution); ok is false when it has none or
// there is no such block.
func (s *Sparse[T]) ColumnDistribution(b int) (lo, hi int, ok bool) {
	if s == nil || b < 0 || b >= s.nproc {
		return 0, -1, false
	}
	lo, hi = share(s.jdim, b, s.nproc)
	return lo, hi, lo <= hi
}

// Assemble moves every process's elements to the process that holds their
// row and builds its column blocks (NGA_Sprs_array_assemble). It is
// collective, and done once: elements can no longer be added.
func (s *Sparse[T]) Assemble() error {
	const op = "SparseAssemble"
	g, err := s.on(op)
	if err != nil {
		return err
	}
	var check error
	switch {
	case s == nil:
		check = stateErr(op, "", ErrNil)
	case s.assembled:
		check = errorf(op, "", "the matrix is already assembled")
	}
	if err := opening(g, op, "", check, s.args(op)); err != nil {
		return err
	}
	return closing(g, op, "", s.assemble())
}

// args are the matrix's identity in an agreement: its dims and type.
func (s *Sparse[T]) args(op string) *args {
	var z T
	l := newArgs(op).str("type", fmt.Sprintf("%T", z))
	if s != nil {
		l.ints("dims", s.idim, s.jdim)
	}
	return l
}

// assemble is Assemble's work: one all-to-all exchange of the elements by
// row owner, then the column blocks.
func (s *Sparse[T]) assemble() error {
	c, P := s.g.comm(), s.nproc
	owner := func(i int) int { return i * P / s.idim }
	send := make([]int, P)
	for _, i := range s.is {
		send[owner(i)]++
	}
	at := make([]int, P) // where each owner's elements start
	for p := 1; p < P; p++ {
		at[p] = at[p-1] + send[p-1]
	}
	n := len(s.is)
	is, js, vs := make([]int, n), make([]int, n), make([]T, n)
	for k, i := range s.is {
		p := owner(i)
		is[at[p]], js[at[p]], vs[at[p]] = i, s.js[k], s.vs[k]
		at[p]++
	}
	recv := make([]int, P)
	if err := mpi.Alltoall(c, send, recv); err != nil {
		return err
	}
	m := 0
	for _, r := range recv {
		m += r
	}
	ri, rj, rv := make([]int, m), make([]int, m), make([]T, m)
	if err := mpi.Alltoallv(c, is, send, nil, ri, recv, nil); err != nil {
		return err
	}
	if err := mpi.Alltoallv(c, js, send, nil, rj, recv, nil); err != nil {
		return err
	}
	if err := mpi.Alltoallv(c, vs, send, nil, rv, recv, nil); err != nil {
		return err
	}
	s.ilo, s.ihi = share(s.idim, s.g.rank, P)
	s.blocks = s.build(ri, rj, rv, P)
	s.is, s.js, s.vs, s.assembled = nil, nil, nil, true
	return nil
}

// build sorts this process's elements by column block, row and column,
// sums repeated ones, and cuts them into the column blocks' rows.
func (s *Sparse[T]) build(is, js []int, vs []T, P int) []*csr[T] {
	col := func(j int) int { return j * P / s.jdim }
	order := make([]int, len(is))
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(col(js[a]), col(js[b])), cmp.Compare(is[a], is[b]), cmp.Compare(js[a], js[b]))
	})
	blocks := make([]*csr[T], P)
	rows := s.ihi - s.ilo + 1
	for k := 0; k < len(order); {
		e := order[k]
		b := blocks[col(js[e])]
		if b == nil {
			b = &csr[T]{idx: make([]int, rows+1)}
			blocks[col(js[e])] = b
		}
		v := vs[e]
		for k++; k < len(order) && is[order[k]] == is[e] && js[order[k]] == js[e]; k++ {
			v += vs[order[k]]
		}
		b.jdx, b.val = append(b.jdx, js[e]), append(b.val, v)
		b.idx[is[e]-s.ilo+1]++
	}
	for _, b := range blocks {
		if b != nil {
			for r := range rows {
				b.idx[r+1] += b.idx[r]
			}
		}
	}
	return blocks
}

// AccessColBlock returns this process's rows of column block b in
// compressed sparse row form (NGA_Sprs_array_access_col_block): row
// lo+r's elements (lo from RowDistribution) are at idx[r] to idx[r+1]-1
// of jdx, their columns, ascending, and val. The slices are the matrix's
// own; all three are nil when the block holds no element of these rows.
func (s *Sparse[T]) AccessColBlock(b int) (idx, jdx []int, val []T, err error) {
	const op = "SparseAccessColBlock"
	if err := s.live(op); err != nil {
		return nil, nil, nil, err
	}
	switch {
	case !s.assembled:
		return nil, nil, nil, errorf(op, "", "the matrix is not assembled yet")
	case b < 0 || b >= len(s.blocks):
		return nil, nil, nil, errorf(op, "", "column block %d; there are %d", b, len(s.blocks))
	}
	if c := s.blocks[b]; c != nil {
		return c.idx, c.jdx, c.val, nil
	}
	return nil, nil, nil, nil
}

// MatVec sets v to the product of the matrix and a
// (NGA_Sprs_array_matvec_multiply): a is a 1-D array of jdim elements, v
// one of idim (GA's C code checks v against jdim, and its complex product
// keeps only the last term of a row; goga computes the product). They live
// on the matrix's group, and v must not be a. It is collective.
func (s *Sparse[T]) MatVec(a, v *Array[T]) error {
	const op = "SparseMatVec"
	g, err := s.on(op)
	if err != nil {
		return err
	}
	check := a.valid(op)
	if check == nil {
		check = v.valid(op)
	}
	switch {
	case check != nil:
	case s == nil:
		check = stateErr(op, "", ErrNil)
	case !s.assembled:
		check = errorf(op, "", "the matrix is not assembled yet")
	case a.g != g || v.g != g:
		check = errorf(op, v.name, "the vectors live on another group of processes than the matrix")
	case a == v:
		check = errorf(op, v.name, "the product cannot overwrite the vector it multiplies")
	case len(a.dims) != 1 || a.dims[0] != s.jdim:
		check = errorf(op, a.name, "a has dims %v; want [%d], the matrix's columns", a.dims, s.jdim)
	case len(v.dims) != 1 || v.dims[0] != s.idim:
		check = errorf(op, v.name, "v has dims %v; want [%d], the matrix's rows", v.dims, s.idim)
	}
	l := writing(array(array(s.args(op), "a", a), "v", v), v)
	if err := opening(g, op, v.Name(), check, l); err != nil {
		return err
	}
	return closing(g, op, v.Name(), s.matVec(a, v))
}

// matVec is this process's rows of the product: one Get of a's part under
// each non-empty column block, then one Put.
func (s *Sparse[T]) matVec(a, v *Array[T]) error {
	if s.ilo > s.ihi {
		return nil
	}
	sum := resize(&s.sum, s.ihi-s.ilo+1)
	clear(sum)
	for b, c := range s.blocks {
		if c == nil {
			continue
		}
		jlo, jhi, _ := s.ColumnDistribution(b)
		x := resize(&s.x, jhi-jlo+1)
		if err := a.Get([]int{jlo}, []int{jhi}, x, nil); err != nil {
			return err
		}
		for r := range sum {
			// A row's elements as slices of their own, and its sum in a
			// local, so that the loop has no bounds checks but x's.
			lo, hi := c.idx[r], c.idx[r+1]
			jdx := c.jdx[lo:hi]
			val := c.val[lo:hi][:len(jdx)]
			acc := sum[r]
			for k, j := range jdx {
				acc += val[k] * x[j-jlo]
			}
			sum[r] = acc
		}
	}
	return v.Put([]int{s.ilo}, []int{s.ihi}, sum, nil)
}

// resize returns (*buf)[:n], growing *buf when it is shorter.
func resize[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n)
	}
	*buf = (*buf)[:n]
	return *buf
}

// Destroy ends the matrix (NGA_Sprs_array_destroy). It is collective.
func (s *Sparse[T]) Destroy() error {
	const op = "SparseDestroy"
	g, err := s.on(op)
	if err != nil {
		return err
	}
	var check error
	if s == nil {
		check = stateErr(op, "", ErrNil)
	}
	if err := agree(g, false, op, "", check, s.args(op)); err != nil {
		return err
	}
	*s = Sparse[T]{g: s.g, idim: s.idim, jdim: s.jdim, nproc: s.nproc, dead: true}
	return nil
}
