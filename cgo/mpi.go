package cgo

/*
#include "shim.h"

// noescape lets Go keep a call's pointer arguments on the goroutine stack. It is
// only for calls that are done with their buffers when they return: not for the
// one-sided calls (mpi_rma.go), where MPI reads or writes the origin buffer until
// a flush, and a goroutine stack may move in between. nocallback says that the
// C function never calls back into Go. Each file marks the calls it makes.
#cgo noescape goga_init_thread
#cgo nocallback goga_init_thread
*/
import "C"

// The MPI bindings: handles, constants and the environment here; communicators
// and groups (mpi_comm.go), point-to-point messages (mpi_p2p.go), collectives
// and user-defined operators (mpi_coll.go), derived datatypes (mpi_types.go),
// and one-sided windows and MPI memory (mpi_rma.go).

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
