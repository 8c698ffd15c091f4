package dra

import (
	"fmt"
	"runtime"
	"slices"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/holds"
	"github.com/goga-hpc/goga/mpi"
)

// Request is a transfer started (DRA's request id). Wait completes it;
// the global array it reads must not change, and the one it fills must not
// be read, until then, and neither may be destroyed (ga refuses). Where
// the band of every process is whole rows of the file, the band's I/O runs
// in the background between the transfer call and Wait (see the package
// documentation); Wait does the rest: the checksums, a read's copy into
// the global array, a section's copy out of its scratch array, and the
// agreement on every process's outcome.
type Request[T ga.Elem] struct {
	d      *Array[T]
	write  bool
	bg     chan struct{} // closed when the band's I/O is done
	bgErr  error         // its error, set before bg closes
	finish func() error  // runs in Wait, on every process
	holds  []func()      // releases of the arrays held until Wait
	waited bool
	err    error
}

// Wait completes the transfer (DRA_Wait) and returns its error, the same
// on every process: for a read, a checksum mismatch that names the
// section. It is collective; waiting again returns the same result.
func (r *Request[T]) Wait() error {
	if r == nil {
		return errorf("Wait", "", ErrClosed, "nil request")
	}
	if r.waited {
		return r.err
	}
	r.waited = true
	if r.d.pending == r {
		r.d.pending = nil
	}
	<-r.bg
	r.err = r.finish()
	if r.err != nil && r.write && r.d.failed == nil {
		r.d.failed = r.err
	}
	return r.err
}

// Probe reports whether the transfer's I/O on this process has completed
// (DRA_Probe); it does not wait, and is not collective. Wait must still be
// called.
func (r *Request[T]) Probe() (bool, error) {
	if r == nil {
		return false, errorf("Probe", "", ErrClosed, "nil request")
	}
	select {
	case <-r.bg:
		return true, nil
	default:
		return false, nil
	}
}

// Flick gives the processor to the transfers running in the background
// for a moment (DRA_Flick): a program that computes in a tight loop on
// every core can call it now and then. It is not collective.
func Flick() { runtime.Gosched() }

// inBackground reports whether a band's I/O may run beside the caller: it
// gets from or puts into a global array from another goroutine, which
// needs MPI_THREAD_MULTIPLE.
func inBackground() bool { return mpi.Provided() == mpi.ThreadMultiple }

// run runs io, the band's I/O, in the background where it may, else now;
// r.bg closes when io is done. It holds arrays (ga refuses to destroy
// them) until Wait lets them go (unhold).
func (r *Request[T]) run(io func() error, why string, arrays []any) {
	for _, a := range arrays {
		r.holds = append(r.holds, holds.Hold(a, why))
	}
	r.bg = make(chan struct{})
	if io == nil || !inBackground() {
		if io != nil {
			r.bgErr = bandIO(io)
		}
		close(r.bg)
		return
	}
	go func() {
		r.bgErr = bandIO(io)
		close(r.bg)
	}()
}

// bandIO runs a band's I/O (a variable: tests hold it back or make it
// fail).
var bandIO = func(io func() error) error { return io() }

// unhold lets go of the arrays run held.
func (r *Request[T]) unhold() {
	for _, release := range r.holds {
		release()
	}
	r.holds = nil
}

// ready checks d before a transfer and completes the one in flight, so
// that every process does the pending work at the same point.
func (d *Array[T]) ready(op string, write bool) error {
	if err := d.valid(op); err != nil {
		return err
	}
	if write && d.mode == ModeRead {
		return errorf(op, d.file, nil, "opened for Read only")
	}
	if d.pending != nil {
		d.pending.Wait() // its error is its own Wait's to report
	}
	return nil
}

// sameGroup refuses a global array of another group than d's.
func (d *Array[T]) sameGroup(op string, g *ga.Array[T]) error {
	if !g.Valid() {
		return errorf(op, d.file, ga.ErrNil, "global array is nil or destroyed")
	}
	if g.Pgroup() != d.pg {
		return errorf(op, d.file, nil, "global array %q is on another processor group than the disk array", g.Name())
	}
	return nil
}

