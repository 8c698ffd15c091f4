package mpi

import (
	"sync"
	"unsafe"

	"github.com/goga-hpc/goga/cgo"
)

// Win is an MPI-3 RMA window. Its memory is C memory (MPI_Win_allocate,
// MPI_Win_allocate_shared, or Mem from AllocMem), seen from Go as a slice that
// the garbage collector never moves. Every rank's size and displacement unit
// are known locally, so one-sided calls check their target range before any MPI
// call.
type Win struct {
	h      cgo.Win
	comm   *Comm
	base   unsafe.Pointer
	size   int
	sizes  []int // bytes exposed by each rank
	units  []int // displacement unit of each rank
	shared bool
	freed  bool

	keep kept // origin buffers of operations in flight
}

// kept holds the origin buffers of operations that MPI may still read or
// write, per target rank, reachable until a flush or unlock completes them: a
// temporary slice passed to Put must not be collected before the flush. A
// flush completes the operations issued before it started, so it lets go of
// those buffers only: another goroutine's, added while it ran, stay. Marks
// count every buffer ever kept for a rank, so that flushes that overlap let
// go of each buffer once.
type kept struct {
	mu      sync.Mutex
	bufs    [][]unsafe.Pointer
	dropped []int // buffers let go of so far, per rank
}

// add keeps p for rank, one of n ranks.
func (k *kept) add(n, rank int, p unsafe.Pointer) {
	k.mu.Lock()
	if k.bufs == nil {
		k.bufs, k.dropped = make([][]unsafe.Pointer, n), make([]int, n)
	}
	k.bufs[rank] = append(k.bufs[rank], p)
	k.mu.Unlock()
}

// mark returns the mark of the buffers kept for rank, before a flush starts.
func (k *kept) mark(rank int) int {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.bufs == nil {
		return 0
	}
	return k.dropped[rank] + len(k.bufs[rank])
}

// markAll is mark for every rank.
func (k *kept) markAll() []int {
	k.mu.Lock()
	defer k.mu.Unlock()
	m := make([]int, len(k.bufs))
	for r, b := range k.bufs {
		m[r] = k.dropped[r] + len(b)
	}
	return m
}

// drop lets go of the buffers kept for rank up to mark once a flush that
// started after mark was taken has completed (err == nil); it returns err.
func (k *kept) drop(rank, mark int, err error) error {
	if err != nil || mark == 0 {
		return err
	}
	k.mu.Lock()
	if n := mark - k.dropped[rank]; n > 0 {
		b := k.bufs[rank]
		rest := copy(b, b[n:])
		clear(b[rest:])
		k.bufs[rank] = b[:rest]
		k.dropped[rank] = mark
	}
	k.mu.Unlock()
	return nil
}

// dropAll is drop for every rank, with the marks from markAll.
func (k *kept) dropAll(marks []int, err error) error {
	for r, m := range marks {
		k.drop(r, m, err)
	}
	return err
}

// issued checks an RMA call's return code and, if it started, keeps its origin
// buffer reachable until the operation completes.
func (w *Win) issued(op string, rank int, p unsafe.Pointer, rc int) error {
	if err := check(op, rc); err != nil || p == nil || rank == ProcNull {
		return err
	}
	w.keep.add(len(w.sizes), rank, p)
	return nil
}

// LockType selects an exclusive or shared passive-target lock.
type LockType int

// Lock types for Win.Lock.
const (
	LockExclusive LockType = cgo.LockExclusive
	LockShared    LockType = cgo.LockShared
)

// ModeNocheck is the MPI_MODE_NOCHECK assertion for Lock and LockAll.
const ModeNocheck = cgo.ModeNocheck

func winArgs(op string, c *Comm, size, dispUnit int) error {
	if err := c.valid(op); err != nil {
		return err
	}
	if size < 0 {
		return argErr(op, "size", "%d is negative", size)
	}
	if dispUnit < 1 {
		return argErr(op, "dispUnit", "%d is not positive", dispUnit)
	}
	return nil
}

// newWin learns every rank's size and unit; it is collective.
func newWin(op string, c *Comm, h cgo.Win, base unsafe.Pointer, size, dispUnit int, shared bool) (*Win, error) {
	w := &Win{h: h, comm: c, base: base, size: size, shared: shared}
	all := make([]int, 2*c.size)
	if err := Allgather(c, []int{size, dispUnit}, all); err != nil {
		cgo.WinFree(h)
		return nil, err
	}
	w.sizes, w.units = make([]int, c.size), make([]int, c.size)
	for r := range c.size {
		w.sizes[r], w.units[r] = all[2*r], all[2*r+1]
	}
	return w, nil
}

