package cgo

/*
#include "shim.h"

// noescape lets Go keep a call's pointer arguments on the goroutine stack. It is
// only for calls that are done with their buffers when they return: not for the
// one-sided calls, where MPI reads or writes the origin buffer until a flush,
// and a goroutine stack may move in between.

#cgo noescape goga_init_thread
#cgo nocallback goga_init_thread
#cgo noescape goga_comm_rank_size
#cgo nocallback goga_comm_rank_size
#cgo noescape goga_send
#cgo nocallback goga_send
#cgo noescape goga_recv
#cgo nocallback goga_recv
#cgo noescape goga_sendrecv
#cgo nocallback goga_sendrecv
#cgo noescape goga_bcast
#cgo nocallback goga_bcast
#cgo noescape goga_reduce
#cgo nocallback goga_reduce
#cgo noescape goga_allreduce
#cgo nocallback goga_allreduce
#cgo nocallback goga_put
#cgo nocallback goga_get
#cgo nocallback goga_accumulate
#cgo nocallback goga_get_accumulate
#cgo nocallback goga_fetch_and_op
#cgo nocallback goga_compare_and_swap
#cgo nocallback goga_win_flush
#cgo nocallback goga_win_flush_local
#cgo nocallback goga_win_flush_all
#cgo nocallback goga_win_flush_local_all
#cgo nocallback goga_win_sync
#cgo nocallback goga_barrier
#cgo noescape memcpy
#cgo nocallback memcpy
*/
import "C"

import "unsafe"

// MPI handle types. The zero value is not a valid handle; compare with the
// predefined Null values.
type (
	Comm     uintptr
	Group    uintptr
	Datatype uintptr
	Op       uintptr
	Win      uintptr
	Request  uintptr
)

// Status is MPI_Status as Go reads it. Bytes is the size of the received
// message in bytes (-1 if MPI could not tell).
type Status struct {
	Source, Tag, Error int
	Bytes              int
	Cancelled          bool // MPI_Test_cancelled
}

// Success is MPI_SUCCESS.
const Success = C.MPI_SUCCESS

// Integer constants of the MPI standard.
const (
	AnySource      = C.MPI_ANY_SOURCE
	AnyTag         = C.MPI_ANY_TAG
	ProcNull       = C.MPI_PROC_NULL
	Undefined      = C.MPI_UNDEFINED
	Ident          = C.MPI_IDENT
	Congruent      = C.MPI_CONGRUENT
	Similar        = C.MPI_SIMILAR
	Unequal        = C.MPI_UNEQUAL
	ThreadSingle   = C.MPI_THREAD_SINGLE
	ThreadFunneled = C.MPI_THREAD_FUNNELED
	ThreadSerial   = C.MPI_THREAD_SERIALIZED
	ThreadMultiple = C.MPI_THREAD_MULTIPLE
	CommTypeShared = C.MPI_COMM_TYPE_SHARED
	LockExclusive  = C.MPI_LOCK_EXCLUSIVE
	LockShared     = C.MPI_LOCK_SHARED
	ModeNocheck    = C.MPI_MODE_NOCHECK
	MaxErrorString = C.MPI_MAX_ERROR_STRING
	MaxProcName    = C.MPI_MAX_PROCESSOR_NAME
	ErrOther       = C.MPI_ERR_OTHER
)

// Predefined handles.
var (
	CommWorld, CommSelf, CommNull                    Comm
	GroupEmpty, GroupNull                            Group
	RequestNull                                      Request
	WinNull                                          Win
	DatatypeNull                                     Datatype
	OpNull                                           Op
	Int8, Int16, Int32, Int64                        Datatype
	Uint8, Uint16, Uint32, Uint64                    Datatype
	Float, Double, FloatComplex, DoubleComplex, Byte Datatype
	TwoInt, FloatInt, DoubleInt, LongInt             Datatype
	OpSum, OpProd, OpMin, OpMax                      Op
	OpLand, OpLor, OpLxor, OpBand, OpBor, OpBxor     Op
	OpMinloc, OpMaxloc, OpReplace, OpNoOp            Op
)

