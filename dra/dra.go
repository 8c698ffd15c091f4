package dra

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/mpi"
)

// Mode is how a disk array is opened (DRA_R, DRA_W, DRA_RW).
type Mode int

// Modes. ModeWrite and ModeReadWrite work on a copy under a temporary name that
// Close renames to the file's name, so the file is always complete.
const (
	ModeRead      Mode = iota + 1 // DRA_R: read only, in place
	ModeWrite                     // DRA_W
	ModeReadWrite                 // DRA_RW
)

func (m Mode) String() string {
	switch m {
	case ModeRead:
		return "Read"
	case ModeWrite:
		return "Write"
	case ModeReadWrite:
		return "ReadWrite"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Limits are DRA_Init's limits; a value of 0 or less means no limit.
type Limits struct {
	MaxArrays      int // disk arrays open at once
	MaxArraySize   int // bytes of one disk array's data
	TotalDiskSpace int // bytes of the data of all open disk arrays
	MaxMemory      int // bytes of buffer one process may use for one transfer
}

// state is this process's DRA state: the limits and what is open.
var state struct {
	mu     sync.Mutex
	on     bool
	limits Limits
	open   map[closer]int // open arrays and their data bytes
}

type closer interface {
	Close() error
	String() string
}

// Init starts DRA with its limits (DRA_Init). Every process calls it, with
// the same limits; GA must be running.
func Init(l Limits) error {
	if !ga.Initialized() {
		return errorf("Init", "", ga.ErrNotInitialized, "GA is not initialized")
	}
	state.mu.Lock()
	defer state.mu.Unlock()
	state.on, state.limits = true, l
	if state.open == nil {
		state.open = map[closer]int{}
	}
	return nil
}

// Terminate closes the disk arrays still open, as Close does, and ends DRA
// (DRA_Terminate). It is collective; it returns the first Close's error.
func Terminate() error {
	state.mu.Lock()
	open := make([]closer, 0, len(state.open))
	for c := range state.open {
		open = append(open, c)
	}
	state.mu.Unlock()
	// Every process must close the arrays in the same order: by file name.
	slices.SortFunc(open, func(a, b closer) int { return strings.Compare(a.String(), b.String()) })
	var first error
	for _, c := range open {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	state.mu.Lock()
	state.on = false
	state.mu.Unlock()
	return first
}

// admit checks Init's limits for a new array of n data bytes and counts it.
func admit(op, file string, c closer, n int) error {
	state.mu.Lock()
	defer state.mu.Unlock()
	l := state.limits
	switch {
	case !state.on:
		return errorf(op, file, ErrNotInitialized, "call dra.Init first")
	case l.MaxArrays > 0 && len(state.open) >= l.MaxArrays:
		return errorf(op, file, ErrLimit, "%d disk arrays are open, the most Init allows", len(state.open))
	case l.MaxArraySize > 0 && n > l.MaxArraySize:
		return errorf(op, file, ErrLimit, "%d bytes of data exceed Init's MaxArraySize %d", n, l.MaxArraySize)
	}
	total := n
	for _, b := range state.open {
		total += b
	}
	if l.TotalDiskSpace > 0 && total > l.TotalDiskSpace {
		return errorf(op, file, ErrLimit, "%d bytes of open disk arrays would exceed Init's TotalDiskSpace %d", total, l.TotalDiskSpace)
	}
	state.open[c] = n
	return nil
}

func release(c closer) {
	state.mu.Lock()
	delete(state.open, c)
	state.mu.Unlock()
}

// memoryLimit checks a transfer's buffer against Init's MaxMemory.
func memoryLimit(op, file string, n int) error {
	state.mu.Lock()
	m := state.limits.MaxMemory
	state.mu.Unlock()
	if m > 0 && n > m {
		return errorf(op, file, ErrLimit, "this process's part needs a buffer of %d bytes, more than Init's MaxMemory %d", n, m)
	}
	return nil
}

// Array is a disk resident array of elements of T: a file that holds an
// n-dimensional array, opened collectively by the processes of GA's
// default group.
type Array[T ga.Elem] struct {
	pg      *ga.Pgroup
	comm    *mpi.Comm
	f       *mpi.File
	file    string // the file's name
	tmp     string // the name written under, "" when read in place
	mode    Mode
	h       *header
	cfg     *Config     // how its transfers share the I/O; nil: every process
	pending *Request[T] // the last transfer started, until it is waited on
	failed  error       // the first transfer that failed: Close discards the file
	closed  bool
}

// String names the array by its file.
func (d *Array[T]) String() string { return "dra " + d.file }

// path is the name of the file d's transfers go to.
func (d *Array[T]) path() string {
	if d.tmp != "" {
		return d.tmp
	}
	return d.file
}

// group returns GA's default group and its communicator.
func group(op, file string) (*ga.Pgroup, *mpi.Comm, error) {
	pg := ga.PgroupGetDefault()
	if pg == nil {
		return nil, nil, errorf(op, file, ga.ErrNotInitialized, "GA is not running")
	}
	return pg, pg.Comm(), nil
}

// Create makes a disk array of elements of T with dims, called name, in
// file (NDRA_Create). mode is ModeWrite or ModeReadWrite. reqdims, the shape of a
// typical section that will be read or written (or nil), becomes the tile
// shape: sections made of whole tiles move without reading anything
// first. The file appears under its name at Close; until then it is file +
// ".partial". It is collective over GA's default group. Its transfers
// share the I/O as SetDefaultConfig said, by default every process.
func Create[T ga.Elem](dims []int, name, file string, mode Mode, reqdims []int) (*Array[T], error) {
	return create[T]("Create", dims, name, file, mode, reqdims, defaultConfig.Load())
}

// CreateConfig is Create with the Config of the array's transfers
// (NDRA_Create_config).
func CreateConfig[T ga.Elem](dims []int, name, file string, mode Mode, reqdims []int, cfg Config) (*Array[T], error) {
	return create[T]("CreateConfig", dims, name, file, mode, reqdims, &cfg)
}

func create[T ga.Elem](op string, dims []int, name, file string, mode Mode, reqdims []int, cfg *Config) (*Array[T], error) {
	pg, c, err := group(op, file)
	if err != nil {
		return nil, err
	}
	typ, tname := typeCode[T]()
	var check error
	switch {
	case typ == 0:
		check = errorf(op, file, nil, "element type %s", tname)
	case mode != ModeWrite && mode != ModeReadWrite:
		check = errorf(op, file, nil, "mode %v: Create takes ModeWrite or ModeReadWrite", mode)
	case len(dims) < 1 || len(dims) > ga.MaxDim:
		check = errorf(op, file, nil, "%d dimensions; 1 to %d are allowed", len(dims), ga.MaxDim)
	case reqdims != nil && len(reqdims) != len(dims):
		check = errorf(op, file, nil, "reqdims %v for dims %v", reqdims, dims)
	}
	if cfg != nil && check == nil {
		_, check = cfg.resolve(op, file, 1)
	}
	for d := range dims {
		if check == nil && dims[d] < 1 {
			check = errorf(op, file, nil, "dims %v: extent %d in dimension %d", dims, dims[d], d)
		}
	}
	d := &Array[T]{pg: pg, comm: c, file: file, tmp: file + partial, mode: mode, cfg: cfg}
	if check == nil {
		es := elemSize[T]()
		tile := chooseTile(dims, reqdims, es)
		h := &header{typ: typ, dims: slices.Clone(dims), tile: tile, name: name, esize: es}
		h.sums = make([]uint64, product(h.tileGrid()))
		h.size = headerSize(len(dims), name, len(h.sums))
		d.h = h
		check = admit(op, file, d, h.dataBytes())
	}
	// The file's final size at once, zeros: unwritten sections read as
	// zeros, whose checksum is 0.
	size := 0
	if d.h != nil {
		size = d.h.size + d.h.dataBytes()
	}
	if d.f, err = createPartial(op, c, file, size, check); err != nil {
		if check == nil {
			release(d)
		}
		return nil, err
	}
	return d, nil
}

// Open opens the disk array in file (DRA_Open), which must hold elements of
// T. With ModeRead it is read in place; with ModeWrite or ModeReadWrite it is first
// copied to file + ".partial" (by all processes, each a part), and Close
// puts the copy in its place. It is collective over GA's default group;
// every process gets the same error for a missing, truncated, damaged or
// foreign file, or one of another element type (ErrMismatch).
func Open[T ga.Elem](file string, mode Mode) (*Array[T], error) {
	const op = "Open"
	pg, c, err := group(op, file)
	if err != nil {
		return nil, err
	}
	check := notRegular(op, file)
	if mode != ModeRead && mode != ModeWrite && mode != ModeReadWrite {
		check = errorf(op, file, nil, "mode %v", mode)
	}
	if err := agree(c, op, file, check); err != nil {
		return nil, err
	}
	d := &Array[T]{pg: pg, comm: c, file: file, mode: mode, cfg: defaultConfig.Load()}
	name, fmode := file, mpi.ModeRdonly
	if mode != ModeRead {
		d.tmp, name, fmode = file+partial, file+partial, mpi.ModeRdwr
		var err error
		if c.Rank() == 0 {
			err = makeSized(file, d.tmp)
		}
		if err = agree(c, op, file, err); err == nil {
			err = agree(c, op, file, copyPart(file, d.tmp, c.Rank(), c.Size()))
		}
		if err != nil {
			d.removeTmp()
			return nil, err
		}
	}
	if d.f, err = openShared(op, c, file, name, fmode); err != nil {
		d.removeTmp()
		return nil, err
	}
	h, err := d.readHeader(op)
	if err == nil {
		d.h = h
		err = admit(op, file, d, h.dataBytes())
	}
	if err := agree(c, op, file, err); err != nil {
		d.discard(op)
		return nil, err
	}
	return d, nil
}

// notRegular refuses a file that exists but is not a regular file (a
// directory, a FIFO, a device): MPI-IO's collective open and read of one
// can block some processes for ever. A missing file is left to the open,
// which reports it.
func notRegular(op, file string) error {
	st, err := os.Stat(file)
	if err != nil || st.Mode().IsRegular() {
		return nil
	}
	return errorf(op, file, ErrFormat, "not a regular file (%v)", st.Mode().Type())
}

// makeSized creates dst with src's size, for the processes to copy src
// into by parts.
func makeSized(src, dst string) error {
	const op = "Open"
	st, err := os.Stat(src)
	if err != nil {
		return errorf(op, src, err, "%v", err)
	}
	out, err := os.Create(dst)
	if err == nil {
		err = errors.Join(out.Truncate(st.Size()), out.Close())
	}
	if err != nil {
		return errorf(op, dst, err, "%v", err)
	}
	return nil
}

// copyPart copies this process's share of src's bytes into dst and syncs
// it.
func copyPart(src, dst string, me, n int) error {
	const op = "Open"
	in, err := os.Open(src)
	if err != nil {
		return errorf(op, src, err, "%v", err)
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return errorf(op, src, err, "%v", err)
	}
	out, err := os.OpenFile(dst, os.O_WRONLY, 0)
	if err != nil {
		return errorf(op, dst, err, "%v", err)
	}
	size := st.Size()
	lo, hi := int64(me)*size/int64(n), int64(me+1)*size/int64(n)
	_, err = io.Copy(io.NewOffsetWriter(out, lo), io.NewSectionReader(in, lo, hi-lo))
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return errorf(op, dst, err, "copying bytes %d to %d: %v", lo, hi, err)
	}
	return nil
}

// readHeader reads and checks the header of d's file on every process,
// and the file's size.
func (d *Array[T]) readHeader(op string) (*header, error) {
	size, err := d.f.Size()
	if err != nil {
		return nil, errorf(op, d.file, err, "%v", err)
	}
	bad := func(format string, a ...any) (*header, error) {
		return nil, errorf(op, d.file, ErrFormat, format, a...)
	}
	if size < fixedHeader {
		return bad("truncated: %d bytes, shorter than a header", size)
	}
	b := make([]byte, fixedHeader)
	if _, err := mpi.ReadAtAll(d.f, 0, b); err != nil {
		return nil, errorf(op, d.file, err, "%v", err)
	}
	hsize, err := fixedFields(b)
	if err != nil {
		return bad("%v", err)
	}
	if size < hsize {
		return bad("truncated: %d bytes, shorter than its header of %d", size, hsize)
	}
	b = make([]byte, hsize)
	if _, err := mpi.ReadAtAll(d.f, 0, b); err != nil {
		return nil, errorf(op, d.file, err, "%v", err)
	}
	h, err := decode(b)
	if err != nil {
		return bad("%v", err)
	}
	typ, tname := typeCode[T]()
	if h.typ != typ {
		return nil, errorf(op, d.file, ErrMismatch, "the file holds %s elements, not %s", typeNames[h.typ], tname)
	}
	h.esize = elemSize[T]()
	if want := h.size + h.dataBytes(); size != want {
		return bad("truncated or extended: %d bytes, want %d for dims %v", size, want, h.dims)
	}
	return h, nil
}

// valid checks that d can be used.
func (d *Array[T]) valid(op string) error {
	switch {
	case d == nil:
		return errorf(op, "", ErrClosed, "nil disk array")
	case d.closed:
		return errorf(op, d.file, ErrClosed, "the disk array is closed")
	}
	return nil
}

// Close completes the transfers in flight and closes the disk array
// (DRA_Close). A written array is synced to the device with its header,
// then takes its file's name; if any transfer
// on it failed, the partial file is removed instead and Close returns that
// failure, leaving what was under the file's name before. It is
// collective.
func (d *Array[T]) Close() error {
	const op = "Close"
	if err := d.valid(op); err != nil {
		return err
	}
	werr := d.settle()
	if d.tmp == "" {
		d.closed = true
		release(d)
		return agree(d.comm, op, d.file, d.closeFile(op))
	}
	if err := d.failed; err != nil {
		d.discard(op)
		return errorf(op, d.file, err, "nothing written: an earlier transfer failed: %v", err)
	}
	if werr != nil { // the same on every process: Wait agreed
		d.discard(op)
		return werr
	}
	d.closed = true
	release(d)
	return publish(op, d.comm, d.f, d.file, d.writeHeader(op))
}

// settle waits for the transfer in flight, if any.
func (d *Array[T]) settle() error {
	if d.pending == nil {
		return nil
	}
	return d.pending.Wait()
}

// writeHeader writes the header (process 0).
func (d *Array[T]) writeHeader(op string) error {
	return writeHead(op, d.comm, d.f, d.file, d.h.encode())
}

// writeHead writes a file's header from process 0, at the file's start,
// and returns this process's error, for the caller to agree on.
func writeHead(op string, c *mpi.Comm, f *mpi.File, file string, b []byte) error {
	err := mpi.SetView[byte](f, 0, nil, nil)
	if err == nil && c.Rank() == 0 {
		var n int
		if n, err = mpi.WriteAt(f, 0, b); err == nil && n != len(b) {
			err = fmt.Errorf("wrote %d of %d header bytes", n, len(b))
		}
	}
	if err != nil {
		err = errorf(op, file, err, "writing the header: %v", err)
	}
	return err
}

func (d *Array[T]) closeFile(op string) error {
	if err := d.f.Close(); err != nil {
		return errorf(op, d.file, err, "%v", err)
	}
	return nil
}

// discard closes d without keeping what was written.
func (d *Array[T]) discard(op string) {
	d.closed = true
	release(d)
	if d.f != nil {
		d.f.Close()
	}
	d.removeTmp()
}

// removeTmp removes the partial file, if d has one.
func (d *Array[T]) removeTmp() {
	if d.tmp != "" {
		removePartial(d.comm, d.file)
	}
}

// Delete closes the disk array without keeping what was written and
// removes its file (DRA_Delete). It is collective.
func (d *Array[T]) Delete() error {
	const op = "Delete"
	if err := d.valid(op); err != nil {
		return err
	}
	d.settle()
	d.discard(op)
	var err error
	if d.comm.Rank() == 0 {
		if rerr := os.Remove(d.file); rerr != nil && !os.IsNotExist(rerr) {
			err = errorf(op, d.file, rerr, "%v", rerr)
		}
	}
	return agree(d.comm, op, d.file, err)
}

// Inquire returns the element type's name, the dims, the array's name and
// its file (NDRA_Inquire).
func (d *Array[T]) Inquire() (typ string, dims []int, name, file string) {
	if d == nil || d.h == nil {
		return "", nil, "", ""
	}
	return typeNames[d.h.typ], slices.Clone(d.h.dims), d.h.name, d.file
}

// Dims returns the array's dims.
func (d *Array[T]) Dims() []int {
	_, dims, _, _ := d.Inquire()
	return dims
}

// Tile returns the tile shape: the unit of checksums, and the grain of
// sections that move without reading first.
func (d *Array[T]) Tile() []int {
	if d == nil || d.h == nil {
		return nil
	}
	return slices.Clone(d.h.tile)
}