// start begins moving g, which lies at corner of the file's array, to or
// from the file, unless check (this process's verdict on the arguments) or
// another process refuses; after runs in Wait with the outcome (on every
// process). Tiles is the list of tiles the box covers whole. held are the
// global arrays besides g that Wait uses (a section read's destination).
func (d *Array[T]) start(op string, g *ga.Array[T], corner []int, tiles []int, write bool, check error, after func(error) error, held ...any) (*Request[T], error) {
	c := d.comm
	var p *plan
	err := check
	if err == nil {
		p, err = planOf(op, d.file, g, corner, d.h.dims, ioProcsOf(d.cfg, d.comm.Size()))
	}
	if err == nil {
		err = memoryLimit(op, d.file, p.total*d.h.esize)
	}
	if err = agree(c, op, d.file, err); err != nil {
		return nil, after(err)
	}
	buf := getBuffer[T](p.total)
	part := make([]uint64, len(d.h.sums)) // this process's share of the tiles' sums
	dk := disk{d.f, d.path(), d.h.size}
	sum := func(runs []run, b []T) { sums(runs, d.h, b, part) }
	io, err := move(dk, g, p, buf, write, sum)
	if err = agree(c, op, d.file, d.failure(op, err)); err != nil {
		putBuffer(buf)
		if write && d.failed == nil {
			d.failed = err
		}
		return nil, after(err)
	}
	r := &Request[T]{d: d, write: write}
	// Wait agrees on the band's I/O first, so that every process makes the
	// collective calls after it or none.
	background := func() error { return agree(c, op, d.file, d.failure(op, r.bgErr)) }
	if write {
		r.finish = func() error {
			putBuffer(buf)
			err := background()
			if err == nil {
				err = d.writeSums(op, part, tiles)
			}
			r.unhold()
			return after(err)
		}
	} else {
		r.finish = func() error {
			err := background()
			if err == nil {
				err = d.verify(op, part, tiles)
			}
			if err == nil {
				err = d.fill(op, g, p, buf)
			}
			putBuffer(buf)
			r.unhold()
			return after(err)
		}
	}
	r.run(io, fmt.Sprintf("dra %s of %s", op, d.file), append(held, g))
	if p.lo != nil {
		tracef("%s %s: rows %d to %d of %v at %v, %d bytes, in the background %v", op, d.file, p.lo[0], p.hi[0], g.Dims(), corner, p.total*d.h.esize, io != nil && inBackground())
	} else {
		tracef("%s %s: no band", op, d.file)
	}
	d.pending = r
	return r, nil
}

// failure is err as op's error on d, or nil.
func (d *Array[T]) failure(op string, err error) error {
	if err == nil {
		return nil
	}
	return errorf(op, d.file, err, "%v", err)
}

// writeSums enters the written tiles' checksums, part being this
// process's share of them, in the table that Close writes; every process
// gets any process's error.
func (d *Array[T]) writeSums(op string, part []uint64, tiles []int) error {
	total, err := d.tileSums(part, tiles)
	if err = agree(d.comm, op, d.file, d.failure(op, err)); err != nil {
		return err
	}
	for i, k := range tiles {
		d.h.sums[k] = total[i]
	}
	return nil
}

// tileSums returns the checksums of the box's tiles (tiles[i]'s at i),
// part's added up over the processes in one Allreduce of those tiles
// only.
func (d *Array[T]) tileSums(part []uint64, tiles []int) ([]uint64, error) {
	mine := make([]uint64, len(tiles))
	for i, k := range tiles {
		mine[i] = part[k]
	}
	total := make([]uint64, len(tiles))
	return total, mpi.Allreduce(d.comm, mine, total, mpi.Sum)
}

// fill puts this process's band into g and syncs, so every process sees
// all of it; every process gets any process's error.
func (d *Array[T]) fill(op string, g *ga.Array[T], p *plan, buf []T) error {
	return agree(d.comm, op, d.file, store(op, d.file, g, p, buf))
}

// store puts this process's band into g, then syncs g's group.
func store[T ga.Elem](op, file string, g *ga.Array[T], p *plan, buf []T) error {
	var err error
	if p.lo != nil {
		err = g.Put(p.lo, p.hi, buf, nil)
	}
	if serr := g.Pgroup().Sync(); err == nil {
		err = serr
	}
	if err != nil {
		return errorf(op, file, err, "%v", err)
	}
	return nil
}

