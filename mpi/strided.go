package mpi

import "github.com/goga-hpc/goga/cgo"

// MaxStrideLevels is the deepest strided patch TypeStrided builds (ARMCI's limit).
const MaxStrideLevels = 7

// TypeStrided builds the datatype of an ARMCI-style strided patch: blocks of
// counts[0] elements of T, repeated counts[i] times at strides[i-1] bytes
// apart, for each level i = 1 … len(strides). With no strides it is a
// contiguous block. Strides are in bytes and need not be multiples of each
// other; the block at level i must fit inside the stride of level i+1 for the
// patch not to overlap itself (not checked: overlapping targets are the
// caller's business, as in ARMCI).
func TypeStrided[T Elem](counts, strides []int) (*Datatype, error) {
	const op = "TypeStrided"
	if err := running(op); err != nil {
		return nil, err
	}
	if len(strides) > MaxStrideLevels {
		return nil, argErr(op, "strides", "%d levels; at most %d", len(strides), MaxStrideLevels)
	}
	if len(counts) != len(strides)+1 {
		return nil, argErr(op, "counts", "%d counts for %d stride levels; want %d", len(counts), len(strides), len(strides)+1)
	}
	total := 1
	for i, c := range counts {
		if c < 0 || c > maxCount {
			return nil, argErr(op, "counts", "counts[%d] = %d out of range", i, c)
		}
		total *= c
	}
	for i, s := range strides {
		if s < 0 {
			return nil, argErr(op, "strides", "strides[%d] = %d is negative", i, s)
		}
	}
	if err := checkCount(op, "counts", total); err != nil {
		return nil, err
	}
	e := info[T]()
	h, rc := cgo.TypeStrided(counts, strides, e.dt)
	if err := check(op, rc); err != nil {
		return nil, err
	}
	return newDatatype(op, h, e)
}

// RputTyped is PutTyped with a request that completes when origin may be reused.
func RputTyped[T Elem](w *Win, origin []T, originType *Datatype, rank, disp int, targetType *Datatype) (*Request, error) {
	e, err := typed(w, "RputTyped", origin, originType, rank, disp, targetType)
	if err != nil {
		return nil, err
	}
	r := newRequest("RputTyped", origin, e.size)
	h, rc := cgo.Rput(ptr(origin), 1, originType.h, rank, disp, 1, targetType.h, w.h)
	return r.started(h, check("RputTyped", rc))
}

// RgetTyped is GetTyped with a request that completes when origin holds the data.
func RgetTyped[T Elem](w *Win, origin []T, originType *Datatype, rank, disp int, targetType *Datatype) (*Request, error) {
	e, err := typed(w, "RgetTyped", origin, originType, rank, disp, targetType)
	if err != nil {
		return nil, err
	}
	r := newRequest("RgetTyped", origin, e.size)
	h, rc := cgo.Rget(ptr(origin), 1, originType.h, rank, disp, 1, targetType.h, w.h)
	return r.started(h, check("RgetTyped", rc))
}

// RaccumulateTyped is AccumulateTyped with a request that completes when origin
// may be reused.
func RaccumulateTyped[T Elem](w *Win, origin []T, originType *Datatype, rank, disp int, targetType *Datatype, o Op) (*Request, error) {
	e, err := typed(w, "RaccumulateTyped", origin, originType, rank, disp, targetType)
	if err != nil {
		return nil, err
	}
	if err := checkOp("RaccumulateTyped", o, e, true); err != nil {
		return nil, err
	}
	r := newRequest("RaccumulateTyped", origin, e.size)
	h, rc := cgo.Raccumulate(ptr(origin), 1, originType.h, rank, disp, 1, targetType.h, o.h, w.h)
	return r.started(h, check("RaccumulateTyped", rc))
}
