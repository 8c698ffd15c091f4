package dra

import (
	"fmt"
	"os"
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
// buffer in file order, and between the buffer and the file: where every
// band is one run of the file (whole rows), by each process alone in
// steps (pipe); otherwise by one collective MPI-IO call on a view of the
// band (moveBand).

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

// planOf is bandPlan for this process of g's group, of which k do I/O
// (ioIndex), after refusing what cannot move.
func planOf[T ga.Elem](op, file string, g *ga.Array[T], corner, fdims []int, k int) (*plan, error) {
	if g.IsMirrored() {
		return nil, errorf(op, file, nil, "array %q is mirrored: copy it into a distributed array first", g.Name())
	}
	pg := g.Pgroup()
	dims := g.Dims()
	i := ioIndex(pg.Nodeid(), pg.Nnodes(), min(k, pg.Nnodes()))
	if i < 0 {
		return &plan{rows: slices.Equal(dims[1:], fdims[1:])}, nil
	}
	return bandPlan(dims, corner, fdims, i, min(k, pg.Nnodes())), nil
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
// set, or reads it, by a collective call that merges the processes' runs.
// It serves the plans whose bands are not one run of the file each; those
// move by pipe.
func moveBand[T ga.Elem](p *plan, f *mpi.File, buf []T, write bool) error {
	move, did := mpi.ReadAtAll[T], "read"
	if write {
		move, did = mpi.WriteAtAll[T], "wrote"
	}
	n, err := move(f, 0, buf)
	return counted(did, n, len(buf), err)
}

// counted is err, or an error if n of want elements moved.
func counted(did string, n, want int, err error) error {
	if err == nil && n != want {
		err = fmt.Errorf("%s %d of %d elements", did, n, want)
	}
	return err
}

// stepBytes is about the size of a step of pipe.
const stepBytes = 1 << 20

// step is a piece of a band that is one run of the file: its rows lo[0]
// to hi[0] along the first dimension, n elements from element off of the
// band.
type step struct {
	lo, hi []int
	runs   []run
	off, n int
}

// steps cuts p's band, one run of the file, along its first dimension
// into steps of about size bytes (at least one row each).
func (p *plan) steps(esize, size int) []step {
	if p.lo == nil {
		return nil
	}
	rows := p.hi[0] - p.lo[0] + 1
	per := p.total / rows // elements in a row of the first dimension
	k := max(1, size/(per*esize))
	var ss []step
	for r := 0; r < rows; r += k {
		e := min(rows, r+k)
		s := step{lo: slices.Clone(p.lo), hi: slices.Clone(p.hi), off: r * per, n: (e - r) * per}
		s.lo[0], s.hi[0] = p.lo[0]+r, p.lo[0]+e-1
		if len(p.lo) == 1 {
			s.runs = []run{{p.runs[0].file + r, e - r}}
		} else {
			m := len(p.runs) / rows
			s.runs = p.runs[r*m : e*m]
		}
		ss = append(ss, s)
	}
	return ss
}

// disk is the file side of a transfer: f, whose data starts at byte
// data, and its name, for the hints.
type disk struct {
	f    *mpi.File
	name string
	data int
}

// move moves this process's band between g and the file through buf, and
// gives sum (when not nil) each piece of the band, in file order, once it
// is in buf. Where every band is one run of the file (p.rows, alike on
// every process), it only makes the transfer's collective calls (a write's
// sync of g) and returns the band's I/O as bg, which makes none, for the
// caller to run now or in the background. Otherwise it moves the band
// itself, by one collective MPI-IO call, and bg is nil. Every process
// makes the collective calls whatever failed before them; the first
// failure is returned. A write's band that failed to arrive from g is
// still written collectively: the failure discards the file.
func move[T ga.Elem](dk disk, g *ga.Array[T], p *plan, buf []T, write bool, sum func([]run, []T)) (bg func() error, err error) {
	if sum == nil {
		sum = func([]run, []T) {}
	}
	if write {
		err = g.Pgroup().Sync() // the puts into g land before its band is read
	}
	if p.rows {
		if err != nil {
			return nil, err
		}
		return func() error { return pipe(dk, g, p, buf, write, sum) }, nil
	}
	if verr := view[T](p, dk.f, dk.data); err == nil {
		err = verr
	}
	if write {
		if err == nil && p.lo != nil {
			err = g.Get(p.lo, p.hi, buf, nil)
		}
		if err == nil {
			sum(p.runs, buf)
		}
		if werr := moveBand(p, dk.f, buf, true); err == nil {
			err = werr
		}
		return nil, err
	}
	if rerr := moveBand(p, dk.f, buf, false); err == nil {
		err = rerr
	}
	if err == nil {
		sum(p.runs, buf)
	}
	return nil, err
}

// moveNow is move with the band's I/O done before it returns.
func moveNow[T ga.Elem](dk disk, g *ga.Array[T], p *plan, buf []T, write bool, sum func([]run, []T)) error {
	bg, err := move(dk, g, p, buf, write, sum)
	if err == nil && bg != nil {
		err = bg()
	}
	return err
}

// pipe moves this process's band, one run of the file, in steps: a write
// gets each step from g, sums it, writes it and starts its writeback, so
// that the device works while the processor copies the next step (the
// fsync at Close then waits for less); a read reads and sums step by step,
// reads of 1 MiB taking the kernel's readahead best here. Each process
// moves its own band with positioned reads and writes of its own
// descriptor of the file (the collective forms' two-phase exchange only
// adds copies here, and MPI-IO's independent calls would tie a transfer in
// the background to MPI's thread safety); the kernel's page cache makes
// them one file with MPI's descriptor, and Close's fsync covers them. pipe
// makes no collective call.
func pipe[T ga.Elem](dk disk, g *ga.Array[T], p *plan, buf []T, write bool, sum func([]run, []T)) error {
	if p.lo == nil {
		return nil
	}
	flag := os.O_RDONLY
	if write {
		flag = os.O_WRONLY
	}
	f, err := os.OpenFile(dk.name, flag, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	es := elemSize[T]()
	for _, s := range p.steps(es, stepBytes) {
		b := buf[s.off : s.off+s.n]
		at := int64(dk.data + (p.runs[0].file+s.off)*es)
		raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(b))), len(b)*es)
		if !write {
			if _, err := f.ReadAt(raw, at); err != nil {
				return fmt.Errorf("read %d bytes at %d: %w", len(raw), at, err)
			}
			sum(s.runs, b)
			continue
		}
		if err := g.Get(s.lo, s.hi, b, nil); err != nil {
			return err
		}
		sum(s.runs, b)
		if _, err := f.WriteAt(raw, at); err != nil {
			return fmt.Errorf("wrote %d bytes at %d: %w", len(raw), at, err)
		}
		writeBehind(f, int(at), len(raw))
	}
	return nil
}

// sums adds the checksums of buf, the runs in file order, into the table
// of tile sums of h.
func sums[T ga.Elem](runs []run, h *header, buf []T, into []uint64) {
	nd := len(h.dims)
	last, tl := h.dims[nd-1], h.tile[nd-1]
	grid := h.tileGrid()
	for _, r := range runs {
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