func init() {
	var h [C.GOGA_NHANDLES]C.goga_h
	C.goga_handles(&h[0])
	u := func(i int) uintptr { return uintptr(h[i]) }
	CommWorld, CommSelf, CommNull = Comm(u(C.GOGA_COMM_WORLD)), Comm(u(C.GOGA_COMM_SELF)), Comm(u(C.GOGA_COMM_NULL))
	GroupEmpty, GroupNull = Group(u(C.GOGA_GROUP_EMPTY)), Group(u(C.GOGA_GROUP_NULL))
	RequestNull = Request(u(C.GOGA_REQUEST_NULL))
	WinNull = Win(u(C.GOGA_WIN_NULL))
	DatatypeNull = Datatype(u(C.GOGA_DATATYPE_NULL))
	OpNull = Op(u(C.GOGA_OP_NULL))
	d := func(i int) Datatype { return Datatype(u(i)) }
	Int8, Int16, Int32, Int64 = d(C.GOGA_INT8), d(C.GOGA_INT16), d(C.GOGA_INT32), d(C.GOGA_INT64)
	Uint8, Uint16, Uint32, Uint64 = d(C.GOGA_UINT8), d(C.GOGA_UINT16), d(C.GOGA_UINT32), d(C.GOGA_UINT64)
	Float, Double = d(C.GOGA_FLOAT), d(C.GOGA_DOUBLE)
	FloatComplex, DoubleComplex, Byte = d(C.GOGA_C_FLOAT_COMPLEX), d(C.GOGA_C_DOUBLE_COMPLEX), d(C.GOGA_BYTE)
	TwoInt, FloatInt, DoubleInt, LongInt = d(C.GOGA_2INT), d(C.GOGA_FLOAT_INT), d(C.GOGA_DOUBLE_INT), d(C.GOGA_LONG_INT)
	o := func(i int) Op { return Op(u(i)) }
	OpSum, OpProd, OpMin, OpMax = o(C.GOGA_SUM), o(C.GOGA_PROD), o(C.GOGA_MIN), o(C.GOGA_MAX)
	OpLand, OpLor, OpLxor = o(C.GOGA_LAND), o(C.GOGA_LOR), o(C.GOGA_LXOR)
	OpBand, OpBor, OpBxor = o(C.GOGA_BAND), o(C.GOGA_BOR), o(C.GOGA_BXOR)
	OpMinloc, OpMaxloc, OpReplace, OpNoOp = o(C.GOGA_MINLOC), o(C.GOGA_MAXLOC), o(C.GOGA_REPLACE), o(C.GOGA_NO_OP)
}

func h(x uintptr) C.goga_h { return C.goga_h(x) }
func ci(x int) C.int       { return C.int(x) }

func (s *Status) set(c *C.goga_status) {
	s.Source, s.Tag, s.Error, s.Bytes = int(c.source), int(c.tag), int(c.error), int(c.bytes)
	s.Cancelled = c.cancelled != 0
}

// intsPtr returns a pointer to the first element of a C int slice, or nil.
func intsPtr(v []C.int) *C.int {
	if len(v) == 0 {
		return nil
	}
	return &v[0]
}

// cints converts Go ints to C ints for array arguments. Callers check ranges.
func cints(v []int) []C.int {
	out := make([]C.int, len(v))
	for i, x := range v {
		out[i] = C.int(x)
	}
	return out
}

// ---- environment ----

// InitThread is MPI_Init_thread with no arguments.
func InitThread(required int) (provided int, rc int) {
	var p C.int
	rc = int(C.goga_init_thread(ci(required), &p))
	return int(p), rc
}

// Initialized is MPI_Initialized.
func Initialized() bool {
	var f C.int
	C.MPI_Initialized(&f)
	return f != 0
}

// Finalized is MPI_Finalized.
func Finalized() bool {
	var f C.int
	C.MPI_Finalized(&f)
	return f != 0
}

// QueryThread is MPI_Query_thread.
func QueryThread() int {
	var p C.int
	C.MPI_Query_thread(&p)
	return int(p)
}

// Finalize is MPI_Finalize.
func Finalize() int { return int(C.MPI_Finalize()) }

// Abort is MPI_Abort.
func Abort(c Comm, code int) int { return int(C.goga_abort(h(uintptr(c)), ci(code))) }

// Wtime is MPI_Wtime.
func Wtime() float64 { return float64(C.MPI_Wtime()) }

// Wtick is MPI_Wtick.
func Wtick() float64 { return float64(C.MPI_Wtick()) }

// ProcessorName is MPI_Get_processor_name.
func ProcessorName() (string, int) {
	var buf [C.MPI_MAX_PROCESSOR_NAME + 1]C.char
	var n C.int
	rc := int(C.MPI_Get_processor_name(&buf[0], &n))
	return C.GoStringN(&buf[0], n), rc
}

// ErrorString is MPI_Error_string.
func ErrorString(code int) string {
	var buf [C.MPI_MAX_ERROR_STRING + 1]C.char
	var n C.int
	if C.goga_error_string(ci(code), &buf[0], &n) != C.MPI_SUCCESS {
		return ""
	}
	return C.GoStringN(&buf[0], n)
}

// ErrorClass is MPI_Error_class.
func ErrorClass(code int) int {
	var c C.int
	if C.goga_error_class(ci(code), &c) != C.MPI_SUCCESS {
		return code
	}
	return int(c)
}

// CommErrorsReturn sets MPI_ERRORS_RETURN on a communicator.
func CommErrorsReturn(c Comm) int { return int(C.goga_comm_errors_return(h(uintptr(c)))) }

// ---- communicators ----

// CommRankSize is MPI_Comm_rank and MPI_Comm_size in one crossing.
func CommRankSize(c Comm) (rank, size, rc int) {
	var r, s C.int
	rc = int(C.goga_comm_rank_size(h(uintptr(c)), &r, &s))
	return int(r), int(s), rc
}

// CommDup is MPI_Comm_dup.
func CommDup(c Comm) (Comm, int) {
	var o C.goga_h
	rc := C.goga_comm_dup(h(uintptr(c)), &o)
	return Comm(o), int(rc)
}