// WinAllocate is MPI_Win_allocate: each rank exposes size bytes of new memory,
// addressed in units of dispUnit bytes. It is collective over c.
func WinAllocate(c *Comm, size, dispUnit int) (*Win, error) {
	if err := winArgs("WinAllocate", c, size, dispUnit); err != nil {
		return nil, err
	}
	base, h, rc := cgo.WinAllocate(size, dispUnit, c.h)
	if err := check("WinAllocate", rc); err != nil {
		return nil, err
	}
	return newWin("WinAllocate", c, h, base, size, dispUnit, false)
}

// WinAllocateShared is MPI_Win_allocate_shared: like WinAllocate, but every
// rank of c (which must share a node, see SplitType) can load and store the
// others' memory directly through SharedQuery.
func WinAllocateShared(c *Comm, size, dispUnit int) (*Win, error) {
	if err := winArgs("WinAllocateShared", c, size, dispUnit); err != nil {
		return nil, err
	}
	base, h, rc := cgo.WinAllocateShared(size, dispUnit, false, c.h)
	if err := check("WinAllocateShared", rc); err != nil {
		return nil, err
	}
	return newWin("WinAllocateShared", c, h, base, size, dispUnit, true)
}

// WinCreate is MPI_Win_create on memory from AllocMem (never Go memory, which
// the garbage collector may move). It is collective over c.
func WinCreate(c *Comm, m *Mem, dispUnit int) (*Win, error) {
	if err := m.valid("WinCreate"); err != nil {
		return nil, err
	}
	if err := winArgs("WinCreate", c, m.n, dispUnit); err != nil {
		return nil, err
	}
	h, rc := cgo.WinCreate(m.p, m.n, dispUnit, c.h)
	if err := check("WinCreate", rc); err != nil {
		return nil, err
	}
	return newWin("WinCreate", c, h, m.p, m.n, dispUnit, false)
}

// WinCreateShared is MPI_Win_create over this rank's part of the
// shared-memory window sw from byte offset off on, so that ranks of c off
// the node reach by RMA the memory that sw's ranks load and store directly.
// It is collective over c. The new window must be freed before sw.
func WinCreateShared(c *Comm, sw *Win, off, dispUnit int) (*Win, error) {
	if err := sw.valid("WinCreateShared"); err != nil {
		return nil, err
	}
	if !sw.shared {
		return nil, argErr("WinCreateShared", "sw", "not a shared-memory window (use WinAllocateShared)")
	}
	if off < 0 || off > sw.size {
		return nil, argErr("WinCreateShared", "off", "%d outside the %d-byte part", off, sw.size)
	}
	size := sw.size - off
	if err := winArgs("WinCreateShared", c, size, dispUnit); err != nil {
		return nil, err
	}
	base := unsafe.Add(sw.base, off)
	h, rc := cgo.WinCreate(base, size, dispUnit, c.h)
	if err := check("WinCreateShared", rc); err != nil {
		return nil, err
	}
	return newWin("WinCreateShared", c, h, base, size, dispUnit, false)
}

func (w *Win) valid(op string) error {
	if err := running(op); err != nil {
		return err
	}
	if w == nil {
		return stateErr(op, "win", ErrNil)
	}
	if w.freed {
		return stateErr(op, "win", ErrFreed)
	}
	return nil
}

// Comm returns the communicator the window was made over.
func (w *Win) Comm() *Comm { return w.comm }

// Bytes returns this rank's window memory. It stays valid until Free.
func (w *Win) Bytes() []byte {
	if w == nil || w.freed || w.size == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(w.base), w.size)
}

// SizeOf returns the number of bytes rank r exposes.
// It is 0 for a rank outside the window's communicator.
func (w *Win) SizeOf(r int) int {
	if w == nil || r < 0 || r >= len(w.sizes) {
		return 0
	}
	return w.sizes[r]
}

// Local returns this rank's window memory as a slice of T. It stays valid until
// the window is freed.
func Local[T Elem](w *Win) ([]T, error) {
	if err := w.valid("Local"); err != nil {
		return nil, err
	}
	return asSlice[T]("Local", w.base, w.size)
}

