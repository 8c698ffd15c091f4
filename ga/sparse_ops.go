package ga

import "slices"

// The operations of an assembled sparse matrix that stay within each
// process's rows: scaling, the diagonal, a column, and products with a
// diagonal matrix.

// Scale multiplies every element of the matrix by alpha
// (NGA_Sprs_array_scale). It is collective.
func (s *Sparse[T]) Scale(alpha T) error {
	const op = "SparseScale"
	g, err := s.on(op)
	if err != nil {
		return err
	}
	return inStep(g, op, "", s.ready(op), s.args(op), func() error {
		for _, c := range s.blocks {
			if c != nil {
				for k := range c.val {
					c.val[k] *= alpha
				}
			}
		}
		return nil
	})
}

// ShiftDiag adds shift to each diagonal element (i, i), i below both
// dimensions (NGA_Sprs_array_shift_diag), making the matrix S + shift·I.
// GA C shifts only the diagonal elements the matrix stores; goga stores
// the missing ones, with the value shift. It is collective.
func (s *Sparse[T]) ShiftDiag(shift T) error {
	const op = "SparseShiftDiag"
	g, err := s.on(op)
	if err != nil {
		return err
	}
	return inStep(g, op, "", s.ready(op), s.args(op), func() error {
		missing := map[int][]int{} // by column block, the rows without (i, i)
		for i := s.ilo; i <= min(s.ihi, s.jdim-1); i++ {
			b := s.col(i)
			jdx, val := s.row(b, i)
			if k, ok := slices.BinarySearch(jdx, i); ok {
				val[k] += shift
			} else {
				missing[b] = append(missing[b], i)
			}
		}
		for b, rows := range missing {
			s.insertDiag(b, rows, shift)
		}
		return nil
	})
}

// insertDiag remakes column block b with element (i, i) = v added for each
// local row i of rows, which are ascending and lack it.
func (s *Sparse[T]) insertDiag(b int, rows []int, v T) {
	old := s.blocks[b]
	n := s.ihi - s.ilo + 1
	c := &csr[T]{idx: make([]int, n+1)}
	for r := range n {
		i := s.ilo + r
		var jdx []int
		var val []T
		if old != nil {
			jdx, val = old.jdx[old.idx[r]:old.idx[r+1]], old.val[old.idx[r]:old.idx[r+1]]
		}
		if len(rows) > 0 && rows[0] == i {
			p, _ := slices.BinarySearch(jdx, i)
			c.jdx = append(append(append(c.jdx, jdx[:p]...), i), jdx[p:]...)
			c.val = append(append(append(c.val, val[:p]...), v), val[p:]...)
			rows = rows[1:]
		} else {
			c.jdx, c.val = append(c.jdx, jdx...), append(c.val, val...)
		}
		c.idx[r+1] = len(c.jdx)
	}
	s.blocks[b] = c
}

// Diag returns the diagonal as a new 1-D array of idim elements, element i
// holding (i, i), zero where the matrix stores none or i is not below
// jdim (NGA_Sprs_array_get_diag). The array is split as the rows are, and
// lives on the matrix's group. It is collective.
func (s *Sparse[T]) Diag() (*Array[T], error) {
	const op = "SparseDiag"
	return s.vector(op, "diag", func(i int) (T, bool) {
		if i >= s.jdim {
			var z T
			return z, false
		}
		return s.at(i, i)
	})
}

// Column returns column j as a new 1-D array of idim elements, zero where
// the matrix stores none (NGA_Sprs_array_get_column). The array is split
// as the rows are, and lives on the matrix's group. It is collective.
func (s *Sparse[T]) Column(j int) (*Array[T], error) {
	const op = "SparseColumn"
	var check error
	if s != nil && (j < 0 || j >= s.jdim) {
		check = errorf(op, "", "column %d; the matrix has %d", j, s.jdim)
	}
	return s.vector(op, "column", func(i int) (T, bool) { return s.at(i, j) }, check)
}