// verify checks the tiles a read covered, part being this process's
// share of their sums, against the table.
func (d *Array[T]) verify(op string, part []uint64, tiles []int) error {
	total, err := d.tileSums(part, tiles)
	if err != nil {
		return errorf(op, d.file, err, "%v", err)
	}
	for i, k := range tiles {
		if total[i] != d.h.sums[k] {
			lo, hi := d.h.tileBox(k)
			return errorf(op, d.file, ErrChecksum, "checksum mismatch in section lo %v hi %v (tile %d): the file is damaged", lo, hi, k)
		}
	}
	return nil
}

func nothing(err error) error { return err }

// allTiles lists every tile.
func (d *Array[T]) allTiles() []int {
	k := make([]int, len(d.h.sums))
	for i := range k {
		k[i] = i
	}
	return k
}

// whole checks that g has d's dims.
func (d *Array[T]) whole(op string, g *ga.Array[T]) error {
	if err := d.sameGroup(op, g); err != nil {
		return err
	}
	if !slices.Equal(g.Dims(), d.h.dims) {
		return errorf(op, d.file, ErrMismatch, "global array %q has dims %v, the disk array %v", g.Name(), g.Dims(), d.h.dims)
	}
	return nil
}

// Write starts writing the whole global array g into d (NDRA_Write); g
// has d's dims. Each process writes its band of the file, a range of rows
// along the first dimension, whoever holds them in g: it fetches the band
// by one-sided Get in steps of about 1 MiB, adds each step to the tiles'
// checksums and writes it at its offset, starting its writeback as it
// goes, in the background until Wait (the package documentation says
// where and why). The file appears under its name, complete, at Close. It
// is collective; Wait completes it, and g must not change until then.
func Write[T ga.Elem](g *ga.Array[T], d *Array[T]) (*Request[T], error) {
	const op = "Write"
	if err := d.ready(op, true); err != nil {
		return nil, err
	}
	return d.start(op, g, make([]int, len(d.h.dims)), d.allTiles(), true, d.whole(op, g), nothing)
}

// Read starts reading d into the whole global array g (NDRA_Read); g has
// d's dims. g is changed only once every checksum has matched. It is
// collective; Wait completes it.
func Read[T ga.Elem](g *ga.Array[T], d *Array[T]) (*Request[T], error) {
	const op = "Read"
	if err := d.ready(op, false); err != nil {
		return nil, err
	}
	return d.start(op, g, make([]int, len(d.h.dims)), d.allTiles(), false, d.whole(op, g), nothing)
}

// sections checks a section transfer's arguments: the patch of g, the
// section of d, and their shapes, equal (reversed with trans) once
// dimensions of extent 1 are left out.
func (d *Array[T]) sections(op string, trans bool, g *ga.Array[T], glo, ghi, dlo, dhi []int) error {
	if err := d.sameGroup(op, g); err != nil {
		return err
	}
	inside := func(what string, dims, lo, hi []int) error {
		if len(lo) != len(dims) || len(hi) != len(dims) {
			return errorf(op, d.file, nil, "%s lo %v hi %v for dims %v", what, lo, hi, dims)
		}
		for k := range dims {
			if lo[k] < 0 || lo[k] > hi[k] || hi[k] >= dims[k] {
				return errorf(op, d.file, nil, "%s lo %v hi %v is not inside dims %v", what, lo, hi, dims)
			}
		}
		return nil
	}
	if err := inside(fmt.Sprintf("patch of %q", g.Name()), g.Dims(), glo, ghi); err != nil {
		return err
	}
	if err := inside("section", d.h.dims, dlo, dhi); err != nil {
		return err
	}
	gs, ds := shape(glo, ghi), shape(dlo, dhi)
	if trans {
		slices.Reverse(gs)
	}
	if !slices.Equal(gs, ds) {
		return errorf(op, d.file, nil, "patch lo %v hi %v and section lo %v hi %v differ in shape (trans %v)", glo, ghi, dlo, dhi, trans)
	}
	return nil
}

// shape is the extents of [lo, hi] without the extents of 1.
func shape(lo, hi []int) []int {
	var s []int
	for k := range lo {
		if n := hi[k] - lo[k] + 1; n != 1 {
			s = append(s, n)
		}
	}
	return s
}