// CommSplit is MPI_Comm_split.
func CommSplit(c Comm, color, key int) (Comm, int) {
	var o C.goga_h
	rc := C.goga_comm_split(h(uintptr(c)), ci(color), ci(key), &o)
	return Comm(o), int(rc)
}

// CommSplitType is MPI_Comm_split_type with MPI_INFO_NULL.
func CommSplitType(c Comm, typ, key int) (Comm, int) {
	var o C.goga_h
	rc := C.goga_comm_split_type(h(uintptr(c)), ci(typ), ci(key), &o)
	return Comm(o), int(rc)
}

// CommCreate is MPI_Comm_create.
func CommCreate(c Comm, g Group) (Comm, int) {
	var o C.goga_h
	rc := C.goga_comm_create(h(uintptr(c)), h(uintptr(g)), &o)
	return Comm(o), int(rc)
}

// CommFree is MPI_Comm_free.
func CommFree(c Comm) int { return int(C.goga_comm_free(h(uintptr(c)))) }

// CommCompare is MPI_Comm_compare.
func CommCompare(a, b Comm) (int, int) {
	var r C.int
	rc := C.goga_comm_compare(h(uintptr(a)), h(uintptr(b)), &r)
	return int(r), int(rc)
}

// CommGroup is MPI_Comm_group.
func CommGroup(c Comm) (Group, int) {
	var o C.goga_h
	rc := C.goga_comm_group(h(uintptr(c)), &o)
	return Group(o), int(rc)
}

// CommC2F is MPI_Comm_c2f.
func CommC2F(c Comm) int { return int(C.goga_comm_c2f(h(uintptr(c)))) }

// CommF2C is MPI_Comm_f2c.
func CommF2C(f int) Comm { return Comm(C.goga_comm_f2c(ci(f))) }

// ---- groups ----

// GroupRankSize is MPI_Group_rank and MPI_Group_size.
func GroupRankSize(g Group) (rank, size, rc int) {
	var r, s C.int
	rc = int(C.goga_group_rank_size(h(uintptr(g)), &r, &s))
	return int(r), int(s), rc
}

// GroupIncl is MPI_Group_incl.
func GroupIncl(g Group, ranks []int) (Group, int) {
	var o C.goga_h
	cr := cints(ranks)
	rc := C.goga_group_incl(h(uintptr(g)), ci(len(cr)), intsPtr(cr), &o)
	return Group(o), int(rc)
}

// GroupExcl is MPI_Group_excl.
func GroupExcl(g Group, ranks []int) (Group, int) {
	var o C.goga_h
	cr := cints(ranks)
	rc := C.goga_group_excl(h(uintptr(g)), ci(len(cr)), intsPtr(cr), &o)
	return Group(o), int(rc)
}

// GroupUnion is MPI_Group_union.
func GroupUnion(a, b Group) (Group, int) {
	var o C.goga_h
	rc := C.goga_group_union(h(uintptr(a)), h(uintptr(b)), &o)
	return Group(o), int(rc)
}

// GroupIntersection is MPI_Group_intersection.
func GroupIntersection(a, b Group) (Group, int) {
	var o C.goga_h
	rc := C.goga_group_intersection(h(uintptr(a)), h(uintptr(b)), &o)
	return Group(o), int(rc)
}

// GroupTranslateRanks is MPI_Group_translate_ranks.
func GroupTranslateRanks(a Group, ranks []int, b Group) ([]int, int) {
	in := cints(ranks)
	out := make([]C.int, len(in))
	rc := C.goga_group_translate(h(uintptr(a)), ci(len(in)), intsPtr(in), h(uintptr(b)), intsPtr(out))
	res := make([]int, len(out))
	for i, x := range out {
		res[i] = int(x)
	}
	return res, int(rc)
}

// GroupFree is MPI_Group_free.
func GroupFree(g Group) int { return int(C.goga_group_free(h(uintptr(g)))) }

// ---- point to point ----

// Send is MPI_Send.
func Send(buf unsafe.Pointer, count int, t Datatype, dest, tag int, c Comm) int {
	return int(C.goga_send(buf, ci(count), h(uintptr(t)), ci(dest), ci(tag), h(uintptr(c))))
}

// Ssend is MPI_Ssend.
func Ssend(buf unsafe.Pointer, count int, t Datatype, dest, tag int, c Comm) int {
	return int(C.goga_ssend(buf, ci(count), h(uintptr(t)), ci(dest), ci(tag), h(uintptr(c))))
}

// Recv is MPI_Recv.
func Recv(buf unsafe.Pointer, count int, t Datatype, src, tag int, c Comm, st *Status) int {
	var cs C.goga_status
	rc := int(C.goga_recv(buf, ci(count), h(uintptr(t)), ci(src), ci(tag), h(uintptr(c)), &cs))
	st.set(&cs)
	return rc
}

