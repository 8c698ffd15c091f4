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
func (a *Array[T]) Scatter(v []T, subs [][]int) error {
	vecs, order, err := a.byOwner("Scatter", subs, len(v))
	if err != nil {
		return err
	}
	a.countCall(&a.g.stats.Scatter)
	for _, r := range order {
		a.notePiece(r, &a.g.stats.Scatter, len(vecs[r].Local)*a.es)
		if err := armci.PutV(a.seg, r, v, []armci.IOVec{*vecs[r]}); err != nil {
			return err
		}
	}
	return nil
}

// Gather sets v[k] to element subs[k] for every k (NGA_Gather).
func (a *Array[T]) Gather(v []T, subs [][]int) error {
	vecs, order, err := a.byOwner("Gather", subs, len(v))
	if err != nil {
		return err
	}
	a.countCall(&a.g.stats.Gather)
	for _, r := range order {
		a.notePiece(r, &a.g.stats.Gather, len(vecs[r].Local)*a.es)
		if err := armci.GetV(a.seg, r, v, []armci.IOVec{*vecs[r]}); err != nil {
			return err
		}
	}
	return nil
}

// ScatterAcc adds alpha·v[k] to element subs[k] for every k, atomically per
// element (NGA_Scatter_acc).
func (a *Array[T]) ScatterAcc(v []T, subs [][]int, alpha T) error {
	vecs, order, err := a.byOwner("ScatterAcc", subs, len(v))
	if err != nil {
		return err
	}
	a.countCall(&a.g.stats.Sacc)
	for _, r := range order {
		a.notePiece(r, &a.g.stats.Sacc, len(vecs[r].Local)*a.es)
		if err := armci.AccV(a.seg, r, v, []armci.IOVec{*vecs[r]}, alpha); err != nil {
			return err
		}
	}
	return nil
}