func asSlice[T Elem](op string, p unsafe.Pointer, n int) ([]T, error) {
	e := info[T]()
	if n%e.size != 0 {
		return nil, argErr(op, "T", "%d bytes is not a whole number of %s", n, e.name)
	}
	if n == 0 || p == nil {
		return []T{}, nil
	}
	return unsafe.Slice((*T)(p), n/e.size), nil
}

// SharedQuery is MPI_Win_shared_query on a window from WinAllocateShared: rank
// r's memory as a slice this process can read and write directly.
func SharedQuery[T Elem](w *Win, r int) ([]T, error) {
	const op = "SharedQuery"
	if err := w.valid(op); err != nil {
		return nil, err
	}
	if !w.shared {
		return nil, argErr(op, "win", "not a shared-memory window (use WinAllocateShared)")
	}
	if err := w.comm.checkRank(op, "rank", r, false); err != nil {
		return nil, err
	}
	base, size, _, rc := cgo.WinSharedQuery(w.h, r)
	if err := check(op, rc); err != nil {
		return nil, err
	}
	return asSlice[T](op, base, size)
}

// Free is MPI_Win_free; it is collective.
func (w *Win) Free() error {
	if err := w.valid("Win.Free"); err != nil {
		return err
	}
	if err := check("Win.Free", cgo.WinFree(w.h)); err != nil {
		return err
	}
	w.freed = true
	return nil
}

// LockAll is MPI_Win_lock_all: a shared passive-target epoch to every rank.
func (w *Win) LockAll(assert int) error {
	if err := w.valid("LockAll"); err != nil {
		return err
	}
	return check("LockAll", cgo.WinLockAll(assert, w.h))
}

// UnlockAll is MPI_Win_unlock_all.
func (w *Win) UnlockAll() error {
	if err := w.valid("UnlockAll"); err != nil {
		return err
	}
	marks := w.keep.markAll()
	return w.keep.dropAll(marks, check("UnlockAll", cgo.WinUnlockAll(w.h)))
}

// Lock is MPI_Win_lock on one target rank.
func (w *Win) Lock(t LockType, rank, assert int) error {
	if err := w.valid("Lock"); err != nil {
		return err
	}
	if t != LockExclusive && t != LockShared {
		return argErr("Lock", "type", "unknown lock type %d", t)
	}
	if err := w.comm.checkRank("Lock", "rank", rank, false); err != nil {
		return err
	}
	if rank == ProcNull {
		return nil // allowed by MPI-3, but Open MPI 4.1 refuses MPI_PROC_NULL here
	}
	return check("Lock", cgo.WinLock(int(t), rank, assert, w.h))
}

// Unlock is MPI_Win_unlock.
func (w *Win) Unlock(rank int) error {
	if err := w.valid("Unlock"); err != nil {
		return err
	}
	if err := w.comm.checkRank("Unlock", "rank", rank, false); err != nil {
		return err
	}
	if rank == ProcNull {
		return nil // allowed by MPI-3, but Open MPI 4.1 refuses MPI_PROC_NULL here
	}
	n := w.keep.mark(rank)
	return w.keep.drop(rank, n, check("Unlock", cgo.WinUnlock(rank, w.h)))
}

// Flush is MPI_Win_flush: this rank's operations to rank are complete at the
// target when it returns.
func (w *Win) Flush(rank int) error {
	if err := w.valid("Flush"); err != nil {
		return err
	}
	if err := w.comm.checkRank("Flush", "rank", rank, false); err != nil {
		return err
	}
	if rank == ProcNull {
		return nil // nothing to complete (and osc/ucx segfaults on MPI_PROC_NULL)
	}
	n := w.keep.mark(rank)
	return w.keep.drop(rank, n, check("Flush", cgo.WinFlush(rank, w.h)))
}

// FlushAll is MPI_Win_flush_all.
func (w *Win) FlushAll() error {
	if err := w.valid("FlushAll"); err != nil {
		return err
	}
	marks := w.keep.markAll()
	return w.keep.dropAll(marks, check("FlushAll", cgo.WinFlushAll(w.h)))
}

// FlushLocal is MPI_Win_flush_local: the origin buffers of this rank's
// operations to rank may be reused when it returns.
func (w *Win) FlushLocal(rank int) error {
	if err := w.valid("FlushLocal"); err != nil {
		return err
	}
	if err := w.comm.checkRank("FlushLocal", "rank", rank, false); err != nil {
		return err
	}
	if rank == ProcNull {
		return nil // nothing to complete (and osc/ucx segfaults on MPI_PROC_NULL)
	}
	n := w.keep.mark(rank)
	return w.keep.drop(rank, n, check("FlushLocal", cgo.WinFlushLocal(rank, w.h)))
}