// Sendrecv is MPI_Sendrecv.
func Sendrecv(sbuf unsafe.Pointer, scount int, stype Datatype, dest, stag int,
	rbuf unsafe.Pointer, rcount int, rtype Datatype, src, rtag int, c Comm, st *Status) int {
	var cs C.goga_status
	rc := int(C.goga_sendrecv(sbuf, ci(scount), h(uintptr(stype)), ci(dest), ci(stag),
		rbuf, ci(rcount), h(uintptr(rtype)), ci(src), ci(rtag), h(uintptr(c)), &cs))
	st.set(&cs)
	return rc
}

// Isend is MPI_Isend. The caller pins buf until the request completes.
func Isend(buf unsafe.Pointer, count int, t Datatype, dest, tag int, c Comm) (Request, int) {
	var r C.goga_h
	rc := C.goga_isend(buf, ci(count), h(uintptr(t)), ci(dest), ci(tag), h(uintptr(c)), &r)
	return Request(r), int(rc)
}

// Irecv is MPI_Irecv. The caller pins buf until the request completes.
func Irecv(buf unsafe.Pointer, count int, t Datatype, src, tag int, c Comm) (Request, int) {
	var r C.goga_h
	rc := C.goga_irecv(buf, ci(count), h(uintptr(t)), ci(src), ci(tag), h(uintptr(c)), &r)
	return Request(r), int(rc)
}

// Probe is MPI_Probe.
func Probe(src, tag int, c Comm, st *Status) int {
	var cs C.goga_status
	rc := int(C.goga_probe(ci(src), ci(tag), h(uintptr(c)), &cs))
	st.set(&cs)
	return rc
}

// Iprobe is MPI_Iprobe.
func Iprobe(src, tag int, c Comm, st *Status) (bool, int) {
	var cs C.goga_status
	var f C.int
	rc := int(C.goga_iprobe(ci(src), ci(tag), h(uintptr(c)), &f, &cs))
	if f != 0 {
		st.set(&cs)
	}
	return f != 0, rc
}

// Wait is MPI_Wait; it updates the request handle.
func Wait(r *Request, st *Status) int {
	var cs C.goga_status
	ch := C.goga_h(*r)
	rc := int(C.goga_wait(&ch, &cs))
	*r = Request(ch)
	st.set(&cs)
	return rc
}

// Cancel is MPI_Cancel; the request still has to be completed (Wait, Test).
func Cancel(r Request) int { return int(C.goga_cancel(C.goga_h(r))) }

// Test is MPI_Test; it updates the request handle.
func Test(r *Request, st *Status) (bool, int) {
	var cs C.goga_status
	var f C.int
	ch := C.goga_h(*r)
	rc := int(C.goga_test(&ch, &f, &cs))
	*r = Request(ch)
	if f != 0 {
		st.set(&cs)
	}
	return f != 0, rc
}

// Exchange posts a receive of up to len(recv) bytes from peer (none if recv
// is nil), sends send to peer (nothing if nil; zero bytes if empty), both
// with tag on c, and then tests the receive as ExchangeWait does. recv must
// be C memory: the receive may still be pending when Exchange returns.
func Exchange(send, recv []byte, peer, tag int, c, probe Comm, probeTag, spins int) Exchanged {
	sp, sn := sized(send)
	rp, rn := sized(recv)
	return exchanged(C.goga_exchange(sp, sn, rp, rn, ci(peer), ci(tag), h(uintptr(c)),
		h(uintptr(probe)), ci(probeTag), ci(spins)))
}

// Exchanged is where an exchange stands: RC is MPI's return code, Done
// whether the receive completed (then Count is the bytes it received), and
// Req the receive while it is pending. It comes back from C by value: out
// parameters would each cost an allocation per crossing.
type Exchanged struct {
	Req       Request
	Done      bool
	Count, RC int
}

func exchanged(x C.goga_exchanged) Exchanged {
	return Exchanged{Req: Request(x.req), Done: x.done != 0, Count: int(x.count), RC: int(x.rc)}
}

// sized is b's address and length, or a length of -1 where b is nil.
func sized(b []byte) (unsafe.Pointer, C.int) {
	if b == nil {
		return nil, -1
	}
	return unsafe.Pointer(unsafe.SliceData(b)), ci(len(b))
}

// ExchangeWait tests the receive req up to spins times, and stops early when
// a message of probeTag waits on probe.
func ExchangeWait(req Request, probe Comm, probeTag, spins int) Exchanged {
	return exchanged(C.goga_exchange_wait(h(uintptr(req)), h(uintptr(probe)), ci(probeTag), ci(spins)))
}

// Waitall is MPI_Waitall; it updates the request handles.
func Waitall(reqs []Request, st []Status) int {
	if len(reqs) == 0 {
		return Success
	}
	ch := make([]C.goga_h, len(reqs))
	for i, r := range reqs {
		ch[i] = C.goga_h(r)
	}
	cs := make([]C.goga_status, len(reqs))
	rc := int(C.goga_waitall(ci(len(ch)), &ch[0], &cs[0]))
	for i := range reqs {
		reqs[i] = Request(ch[i])
		st[i].set(&cs[i])
	}
	return rc
}

