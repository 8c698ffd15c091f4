package dra

import (
	"slices"
	"sync"
	"unsafe"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/mpi"
)

// A transfer moves each process's own elements of a global array between
// its memory and a box of an array stored in C order in a file, with one
// collective MPI-IO call: the process's elements, listed as runs (along the
// last dimension, contiguous in the file) and sorted by their place in the
// file, become a file view (an indexed filetype, or none for one run) and
// a buffer in that order. Nothing goes through another process.

// run is a stretch of elements contiguous in the file and in memory.
type run[T ga.Elem] struct {
	file int // element index in the file's array
	mem  []T // the elements in the global array's memory
}

// plan is one process's part of a transfer.
type plan[T ga.Elem] struct {
	runs  []run[T] // in file order
	total int      // elements
}

// piece is a block of a global array that this process holds.
type piece[T ga.Elem] struct {
	lo, hi, ld []int
	data       []T
}

// pieces lists the blocks of g this process holds, in place.
func pieces[T ga.Elem](op, file string, g *ga.Array[T]) ([]piece[T], error) {
	if g.IsMirrored() {
		return nil, errorf(op, file, nil, "array %q is mirrored: copy it into a distributed array first", g.Name())
	}
	if g.BlockCyclic() {
		var out []piece[T]
		for _, i := range g.LocalBlocks() {
			lo, hi, _ := g.Distribution(i)
			data, ld, err := g.AccessBlock(i)
			if err != nil {
				return nil, errorf(op, file, err, "%v", err)
			}
			out = append(out, piece[T]{lo, hi, ld, data})
		}
		return out, nil
	}
	data, lo, hi, ld, ok, err := g.AccessLocal()
	if err != nil {
		return nil, errorf(op, file, err, "%v", err)
	}
	if !ok {
		return nil, nil
	}
	return []piece[T]{{lo, hi, ld, data}}, nil
}

// planFor lists this process's runs of g, whose element idx lies at
// corner+idx in the file's array of dims fdims.
func planFor[T ga.Elem](op, file string, g *ga.Array[T], corner, fdims []int) (*plan[T], error) {
	ps, err := pieces(op, file, g)
	if err != nil {
		return nil, err
	}
	nd := len(fdims)
	fpitch := make([]int, nd)
	fpitch[nd-1] = 1
	for k := nd - 2; k >= 0; k-- {
		fpitch[k] = fpitch[k+1] * fdims[k+1]
	}
	p := &plan[T]{}
	for _, pc := range ps {
		mpitch := make([]int, nd)
		mpitch[nd-1] = 1
		for k := nd - 2; k >= 0; k-- {
			mpitch[k] = mpitch[k+1] * pc.ld[k]
		}
		n := pc.hi[nd-1] - pc.lo[nd-1] + 1
		idx := slices.Clone(pc.lo)
		for {
			f, m := 0, 0
			for k := range nd {
				f += (corner[k] + idx[k]) * fpitch[k]
				m += (idx[k] - pc.lo[k]) * mpitch[k]
			}
			p.runs = append(p.runs, run[T]{f, pc.data[m : m+n]})
			p.total += n
			k := nd - 2
			for ; k >= 0; k-- {
				if idx[k]++; idx[k] <= pc.hi[k] {
					break
				}
				idx[k] = pc.lo[k]
			}
			if k < 0 {
				break
			}
		}
	}
	slices.SortFunc(p.runs, func(a, b run[T]) int { return a.file - b.file })
	return p, nil
}

// gather returns the runs' elements in file order: in place when they lie
// one after another in memory too (a block of whole rows), else copied.
func (p *plan[T]) gather() []T {
	if v, ok := p.inPlace(); ok {
		return v
	}
	buf := make([]T, 0, p.total)
	for _, r := range p.runs {
		buf = append(buf, r.mem...)
	}
	return buf
}

// inPlace returns the runs as one slice of memory, if they are one.
func (p *plan[T]) inPlace() ([]T, bool) {
	if len(p.runs) == 0 {
		return nil, false
	}
	first := p.runs[0].mem
	next := unsafe.Pointer(unsafe.SliceData(first))
	for _, r := range p.runs {
		if unsafe.Pointer(unsafe.SliceData(r.mem)) != next {
			return nil, false
		}
		next = unsafe.Add(next, len(r.mem)*elemSize[T]())
	}
	return unsafe.Slice(unsafe.SliceData(first), p.total), true
}

// scatter copies a buffer in file order back to the runs.
func (p *plan[T]) scatter(buf []T) {
	for _, r := range p.runs {
		buf = buf[copy(r.mem, buf):]
	}
}

// view sets f's view to the runs, the data starting at byte data.
func (p *plan[T]) view(f *mpi.File, data int) error {
	if len(p.runs) == 0 {
		return mpi.SetView[T](f, data, nil, nil)
	}
	first := p.runs[0].file
	var lens, displs []int
	for _, r := range p.runs {
		at := r.file - first
		if k := len(lens) - 1; k >= 0 && displs[k]+lens[k] == at {
			lens[k] += len(r.mem) // contiguous with the one before: one block
			continue
		}
		lens, displs = append(lens, len(r.mem)), append(displs, at)
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

// sums adds the checksums of buf (the runs' elements in file order) into
// the table of tile sums of h.
func (p *plan[T]) sums(h *header, buf []T, into []uint64) {
	nd := len(h.dims)
	last, tl := h.dims[nd-1], h.tile[nd-1]
	grid := h.tileGrid()
	for _, r := range p.runs {
		n := len(r.mem)
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
