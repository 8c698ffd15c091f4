package main

import "math"

// cRand is the C library's rand() as glibc computes it (random_r's
// additive feedback generator of degree 31, seeded by srand), so that the
// program starts from the very velocities GA's lennard.c draws.
type cRand struct {
	state [31]uint32
	front int // glibc's fptr, three words ahead of rear
	rear  int
}

// cRandMax is glibc's RAND_MAX.
const cRandMax = math.MaxInt32

// newCRand seeds like srand(seed); glibc turns seed 0 into 1.
func newCRand(seed uint32) *cRand {
	if seed == 0 {
		seed = 1
	}
	r := &cRand{front: 3}
	r.state[0] = seed
	// state[i] = 16807·state[i-1] mod (2³¹−1), by Schrage's method, in
	// signed 32-bit arithmetic as glibc does it.
	word := int32(seed)
	for i := 1; i < len(r.state); i++ {
		hi, lo := word/127773, word%127773
		word = 16807*lo - 2836*hi
		if word < 0 {
			word += math.MaxInt32
		}
		r.state[i] = uint32(word)
	}
	for range 10 * len(r.state) {
		r.next()
	}
	return r
}

// next is rand(): a value in [0, cRandMax].
func (r *cRand) next() int32 {
	r.state[r.front] += r.state[r.rear]
	v := int32(r.state[r.front] >> 1)
	r.front = (r.front + 1) % len(r.state)
	r.rear = (r.rear + 1) % len(r.state)
	return v
}

// gaussian draws standard normal deviates in pairs by Marsaglia's polar
// method, keeping the second of each pair for the next call, with the
// arithmetic of lennard.c's gaussianDistribution.
type gaussian struct {
	rand  *cRand
	saved float64
	have  bool
}

func (g *gaussian) next() float64 {
	if g.have {
		g.have = false
		return g.saved
	}
	var r0, r1, rSqd float64
	for {
		r0 = (2.0*float64(g.rand.next()))/cRandMax - 1.0
		r1 = (2.0*float64(g.rand.next()))/cRandMax - 1.0
		rSqd = r0*r0 + r1*r1
		if rSqd < 1.0 && rSqd != 0.0 {
			break
		}
	}
	factor := math.Sqrt(-2.0 * math.Log(rSqd) / rSqd)
	g.saved, g.have = r0*factor, true
	return r1 * factor
}