// Waitany is MPI_Waitany; it updates the request handles. index is Undefined
// when no request was active.
func Waitany(reqs []Request, st *Status) (index int, rc int) {
	if len(reqs) == 0 {
		return Undefined, Success
	}
	ch := make([]C.goga_h, len(reqs))
	for i, r := range reqs {
		ch[i] = C.goga_h(r)
	}
	var cs C.goga_status
	var idx C.int
	rc = int(C.goga_waitany(ci(len(ch)), &ch[0], &idx, &cs))
	for i := range reqs {
		reqs[i] = Request(ch[i])
	}
	if idx != C.MPI_UNDEFINED {
		st.set(&cs)
	}
	return int(idx), rc
}

// ---- collectives ----
// A nil send buffer means MPI_IN_PLACE (for Scatter(v), a nil receive buffer).

// Barrier is MPI_Barrier.
func Barrier(c Comm) int { return int(C.goga_barrier(h(uintptr(c)))) }

// Bcast is MPI_Bcast.
func Bcast(buf unsafe.Pointer, count int, t Datatype, root int, c Comm) int {
	return int(C.goga_bcast(buf, ci(count), h(uintptr(t)), ci(root), h(uintptr(c))))
}

// Reduce is MPI_Reduce.
func Reduce(s, r unsafe.Pointer, count int, t Datatype, op Op, root int, c Comm) int {
	return int(C.goga_reduce(s, r, ci(count), h(uintptr(t)), h(uintptr(op)), ci(root), h(uintptr(c))))
}

// Allreduce is MPI_Allreduce.
func Allreduce(s, r unsafe.Pointer, count int, t Datatype, op Op, c Comm) int {
	return int(C.goga_allreduce(s, r, ci(count), h(uintptr(t)), h(uintptr(op)), h(uintptr(c))))
}

// Ibarrier is MPI_Ibarrier.
func Ibarrier(c Comm) (Request, int) {
	var r C.goga_h
	rc := C.goga_ibarrier(h(uintptr(c)), &r)
	return Request(r), int(rc)
}

// Iallreduce is MPI_Iallreduce. The caller pins s and r until the request
// completes.
func Iallreduce(s, r unsafe.Pointer, count int, t Datatype, op Op, c Comm) (Request, int) {
	var q C.goga_h
	rc := C.goga_iallreduce(s, r, ci(count), h(uintptr(t)), h(uintptr(op)), h(uintptr(c)), &q)
	return Request(q), int(rc)
}

// Scan is MPI_Scan.
func Scan(s, r unsafe.Pointer, count int, t Datatype, op Op, c Comm) int {
	return int(C.goga_scan(s, r, ci(count), h(uintptr(t)), h(uintptr(op)), h(uintptr(c))))
}

// Exscan is MPI_Exscan.
func Exscan(s, r unsafe.Pointer, count int, t Datatype, op Op, c Comm) int {
	return int(C.goga_exscan(s, r, ci(count), h(uintptr(t)), h(uintptr(op)), h(uintptr(c))))
}

// ReduceScatter is MPI_Reduce_scatter.
func ReduceScatter(s, r unsafe.Pointer, counts []int, t Datatype, op Op, c Comm) int {
	cc := cints(counts)
	return int(C.goga_reduce_scatter(s, r, intsPtr(cc), h(uintptr(t)), h(uintptr(op)), h(uintptr(c))))
}

// Gather is MPI_Gather with one datatype on both sides.
func Gather(s unsafe.Pointer, scount int, r unsafe.Pointer, rcount int, t Datatype, root int, c Comm) int {
	return int(C.goga_gather(s, ci(scount), r, ci(rcount), h(uintptr(t)), ci(root), h(uintptr(c))))
}

// Gatherv is MPI_Gatherv with one datatype on both sides.
func Gatherv(s unsafe.Pointer, scount int, r unsafe.Pointer, rcounts, displs []int, t Datatype, root int, c Comm) int {
	rc, d := cints(rcounts), cints(displs)
	return int(C.goga_gatherv(s, ci(scount), r, intsPtr(rc), intsPtr(d), h(uintptr(t)), ci(root), h(uintptr(c))))
}

// Allgather is MPI_Allgather with one datatype on both sides.
func Allgather(s unsafe.Pointer, scount int, r unsafe.Pointer, rcount int, t Datatype, c Comm) int {
	return int(C.goga_allgather(s, ci(scount), r, ci(rcount), h(uintptr(t)), h(uintptr(c))))
}

// Allgatherv is MPI_Allgatherv with one datatype on both sides.
func Allgatherv(s unsafe.Pointer, scount int, r unsafe.Pointer, rcounts, displs []int, t Datatype, c Comm) int {
	rc, d := cints(rcounts), cints(displs)
	return int(C.goga_allgatherv(s, ci(scount), r, intsPtr(rc), intsPtr(d), h(uintptr(t)), h(uintptr(c))))
}

// Scatter is MPI_Scatter with one datatype on both sides.
func Scatter(s unsafe.Pointer, scount int, r unsafe.Pointer, rcount int, t Datatype, root int, c Comm) int {
	return int(C.goga_scatter(s, ci(scount), r, ci(rcount), h(uintptr(t)), ci(root), h(uintptr(c))))
}

