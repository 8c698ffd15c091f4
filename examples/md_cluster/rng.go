package main

import "math"

// ran3 is Knuth's subtractive generator as Numerical Recipes gives it
// (ran3, which md_cluster calls ran1): 55 integers below 10⁹, each new
// number the difference of two earlier ones.
type ran3 struct {
	ma            [56]int64 // ma[1..55], as the recipe indexes them
	inext, inextp int
	seeded        bool
}

const (
	ranBig  = 1000000000
	ranSeed = 161803398
)

// ranScale is 10⁻⁹ as the recipe writes it, a single-precision literal
// (1.e-9) given to a double.
var ranScale = float64(float32(1e-9))

// next returns a number in [0, 1). A negative seed starts the sequence
// again from it; 0 continues it.
func (r *ran3) next(seed int64) float64 {
	if seed < 0 || !r.seeded {
		r.seeded = true
		if seed < 0 {
			seed = -seed
		}
		mj := (ranSeed - seed) % ranBig
		r.ma[55] = mj
		mk := int64(1)
		for i := 1; i <= 54; i++ {
			ii := (21 * i) % 55
			r.ma[ii] = mk
			mk = mj - mk
			if mk < 0 {
				mk += ranBig
			}
			mj = r.ma[ii]
		}
		for k := 0; k < 4; k++ {
			for i := 1; i <= 55; i++ {
				r.ma[i] -= r.ma[1+(i+30)%55]
				if r.ma[i] < 0 {
					r.ma[i] += ranBig
				}
			}
		}
		r.inext, r.inextp = 0, 31
	}
	r.inext++
	if r.inext == 56 {
		r.inext = 1
	}
	r.inextp++
	if r.inextp == 56 {
		r.inextp = 1
	}
	mj := r.ma[r.inext] - r.ma[r.inextp]
	if mj < 0 {
		mj += ranBig
	}
	r.ma[r.inext] = mj
	return float64(mj) * ranScale
}

// gauss draws normal deviates by the polar Box–Muller method, two at a
// time, keeping the second for the next call (Numerical Recipes' gasdev).
// Its kept deviate outlives a reseed of the uniform generator: the
// original's gasdev saves it across tasks, so a process's next task starts
// with it.
type gauss struct {
	uniform ran3
	have    bool
	kept    float64
}

func (g *gauss) next() float64 {
	if g.have {
		g.have = false
		return g.kept
	}
	for {
		v1 := 2*g.uniform.next(0) - 1
		v2 := 2*g.uniform.next(0) - 1
		r := v1*v1 + v2*v2
		if r >= 1 || r == 0 {
			continue
		}
		fac := math.Sqrt(-2 * math.Log(r) / r)
		g.kept, g.have = v1*fac, true
		return v2 * fac
	}
}
