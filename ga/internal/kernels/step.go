package kernels

import "math"

// The line-search steps' work on runs of a real type (GA's elem_alg.c,
// written for TAO), in the element type (integers divide as integers do),
// before ga bounds the results at GA's infinity of the type.

// stepMaxRun is StepMax on runs: the least |x/y| where y < 0 (+Inf if
// there is none), and whether x has a negative element.
func stepMaxRun[U ordered](x, y []U) (step float64, negative bool) {
	step = math.Inf(1)
	for i, a := range x {
		negative = negative || a < 0
		if y[i] < 0 {
			step = min(step, math.Abs(float64(a/y[i])))
		}
	}
	return step, negative
}

// Bounds is StepBoundInfo's result over some elements, and whether xx
// passed a bound there.
type Bounds struct {
	Min, Wolfe, Max float64
	Above, Below    bool
}

// NoBounds is Bounds over no element: what Join starts from.
func NoBounds() Bounds { return Bounds{Min: math.Inf(1), Wolfe: math.Inf(1), Max: math.Inf(-1)} }

// Join is the Bounds over the elements of b and c.
func (b Bounds) Join(c Bounds) Bounds {
	return Bounds{min(b.Min, c.Min), min(b.Wolfe, c.Wolfe), max(b.Max, c.Max), b.Above || c.Above, b.Below || c.Below}
}

// boundsRun is StepBoundInfo on runs: each element's step to the bound
// that xx + s·vv reaches first, +Inf where it reaches none (min with GA's
// infinity is monotone, so bounding the results later bounds every step).
func boundsRun[U ordered](xx, vv, lower, upper []U) Bounds {
	b := NoBounds()
	for i, x := range xx {
		up, down, v := upper[i]-x, x-lower[i], vv[i]
		b.Above, b.Below = b.Above || up < 0, b.Below || down < 0
		var s float64
		switch {
		case v > 0:
			s = float64(up / v)
			b.Wolfe = min(b.Wolfe, s)
		case v < 0:
			s = float64(down / -v)
			b.Wolfe = min(b.Wolfe, s)
		case up == 0 || down == 0: // still, on a bound
		default: // still, inside the bounds: never reaches one
			s = math.Inf(1)
		}
		b.Min, b.Max = min(b.Min, s), max(b.Max, s)
	}
	return b
}
