package agreement

import (
	"math"
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/goga-hpc/goga/mpi"
)

// Across nodes an agreement, with what rides on it, is one fixed-size
// record combined over every process: the maxima (the Verdict and any
// others), a header naming the reduction it carries (none for a plain
// agreement), and up to RecordCap bytes, combined by one operator in rank
// order (MergeRecords), by MPI_Allreduce or point to point (Exchange). As
// every process's call is the same collective with the same count, a
// process that reduces and one that only agrees meet instead of hanging:
// the header tells them apart (Mixed, ErrMixed).

// MaxReduce is how many maxima one agreement reduces.
const MaxReduce = 4

// RecordCap is the most bytes a record carries.
const RecordCap = 256

// The record's words: the maxima, the header, the bytes.
const (
	Header   = MaxReduce
	RecWords = MaxReduce + 1 + RecordCap/8
	// Mixed is the header of a record combined from different ones.
	Mixed = -1
)

// Record is one process's record, or a combination.
type Record [RecWords]int64

// Op is the reduction a record carries. Max and Min are for real types,
// Or for integers; Bcast is a broadcast's (the root's words, the others'
// the least).
type Op uint8

// The reductions.
const (
	Sum Op = iota + 1
	Prod
	Max
	Min
	Or
	Bcast
)

// Reduction is the header that names a reduction: its op, element kind,
// length in bytes and root (for a broadcast). 0 is none.
func Reduction(op Op, k reflect.Kind, n, root int) int64 {
	return int64(op) | int64(k)<<8 | int64(n)<<16 | int64(root+1)<<40
}

// ReductionOf reads back the op, element kind, length in bytes and root
// (-1 for none) of the reduction header h.
func ReductionOf(h int64) (op Op, k reflect.Kind, n, root int) {
	return Op(h & 0xff), reflect.Kind(h >> 8 & 0xff), int(h >> 16 & 0xffffff), int(h>>40) - 1
}

// record is the operator that combines records across nodes, made once per
// process; split is set if MPI ever handed it part of a record.
var record struct {
	once  sync.Once
	op    mpi.Op
	err   error
	split atomic.Bool
	pool  sync.Pool
}

// RecordOp is the MPI operator of records (MergeRecords), made once.
func RecordOp() (mpi.Op, error) {
	record.once.Do(func() {
		record.op, record.err = mpi.NewOp(MergeRecords, false)
	})
	return record.op, record.err
}

func init() { record.pool.New = func() any { return new(Record) } }

// NewRecord is a record from the pool, its words left as they were;
// PutRecord gives it back.
func NewRecord() *Record { return record.pool.Get().(*Record) }

// PutRecord gives back a record from NewRecord.
func PutRecord(r *Record) { record.pool.Put(r) }

// Split reports whether MPI ever handed the operator part of a record.
func Split() bool { return record.split.Load() }

// Fill makes rec this process's record: maxima v (the rest the least),
// header h, and the bytes mine (with h set and mine nil, a broadcast's
// non-root, the least words).
func Fill(rec *Record, v []int64, h int64, mine []byte) {
	for i := range MaxReduce {
		rec[i] = math.MinInt64
	}
	copy(rec[:], v)
	rec[Header] = h
	payload := rec[Header+1:]
	if h != 0 && mine == nil {
		for i := range payload {
			payload[i] = math.MinInt64
		}
	} else {
		copy(bytesOf(payload), mine)
	}
}

// Payload is rec's bytes.
func Payload(rec *Record) []byte { return bytesOf(rec[Header+1:]) }

// MergeRecords sets inout to in combined with inout: the maxima, and the
// bytes by the header's reduction where both headers are the same.
func MergeRecords(in, inout []int64) {
	if len(in) != RecWords {
		record.split.Store(true)
		return
	}
	for i := range MaxReduce {
		inout[i] = max(inout[i], in[i])
	}
	h := inout[Header]
	if h != in[Header] || h == Mixed {
		inout[Header] = Mixed
		return
	}
	if h != 0 {
		Merge(h, bytesOf(inout[Header+1:]), bytesOf(in[Header+1:]))
	}
}

func bytesOf(s []int64) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), 8*len(s))
}

func elemsOf[E any](b []byte) []E {
	var z E
	return unsafe.Slice((*E)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/int(unsafe.Sizeof(z)))
}

// Merge combines src into dst (dst[i] = dst[i] op src[i]) by the
// reduction that h names. Every op is commutative bit for bit, so which
// operand comes first does not matter; the grouping does, and it is the
// same on every process.
func Merge(h int64, dst, src []byte) {
	op, k, n, _ := ReductionOf(h)
	if op == Bcast {
		n = (n + 7) / 8 * 8
		combineOrdered(elemsOf[int64](dst[:n]), elemsOf[int64](src[:n]), Max)
		return
	}
	// A switch, not a table of functions: called through a function value,
	// Merge would move every caller's small scratch to the heap.
	dst, src = dst[:n], src[:n]
	switch k {
	case reflect.Int32:
		combineInts(elemsOf[int32](dst), elemsOf[int32](src), op)
	case reflect.Int64:
		combineInts(elemsOf[int64](dst), elemsOf[int64](src), op)
	case reflect.Float32:
		combineOrdered(elemsOf[float32](dst), elemsOf[float32](src), op)
	case reflect.Float64:
		combineOrdered(elemsOf[float64](dst), elemsOf[float64](src), op)
	case reflect.Complex64:
		combineComplex(elemsOf[complex64](dst), elemsOf[complex64](src), op)
	case reflect.Complex128:
		combineComplex(elemsOf[complex128](dst), elemsOf[complex128](src), op)
	}
}

func combineOrdered[E ~int32 | ~int64 | ~float32 | ~float64](x, in []E, op Op) {
	switch op {
	case Sum:
		for i, v := range in {
			x[i] += v
		}
	case Prod:
		for i, v := range in {
			x[i] *= v
		}
	case Max:
		for i, v := range in {
			if v > x[i] {
				x[i] = v
			}
		}
	case Min:
		for i, v := range in {
			if v < x[i] {
				x[i] = v
			}
		}
	}
}

func combineInts[E ~int32 | ~int64](x, in []E, op Op) {
	if op != Or {
		combineOrdered(x, in, op)
		return
	}
	for i, v := range in {
		x[i] |= v
	}
}

func combineComplex[E ~complex64 | ~complex128](x, in []E, op Op) {
	for i, v := range in {
		if op == Sum {
			x[i] += v
		} else {
			x[i] *= v
		}
	}
}
