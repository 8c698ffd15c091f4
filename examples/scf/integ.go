package main

import "math"

// The integrals of integ.F and scf.F over normalized primitive s-type
// Gaussians: the one-electron Hamiltonian h, the overlap s and the
// two-electron repulsion (ij|kl), with the Boys function F0 from a table.

// expRJH is exp(x), but 0 below -37, where the original avoids underflow.
func expRJH(x float64) float64 {
	if x < -37 {
		return 0
	}
	return math.Exp(x)
}

// boys holds F0…F4 on a grid of 2001 points over [0, 28], as setfm builds
// it: F4 by downward recursion from F200, then F3…F0 from it.
type boys struct {
	fm                   [2001][5]float64
	rdelta, delta, delo2 float64
}

func newBoys() *boys {
	b := &boys{delta: 28.0 / 2000.0}
	b.delo2 = b.delta * 0.5
	b.rdelta = 1 / b.delta
	const maxm = 4
	var t, et [2001]float64
	for i := range t {
		tt := b.delta * float64(i)
		et[i] = expRJH(-tt)
		t[i] = 2 * tt
	}
	for i := 200; i >= maxm; i-- {
		rr := 1 / float64(2*i+1)
		for ii := range t {
			b.fm[ii][maxm] = (et[ii] + t[ii]*b.fm[ii][maxm]) * rr
		}
	}
	for i := maxm; i >= 1; i-- {
		rr := 1 / float64(2*i-1)
		for ii := range t {
			b.fm[ii][i-1] = (et[ii] + t[ii]*b.fm[ii][i]) * rr
		}
	}
	return b
}

// f0 is the Boys function F0(t) to a relative accuracy better than 4e-13:
// a 4th-order Taylor expansion about the nearest grid point below 28, the
// asymptotic form above.
func (b *boys) f0(t float64) float64 {
	const (
		fac0   = 0.88622692545276
		rthird = 0.3333333333333333
	)
	if t >= 28 {
		return fac0 / math.Sqrt(t)
	}
	n := int((t + b.delo2) * b.rdelta)
	x := b.delta*float64(n) - t
	f := &b.fm[n]
	return f[0] + x*(f[1]+0.5*x*(f[2]+rthird*x*(f[3]+0.25*x*f[4])))
}

// h is the one-electron Hamiltonian element between basis functions i and
// j: the nuclear attraction of every atom plus the kinetic energy.
func (m *molecule) h(i, j int) float64 {
	bi, bj := &m.basis[i], &m.basis[j]
	rab2 := sq(bi.x-bj.x) + sq(bi.y-bj.y) + sq(bi.z-bj.z)
	eij := bi.expnt + bj.expnt
	facij := bi.expnt * bj.expnt / eij
	expij := expRJH(-facij * rab2)
	repij := (2 * math.Pi / eij) * expij
	sum := 0.0
	for _, a := range m.atoms {
		xp := (bi.x*bi.expnt + bj.x*bj.expnt) / eij
		yp := (bi.y*bi.expnt + bj.y*bj.expnt) / eij
		zp := (bi.z*bi.expnt + bj.z*bj.expnt) / eij
		rpc2 := sq(xp-a.x) + sq(yp-a.y) + sq(zp-a.z)
		sum -= repij * a.q * m.boys.f0(eij*rpc2)
	}
	sum += facij * (3 - 2*facij*rab2) * math.Pow(math.Pi/eij, 1.5) * expij
	return sum * bi.rnorm * bj.rnorm
}

// s is the overlap of basis functions i and j.
func (m *molecule) s(i, j int) float64 {
	bi, bj := &m.basis[i], &m.basis[j]
	rab2 := sq(bi.x-bj.x) + sq(bi.y-bj.y) + sq(bi.z-bj.z)
	eij := bi.expnt + bj.expnt
	facij := bi.expnt * bj.expnt / eij
	return math.Pow(math.Pi/eij, 1.5) * expRJH(-facij*rab2) * bi.rnorm * bj.rnorm
}

// pi25 is π^2.5, the constant of (ij|kl).
var pi25 = math.Pow(math.Pi, 2.5)

// g is the two-electron integral (ij|kl).
func (m *molecule) g(i, j, k, l int) float64 {
	bi, bj, bk, bl := &m.basis[i], &m.basis[j], &m.basis[k], &m.basis[l]
	rab2 := sq(bi.x-bj.x) + sq(bi.y-bj.y) + sq(bi.z-bj.z)
	rcd2 := sq(bk.x-bl.x) + sq(bk.y-bl.y) + sq(bk.z-bl.z)
	eij, ekl := bi.expnt+bj.expnt, bk.expnt+bl.expnt
	facij := bi.expnt * bj.expnt / eij
	fackl := bk.expnt * bl.expnt / ekl
	exijkl := expRJH(-facij*rab2 - fackl*rcd2)
	denom := eij * ekl * math.Sqrt(eij+ekl)
	fac := eij * ekl / (eij + ekl)
	xp := (bi.x*bi.expnt + bj.x*bj.expnt) / eij
	yp := (bi.y*bi.expnt + bj.y*bj.expnt) / eij
	zp := (bi.z*bi.expnt + bj.z*bj.expnt) / eij
	xq := (bk.x*bk.expnt + bl.x*bl.expnt) / ekl
	yq := (bk.y*bk.expnt + bl.y*bl.expnt) / ekl
	zq := (bk.z*bk.expnt + bl.z*bl.expnt) / ekl
	rpq2 := sq(xp-xq) + sq(yp-yq) + sq(zp-zq)
	return (2 * pi25 / denom) * exijkl * m.boys.f0(fac*rpq2) * bi.rnorm * bj.rnorm * bk.rnorm * bl.rnorm
}

func sq(x float64) float64 { return x * x }
