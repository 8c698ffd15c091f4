package ga

// Matrix utilities (GA's matrix.c): operations on a 2-D array's diagonal,
// rows or columns, some with a 1-D vector array. Each process works on the
// blocks it stores, reading the vector's matching range with one Get per
// block (GetDiag writes it with one Put per block instead).

// Which part of a matrix a vector spans.
const (
	alongDiagonal = iota
	alongRows
	alongCols
)

// What an operation does with its vector.
const (
	noVector = iota
	readVector
	writeVector
)

// checkMatrix checks that a is a matrix and, if vector, that v is a vector
// as long as a's diagonal, rows or columns (along); invalid arrays are left
// to collective to name.
func checkMatrix[T Elem](op string, a, v *Array[T], vector bool, along int) error {
	if a.valid(op) != nil || vector && v.valid(op) != nil {
		return nil
	}
	if len(a.dims) != 2 {
		return errorf(op, a.name, "dims %v; want a matrix (2 dimensions)", a.dims)
	}
	if !vector {
		return nil
	}
	n, what := min(a.dims[0], a.dims[1]), "the diagonal"
	switch along {
	case alongRows:
		n, what = a.dims[0], "the rows"
	case alongCols:
		n, what = a.dims[1], "the columns"
	}
	if len(v.dims) != 1 || v.dims[0] != n {
		return errorf(op, v.name, "vector dims %v; want [%d], as many elements as %s of %s %v", v.dims, n, what, a.name, a.dims)
	}
	return nil
}

// matrixOp runs f, collectively, on every block of matrix a that this
// process stores: the block's region and, if use is readVector, v's
// elements for the region's diagonal, rows or columns (along). With
// alongDiagonal, f is called only for regions the diagonal crosses.
func matrixOp[T Elem](op string, a, v *Array[T], use, along int, f func(local []T, r region, vec []T) error) error {
	var more []*Array[T]
	if use != noVector {
		more = append(more, v)
	}
	out := a
	if use == writeVector {
		out = v
	}
	return a.collective(op, writing(newArgs(op), out), checkMatrix(op, a, v, use != noVector, along), func(local []T) error {
		lo, hi := a.whole()
		return a.regions(lo, hi, func(r region) error {
			vlo, vhi := r.lo[0], r.hi[0]
			switch along {
			case alongDiagonal:
				i, _, _, n := r.diagonal()
				if n < 1 {
					return nil
				}
				vlo, vhi = i, i+n-1
			case alongCols:
				vlo, vhi = r.lo[1], r.hi[1]
			}
			var vec []T
			if use == readVector {
				vec = make([]T, vhi-vlo+1)
				if err := v.Get([]int{vlo}, []int{vhi}, vec, nil); err != nil {
					return err
				}
			}
			return f(local, r, vec)
		})
	}, more...)
}

// diagonal returns the index i of the region's first diagonal element
// a[i][i], its storage offset, the stride to the next, and how many there
// are (none, or fewer, if the diagonal misses the region).
func (r region) diagonal() (i, off, stride, n int) {
	i = max(r.lo[0], r.lo[1])
	off = r.off + (i-r.lo[0])*r.ext[1] + i - r.lo[1]
	return i, off, r.ext[1] + 1, min(r.hi[0], r.hi[1]) - i + 1
}

// onDiagonal applies f, collectively, to each of a's diagonal elements and
// v's matching element (zero if use is noVector).
func onDiagonal[T Elem](op string, a, v *Array[T], use int, f func(x *T, vi T)) error {
	return matrixOp(op, a, v, use, alongDiagonal, func(local []T, r region, vec []T) error {
		_, off, stride, n := r.diagonal()
		var vi T
		for k := range n {
			if vec != nil {
				vi = vec[k]
			}
			f(&local[off+k*stride], vi)
		}
		return nil
	})
}

// ShiftDiagonal adds c to every diagonal element a[i][i] of the matrix a
// (GA_Shift_diagonal). It is collective.
func (a *Array[T]) ShiftDiagonal(c T) error {
	return onDiagonal("ShiftDiagonal", a, nil, noVector, func(x *T, _ T) { *x += c })
}

// ZeroDiagonal sets every diagonal element a[i][i] of the matrix a to 0
// (GA_Zero_diagonal). GA C 5.8 zeroes other cells when a process's block
// does not start on the diagonal; ZeroDiagonal zeroes the diagonal. It is
// collective.
func (a *Array[T]) ZeroDiagonal() error {
	return onDiagonal("ZeroDiagonal", a, nil, noVector, func(x *T, _ T) { *x = 0 })
}

// SetDiagonal sets a[i][i] = v[i] for the matrix a and the vector v, which
// has min(rows, cols) elements (GA_Set_diagonal). It is collective.
func (a *Array[T]) SetDiagonal(v *Array[T]) error {
	return onDiagonal("SetDiagonal", a, v, readVector, func(x *T, vi T) { *x = vi })
}

// AddDiagonal adds v[i] to a[i][i] for the matrix a and the vector v, which
// has min(rows, cols) elements (GA_Add_diagonal). It is collective.
func (a *Array[T]) AddDiagonal(v *Array[T]) error {
	return onDiagonal("AddDiagonal", a, v, readVector, func(x *T, vi T) { *x += vi })
}

// GetDiag sets v[i] = a[i][i] for the matrix a and the vector v, which has
// min(rows, cols) elements (GA_Get_diag). Each process puts the diagonal of
// the blocks it stores. It is collective.
func (a *Array[T]) GetDiag(v *Array[T]) error {
	return matrixOp("GetDiag", a, v, writeVector, alongDiagonal, func(local []T, r region, _ []T) error {
		i, off, stride, n := r.diagonal()
		buf := make([]T, n)
		for k := range buf {
			buf[k] = local[off+k*stride]
		}
		return v.Put([]int{i}, []int{i + n - 1}, buf, nil)
	})
}

// ScaleRows multiplies each row i of the matrix a by v[i], for a vector v
// with one element per row (GA_Scale_rows). It is collective.
func (a *Array[T]) ScaleRows(v *Array[T]) error { return a.scaleBy("ScaleRows", v, alongRows) }

// ScaleCols multiplies each column j of the matrix a by v[j], for a vector
// v with one element per column (GA_Scale_cols). It is collective.
func (a *Array[T]) ScaleCols(v *Array[T]) error { return a.scaleBy("ScaleCols", v, alongCols) }

func (a *Array[T]) scaleBy(op string, v *Array[T], along int) error {
	return matrixOp(op, a, v, readVector, along, func(local []T, r region, vec []T) error {
		w := r.hi[1] - r.lo[1] + 1
		for i := range r.hi[0] - r.lo[0] + 1 {
			row := local[r.off+i*r.ext[1]:][:w]
			for j := range row {
				if along == alongRows {
					row[j] *= vec[i]
				} else {
					row[j] *= vec[j]
				}
			}
		}
		return nil
	})
}
