package ga_test

import (
	"math/rand/v2"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestSteps checks StepMax and StepBoundInfo, whole and patch forms,
// against a sequential model on random data in the real element types, on
// arrays of four layouts shaped and distributed differently from each
// other; their GA infinity where nothing bounds a step, and as the most a
// step can be in the float types; and their refusal of points outside their
// bounds and of complex elements, on 1-4 processes over shared memory and
// TCP.
func TestSteps(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		mpitest.Must(t, ga.Init())
		defer endGA(t)
		eachType(t, steps[int32], steps[int64], floatSteps[float32], floatSteps[float64], complexSteps[complex64], complexSteps[complex128])
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

// real64 is a real element as a float64.
func real64[T ga.Elem](x T) float64 { return real(complexOf(x)) }

// gaInfinity is GA's infinity of a real T (GA_INFINITY_I, _L, _F, _D) as
// the steps return it.
func gaInfinity[T ga.Elem]() float64 {
	var z T
	switch any(z).(type) {
	case int32:
		return float64(ga.InfinityI)
	case int64:
		return float64(ga.InfinityL)
	case float32:
		return float64(ga.InfinityF)
	case float64:
		return float64(ga.InfinityD)
	}
	panic("gaInfinity of a complex type")
}

// stepModel is the largest s with x + s·y ≥ 0, over pairs with y < 0, at
// most GA's infinity.
func stepModel[T ga.Elem](x, y []T) float64 {
	step := gaInfinity[T]()
	for k := range x {
		if cmpModel(y[k], 0) < 0 {
			step = min(step, real64(x[k]/(-y[k])))
		}
	}
	return step
}

// boundModel is StepBoundInfo over paired elements: each one's step to the
// bound it moves toward, at most GA's infinity.
func boundModel[T ga.Elem](xx, vv, lower, upper []T) (boundmin, wolfemin, boundmax float64) {
	inf := gaInfinity[T]()
	boundmin, wolfemin, boundmax = inf, inf, 0
	for k, x := range xx {
		var s float64
		switch v := vv[k]; {
		case cmpModel(v, 0) > 0:
			s = real64((upper[k] - x) / v)
			wolfemin = min(wolfemin, s)
		case cmpModel(v, 0) < 0:
			s = real64((x - lower[k]) / -v)
			wolfemin = min(wolfemin, s)
		case x == upper[k] || x == lower[k]:
			s = 0
		default:
			s = inf
		}
		s = min(s, inf)
		boundmin, boundmax = min(boundmin, s), max(boundmax, s)
	}
	return boundmin, wolfemin, boundmax
}

// pick returns the model's elements of the patch [lo, hi], in C order.
func (m made[T]) pick(lo, hi []int) []T {
	var out []T
	for _, p := range order(m.a.Dims(), lo, hi, false) {
		out = append(out, m.model[p])
	}
	return out
}

func steps[T ga.Elem](t *testing.T) {
	rng := rand.New(rand.NewPCG(23, uint64(len(typeName[T]()))))
	for i, ka := range kinds {
		kb, kc, kd := kinds[(i+1)%4], kinds[(i+2)%4], kinds[(i+3)%4]
		t.Run(ka+"And"+kb, func(t *testing.T) { stepMaxes[T](t, ka, kb, rng) })
		t.Run(ka+"And"+kb+"Within"+kc+"And"+kd, func(t *testing.T) { stepBounds[T](t, ka, kb, kc, kd, rng) })
	}
}

func stepMaxes[T ga.Elem](t *testing.T, ka, kb string, rng *rand.Rand) {
	a := newLayout[T](t, ka, []int{9, 11}, rng)
	defer destroy(t, a.a)
	b := newLayout[T](t, kb, []int{11, 9}, rng)
	defer destroy(t, b.a)
	for k := range a.model {
		a.model[k] = absModel(a.model[k])
	}
	a.rewrite(t)
	alo, ahi := []int{2, 1}, []int{7, 4} // 6x4
	blo, bhi := []int{3, 2}, []int{6, 7} // 4x6

	got, err := ga.StepMax(a.a, b.a)
	mpitest.Must(t, err)
	if want := stepModel(a.model, b.model); got != want {
		t.Errorf("StepMax = %v, want %v", got, want)
	}
	got, err = ga.StepMaxPatch(a.a, alo, ahi, b.a, blo, bhi)
	mpitest.Must(t, err)
	if want := stepModel(a.pick(alo, ahi), b.pick(blo, bhi)); got != want {
		t.Errorf("StepMaxPatch = %v, want %v", got, want)
	}
	for _, p := range order(b.a.Dims(), blo, bhi, false) {
		b.model[p] = absModel(b.model[p])
	}
	b.rewrite(t)
	got, err = ga.StepMaxPatch(a.a, alo, ahi, b.a, blo, bhi)
	mpitest.Must(t, err)
	if want := gaInfinity[T](); got != want {
		t.Errorf("StepMaxPatch along a direction with no negative element = %v, want GA's infinity %v", got, want)
	}

	a.set(t, []int{8, 10}, mk[T](-1, 0))
	_, err = ga.StepMax(a.a, b.a)
	wantErr(t, "StepMax from a negative point", err, "StepMax", ka, nil, "negative")
	_, err = ga.StepMaxPatch(a.a, alo, ahi, b.a, []int{0, 0}, []int{0, 8})
	wantErr(t, "StepMaxPatch with 9 elements for 24", err, "StepMaxPatch", kb, nil, "9", "24")
}

func stepBounds[T ga.Elem](t *testing.T, ka, kb, kc, kd string, rng *rand.Rand) {
	xx := newLayout[T](t, ka, []int{9, 11}, rng)
	defer destroy(t, xx.a)
	vv := newLayout[T](t, kb, []int{11, 9}, rng)
	defer destroy(t, vv.a)
	lower := newLayout[T](t, kc, []int{3, 33}, rng)
	defer destroy(t, lower.a)
	upper := newLayout[T](t, kd, []int{99}, rng)
	defer destroy(t, upper.a)
	for k, x := range xx.model {
		lower.model[k] = x - mk[T](rng.IntN(4), 0) // some on the bound
		upper.model[k] = x + mk[T](rng.IntN(4), 0)
		vv.model[k] = mk[T](rng.IntN(7)-3, 0) // some not moving
	}
	vv.model[0] = 0 // and one that does not move, inside its bounds
	lower.model[0], upper.model[0] = xx.model[0]-1, xx.model[0]+1
	for _, m := range []made[T]{vv, lower, upper} {
		m.rewrite(t)
	}

	check := func(what string, bmin, wmin, bmax float64, err error, xxs, vvs, lows, ups []T) {
		t.Helper()
		mpitest.Must(t, err)
		wbmin, wwmin, wbmax := boundModel(xxs, vvs, lows, ups)
		if bmin != wbmin || wmin != wwmin || bmax != wbmax {
			t.Errorf("%s = %v, %v, %v; want %v, %v, %v", what, bmin, wmin, bmax, wbmin, wwmin, wbmax)
		}
	}
	bmin, wmin, bmax, err := ga.StepBoundInfo(xx.a, vv.a, lower.a, upper.a)
	check("StepBoundInfo", bmin, wmin, bmax, err, xx.model, vv.model, lower.model, upper.model)
	if want := gaInfinity[T](); bmax != want {
		t.Errorf("StepBoundInfo's boundmax = %v with an element that never meets a bound, want GA's infinity %v", bmax, want)
	}
	xlo, xhi := []int{1, 2}, []int{6, 5}  // 6x4
	vlo, vhi := []int{2, 1}, []int{5, 6}  // 4x6
	llo, lhi := []int{0, 3}, []int{0, 26} // 1x24
	ulo, uhi := []int{50}, []int{73}      // 24
	// The bounds of the elements the patches pair.
	px, pl, pu := order(xx.a.Dims(), xlo, xhi, false), order(lower.a.Dims(), llo, lhi, false), order(upper.a.Dims(), ulo, uhi, false)
	for k, p := range px {
		lower.model[pl[k]] = xx.model[p] - mk[T](rng.IntN(4), 0)
		upper.model[pu[k]] = xx.model[p] + mk[T](rng.IntN(4), 0)
	}
	lower.rewrite(t)
	upper.rewrite(t)
	bmin, wmin, bmax, err = ga.StepBoundInfoPatch(xx.a, xlo, xhi, vv.a, vlo, vhi, lower.a, llo, lhi, upper.a, ulo, uhi)
	check("StepBoundInfoPatch", bmin, wmin, bmax, err, xx.pick(xlo, xhi), vv.pick(vlo, vhi), lower.pick(llo, lhi), upper.pick(ulo, uhi))

	upper.model[98] = xx.model[98] - 1
	upper.rewrite(t)
	_, _, _, err = ga.StepBoundInfo(xx.a, vv.a, lower.a, upper.a)
	wantErr(t, "StepBoundInfo above the upper bound", err, "StepBoundInfo", ka, nil, "upper", kd)
	_, _, _, err = ga.StepBoundInfo(xx.a, vv.a, upper.a, lower.a)
	wantErr(t, "StepBoundInfo with the bounds swapped", err, "StepBoundInfo", ka, nil)
}

// complexSteps checks that complex elements, which have no order for a
// step, are refused.
func complexSteps[T ga.Elem](t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 29))
	a := newLayout[T](t, "regular", []int{4, 5}, rng)
	defer destroy(t, a.a)
	_, err := ga.StepMax(a.a, a.a)
	wantErr(t, "StepMax on complex elements", err, "StepMax", "regular", nil, "complex")
	_, _, _, err = ga.StepBoundInfo(a.a, a.a, a.a, a.a)
	wantErr(t, "StepBoundInfo on complex elements", err, "StepBoundInfo", "regular", nil, "complex")
}

