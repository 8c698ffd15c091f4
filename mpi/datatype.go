package mpi

import "github.com/goga-hpc/goga/cgo"

// Datatype is a committed derived MPI datatype over the element type named in
// Elem, for strided one-sided transfers (PutTyped, GetTyped, AccumulateTyped).
// Free it when done.
type Datatype struct {
	h      cgo.Datatype
	elem   elemInfo
	size   int // bytes of data it selects
	extent int // bytes from offset 0 to the end of its last element (lb + extent)
	freed  bool
}

func newDatatype(op string, h cgo.Datatype, e elemInfo) (*Datatype, error) {
	size, lb, extent, rc := cgo.TypeSizeExtent(h)
	if err := check(op, rc); err != nil {
		cgo.TypeFree(h)
		return nil, err
	}
	return &Datatype{h: h, elem: e, size: size, extent: lb + extent}, nil
}

// Size returns how many bytes of data d selects.
func (d *Datatype) Size() int { return d.size }

// Span returns how many elements a buffer needs for d to fit inside it.
func (d *Datatype) Span() int { return (d.extent + d.elem.size - 1) / d.elem.size }

// Elems returns how many elements d selects.
func (d *Datatype) Elems() int { return d.size / d.elem.size }

func (d *Datatype) valid(op, arg string) error {
	if d == nil {
		return stateErr(op, arg, ErrNil)
	}
	if d.freed {
		return stateErr(op, arg, ErrFreed)
	}
	return nil
}

// Free is MPI_Type_free.
func (d *Datatype) Free() error {
	if err := d.valid("Datatype.Free", "d"); err != nil {
		return err
	}
	if err := running("Datatype.Free"); err != nil {
		return err
	}
	if err := check("Datatype.Free", cgo.TypeFree(d.h)); err != nil {
		return err
	}
	d.freed = true
	return nil
}

// TypeSubarray is MPI_Type_create_subarray in C (row-major) order: the block of
// subsizes at starts inside an array of sizes, all in elements of T.
func TypeSubarray[T Elem](sizes, subsizes, starts []int) (*Datatype, error) {
	const op = "TypeSubarray"
	if err := running(op); err != nil {
		return nil, err
	}
	n := len(sizes)
	if n == 0 {
		return nil, argErr(op, "sizes", "empty")
	}
	if len(subsizes) != n || len(starts) != n {
		return nil, argErr(op, "subsizes", "sizes, subsizes and starts have lengths %d, %d, %d", n, len(subsizes), len(starts))
	}
	total := 1
	for i := range sizes {
		if sizes[i] < 1 || subsizes[i] < 1 || starts[i] < 0 || starts[i]+subsizes[i] > sizes[i] {
			return nil, argErr(op, "subsizes", "dimension %d: block of %d at %d does not fit in %d", i, subsizes[i], starts[i], sizes[i])
		}
		total *= sizes[i]
	}
	if err := checkCount(op, "sizes", total); err != nil {
		return nil, err
	}
	e := info[T]()
	h, rc := cgo.TypeSubarray(sizes, subsizes, starts, false, e.dt)
	if err := check(op, rc); err != nil {
		return nil, err
	}
	return newDatatype(op, h, e)
}

// TypeVector is MPI_Type_vector: count blocks of blocklen elements of T, stride
// elements apart.
func TypeVector[T Elem](count, blocklen, stride int) (*Datatype, error) {
	const op = "TypeVector"
	if err := running(op); err != nil {
		return nil, err
	}
	if count < 0 || blocklen < 0 || stride < blocklen || count > maxCount || stride > maxCount {
		return nil, argErr(op, "stride", "count %d, blocklen %d, stride %d: need 0 <= blocklen <= stride", count, blocklen, stride)
	}
	e := info[T]()
	h, rc := cgo.TypeVector(count, blocklen, stride, e.dt)
	if err := check(op, rc); err != nil {
		return nil, err
	}
	return newDatatype(op, h, e)
}

// TypeIndexed is MPI_Type_indexed: blocks of blocklens[i] elements of T at
// displs[i] elements.
func TypeIndexed[T Elem](blocklens, displs []int) (*Datatype, error) {
	const op = "TypeIndexed"
	if err := running(op); err != nil {
		return nil, err
	}
	if len(blocklens) != len(displs) {
		return nil, argErr(op, "displs", "%d displacements for %d blocks", len(displs), len(blocklens))
	}
	for i := range blocklens {
		if blocklens[i] < 0 || displs[i] < 0 || blocklens[i] > maxCount || displs[i] > maxCount {
			return nil, argErr(op, "blocklens", "block %d: length %d at %d", i, blocklens[i], displs[i])
		}
	}
	e := info[T]()
	h, rc := cgo.TypeIndexed(blocklens, displs, e.dt)
	if err := check(op, rc); err != nil {
		return nil, err
	}
	return newDatatype(op, h, e)
}