// FlushLocalAll is MPI_Win_flush_local_all.
func (w *Win) FlushLocalAll() error {
	if err := w.valid("FlushLocalAll"); err != nil {
		return err
	}
	marks := w.keep.markAll()
	return w.keep.dropAll(marks, check("FlushLocalAll", cgo.WinFlushLocalAll(w.h)))
}

// Sync is MPI_Win_sync: it makes this rank's public and private copies of its
// window agree (needed around direct loads and stores to shared memory).
func (w *Win) Sync() error {
	if err := w.valid("Sync"); err != nil {
		return err
	}
	return check("Sync", cgo.WinSync(w.h))
}

// target checks an operation on n bytes at disp units into rank's window.
func (w *Win) target(op string, rank, disp, n int) error {
	if err := w.valid(op); err != nil {
		return err
	}
	if rank == ProcNull {
		return nil
	}
	if err := w.comm.checkRank(op, "rank", rank, false); err != nil {
		return err
	}
	if disp < 0 {
		return argErr(op, "disp", "%d is negative", disp)
	}
	// Compare in units first: disp * unit can overflow for a huge disp.
	if disp > w.sizes[rank]/w.units[rank] {
		return argErr(op, "disp", "%d units of %d bytes pass the end of rank %d's window of %d bytes", disp, w.units[rank], rank, w.sizes[rank])
	}
	off := disp * w.units[rank]
	if off+n > w.sizes[rank] {
		return argErr(op, "disp", "%d bytes at byte %d pass the end of rank %d's window of %d bytes", n, off, rank, w.sizes[rank])
	}
	return nil
}

// contig checks a contiguous operation of buf at disp and returns its type.
func contig[T Elem](w *Win, op string, buf []T, rank, disp int) (elemInfo, error) {
	e := info[T]()
	if err := checkCount(op, "origin", len(buf)); err != nil {
		return e, err
	}
	return e, w.target(op, rank, disp, len(buf)*e.size)
}

// Put is MPI_Put of origin into rank's window at disp (in the target's
// displacement units). It completes at Flush, FlushLocal or Unlock.
func Put[T Elem](w *Win, origin []T, rank, disp int) error {
	e, err := contig(w, "Put", origin, rank, disp)
	if err != nil {
		return err
	}
	p := ptr(origin)
	return w.issued("Put", rank, p, cgo.Put(p, len(origin), e.dt, rank, disp, len(origin), e.dt, w.h))
}

// Get is MPI_Get of len(origin) elements from rank's window at disp. origin is
// filled at Flush, FlushLocal or Unlock.
func Get[T Elem](w *Win, origin []T, rank, disp int) error {
	e, err := contig(w, "Get", origin, rank, disp)
	if err != nil {
		return err
	}
	p := ptr(origin)
	return w.issued("Get", rank, p, cgo.Get(p, len(origin), e.dt, rank, disp, len(origin), e.dt, w.h))
}

// Accumulate is MPI_Accumulate: rank's window at disp becomes window op origin,
// element by element and atomically per element against other accumulates.
func Accumulate[T Elem](w *Win, origin []T, rank, disp int, o Op) error {
	e, err := contig(w, "Accumulate", origin, rank, disp)
	if err != nil {
		return err
	}
	if err := checkOp("Accumulate", o, e, true); err != nil {
		return err
	}
	p := ptr(origin)
	return w.issued("Accumulate", rank, p, cgo.Accumulate(p, len(origin), e.dt, rank, disp, len(origin), e.dt, o.h, w.h))
}

// GetAccumulate is MPI_Get_accumulate: result gets the target's old values and
// the target is combined with origin by op (NoOp makes it an atomic read).
func GetAccumulate[T Elem](w *Win, origin, result []T, rank, disp int, o Op) error {
	const op = "GetAccumulate"
	e, err := contig(w, op, result, rank, disp)
	if err != nil {
		return err
	}
	if o != NoOp && len(origin) != len(result) {
		return argErr(op, "origin", "holds %d elements, result %d", len(origin), len(result))
	}
	if err := checkOp(op, o, e, true); err != nil {
		return err
	}
	po, pr := ptr(origin), ptr(result)
	if err := w.issued(op, rank, po, cgo.GetAccumulate(po, len(origin), e.dt, pr, len(result), e.dt,
		rank, disp, len(result), e.dt, o.h, w.h)); err != nil {
		return err
	}
	return w.issued(op, rank, pr, cgo.Success)
}