// box is a section expanded to whole tiles, in a scratch global array.
type box[T ga.Elem] struct {
	lo, hi  []int // in the disk array
	tiles   []int
	g       *ga.Array[T]
	aligned bool // the section is made of whole tiles
	slo     []int
	shi     []int // the section, in the scratch array
}

// sectionBox checks a section transfer and makes its box.
func (d *Array[T]) sectionBox(op string, write, trans bool, g *ga.Array[T], glo, ghi, dlo, dhi []int) (*box[T], error) {
	if err := d.ready(op, write); err != nil {
		return nil, err
	}
	if err := agree(d.comm, op, d.file, d.sections(op, trans, g, glo, ghi, dlo, dhi)); err != nil {
		return nil, err
	}
	b := &box[T]{}
	b.lo, b.hi = d.h.expand(dlo, dhi)
	b.tiles = d.h.tilesOf(b.lo, b.hi)
	b.aligned = slices.Equal(b.lo, dlo) && slices.Equal(b.hi, dhi)
	dims := make([]int, len(b.lo))
	b.slo, b.shi = make([]int, len(b.lo)), make([]int, len(b.lo))
	for k := range dims {
		dims[k] = b.hi[k] - b.lo[k] + 1
		b.slo[k], b.shi[k] = dlo[k]-b.lo[k], dhi[k]-b.lo[k]
	}
	g, err := ga.CreateConfig[T]("dra section of "+d.file, dims, nil, d.pg)
	if err != nil {
		return nil, errorf(op, d.file, err, "scratch array for section lo %v hi %v: %v", b.lo, b.hi, err)
	}
	b.g = g
	return b, nil
}

// done destroys the scratch array and returns err, or Destroy's error.
func (b *box[T]) done(op, file string, err error) error {
	if derr := b.g.Destroy(); err == nil && derr != nil {
		err = errorf(op, file, derr, "%v", derr)
	}
	return err
}

func transFlag(trans bool) ga.TransOp {
	if trans {
		return ga.Trans
	}
	return ga.NoTrans
}

// WriteSection starts writing the patch [glo, ghi] of g into the section
// [dlo, dhi] of d, transposed when trans is set (NDRA_Write_section). The
// section is written in whole tiles: where it does not cover its tiles,
// their other elements are read first (and their checksums checked). It is
// collective; Wait completes it.
func WriteSection[T ga.Elem](trans bool, g *ga.Array[T], glo, ghi []int, d *Array[T], dlo, dhi []int) (*Request[T], error) {
	const op = "WriteSection"
	b, err := d.sectionBox(op, true, trans, g, glo, ghi, dlo, dhi)
	if err != nil {
		return nil, err
	}
	if !b.aligned {
		r, err := d.start(op, b.g, b.lo, b.tiles, false, nil, nothing)
		if err == nil {
			err = r.Wait()
		}
		if err != nil {
			return nil, b.done(op, d.file, err)
		}
	}
	if err := ga.CopyPatch(transFlag(trans), g, glo, ghi, b.g, b.slo, b.shi); err != nil {
		return nil, b.done(op, d.file, errorf(op, d.file, err, "%v", err))
	}
	return d.start(op, b.g, b.lo, b.tiles, true, nil, func(err error) error { return b.done(op, d.file, err) })
}

// ReadSection starts reading the section [dlo, dhi] of d into the patch
// [glo, ghi] of g, transposed when trans is set (NDRA_Read_section). The
// tiles the section touches are read whole and checked; g is changed only
// if they match. It is collective; Wait completes it.
func ReadSection[T ga.Elem](trans bool, g *ga.Array[T], glo, ghi []int, d *Array[T], dlo, dhi []int) (*Request[T], error) {
	const op = "ReadSection"
	b, err := d.sectionBox(op, false, trans, g, glo, ghi, dlo, dhi)
	if err != nil {
		return nil, err
	}
	return d.start(op, b.g, b.lo, b.tiles, false, nil, func(err error) error {
		if err == nil {
			if cerr := ga.CopyPatch(transFlag(trans), b.g, b.slo, b.shi, g, glo, ghi); cerr != nil {
				err = errorf(op, d.file, cerr, "%v", cerr)
			}
		}
		return b.done(op, d.file, err)
	}, g)
}