// Scatterv is MPI_Scatterv with one datatype on both sides.
func Scatterv(s unsafe.Pointer, scounts, displs []int, r unsafe.Pointer, rcount int, t Datatype, root int, c Comm) int {
	sc, d := cints(scounts), cints(displs)
	return int(C.goga_scatterv(s, intsPtr(sc), intsPtr(d), r, ci(rcount), h(uintptr(t)), ci(root), h(uintptr(c))))
}

// Alltoall is MPI_Alltoall with one datatype on both sides.
func Alltoall(s unsafe.Pointer, scount int, r unsafe.Pointer, rcount int, t Datatype, c Comm) int {
	return int(C.goga_alltoall(s, ci(scount), r, ci(rcount), h(uintptr(t)), h(uintptr(c))))
}

// Alltoallv is MPI_Alltoallv with one datatype on both sides.
func Alltoallv(s unsafe.Pointer, scounts, sdispls []int, r unsafe.Pointer, rcounts, rdispls []int, t Datatype, c Comm) int {
	sc, sd, rc, rd := cints(scounts), cints(sdispls), cints(rcounts), cints(rdispls)
	return int(C.goga_alltoallv(s, intsPtr(sc), intsPtr(sd), r, intsPtr(rc), intsPtr(rd), h(uintptr(t)), h(uintptr(c))))
}

// ---- derived datatypes (all returned committed) ----

// TypeVector is MPI_Type_vector plus commit.
func TypeVector(count, blocklen, stride int, old Datatype) (Datatype, int) {
	var o C.goga_h
	rc := C.goga_type_vector(ci(count), ci(blocklen), ci(stride), h(uintptr(old)), &o)
	return Datatype(o), int(rc)
}

// TypeIndexed is MPI_Type_indexed plus commit.
func TypeIndexed(blocklens, displs []int, old Datatype) (Datatype, int) {
	var o C.goga_h
	bl, d := cints(blocklens), cints(displs)
	rc := C.goga_type_indexed(ci(len(bl)), intsPtr(bl), intsPtr(d), h(uintptr(old)), &o)
	return Datatype(o), int(rc)
}

// TypeSubarray is MPI_Type_create_subarray plus commit; fortranOrder selects
// MPI_ORDER_FORTRAN instead of MPI_ORDER_C.
func TypeSubarray(sizes, subsizes, starts []int, fortranOrder bool, old Datatype) (Datatype, int) {
	var o C.goga_h
	sz, sub, st := cints(sizes), cints(subsizes), cints(starts)
	order := 0
	if fortranOrder {
		order = 1
	}
	rc := C.goga_type_subarray(ci(len(sz)), intsPtr(sz), intsPtr(sub), intsPtr(st), ci(order), h(uintptr(old)), &o)
	return Datatype(o), int(rc)
}

// TypeFree is MPI_Type_free.
func TypeFree(t Datatype) int { return int(C.goga_type_free(h(uintptr(t)))) }

// TypeSizeExtent is MPI_Type_size_x and MPI_Type_get_extent_x.
func TypeSizeExtent(t Datatype) (size, lb, extent int, rc int) {
	var s, l, e C.longlong
	rc = int(C.goga_type_size_extent(h(uintptr(t)), &s, &l, &e))
	return int(s), int(l), int(e), rc
}

// ---- RMA ----

// WinAllocate is MPI_Win_allocate; the window returns errors.
func WinAllocate(size, dispUnit int, c Comm) (unsafe.Pointer, Win, int) {
	var base address
	var w C.goga_h
	rc := C.goga_win_allocate(C.longlong(size), ci(dispUnit), h(uintptr(c)), base.out(), &w)
	return base.of(size), Win(w), int(rc)
}

// address receives a base address from MPI as an integer, not in a Go
// pointer: for no memory MPI may return any value (osc ucx returns 1), and
// a Go pointer holding 1 crashes the garbage collector ("invalid pointer
// found on stack") when it moves the goroutine's stack.
type address C.uintptr_t

// out is where MPI writes the address (a void **).
func (a *address) out() *unsafe.Pointer { return (*unsafe.Pointer)(unsafe.Pointer(a)) }

// of is the address as a pointer to size bytes: nil for none.
func (a *address) of(size int) unsafe.Pointer {
	if size <= 0 {
		return nil
	}
	return *a.out()
}

// WinAllocateShared is MPI_Win_allocate_shared; noncontig sets the
// alloc_shared_noncontig hint. The window returns errors.
func WinAllocateShared(size, dispUnit int, noncontig bool, c Comm) (unsafe.Pointer, Win, int) {
	var base address
	var w C.goga_h
	nc := 0
	if noncontig {
		nc = 1
	}
	rc := C.goga_win_allocate_shared(C.longlong(size), ci(dispUnit), ci(nc), h(uintptr(c)), base.out(), &w)
	return base.of(size), Win(w), int(rc)
}

// WinSharedQuery is MPI_Win_shared_query.
func WinSharedQuery(w Win, rank int) (base unsafe.Pointer, size, dispUnit, rc int) {
	var s C.longlong
	var d C.int
	var b address
	rc = int(C.goga_win_shared_query(h(uintptr(w)), ci(rank), &s, &d, b.out()))
	return b.of(int(s)), int(s), int(d), rc
}

