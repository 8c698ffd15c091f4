package armci

import (
	"reflect"

	"github.com/goga-hpc/goga/internal/agreement"
	"github.com/goga-hpc/goga/mpi"
)

// Small reductions and broadcasts ride on the synchronization that a
// collective call makes to agree (AllMax), as ARMCI's message layer
// (armci_msg_gop, armci_msg_bcast) serves GA's GA_Dgop and GA_Brdcst, but in
// one collective instead of two. On one node the shared-memory barrier
// carries every process's bytes in its gather slots, and every process
// combines them in rank order. Across nodes every AllMax is one
// MPI_Allreduce of goga's agreement record (internal/agreement): the
// maxima, a header naming the reduction (none for a plain AllMax), and up
// to RecordCap bytes, combined by one user-defined operator in rank order.
// As every process's call is the same collective with the same count, a
// process that reduces and one that only agrees meet instead of hanging:
// the header tells them apart. Where a blocking MPI_Allreduce would spin
// beside the active-message server, the records are exchanged point to
// point instead (exchange.go).

// ReduceOp is how AllMaxReduce combines the processes' values.
type ReduceOp uint8

// The reductions. Max and Min are for real types, Or for integers.
const (
	ReduceSum  = ReduceOp(agreement.Sum)
	ReduceProd = ReduceOp(agreement.Prod)
	ReduceMax  = ReduceOp(agreement.Max)
	ReduceMin  = ReduceOp(agreement.Min)
	ReduceOr   = ReduceOp(agreement.Or)
)

// RecordCap is the most bytes AllMaxReduce and AllMaxBrdcst carry across
// nodes; on one node they carry GatherCap. An Allreduce of the record with
// 256 bytes took what one of the three maxima alone did over TCP (9.5 µs).
const RecordCap = agreement.RecordCap

// ReduceCap is the most bytes AllMaxReduce and AllMaxBrdcst carry on this
// runtime: GatherCap where its barrier is in shared memory, else RecordCap.
func (rt *Runtime) ReduceCap() int {
	if rt.bar != nil {
		return GatherCap
	}
	return RecordCap
}

// ErrMixed is wrapped by the error of AllMaxReduce and AllMaxBrdcst when
// the processes did not all pass the same reduction (a plain AllMax, another
// op, type, length or root). Their v is reduced all the same.
var ErrMixed = agreement.ErrMixed

// AllMaxReduce is AllMax that also reduces: out gets x combined elementwise
// over every process by op, the same bits on every process (they combine
// in rank order); x may be out, else it is left alone. It is one collective, the one AllMax
// makes, where x holds at most rt.ReduceCap() bytes; for a longer x it
// reports false and does nothing, and the
// caller takes another way. A process that passed another reduction, or
// called AllMax or BarrierMax, meets it in the same collective: then v is
// still reduced, out is left alone, and the error wraps ErrMixed (AllMax
// and BarrierMax are not told: their callers' maxima tell them). A process
// whose op or out is refused meets the others there too, as AllMax, and
// returns its refusal.
func AllMaxReduce[T AccElem](rt *Runtime, v []int64, x, out []T, op ReduceOp) (bool, error) {
	const name = "AllMaxReduce"
	if err := rt.valid(name); err != nil {
		return false, err
	}
	k := reflect.TypeFor[T]().Kind()
	isComplex := k == reflect.Complex64 || k == reflect.Complex128
	mine := bytesOf(x)
	switch {
	case op < ReduceSum || op > ReduceOr:
		return rt.refuse(v, len(mine), argErr(name, "op", "unknown reduction %d", op))
	case isComplex && op != ReduceSum && op != ReduceProd,
		op == ReduceOr && k != reflect.Int32 && k != reflect.Int64:
		return rt.refuse(v, len(mine), argErr(name, "op", "reduction %d is not defined for %s", op, reflect.TypeFor[T]()))
	case len(out) < len(x):
		return rt.refuse(v, len(mine), argErr(name, "out", "holds %d elements, x %d", len(out), len(x)))
	}
	res := bytesOf(out)[:len(mine)]
	return rt.allMaxWith(name, v, agreement.Reduction(agreement.Op(op), k, len(mine), -1), mine, res)
}

