package mpi

import "github.com/goga-hpc/goga/cgo"

// Op is a predefined MPI reduction operator.
type Op struct {
	name string
	h    cgo.Op
	// which element kinds MPI defines it for
	ints, floats, complexes bool
}

// The predefined operators. Min and Max are not defined on complex numbers, the
// logical and bitwise ones only on integers; using them there returns an error.
var (
	Sum  = Op{"Sum", cgo.OpSum, true, true, true}
	Prod = Op{"Prod", cgo.OpProd, true, true, true}
	Min  = Op{"Min", cgo.OpMin, true, true, false}
	Max  = Op{"Max", cgo.OpMax, true, true, false}
	Land = Op{"Land", cgo.OpLand, true, false, false}
	Lor  = Op{"Lor", cgo.OpLor, true, false, false}
	Lxor = Op{"Lxor", cgo.OpLxor, true, false, false}
	Band = Op{"Band", cgo.OpBand, true, false, false}
	Bor  = Op{"Bor", cgo.OpBor, true, false, false}
	Bxor = Op{"Bxor", cgo.OpBxor, true, false, false}
	// Replace and NoOp are for one-sided Accumulate and GetAccumulate.
	Replace = Op{"Replace", cgo.OpReplace, true, true, true}
	NoOp    = Op{"NoOp", cgo.OpNoOp, true, true, true}
	// MinLoc and MaxLoc work on ValueIndex pairs (ReduceLoc, AllreduceLoc).
	MinLoc = Op{"MinLoc", cgo.OpMinloc, false, false, false}
	MaxLoc = Op{"MaxLoc", cgo.OpMaxloc, false, false, false}
)

// String returns the operator's name.
func (o Op) String() string { return o.name }

// checkOp refuses an operator that MPI does not define for the element type.
func checkOp(opName string, o Op, e elemInfo, rma bool) error {
	if o.h == 0 {
		return argErr(opName, "op", "zero Op; use one of mpi.Sum, mpi.Max, ...")
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