// FetchAndOp is MPI_Fetch_and_op on one element: it returns the target's old
// value and combines the target with value by op. The result is available when
// the call returns (FetchAndOp flushes).
func FetchAndOp[T Elem](w *Win, value T, rank, disp int, o Op) (T, error) {
	var old T
	const op = "FetchAndOp"
	e := info[T]()
	if err := w.target(op, rank, disp, e.size); err != nil {
		return old, err
	}
	if err := checkOp(op, o, e, true); err != nil {
		return old, err
	}
	if rank == ProcNull {
		return old, nil // no flush: osc/ucx segfaults flushing MPI_PROC_NULL
	}
	var rc int
	if e.kind == kindInt {
		rc = cgo.FetchAndOp(unsafe.Pointer(&value), unsafe.Pointer(&old), e.dt, rank, disp, o.h, w.h)
	} else {
		// The same operation as MPI_Get_accumulate of one element. Open MPI
		// 4.1's osc/ucx runs MPI_Fetch_and_op with MPI_SUM as a hardware
		// integer add whatever the type: it corrupts float32/float64 and does
		// nothing at all on complex128 (returning success).
		rc = cgo.GetAccumulate(unsafe.Pointer(&value), 1, e.dt, unsafe.Pointer(&old), 1, e.dt, rank, disp, 1, e.dt, o.h, w.h)
	}
	if err := check(op, rc); err != nil {
		return old, err
	}
	return old, check(op, cgo.WinFlush(rank, w.h))
}

// CompareAndSwap is MPI_Compare_and_swap on one element: if the target equals
// compare it becomes value. It returns the target's old value, available when
// the call returns (CompareAndSwap flushes). T must be an integer type.
func CompareAndSwap[T Elem](w *Win, value, compare T, rank, disp int) (T, error) {
	var old T
	const op = "CompareAndSwap"
	e := info[T]()
	if e.kind != kindInt {
		return old, argErr(op, "T", "%s: MPI defines compare-and-swap only on integers", e.name)
	}
	if err := w.target(op, rank, disp, e.size); err != nil {
		return old, err
	}
	if rank == ProcNull {
		return old, nil
	}
	if err := check(op, cgo.CompareAndSwap(unsafe.Pointer(&value), unsafe.Pointer(&compare), unsafe.Pointer(&old), e.dt, rank, disp, w.h)); err != nil {
		return old, err
	}
	return old, check(op, cgo.WinFlush(rank, w.h))
}

// Rput is MPI_Rput: Put with a request that completes when origin may be reused.
func Rput[T Elem](w *Win, origin []T, rank, disp int) (*Request, error) {
	e, err := contig(w, "Rput", origin, rank, disp)
	if err != nil {
		return nil, err
	}
	r := newRequest("Rput", origin, e.size)
	h, rc := cgo.Rput(ptr(origin), len(origin), e.dt, rank, disp, len(origin), e.dt, w.h)
	return r.started(h, check("Rput", rc))
}

// Rget is MPI_Rget: Get with a request that completes when origin holds the data.
func Rget[T Elem](w *Win, origin []T, rank, disp int) (*Request, error) {
	e, err := contig(w, "Rget", origin, rank, disp)
	if err != nil {
		return nil, err
	}
	r := newRequest("Rget", origin, e.size)
	h, rc := cgo.Rget(ptr(origin), len(origin), e.dt, rank, disp, len(origin), e.dt, w.h)
	return r.started(h, check("Rget", rc))
}

// Raccumulate is MPI_Raccumulate: Accumulate with a request that completes when
// origin may be reused.
func Raccumulate[T Elem](w *Win, origin []T, rank, disp int, o Op) (*Request, error) {
	e, err := contig(w, "Raccumulate", origin, rank, disp)
	if err != nil {
		return nil, err
	}
	if err := checkOp("Raccumulate", o, e, true); err != nil {
		return nil, err
	}
	r := newRequest("Raccumulate", origin, e.size)
	h, rc := cgo.Raccumulate(ptr(origin), len(origin), e.dt, rank, disp, len(origin), e.dt, o.h, w.h)
	return r.started(h, check("Raccumulate", rc))
}