// refuse returns err, a refusal of a reduction of n bytes, after meeting
// the other processes in the collective where theirs, if they passed n
// bytes, would take place: they are told (ErrMixed) instead of left
// waiting.
func (rt *Runtime) refuse(v []int64, n int, err error) (bool, error) {
	if len(v) > MaxReduce || n > rt.ReduceCap() {
		return false, err
	}
	// The record's collective, as AllMax's, even with no v: an empty
	// AllMax is a plain barrier, which the others are not in.
	_, _ = rt.allMaxWith("AllMax", v, 0, nil, nil) // err says more
	return true, err
}

// AllMaxBrdcst is AllMax that also broadcasts: out gets root's buf on every
// process (buf matters at root only; every process passes its length, out
// at least as long; out may be buf). It is AllMaxReduce's collective, with its limits.
func (rt *Runtime) AllMaxBrdcst(v []int64, buf, out []byte, root int) (bool, error) {
	const name = "AllMaxBrdcst"
	if err := rt.valid(name); err != nil {
		return false, err
	}
	switch {
	case root < 0 || root >= rt.size:
		return rt.refuse(v, len(buf), argErr(name, "root", "%d out of range [0, %d)", root, rt.size))
	case len(out) < len(buf):
		return rt.refuse(v, len(buf), argErr(name, "out", "holds %d bytes, buf %d", len(out), len(buf)))
	}
	h := agreement.Reduction(agreement.Bcast, reflect.Uint8, len(buf), root)
	if rt.rank != root {
		// Others pass no bytes: across nodes they contribute the least
		// words, on one node their slots are not read.
		return rt.allMaxWith(name, v, h, nil, out[:len(buf)])
	}
	return rt.allMaxWith(name, v, h, buf, out[:len(buf)])
}

// allMaxWith is AllMax carrying a reduction: h its header (0: none), mine
// this process's bytes (a broadcast's non-root: nil), out where the result
// goes (len(out) bytes). It reports false, having done nothing, when the
// result is too long for this runtime's way.
func (rt *Runtime) allMaxWith(name string, v []int64, h int64, mine, out []byte) (bool, error) {
	if len(v) > MaxReduce {
		return false, argErr(name, "v", "%d values; at most %d", len(v), MaxReduce)
	}
	if rt.bar != nil {
		if len(out) > GatherCap {
			return false, nil
		}
		slots := rt.bar.gather(v, h, mine)
		if h == 0 {
			return true, nil
		}
		for r := range slots {
			if slots[r].h != h {
				return true, stateErr(name, "call", ErrMixed)
			}
		}
		if op, _, _, root := agreement.ReductionOf(h); op == agreement.Bcast {
			copy(out, slots[root].b[:])
			return true, nil
		}
		copy(out, slots[0].b[:])
		for r := 1; r < len(slots); r++ {
			agreement.Merge(h, out, slots[r].b[:])
		}
		return true, nil
	}
	if len(out) > RecordCap {
		return false, nil
	}
	op, err := agreement.RecordOp()
	if err != nil {
		return true, err
	}
	rec := agreement.NewRecord()
	defer agreement.PutRecord(rec)
	agreement.Fill(rec, v, h, mine)
	if rt.exchanges {
		err = agreement.Exchange(rec, rt.rank, rt.size, rt.exchange)
	} else {
		err = mpi.Allreduce(rt.comm, nil, rec[:], op)
	}
	if err != nil {
		return true, err
	}
	if agreement.Split() {
		return true, argErr(name, "call", "MPI split the agreement's record of %d words", agreement.RecWords)
	}
	copy(v, rec[:])
	switch {
	case h == 0:
	case rec[agreement.Header] != h:
		return true, stateErr(name, "call", ErrMixed)
	default:
		copy(out, agreement.Payload(rec))
	}
	return true, nil
}