// vector makes a 1-D array of the matrix's rows whose element i, for this
// process's rows, is elem(i) where it reports one, zero elsewhere; more are
// further verdicts on the call's arguments.
func (s *Sparse[T]) vector(op, name string, elem func(i int) (T, bool), more ...error) (*Array[T], error) {
	g, err := s.on(op)
	if err != nil {
		return nil, err
	}
	check := s.ready(op)
	for _, e := range more {
		if check == nil {
			check = e
		}
	}
	if err := opening(g, op, "", check, s.args(op)); err != nil {
		return nil, err
	}
	v, err := byRows[T](g, op, name, s.idim)
	if err != nil {
		return nil, closing(g, op, "", err)
	}
	err = v.Zero()
	if err == nil && s.ilo <= s.ihi {
		buf := make([]T, s.ihi-s.ilo+1)
		for r := range buf {
			if x, ok := elem(s.ilo + r); ok {
				buf[r] = x
			}
		}
		err = v.Put([]int{s.ilo}, []int{s.ihi}, buf, nil)
	}
	return made(g, op, v, err)
}

// DiagLeftMultiply sets the matrix to D·S, D the diagonal matrix whose
// diagonal is d, a 1-D array of idim elements on the matrix's group
// (NGA_Sprs_array_diag_left_multiply): row i is multiplied by d[i]. It is
// collective.
func (s *Sparse[T]) DiagLeftMultiply(d *Array[T]) error {
	const op = "SparseDiagLeftMultiply"
	return s.diagMultiply(op, d, true)
}

// DiagRightMultiply sets the matrix to S·D, D the diagonal matrix whose
// diagonal is d, a 1-D array of jdim elements on the matrix's group
// (NGA_Sprs_array_diag_right_multiply): column j is multiplied by d[j].
// GA C asks d for idim elements, the same for the square matrices it is
// used on. It is collective.
func (s *Sparse[T]) DiagRightMultiply(d *Array[T]) error {
	const op = "SparseDiagRightMultiply"
	return s.diagMultiply(op, d, false)
}

func (s *Sparse[T]) diagMultiply(op string, d *Array[T], left bool) error {
	g, err := s.on(op)
	if err != nil {
		return err
	}
	n, what := 0, "rows"
	if s != nil {
		n = s.idim
		if !left {
			n, what = s.jdim, "columns"
		}
	}
	check := s.ready(op)
	if check == nil {
		check = s.vectorCheck(op, g, d, "d", n, what)
	}
	return inStep(g, op, "", check, array(s.args(op), "d", d), func() error {
		if left {
			return s.leftMultiply(d)
		}
		return s.rightMultiply(d)
	})
}

// vectorCheck is the verdict on x, an argument named name that must be a
// 1-D array of n elements on g, n being the matrix's what.
func (s *Sparse[T]) vectorCheck(op string, g *group, x *Array[T], name string, n int, what string) error {
	if err := x.valid(op); err != nil {
		return err
	}
	switch {
	case x.g != g:
		return errorf(op, x.name, "%s lives on another group of processes than the matrix", name)
	case len(x.dims) != 1 || x.dims[0] != n:
		return errorf(op, x.name, "%s has dims %v; want [%d], the matrix's %s", name, x.dims, n, what)
	}
	return nil
}

func (s *Sparse[T]) leftMultiply(d *Array[T]) error {
	if s.ilo > s.ihi {
		return nil
	}
	x := make([]T, s.ihi-s.ilo+1)
	if err := d.Get([]int{s.ilo}, []int{s.ihi}, x, nil); err != nil {
		return err
	}
	for _, c := range s.blocks {
		if c == nil {
			continue
		}
		for r, f := range x {
			for k := c.idx[r]; k < c.idx[r+1]; k++ {
				c.val[k] *= f
			}
		}
	}
	return nil
}

func (s *Sparse[T]) rightMultiply(d *Array[T]) error {
	for b, c := range s.blocks {
		if c == nil {
			continue
		}
		jlo, jhi, _ := s.ColumnDistribution(b)
		x := make([]T, jhi-jlo+1)
		if err := d.Get([]int{jlo}, []int{jhi}, x, nil); err != nil {
			return err
		}
		for k, j := range c.jdx {
			c.val[k] *= x[j-jlo]
		}
	}
	return nil
}
