package mpi

import (
	"sync/atomic"
	"unsafe"

	"github.com/goga-hpc/goga/cgo"
)

// Op is an MPI reduction operator: one of the predefined ones below, or a
// user-defined one (NewOp).
type Op struct {
	name string
	h    cgo.Op
	// which element kinds MPI defines it for
	ints, floats, complexes bool
	u                       *userOp // a user-defined operator's, shared by its copies
}

// userOp is what the copies of a user-defined Op share.
type userOp struct {
	slot  int
	dt    cgo.Datatype
	freed atomic.Bool // read by every reduction that takes the operator
}

// The predefined operators. Min and Max are not defined on complex numbers, the
// logical and bitwise ones only on integers; using them there returns an error.
var (
	Sum  = Op{"Sum", cgo.OpSum, true, true, true, nil}
	Prod = Op{"Prod", cgo.OpProd, true, true, true, nil}
	Min  = Op{"Min", cgo.OpMin, true, true, false, nil}
	Max  = Op{"Max", cgo.OpMax, true, true, false, nil}
	Land = Op{"Land", cgo.OpLand, true, false, false, nil}
	Lor  = Op{"Lor", cgo.OpLor, true, false, false, nil}
	Lxor = Op{"Lxor", cgo.OpLxor, true, false, false, nil}
	Band = Op{"Band", cgo.OpBand, true, false, false, nil}
	Bor  = Op{"Bor", cgo.OpBor, true, false, false, nil}
	Bxor = Op{"Bxor", cgo.OpBxor, true, false, false, nil}
	// Replace and NoOp are for one-sided Accumulate and GetAccumulate.
	Replace = Op{"Replace", cgo.OpReplace, true, true, true, nil}
	NoOp    = Op{"NoOp", cgo.OpNoOp, true, true, true, nil}
	// MinLoc and MaxLoc work on ValueIndex pairs (ReduceLoc, AllreduceLoc).
	MinLoc = Op{"MinLoc", cgo.OpMinloc, false, false, false, nil}
	MaxLoc = Op{"MaxLoc", cgo.OpMaxloc, false, false, false, nil}
)

// String returns the operator's name.
func (o Op) String() string { return o.name }

// NewOp is MPI_Op_create: a reduction operator on T that f computes, setting
// inout[i] to in[i] op inout[i] for every i. If commute is false, MPI
// combines the ranks' values in rank order (in holds lower ranks' values
// than inout), so an associative f gives every rank the same bits. The
// operator serves the blocking reductions (Reduce, Allreduce, Scan, Exscan,
// ReduceScatter) of T; f must not call MPI. At most cgo.UserOps exist at
// once: Free releases one.
func NewOp[T Elem](f func(in, inout []T), commute bool) (Op, error) {
	if f == nil {
		return Op{}, argErr("NewOp", "f", "nil function")
	}
	e := info[T]()
	h, slot, rc := cgo.OpCreate(func(in, inout unsafe.Pointer, n int) {
		f(unsafe.Slice((*T)(in), n), unsafe.Slice((*T)(inout), n))
	}, commute)
	if slot < 0 {
		return Op{}, argErr("NewOp", "f", "%d user-defined operators exist already; Free one first", cgo.UserOps)
	}
	if err := check("NewOp", rc); err != nil {
		return Op{}, err
	}
	k := e.kind
	return Op{name: "user-defined operator on " + e.name, h: h,
		ints: k == kindInt, floats: k == kindFloat, complexes: k == kindComplex,
		u: &userOp{slot: slot, dt: e.dt}}, nil
}

// Free is MPI_Op_free of a user-defined operator. Its copies are freed too:
// a reduction given one afterwards returns an error.
func (o Op) Free() error {
	if o.u == nil {
		return argErr("Free", "op", "%s is predefined", o.name)
	}
	if !o.u.freed.CompareAndSwap(false, true) {
		return argErr("Free", "op", "%s freed already", o.name)
	}
	if err := check("Free", cgo.OpFree(o.h, o.u.slot)); err != nil {
		o.u.freed.Store(false)
		return err
	}
	return nil
}

// checkOp refuses an operator that MPI does not define for the element type.
func checkOp(opName string, o Op, e elemInfo, rma bool) error {
	if o.h == 0 {
		return argErr(opName, "op", "zero Op; use one of mpi.Sum, mpi.Max, ...")
	}
	if u := o.u; u != nil {
		switch {
		case u.freed.Load():
			return argErr(opName, "op", "%s was freed", o.name)
		case rma || opName == "Iallreduce":
			// MPI forbids them in accumulates; a nonblocking reduction
			// could call back into Go from any later MPI call.
			return argErr(opName, "op", "user-defined operators serve blocking reductions only")
		case u.dt != e.dt:
			return argErr(opName, "op", "%s does not take %s", o.name, e.name)
		}
		return nil
	}
	if !rma && (o.name == "Replace" || o.name == "NoOp") {
		return argErr(opName, "op", "%s is only for one-sided accumulates", o.name)
	}
	ok := (e.kind == kindInt && o.ints) || (e.kind == kindFloat && o.floats) || (e.kind == kindComplex && o.complexes)
	if !ok {
		return argErr(opName, "op", "%s is not defined for %s", o.name, e.name)
	}
	return nil
}