// WinCreate is MPI_Win_create on memory that must not be Go memory.
func WinCreate(base unsafe.Pointer, size, dispUnit int, c Comm) (Win, int) {
	var w C.goga_h
	rc := C.goga_win_create(base, C.longlong(size), ci(dispUnit), h(uintptr(c)), &w)
	return Win(w), int(rc)
}

// WinFree is MPI_Win_free.
func WinFree(w Win) int { return int(C.goga_win_free(h(uintptr(w)))) }

// WinLockAll is MPI_Win_lock_all.
func WinLockAll(assert int, w Win) int { return int(C.goga_win_lock_all(ci(assert), h(uintptr(w)))) }

// WinUnlockAll is MPI_Win_unlock_all.
func WinUnlockAll(w Win) int { return int(C.goga_win_unlock_all(h(uintptr(w)))) }

// WinLock is MPI_Win_lock.
func WinLock(typ, rank, assert int, w Win) int {
	return int(C.goga_win_lock(ci(typ), ci(rank), ci(assert), h(uintptr(w))))
}

// WinUnlock is MPI_Win_unlock.
func WinUnlock(rank int, w Win) int { return int(C.goga_win_unlock(ci(rank), h(uintptr(w)))) }

// WinFlush is MPI_Win_flush.
func WinFlush(rank int, w Win) int { return int(C.goga_win_flush(ci(rank), h(uintptr(w)))) }

// WinFlushAll is MPI_Win_flush_all.
func WinFlushAll(w Win) int { return int(C.goga_win_flush_all(h(uintptr(w)))) }

// WinFlushLocal is MPI_Win_flush_local.
func WinFlushLocal(rank int, w Win) int { return int(C.goga_win_flush_local(ci(rank), h(uintptr(w)))) }

// WinFlushLocalAll is MPI_Win_flush_local_all.
func WinFlushLocalAll(w Win) int { return int(C.goga_win_flush_local_all(h(uintptr(w)))) }

// WinSync is MPI_Win_sync.
func WinSync(w Win) int { return int(C.goga_win_sync(h(uintptr(w)))) }

// Put is MPI_Put.
func Put(o unsafe.Pointer, oc int, ot Datatype, rank, disp, tc int, tt Datatype, w Win) int {
	return int(C.goga_put(o, ci(oc), h(uintptr(ot)), ci(rank), C.longlong(disp), ci(tc), h(uintptr(tt)), h(uintptr(w))))
}

// Get is MPI_Get.
func Get(o unsafe.Pointer, oc int, ot Datatype, rank, disp, tc int, tt Datatype, w Win) int {
	return int(C.goga_get(o, ci(oc), h(uintptr(ot)), ci(rank), C.longlong(disp), ci(tc), h(uintptr(tt)), h(uintptr(w))))
}

// Accumulate is MPI_Accumulate.
func Accumulate(o unsafe.Pointer, oc int, ot Datatype, rank, disp, tc int, tt Datatype, op Op, w Win) int {
	return int(C.goga_accumulate(o, ci(oc), h(uintptr(ot)), ci(rank), C.longlong(disp), ci(tc), h(uintptr(tt)), h(uintptr(op)), h(uintptr(w))))
}

// GetAccumulate is MPI_Get_accumulate.
func GetAccumulate(o unsafe.Pointer, oc int, ot Datatype, r unsafe.Pointer, rc int, rt Datatype,
	rank, disp, tc int, tt Datatype, op Op, w Win) int {
	return int(C.goga_get_accumulate(o, ci(oc), h(uintptr(ot)), r, ci(rc), h(uintptr(rt)),
		ci(rank), C.longlong(disp), ci(tc), h(uintptr(tt)), h(uintptr(op)), h(uintptr(w))))
}

// FetchAndOp is MPI_Fetch_and_op.
func FetchAndOp(o, r unsafe.Pointer, t Datatype, rank, disp int, op Op, w Win) int {
	return int(C.goga_fetch_and_op(o, r, h(uintptr(t)), ci(rank), C.longlong(disp), h(uintptr(op)), h(uintptr(w))))
}

// CompareAndSwap is MPI_Compare_and_swap.
func CompareAndSwap(o, cmp, r unsafe.Pointer, t Datatype, rank, disp int, w Win) int {
	return int(C.goga_compare_and_swap(o, cmp, r, h(uintptr(t)), ci(rank), C.longlong(disp), h(uintptr(w))))
}

// Rput is MPI_Rput. The caller pins o until the request completes.
func Rput(o unsafe.Pointer, oc int, ot Datatype, rank, disp, tc int, tt Datatype, w Win) (Request, int) {
	var r C.goga_h
	rc := C.goga_rput(o, ci(oc), h(uintptr(ot)), ci(rank), C.longlong(disp), ci(tc), h(uintptr(tt)), h(uintptr(w)), &r)
	return Request(r), int(rc)
}

