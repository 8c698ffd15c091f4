package ga

import (
	"github.com/goga-hpc/goga/armci"
)

// byOwner groups the elements subs[k] by owner as armci I/O vectors: for each
// owning rank, the byte offsets of the values in v and of the elements in the
// owner's block.
func (a *Array[T]) byOwner(op string, subs [][]int, n int) (map[int]*armci.IOVec, []int, error) {
	if err := a.valid(op); err != nil {
		return nil, nil, err
	}
	if len(subs) != n {
		return nil, nil, errorf(op, a.name, "%d values for %d subscripts", n, len(subs))
	}
	for k, s := range subs {
		if len(s) != len(a.dims) {
			return nil, nil, errorf(op, a.name, "subscript %d is %v; the array has %d dimensions", k, s, len(a.dims))
		}
		for d := range s {
			if s[d] < 0 || s[d] >= a.dims[d] {
				return nil, nil, errorf(op, a.name, "subscript %d is %v, outside dims %v", k, s, a.dims)
			}
		}
	}
	vecs := map[int]*armci.IOVec{}
	var order []int
	for k, s := range subs {
		rank, off := a.element(s)
		v := vecs[rank]
		if v == nil {
			v = &armci.IOVec{Bytes: a.es}
			vecs[rank] = v
			order = append(order, rank)
		}
		v.Local = append(v.Local, k*a.es)
		v.Remote = append(v.Remote, off)
	}
	return vecs, order, nil
}

// Scatter sets element subs[k] to v[k] for every k (NGA_Scatter). The order in
// which duplicates land is undefined.
func (a *Array[T]) Scatter(v []T, subs [][]int) error { return a.scatter("Scatter", v, subs) }

// Gather sets v[k] to element subs[k] for every k (NGA_Gather).
func (a *Array[T]) Gather(v []T, subs [][]int) error { return a.gather("Gather", v, subs) }

// ScatterAcc adds alpha·v[k] to element subs[k] for every k, atomically per
// element (NGA_Scatter_acc).
func (a *Array[T]) ScatterAcc(v []T, subs [][]int, alpha T) error {
	return a.scatterAcc("ScatterAcc", v, subs, alpha)
}

// ScatterFlat is Scatter with the subscripts in one flat list, element k's
// at flat[k·ndim:(k+1)·ndim] (NGA_Scatter_flat).
func (a *Array[T]) ScatterFlat(v []T, flat []int) error {
	subs, err := a.unflatten("ScatterFlat", flat, len(v))
	if err != nil {
		return err
	}
	return a.scatter("ScatterFlat", v, subs)
}

// GatherFlat is Gather with the subscripts in one flat list
// (NGA_Gather_flat), as ScatterFlat takes them.
func (a *Array[T]) GatherFlat(v []T, flat []int) error {
	subs, err := a.unflatten("GatherFlat", flat, len(v))
	if err != nil {
		return err
	}
	return a.gather("GatherFlat", v, subs)
}

// ScatterAccFlat is ScatterAcc with the subscripts in one flat list
// (NGA_Scatter_acc_flat), as ScatterFlat takes them.
func (a *Array[T]) ScatterAccFlat(v []T, flat []int, alpha T) error {
	subs, err := a.unflatten("ScatterAccFlat", flat, len(v))
	if err != nil {
		return err
	}
	return a.scatterAcc("ScatterAccFlat", v, subs, alpha)
}

// unflatten cuts a flat list of n subscripts into n views of it, without
// copying; byOwner checks the values.
func (a *Array[T]) unflatten(op string, flat []int, n int) ([][]int, error) {
	if err := a.valid(op); err != nil {
		return nil, err
	}
	nd := len(a.dims)
	if len(flat) != n*nd {
		return nil, errorf(op, a.name, "%d subscript values for %d values in %d dimensions; want %d", len(flat), n, nd, n*nd)
	}
	subs := make([][]int, n)
	for k := range subs {
		subs[k] = flat[k*nd : (k+1)*nd : (k+1)*nd]
	}
	return subs, nil
}

func (a *Array[T]) scatter(op string, v []T, subs [][]int) error {
	vecs, order, err := a.byOwner(op, subs, len(v))
	if err != nil {
		return err
	}
	a.countCall(statScatter)
	for _, r := range order {
		a.notePiece(r, statScatter, len(vecs[r].Local)*a.es)
		if err := armci.PutV(a.seg, r, v, []armci.IOVec{*vecs[r]}); err != nil {
			return err
		}
	}
	return nil
}

func (a *Array[T]) gather(op string, v []T, subs [][]int) error {
	a = a.source()
	vecs, order, err := a.byOwner(op, subs, len(v))
	if err != nil {
		return err
	}
	a.countCall(statGather)
	for _, r := range order {
		a.notePiece(r, statGather, len(vecs[r].Local)*a.es)
		if err := armci.GetV(a.seg, r, v, []armci.IOVec{*vecs[r]}); err != nil {
			return err
		}
	}
	return nil
}

func (a *Array[T]) scatterAcc(op string, v []T, subs [][]int, alpha T) error {
	vecs, order, err := a.byOwner(op, subs, len(v))
	if err != nil {
		return err
	}
	a.countCall(statSacc)
	for _, r := range order {
		a.notePiece(r, statSacc, len(vecs[r].Local)*a.es)
		if err := armci.AccV(a.seg, r, v, []armci.IOVec{*vecs[r]}, alpha); err != nil {
			return err
		}
	}
	return nil
}
