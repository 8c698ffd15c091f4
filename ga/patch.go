package ga

import (
	"fmt"

	"github.com/goga-hpc/goga/armci"
)

// checkPatch validates [lo, hi] against the array's dims.
func (a *Array[T]) checkPatch(op string, lo, hi []int) error {
	if err := a.valid(op); err != nil {
		return err
	}
	n := len(a.dims)
	if len(lo) != n || len(hi) != n {
		return errorf(op, a.name, "lo %v and hi %v for a %d-dimensional array", lo, hi, n)
	}
	for d := range n {
		if lo[d] < 0 || hi[d] >= a.dims[d] || lo[d] > hi[d] {
			return errorf(op, a.name, "patch lo %v hi %v is not inside dims %v", lo, hi, a.dims)
		}
	}
	return nil
}

// bufLayout checks a local buffer of n elements for the patch [lo, hi] with
// leading dimensions ld (nil: packed) and returns the buffer's pitch along
// each dimension, in elements.
func (a *Array[T]) bufLayout(op string, lo, hi, ld []int, n int) ([]int, error) {
	nd := len(a.dims)
	if ld == nil {
		ld = make([]int, nd-1)
		for d := range nd - 1 {
			ld[d] = hi[d+1] - lo[d+1] + 1
		}
	}
	if len(ld) != nd-1 {
		return nil, errorf(op, a.name, "ld %v has %d entries; a %d-dimensional patch needs %d", ld, len(ld), nd, nd-1)
	}
	for d := range nd - 1 {
		if ld[d] < hi[d+1]-lo[d+1]+1 {
			return nil, errorf(op, a.name, "ld[%d] = %d is less than the patch's extent %d along dimension %d", d, ld[d], hi[d+1]-lo[d+1]+1, d+1)
		}
	}
	pitch := make([]int, nd)
	pitch[nd-1] = 1
	for d := nd - 2; d >= 0; d-- {
		pitch[d] = pitch[d+1] * ld[d]
	}
	need := 1
	for d := range nd {
		need += (hi[d] - lo[d]) * pitch[d]
	}
	if n < need {
		return nil, errorf(op, a.name, "buffer holds %d elements; patch lo %v hi %v with ld %v needs %d", n, lo, hi, ld, need)
	}
	return pitch, nil
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

// pieces splits the patch [lo, hi] by block.
func (a *Array[T]) pieces(lo, hi, pitch []int, f func(pc piece) error) error {
	nd := len(a.dims)
	var err error
	bp := make([]int, nd) // pitches of the owner's storage, in elements
	a.m.Owners(lo, hi, func(blk int, plo, phi []int) bool {
		var pc piece
		pc.rank, pc.remote = a.place(plo, bp)
		pc.p.Count = make([]int, nd)
		pc.p.LocalStride = make([]int, nd-1)
		pc.p.RemoteStride = make([]int, nd-1)
		for d := range nd {
			pc.local += (plo[d] - lo[d]) * pitch[d]
			k := nd - 1 - d // armci counts go from the fastest dimension up
			pc.p.Count[k] = phi[d] - plo[d] + 1
			if k > 0 {
				pc.p.LocalStride[k-1] = pitch[d] * a.es
				pc.p.RemoteStride[k-1] = bp[d] * a.es
			}
		}
		pc.remote *= a.es
		pc.p.Count[0] *= a.es
		err = f(pc)
		return err == nil
	})
	return err
}

// place returns the owner of the element at sub and its element offset in the
// owner's storage, and fills pitch with the storage's pitches there.
func (a *Array[T]) place(sub, pitch []int) (rank, off int) {
	var c, ext [MaxDim]int
	nd := len(sub)
	for d := range nd {
		c[d] = a.m.BlockOf(d, sub[d])
	}
	rank, off = a.m.Place(c[:nd], sub, ext[:nd])
	pitch[nd-1] = 1
	for d := nd - 2; d >= 0; d-- {
		pitch[d] = pitch[d+1] * ext[d+1]
	}
	return rank, off
}

// String describes the array for messages and PrintDistribution.
func (a *Array[T]) String() string {
	var z T
	return fmt.Sprintf("%s (%T %v)", a.name, z, a.dims)
}
