package ga

import (
	"math"
	"reflect"

	"github.com/goga-hpc/goga/ga/internal/kernels"
	"github.com/goga-hpc/goga/mpi"
)

// Line-search steps (GA's elem_alg.c, written for TAO): reductions over
// paired patches of real arrays, read through combine like the element-wise
// operations, each run's part in package kernels. The results are float64 for every real element type, computed
// in the element type (integers divide as integers do). Where nothing bounds
// a step, they return GA's finite "infinity" of the element type, as GA C
// does, and no step they return exceeds it.

// GA's infinities (GA_INFINITY_I, GA_INFINITY_L, GA_INFINITY_F and
// GA_INFINITY_D of elem_alg.c), one per real element type: int32, int64
// (GA's C long), float32 and float64. StepMax and StepBoundInfo return them,
// as float64, for a step that nothing bounds, so that ported code's
// comparisons with GA's constants hold; compare with the converted constant:
// float64(InfinityF) is 1e37 rounded to float32, 9.999999933815813e36.
const (
	InfinityI int32   = math.MaxInt32 // 2^31 - 1
	InfinityL int64   = math.MaxInt64 // 2^63 - 1
	InfinityF float32 = 1e37
	InfinityD float64 = 1e307
)

// infinityOf is T's GA infinity as the steps return it (+Inf for a complex
// T, which they refuse).
func infinityOf[T Elem]() float64 {
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Int32:
		return float64(InfinityI)
	case reflect.Int64:
		return float64(InfinityL)
	case reflect.Float32:
		return float64(InfinityF)
	case reflect.Float64:
		return InfinityD
	}
	return math.Inf(1)
}

// StepMax returns the largest s such that a + s·b ≥ 0 element by element,
// for a ≥ 0: the least a/|b| where b < 0, at most T's GA infinity
// (InfinityI, InfinityL, InfinityF, InfinityD), which it returns if b has
// no negative element (GA_Step_max). a and b have the same number of
// elements; shapes and distributions may differ. A negative element of a,
// or a complex element type, is an error on every process. It is
// collective, and every process gets the result.
func StepMax[T Elem](a, b *Array[T]) (float64, error) {
	return stepMax("StepMax", patchOf(a), patchOf(b))
}

// StepMaxPatch is StepMax on patches with the same number of elements,
// paired in C order (GA_Step_max_patch; GA C 5.8 reads outside the patch
// there). It is collective.
func StepMaxPatch[T Elem](a *Array[T], alo, ahi []int, b *Array[T], blo, bhi []int) (float64, error) {
	return stepMax("StepMaxPatch", side[T]{a, alo, ahi, false}, side[T]{b, blo, bhi, false})
}

func stepMax[T Elem](op string, a, b side[T]) (float64, error) {
	k := kernels.Of[T]()
	step, negative := math.Inf(1), false
	err := reduction(op, []side[T]{a, b}, k.StepMax == nil, func(s [][]T) {
		st, neg := k.StepMax(s[0], s[1])
		step, negative = min(step, st), negative || neg
	})
	if err != nil {
		return 0, err
	}
	v := []float64{step, flag(!negative)}
	if err := mpi.Allreduce(a.a.g.comm(), nil, v, mpi.Min); err != nil {
		return 0, err
	}
	if v[1] == 0 {
		return 0, errorf(op, a.a.name, "a negative element in patch lo %v hi %v; the step is for a ≥ 0", a.lo, a.hi)
	}
	return min(v[0], infinityOf[T]()), nil
}

// StepBoundInfo returns, for the line xx + s·vv within the bounds xxll ≤ xx
// ≤ xxuu (GA_Step_bound_info, GA 4's GA_Step_max2): each element's step s
// to the bound it moves toward, at most T's GA infinity (InfinityI,
// InfinityL, InfinityF, InfinityD), 0 for an element that does not move but
// sits on a bound and the infinity for one that does not move inside them;
// boundmin and boundmax, the least and the largest of those steps; and
// wolfemin, the least over the elements that move (the infinity if none
// does), as GA C returns them. The four arrays have the same number of
// elements; shapes and distributions may differ. xx outside its bounds, or
// a complex element type, is an error on every process. It is collective,
// and every process gets the results.
func StepBoundInfo[T Elem](xx, vv, xxll, xxuu *Array[T]) (boundmin, wolfemin, boundmax float64, err error) {
	return stepBoundInfo("StepBoundInfo", patchOf(xx), patchOf(vv), patchOf(xxll), patchOf(xxuu))
}

// StepBoundInfoPatch is StepBoundInfo on patches with the same number of
// elements, paired in C order (GA_Step_bound_info_patch). It is collective.
func StepBoundInfoPatch[T Elem](xx *Array[T], xxlo, xxhi []int, vv *Array[T], vvlo, vvhi []int, xxll *Array[T], lllo, llhi []int, xxuu *Array[T], uulo, uuhi []int) (boundmin, wolfemin, boundmax float64, err error) {
	return stepBoundInfo("StepBoundInfoPatch", side[T]{xx, xxlo, xxhi, false}, side[T]{vv, vvlo, vvhi, false}, side[T]{xxll, lllo, llhi, false}, side[T]{xxuu, uulo, uuhi, false})
}

func stepBoundInfo[T Elem](op string, xx, vv, xxll, xxuu side[T]) (boundmin, wolfemin, boundmax float64, err error) {
	k := kernels.Of[T]()
	all := kernels.NoBounds()
	err = reduction(op, []side[T]{xx, vv, xxll, xxuu}, k.StepBounds == nil, func(s [][]T) {
		all = all.Join(k.StepBounds(s[0], s[1], s[2], s[3]))
	})
	if err != nil {
		return 0, 0, 0, err
	}
	v := []float64{all.Min, all.Wolfe, -all.Max, flag(!all.Above), flag(!all.Below)}
	if err := mpi.Allreduce(xx.a.g.comm(), nil, v, mpi.Min); err != nil {
		return 0, 0, 0, err
	}
	switch {
	case v[3] == 0:
		return 0, 0, 0, errorf(op, xx.a.name, "above its upper bound %s in patch lo %v hi %v", xxuu.a.name, xx.lo, xx.hi)
	case v[4] == 0:
		return 0, 0, 0, errorf(op, xx.a.name, "below its lower bound %s in patch lo %v hi %v", xxll.a.name, xx.lo, xx.hi)
	}
	inf := infinityOf[T]()
	return min(v[0], inf), min(v[1], inf), min(-v[2], inf), nil
}

// reduction runs f, collectively, on the runs of the operands' patches,
// paired in C order: the first is read in place, the others in place or
// fetched. complex refuses the call (the element type is complex).
func reduction[T Elem](op string, ops []side[T], complex bool, f func(s [][]T)) error {
	first := ops[0]
	check := checkSides(op, first, ops[1:]...)
	if check == nil && complex {
		check = errorf(op, first.a.Name(), "not defined for complex elements")
	}
	l, arrays := sidesArgs(op, ops)
	return first.a.collective(op, l, check, func([]T) error {
		return combine(op, first.a, first.lo, first.hi, ops, func(_ []T, s [][]T) { f(s) })
	}, arrays[1:]...)
}

// flag is 1 for true, 0 for false: a minimum over processes is then their
// conjunction.
func flag(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
