package ga

import (
	"unsafe"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/ga/internal/linalg"
	"github.com/goga-hpc/goga/internal/layout"
)

// The linear algebra (gemm.go, matmul.go, linalg.go, diag.go) validates and
// agrees in ga, then acts in package ga/internal/linalg, which reaches an
// array through bridged and the call through bridgeCall, and keeps its
// state per group (group.la).

// bridged is an array as the linear-algebra bridge sees it (linalg.Array).
type bridged[T Elem] struct{ a *Array[T] }

func (o bridged[T]) Name() string                              { return o.a.name }
func (o bridged[T]) Dims() []int                               { return o.a.dims }
func (o bridged[T]) Get(lo, hi []int, buf []T, ld []int) error { return o.a.Get(lo, hi, buf, ld) }
func (o bridged[T]) Put(lo, hi []int, buf []T, ld []int) error { return o.a.Put(lo, hi, buf, ld) }
func (o bridged[T]) Local() ([]T, error)                       { return o.a.localData() }
func (o bridged[T]) ProcGrid() []int                           { return o.a.m.ProcGrid() }
func (o bridged[T]) BlockSize(d int) int                       { return o.a.m.BlockSize(d) }
func (o bridged[T]) Starts(d int) []int                        { return o.a.m.Starts[d] }

func (o bridged[T]) NbGet(lo, hi []int, buf []T, ld []int) (linalg.Waiter, error) {
	h, err := o.a.NbGet(lo, hi, buf, ld)
	if err != nil {
		return nil, err
	}
	return h, nil
}

func (o bridged[T]) StoredBlocks(f func(lo, hi []int, off int, ext []int) error) error {
	return o.a.storedBlocks(f)
}

// MapIn maps the other processes' parts in (see armci's MapIn).
func (o bridged[T]) MapIn() error {
	x := o.a
	for r := range x.g.size() {
		if r != x.g.rank {
			if err := x.seg.MapIn(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// Mappable: every block is mapped everywhere (armci's SharedMemory: one
// node), placed in the corner table, and no overlay.
func (o bridged[T]) Mappable() bool {
	x := o.a
	return x.corners != nil && x.parent == nil && !x.readOnly && x.seg != nil && x.seg.SharedMemory()
}

// At points at element (r, c) of a Mappable 2-D array in its owner's part.
func (o bridged[T]) At(r, c int) (unsafe.Pointer, int) {
	x := o.a
	s0, s1 := x.m.Starts[0], x.m.Starts[1]
	b0, b1 := layout.BlockIndex(s0, r), layout.BlockIndex(s1, c)
	cn := &x.corners.blocks[b0*len(s1)+b1]
	part, _ := armci.PartAs[T](x.seg, cn.rank)
	return unsafe.Pointer(&part[cn.off+(r-s0[b0])*cn.pitch[0]+(c-s1[b1])]), cn.pitch[0]
}

// leading is the leading rows × cols patch of the 2-D array x.
func leading[T Elem](x *Array[T], rows, cols int) linalg.Patch[T] {
	return linalg.Leading[T](bridged[T]{x}, rows, cols)
}

// bridgeCall is the collective call op on g, as the bridge sees it
// (linalg.Call): its agreements after the opening one, and its errors.
type bridgeCall struct {
	g  *group
	op string
}

func (c *bridgeCall) Agree(fence bool, array string, local error) error {
	return agree(c.g, fence, c.op, array, local, nil)
}

func (c *bridgeCall) Close(array string, local error) error {
	return closing(c.g, c.op, array, local)
}

func (c *bridgeCall) AllMax(v []int64) error { return c.g.rt.AllMax(v) }

func (c *bridgeCall) Refuse(array string, why linalg.Why, msg string) error {
	err := ErrNotFinite
	if why == linalg.NotSymmetric {
		err = ErrNotSymmetric
	}
	return &Error{Op: c.op, Array: array, Err: err, Msg: msg}
}
