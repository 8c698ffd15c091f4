package scalapack

import (
	"reflect"
	"unsafe"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/cgo"
	"github.com/goga-hpc/goga/mpi"
)

// Elem is the set of element types the drivers work on: single and double
// precision, real and complex (ScaLAPACK's s, d, c and z).
type Elem interface {
	~float32 | ~float64 | ~complex64 | ~complex128
}

// typeOf is T's ScaLAPACK type, read from its kind (not its size, which
// cannot tell complex64 from float64).
func typeOf[T Elem]() cgo.Type {
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Float32:
		return cgo.TypeS
	case reflect.Complex64:
		return cgo.TypeC
	case reflect.Complex128:
		return cgo.TypeZ
	}
	return cgo.TypeD
}

// Matrix is a block-cyclic matrix on a grid: its descriptor and this
// process's local part, column-major with leading dimension Desc.LLD.
type Matrix[T Elem] struct {
	Grid *blacs.Grid
	Desc Desc
	Data []T
}

// NewMatrix allocates an m × n matrix in mb × nb blocks on g, starting at
// process (0, 0), with the smallest leading dimension.
func NewMatrix[T Elem](g *blacs.Grid, m, n, mb, nb int) (*Matrix[T], error) {
	if g == nil || !g.In() {
		return nil, errf("NewMatrix", "grid", "this process is not in the grid")
	}
	rows, cols, myrow, mycol := g.Info()
	lr := Numroc(max(m, 0), max(mb, 1), myrow, 0, rows)
	d, err := NewDesc(g, m, n, mb, nb, 0, 0, max(1, lr))
	if err != nil {
		return nil, err
	}
	lc := Numroc(n, nb, mycol, 0, cols)
	return &Matrix[T]{Grid: g, Desc: d, Data: make([]T, d.LLD*max(lc, 1))}, nil
}

// LocalShape returns the number of local rows and columns.
func (a *Matrix[T]) LocalShape() (rows, cols int) {
	pr, pc, myrow, mycol := a.Grid.Info()
	return Numroc(a.Desc.M, a.Desc.MB, myrow, a.Desc.RSrc, pr), Numroc(a.Desc.N, a.Desc.NB, mycol, a.Desc.CSrc, pc)
}

// Each calls f with the global (i, j) and the address of every local entry.
func (a *Matrix[T]) Each(f func(i, j int, v *T)) {
	pr, pc, myrow, mycol := a.Grid.Info()
	lr, lc := a.LocalShape()
	for lj := range lc {
		j := LocalToGlobal(lj, a.Desc.NB, mycol, a.Desc.CSrc, pc)
		for li := range lr {
			i := LocalToGlobal(li, a.Desc.MB, myrow, a.Desc.RSrc, pr)
			f(i, j, &a.Data[li+lj*a.Desc.LLD])
		}
	}
}

// Fill sets every entry to f(i, j) of its global indices.
func (a *Matrix[T]) Fill(f func(i, j int) T) { a.Each(func(i, j int, v *T) { *v = f(i, j) }) }

// Gather returns the whole matrix, column-major (entry (i, j) at i + j·M),
// on every process of the grid. It is collective over the grid.
func (a *Matrix[T]) Gather() ([]T, error) {
	c, err := a.Grid.Comm()
	if err != nil {
		return nil, err
	}
	var idx []int
	var val []T
	a.Each(func(i, j int, v *T) {
		idx = append(idx, i+j*a.Desc.M)
		val = append(val, *v)
	})
	counts := make([]int, c.Size())
	if err := mpi.Allgather(c, []int{len(idx)}, counts); err != nil {
		return nil, err
	}
	total := 0
	for _, n := range counts {
		total += n
	}
	allIdx, allVal := make([]int, total), make([]T, total)
	if err := mpi.Allgatherv(c, idx, allIdx, counts, nil); err != nil {
		return nil, err
	}
	if err := mpi.Allgatherv(c, val, allVal, counts, nil); err != nil {
		return nil, err
	}
	out := make([]T, a.Desc.M*a.Desc.N)
	for k, i := range allIdx {
		out[i] = allVal[k]
	}
	return out, nil
}

// desc32 is the descriptor as ScaLAPACK's integers.
func (a *Matrix[T]) desc32() *[9]int32 {
	var d [9]int32
	for i, v := range a.Desc.Array() {
		d[i] = int32(v)
	}
	return &d
}

func (a *Matrix[T]) ptr() unsafe.Pointer { return unsafe.Pointer(&a.Data[0]) }