// typed checks a transfer that uses derived datatypes on both sides.
func typed[T Elem](w *Win, op string, origin []T, ot *Datatype, rank, disp int, tt *Datatype) (elemInfo, error) {
	e := info[T]()
	if err := ot.valid(op, "originType"); err != nil {
		return e, err
	}
	if err := tt.valid(op, "targetType"); err != nil {
		return e, err
	}
	if ot.elem.dt != e.dt || tt.elem.dt != e.dt {
		return e, argErr(op, "originType", "datatypes over %s and %s used with []%s", ot.elem.name, tt.elem.name, e.name)
	}
	if ot.size != tt.size {
		return e, argErr(op, "targetType", "selects %d bytes, originType %d", tt.size, ot.size)
	}
	if ot.Span() > len(origin) {
		return e, argErr(op, "origin", "holds %d elements, originType spans %d", len(origin), ot.Span())
	}
	return e, w.target(op, rank, disp, tt.extent)
}

// PutTyped is MPI_Put with derived datatypes: the elements of origin that
// originType selects go to the places targetType selects in rank's window from
// disp on. Both types must select the same amount of data.
func PutTyped[T Elem](w *Win, origin []T, originType *Datatype, rank, disp int, targetType *Datatype) error {
	if _, err := typed(w, "PutTyped", origin, originType, rank, disp, targetType); err != nil {
		return err
	}
	p := ptr(origin)
	return w.issued("PutTyped", rank, p, cgo.Put(p, 1, originType.h, rank, disp, 1, targetType.h, w.h))
}

// GetTyped is MPI_Get with derived datatypes (see PutTyped).
func GetTyped[T Elem](w *Win, origin []T, originType *Datatype, rank, disp int, targetType *Datatype) error {
	if _, err := typed(w, "GetTyped", origin, originType, rank, disp, targetType); err != nil {
		return err
	}
	p := ptr(origin)
	return w.issued("GetTyped", rank, p, cgo.Get(p, 1, originType.h, rank, disp, 1, targetType.h, w.h))
}

// AccumulateTyped is MPI_Accumulate with derived datatypes (see PutTyped).
func AccumulateTyped[T Elem](w *Win, origin []T, originType *Datatype, rank, disp int, targetType *Datatype, o Op) error {
	e, err := typed(w, "AccumulateTyped", origin, originType, rank, disp, targetType)
	if err != nil {
		return err
	}
	if err := checkOp("AccumulateTyped", o, e, true); err != nil {
		return err
	}
	p := ptr(origin)
	return w.issued("AccumulateTyped", rank, p, cgo.Accumulate(p, 1, originType.h, rank, disp, 1, targetType.h, o.h, w.h))
}

// Mem is memory from MPI_Alloc_mem, for WinCreate.
type Mem struct {
	p     unsafe.Pointer
	n     int
	freed bool
}

// AllocMem is MPI_Alloc_mem: n bytes of C memory that MPI may register.
func AllocMem(n int) (*Mem, error) {
	if err := running("AllocMem"); err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, argErr("AllocMem", "n", "%d is negative", n)
	}
	p, rc := cgo.AllocMem(n)
	if err := check("AllocMem", rc); err != nil {
		return nil, err
	}
	return &Mem{p: p, n: n}, nil
}

func (m *Mem) valid(op string) error {
	if m == nil {
		return stateErr(op, "m", ErrNil)
	}
	if m.freed {
		return stateErr(op, "m", ErrFreed)
	}
	return nil
}

// Bytes returns the memory as a byte slice.
func (m *Mem) Bytes() []byte {
	if m == nil || m.freed || m.n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(m.p), m.n)
}

// MemSlice returns the memory as a slice of T.
func MemSlice[T Elem](m *Mem) ([]T, error) {
	if err := m.valid("MemSlice"); err != nil {
		return nil, err
	}
	return asSlice[T]("MemSlice", m.p, m.n)
}

// Free is MPI_Free_mem. Free any window on the memory first.
func (m *Mem) Free() error {
	if m == nil || m.freed {
		return stateErr("Mem.Free", "m", ErrFreed)
	}
	if err := running("Mem.Free"); err != nil {
		return err
	}
	if err := check("Mem.Free", cgo.FreeMem(m.p)); err != nil {
		return err
	}
	m.freed = true
	return nil
}

// Handle returns the C MPI_Win as an integer, for C code compiled into the same
// binary: cast it back with (MPI_Win)h.
func (w *Win) Handle() uintptr {
	if w == nil {
		return uintptr(cgo.WinNull)
	}
	return uintptr(w.h)
}