// Rget is MPI_Rget. The caller pins o until the request completes.
func Rget(o unsafe.Pointer, oc int, ot Datatype, rank, disp, tc int, tt Datatype, w Win) (Request, int) {
	var r C.goga_h
	rc := C.goga_rget(o, ci(oc), h(uintptr(ot)), ci(rank), C.longlong(disp), ci(tc), h(uintptr(tt)), h(uintptr(w)), &r)
	return Request(r), int(rc)
}

// Raccumulate is MPI_Raccumulate. The caller pins o until the request completes.
func Raccumulate(o unsafe.Pointer, oc int, ot Datatype, rank, disp, tc int, tt Datatype, op Op, w Win) (Request, int) {
	var r C.goga_h
	rc := C.goga_raccumulate(o, ci(oc), h(uintptr(ot)), ci(rank), C.longlong(disp), ci(tc), h(uintptr(tt)), h(uintptr(op)), h(uintptr(w)), &r)
	return Request(r), int(rc)
}

// AllocMem is MPI_Alloc_mem.
func AllocMem(n int) (unsafe.Pointer, int) {
	// At least a byte, so that there is always memory to free.
	n = max(n, 1)
	var p address
	rc := C.MPI_Alloc_mem(C.MPI_Aint(n), C.MPI_INFO_NULL, unsafe.Pointer(p.out()))
	return p.of(n), int(rc)
}

// FreeMem is MPI_Free_mem.
func FreeMem(p unsafe.Pointer) int { return int(C.MPI_Free_mem(p)) }

// Message is a matched message from Mprobe or Improbe (MPI_Message).
type Message uintptr

// Mprobe is MPI_Mprobe.
func Mprobe(src, tag int, c Comm, st *Status) (Message, int) {
	var cs C.goga_status
	var m C.goga_h
	rc := int(C.goga_mprobe(ci(src), ci(tag), h(uintptr(c)), &m, &cs))
	st.set(&cs)
	return Message(m), rc
}

// Improbe is MPI_Improbe.
func Improbe(src, tag int, c Comm, st *Status) (bool, Message, int) {
	var cs C.goga_status
	var m C.goga_h
	var f C.int
	rc := int(C.goga_improbe(ci(src), ci(tag), h(uintptr(c)), &f, &m, &cs))
	if f != 0 {
		st.set(&cs)
	}
	return f != 0, Message(m), rc
}

// Mrecv is MPI_Mrecv; it updates the message handle.
func Mrecv(buf unsafe.Pointer, count int, t Datatype, m *Message, st *Status) int {
	var cs C.goga_status
	ch := C.goga_h(*m)
	rc := int(C.goga_mrecv(buf, ci(count), h(uintptr(t)), &ch, &cs))
	*m = Message(ch)
	st.set(&cs)
	return rc
}

// TypeStrided builds the committed type of a strided patch: blocks of counts[0]
// elements of base, repeated counts[i] times at strides[i-1] bytes for each
// level i = 1 … len(strides). len(counts) is len(strides)+1.
func TypeStrided(counts []int, strides []int, base Datatype) (Datatype, int) {
	var o C.goga_h
	cc := cints(counts)
	cs := make([]C.longlong, len(strides)+1)
	for i, s := range strides {
		cs[i] = C.longlong(s)
	}
	rc := C.goga_type_strided(ci(len(strides)), intsPtr(cc), &cs[0], h(uintptr(base)), &o)
	return Datatype(o), int(rc)
}

// Memcpy is the C library's memcpy, for large copies between mapped segments
// where it outruns Go's copy; one crossing is nothing beside tens of KiB.
func Memcpy(dst, src unsafe.Pointer, n int) {
	C.memcpy(dst, src, C.size_t(n))
}

// OpCreate is MPI_Op_create of f; slot is -1 when all UserOps slots are taken.
func OpCreate(f UserFunc, commute bool) (op Op, slot, rc int) {
	userOps.Lock()
	defer userOps.Unlock()
	for i, g := range userOps.f {
		if g != nil {
			continue
		}
		var h C.goga_h
		c := 0
		if commute {
			c = 1
		}
		if rc = int(C.goga_op_create(C.int(i), C.int(c), &h)); rc != Success {
			return 0, i, rc
		}
		userOps.f[i] = f
		return Op(h), i, rc
	}
	return 0, -1, Success
}

// OpFree is MPI_Op_free of the operator in slot.
func OpFree(op Op, slot int) int {
	rc := int(C.goga_op_free(h(uintptr(op))))
	if rc == Success {
		userOps.Lock()
		userOps.f[slot] = nil
		userOps.Unlock()
	}
	return rc
}

// ReduceCB is Reduce for a user-defined operator.
func ReduceCB(s, r unsafe.Pointer, count int, t Datatype, op Op, root int, c Comm) int {
	return int(C.goga_reduce_cb(s, r, ci(count), h(uintptr(t)), h(uintptr(op)), ci(root), h(uintptr(c))))
}

// AllreduceCB is Allreduce for a user-defined operator.
func AllreduceCB(s, r unsafe.Pointer, count int, t Datatype, op Op, c Comm) int {
	return int(C.goga_allreduce_cb(s, r, ci(count), h(uintptr(t)), h(uintptr(op)), h(uintptr(c))))
}
