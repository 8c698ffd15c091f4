package ga

import (
	"github.com/goga-hpc/goga/ga/internal/kernels"
	"github.com/goga-hpc/goga/internal/layout"
	"github.com/goga-hpc/goga/mpi"
)

// SelectElem returns the smallest (op OpMin) or largest (OpMax) element of a
// and its subscript (NGA_Select_elem). Real elements compare by value;
// complex ones by magnitude, and the element itself is returned, as GA C
// does. Of equal candidates it returns the first in C order: GA C takes the
// first in each process's storage, and which process's across processes is
// up to its reduction. NaN ranks below every number (GA C's result then
// depends on where the NaN lies); an array of NaN gives its first. op is
// OpMin or OpMax, "min" or "max" exactly (GA C looks at the first three
// letters). It is collective, and every process gets the result.
func (a *Array[T]) SelectElem(op Op) (value T, index []int, err error) {
	const name = "SelectElem"
	g, err := groupOf(name, a)
	if err != nil {
		return value, nil, err
	}
	var check error
	if op != OpMin && op != OpMax {
		check = errorf(name, a.Name(), "operation %q; want OpMin or OpMax (\"min\" or \"max\")", op)
	}
	larger := op == OpMax
	beats, best := ranker[T](larger), kernels.Of[T]().Best
	at := int64(-1) // value's C-order position; -1 while there is none
	pick := func(v T, l int64) {
		if at < 0 || beats(v, value) || !beats(value, v) && l < at {
			value, at = v, l
		}
	}
	err = a.collective(name, newArgs(name).str("op", string(op)), check, func(local []T) error {
		lo, hi := a.whole()
		return a.regions(lo, hi, func(r region) error {
			r.runs(func(off, pos, n int) {
				// A run lies in C order: its first best is its best.
				k := best(local[off:off+n], larger)
				pick(local[off+k], int64(r.linear(a.dims, pos+k)))
			})
			return nil
		})
	})
	if err != nil {
		return value, nil, err
	}
	values, ats := make([]T, g.size()), make([]int64, g.size())
	if err := mpi.Allgather(g.comm(), []T{value}, values); err != nil {
		return value, nil, err
	}
	if err := mpi.Allgather(g.comm(), []int64{at}, ats); err != nil {
		return value, nil, err
	}
	at = -1
	for r, l := range ats {
		if l >= 0 {
			pick(values[r], l)
		}
	}
	return value, layout.Unravel(a.dims, int(at)), nil
}

// ranker returns whether x ranks strictly above y (below, for the minimum)
// in the kernels' order (complex by magnitude), NaN ranking last.
func ranker[T Elem](larger bool) func(x, y T) bool {
	pick := kernels.Of[T]().Pick
	var d, xs, ys [1]T
	return func(x, y T) bool {
		if y != y {
			return x == x
		}
		// pick takes x only if it ranks strictly above (below) y.
		xs[0], ys[0] = x, y
		pick(d[:], xs[:], ys[:], larger)
		return d[0] == x && x != y
	}
}

// linear returns the C-order position, in an array of dims, of the element
// at position at of the region's packed row-major order.
func (r region) linear(dims []int, at int) int {
	var sub [MaxDim]int
	for d := len(dims) - 1; d >= 0; d-- {
		n := r.hi[d] - r.lo[d] + 1
		sub[d], at = r.lo[d]+at%n, at/n
	}
	l := 0
	for d, n := range dims {
		l = l*n + sub[d]
	}
	return l
}
