package ga

import (
	"fmt"
	"slices"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/layout"
)

// The messages below show clones of lo, hi and ld: the caller's slices
// themselves in an error would make them escape to the heap on every call,
// the ones that succeed too (an allocation per slice literal a caller
// passes).

// checkPatch validates [lo, hi] against the array's dims.
func (a *Array[T]) checkPatch(op string, lo, hi []int) error {
	if err := a.valid(op); err != nil {
		return err
	}
	n := len(a.dims)
	if len(lo) != n || len(hi) != n {
		return errorf(op, a.name, "lo %v and hi %v for a %d-dimensional array", slices.Clone(lo), slices.Clone(hi), n)
	}
	for d := range n {
		if lo[d] < 0 || hi[d] >= a.dims[d] || lo[d] > hi[d] {
			return errorf(op, a.name, "patch lo %v hi %v is not inside dims %v", slices.Clone(lo), slices.Clone(hi), a.dims)
		}
	}
	return nil
}

// transfer checks a one-sided transfer between the patch [lo, hi] and a
// caller's buffer of n elements with leading dimensions ld (nil: packed), and
// fills b with the buffer's layout. Every patch operation starts here, the
// single-owner fast path included, so that all of them accept and refuse
// alike, with overflow-checked arithmetic.
func (a *Array[T]) transfer(op string, lo, hi, ld []int, n int, b *layout.Buffer) error {
	if err := a.checkPatch(op, lo, hi); err != nil {
		return err
	}
	nd := len(lo)
	if packed(lo, hi, ld) {
		// Packed: the pitches are products of the patch's extents, which the
		// array's size in bytes bounds (checked at creation): none overflows.
		b.Pitch[nd-1] = 1
		for d := nd - 2; d >= 0; d-- {
			b.Pitch[d] = b.Pitch[d+1] * (hi[d+1] - lo[d+1] + 1)
		}
		b.Need = b.Pitch[0] * (hi[0] - lo[0] + 1)
		return a.holds(op, b, n, lo, hi, ld)
	}
	var count [MaxDim]int
	for d := range nd {
		count[d] = hi[d] - lo[d] + 1
	}
	return a.bufferOf(op, count[:nd], ld, n, lo, hi, b)
}

// packed reports whether ld (nil, or the patch's own extents) packs the
// patch [lo, hi] densely.
func packed(lo, hi, ld []int) bool {
	if ld == nil {
		return true
	}
	if len(ld) != len(lo)-1 {
		return false
	}
	for d, l := range ld {
		if l != hi[d+1]-lo[d+1]+1 {
			return false
		}
	}
	return true
}

// bufferOf checks a buffer of n elements that holds count[d] elements along
// each dimension d with leading dimensions ld, and fills b with its layout;
// lo and hi name the patch in messages.
func (a *Array[T]) bufferOf(op string, count, ld []int, n int, lo, hi []int, b *layout.Buffer) error {
	if err := layout.BufferOf(count, ld, a.es, b); err != nil {
		return errorf(op, a.name, "patch lo %v hi %v: %v", slices.Clone(lo), slices.Clone(hi), err)
	}
	return a.holds(op, b, n, lo, hi, ld)
}

// holds checks that a buffer of n elements is long enough for layout b.
func (a *Array[T]) holds(op string, b *layout.Buffer, n int, lo, hi, ld []int) error {
	if n < b.Need {
		return errorf(op, a.name, "buffer holds %d elements; patch lo %v hi %v with ld %v needs %d", n, slices.Clone(lo), slices.Clone(hi), slices.Clone(ld), b.Need)
	}
	return nil
}

// piece is the part of a patch that one block holds, as an armci strided
// transfer: the owner, the byte offset in the owner's storage, the element
// offset in the caller's buffer, and the shape.
type piece struct {
	rank   int
	remote int // bytes into the owner's storage
	local  int // elements into the caller's buffer
	p      armci.Strided
}

// pieces splits the patch [lo, hi] by block: the owner walk of every
// operation that moves a multi-block patch.
func (a *Array[T]) pieces(lo, hi, pitch []int, f func(pc piece) error) error {
	nd := len(a.dims)
	var err error
	var spare corner
	a.m.Owners(lo, hi, func(blk int, plo, phi []int) bool {
		c := a.cornerOf(blk, &spare)
		pc := piece{rank: c.rank, remote: c.at(plo) * a.es}
		pc.p.Count = make([]int, nd)
		pc.p.LocalStride = make([]int, nd-1)
		pc.p.RemoteStride = make([]int, nd-1)
		for d := range nd {
			pc.local += (plo[d] - lo[d]) * pitch[d]
			k := nd - 1 - d // armci counts go from the fastest dimension up
			pc.p.Count[k] = phi[d] - plo[d] + 1
			if k > 0 {
				pc.p.LocalStride[k-1] = pitch[d] * a.es
				pc.p.RemoteStride[k-1] = c.pitch[d] * a.es
			}
		}
		pc.p.Count[0] *= a.es
		err = f(pc)
		return err == nil
	})
	return err
}

// String describes the array for messages and PrintDistribution.
func (a *Array[T]) String() string {
	var z T
	if a == nil {
		return fmt.Sprintf("nil array (%T)", z)
	}
	return fmt.Sprintf("%s (%T %v)", a.name, z, a.dims)
}