// floatSteps is steps, and the float types' bound at GA's infinity: a
// finite quotient beyond it gives the infinity, as in GA C, where each
// quotient meets the infinity in a minimum.
func floatSteps[F float32 | float64](t *testing.T) {
	steps[F](t)
	huge := 1e30 // huge/tiny: 1e38 in float32, 1e308 in float64
	if _, ok := any(F(0)).(float64); ok {
		huge = 1e300
	}
	big, tiny, inf := F(huge), F(1e-8), gaInfinity[F]()
	mkArray := func(name string, v ...F) *ga.Array[F] {
		a, err := ga.Create[F](name, []int{len(v)}, nil)
		must(t, err)
		if ga.Nodeid() == 0 {
			must(t, a.Put([]int{0}, []int{len(v) - 1}, v, nil))
		}
		must(t, ga.Sync())
		return a
	}
	x := mkArray("x", big, big, 0)
	defer destroy(t, x)
	y := mkArray("y", -tiny, 1, 0)
	defer destroy(t, y)
	got, err := ga.StepMax(x, y)
	must(t, err)
	if got != inf {
		t.Errorf("StepMax with a quotient of %v/%v = %v, want GA's infinity %v", big, tiny, got, inf)
	}
	// One element moving far, one still on its bound, one still inside.
	xx := mkArray("xx", 0, 0, 1)
	defer destroy(t, xx)
	v := mkArray("v", tiny, 0, 0)
	defer destroy(t, v)
	lower := mkArray("lower", -1, 0, 0)
	defer destroy(t, lower)
	upper := mkArray("upper", big, 5, 2)
	defer destroy(t, upper)
	bmin, wmin, bmax, err := ga.StepBoundInfo(xx, v, lower, upper)
	must(t, err)
	if bmin != 0 || wmin != inf || bmax != inf {
		t.Errorf("StepBoundInfo with a step of %v/%v = %v, %v, %v; want 0, %v, %v", big, tiny, bmin, wmin, bmax, inf, inf)
	}
}
