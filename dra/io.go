package dra

import (
	"fmt"
	"slices"
	"sync"
	"unsafe"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/mpi"
)

// A transfer moves a global array g, the image of a box of an array stored
// in C order in a file, in bands (see the package documentation): process
// k of n moves rows [k·B/n, (k+1)·B/n) of the box along its first
// dimension, all of the others, between g (one-sided Get and Put) and a
// buffer in file order, and between the buffer and the file by one
// collective MPI-IO call on a view of the band.

// run is a stretch of elements contiguous in the file: the part of one
// row of the band (along the last dimension).
type run struct {
	file int // element index in the file's array
	n    int
}

// plan is one process's part of a transfer.
type plan struct {
	lo, hi []int // the band, in g's coordinates; nil for none
	runs   []run // in file order, which is the band's C order
	total  int   // elements
	// rows is true, on every process alike, when the box spans whole rows
	// of the file (all of every dimension but the first), so that each
	// band is one run of the file.
	rows bool
}

// bandPlan is process me's band, of np, of a box of dims at corner of the
// file's array of fdims.
func bandPlan(dims, corner, fdims []int, me, np int) *plan {
	p := &plan{rows: slices.Equal(dims[1:], fdims[1:])}
	r0, r1 := me*dims[0]/np, (me+1)*dims[0]/np
	if r0 == r1 {
		return p
	}
	nd := len(dims)
	p.lo, p.hi = make([]int, nd), make([]int, nd)
	for k := range dims {
		p.hi[k] = dims[k] - 1
	}
	p.lo[0], p.hi[0] = r0, r1-1
	fpitch := make([]int, nd)
	fpitch[nd-1] = 1
	for k := nd - 2; k >= 0; k-- {
		fpitch[k] = fpitch[k+1] * fdims[k+1]
	}
	n := p.hi[nd-1] - p.lo[nd-1] + 1
	idx := slices.Clone(p.lo)
	for {
		f := 0
		for k := range nd {
			f += (corner[k] + idx[k]) * fpitch[k]
		}
		p.runs = append(p.runs, run{f, n})
		p.total += n
		k := nd - 2
		for ; k >= 0; k-- {
			if idx[k]++; idx[k] <= p.hi[k] {
				break
			}
			idx[k] = p.lo[k]
		}
		if k < 0 {
			return p
		}
	}
}

// planOf is bandPlan for this process of g's group, after refusing what
// cannot move.
func planOf[T ga.Elem](op, file string, g *ga.Array[T], corner, fdims []int) (*plan, error) {
	if g.IsMirrored() {
		return nil, errorf(op, file, nil, "array %q is mirrored: copy it into a distributed array first", g.Name())
	}
	pg := g.Pgroup()
	return bandPlan(g.Dims(), corner, fdims, pg.Nodeid(), pg.Nnodes()), nil
}

// view sets f's view to the runs, the data starting at byte data.
func view[T ga.Elem](p *plan, f *mpi.File, data int) error {
	if len(p.runs) == 0 {
		return mpi.SetView[T](f, data, nil, nil)
	}
	first := p.runs[0].file
	var lens, displs []int
	for _, r := range p.runs {
		at := r.file - first
		if k := len(lens) - 1; k >= 0 && displs[k]+lens[k] == at {
			lens[k] += r.n // contiguous with the one before: one block
			continue
		}
		lens, displs = append(lens, r.n), append(displs, at)
	}
	disp := data + first*elemSize[T]()
	if len(lens) == 1 {
		return mpi.SetView[T](f, disp, nil, nil)
	}
	ft, err := mpi.TypeIndexed[T](lens, displs)
	if err != nil {
		return err
	}
	err = mpi.SetView[T](f, disp, ft, nil)
	// The view keeps what it needs of the type.
	if ferr := ft.Free(); err == nil {
		err = ferr
	}
	return err
}

// moveBand writes buf, this process's band, through the view that view
// set, or reads it. Where every band is one run of the file (p.rows), each
// process moves its own with MPI_File_write_at or read_at: the collective
// forms' two-phase exchange between the processes only adds copies there.
// Otherwise the collective forms merge the processes' runs. It is
// collective either way, as the choice is the same on every process.
func moveBand[T ga.Elem](p *plan, f *mpi.File, buf []T, write bool) error {
	move, did := mpi.ReadAtAll[T], "read"
	switch {
	case write && p.rows:
		move, did = mpi.WriteAt[T], "wrote"
	case write:
		move, did = mpi.WriteAtAll[T], "wrote"
	case p.rows:
		move = mpi.ReadAt[T]
	}
	n, err := move(f, 0, buf)
	if err == nil && n != len(buf) {
		err = fmt.Errorf("%s %d of %d elements", did, n, len(buf))
	}
	return err
}

// sums adds the checksums of buf (the band, in file order) into the table
// of tile sums of h.
func sums[T ga.Elem](p *plan, h *header, buf []T, into []uint64) {
	nd := len(h.dims)
	last, tl := h.dims[nd-1], h.tile[nd-1]
	grid := h.tileGrid()
	for _, r := range p.runs {
		n := r.n
		// The tile row of this run: its tile coordinates but the last.
		k, rest := 0, r.file/last
		stride := 1
		for d := nd - 2; d >= 0; d-- {
			k += rest % h.dims[d] / h.tile[d] * stride
			rest /= h.dims[d]
			stride *= grid[d]
		}
		k *= grid[nd-1]
		for j := r.file % last; n > 0; {
			m := min(n, tl-j%tl)
			into[k+j/tl] += checksum(buf[:m], r.file-r.file%last+j)
			buf, n, j = buf[m:], n-m, j+m
		}
	}
}

// buffers keeps read buffers between transfers: a new 16 MiB buffer costs
// its zeroing and page faults again on every read (about 3 ms here).
var buffers sync.Pool

// getBuffer returns room for n elements of T, not zeroed.
func getBuffer[T ga.Elem](n int) []T {
	if n == 0 {
		return nil
	}
	words := (n*elemSize[T]() + 7) / 8
	b, ok := buffers.Get().(*[]uint64)
	if !ok || cap(*b) < words {
		w := make([]uint64, words)
		b = &w
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(*b))), n)
}

// putBuffer gives back a buffer from getBuffer.
func putBuffer[T ga.Elem](v []T) {
	if cap(v) == 0 {
		return
	}
	b := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(v))), cap(v)*elemSize[T]()/8)
	buffers.Put(&b)
}
