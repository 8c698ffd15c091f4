package main

import "math"

// The D2Q9 lattice of GA's initpar.F: direction 0 is at rest, 1-4 move
// along the axes and 5-8 along the diagonals, in the original's order.
var ex = [9]int{0, 1, -1, 0, 0, 1, -1, 1, -1}
var ey = [9]int{0, 0, 0, 1, -1, 1, -1, -1, 1}

// dirOf[k+1][l+1] is the direction that moves by (k, l) (the original's
// hash table); dirOf[-k+1][-l+1] is the one arriving from there (ihash).
var dirOf = func() (h [3][3]int) {
	for q := range ex {
		h[ex[q]+1][ey[q]+1] = q
	}
	return h
}()

// Boundary kinds of the bc array (setup.F).
const (
	fluid  = 0
	wall   = 1 // bounce back
	movLid = 2 // the lid: bounce back, then the velocity corrected to the lid's
)

// Components of the fields array, as in the original's g_fld.
const (
	fRho = iota
	fUx
	fUy
	fP
	fTau
	fVort
	nField
)

// params are the simulation's constants (setup.F, initpar.F).
type params struct {
	n                 int     // grid points along each side
	dx, dt, cspd      float64 // lattice spacing, time step, lattice speed √2·dx/dt
	nu, rgas, temp    float64 // viscosity, gas constant, temperature
	lid               float64 // the lid's x velocity
	ffb, ffc, ffd     [9]float64
	rdim, b           float64
	cspdEq, cspdProps float64 // dx/dt as equil.F and properties.F compute it
}

func newParams(n int, xmax, nu, dt, lid float64) *params {
	p := &params{n: n, dt: dt, nu: nu, rgas: 1, temp: 1, lid: lid, rdim: 4, b: 24}
	p.dx = xmax / float64(n-1)
	p.cspd = math.Sqrt(2) * p.dx / dt
	c2 := p.cspd * p.cspd
	rdim, b := p.rdim, p.b
	for q := range 9 {
		switch {
		case q == 0:
			p.ffd[q] = -1/c2 - 4*rdim/(2*b*c2)
		case q <= 4:
			p.ffb[q] = 4 * rdim / (b * c2)
			p.ffc[q] = 4 * rdim * (rdim + 2) / (2 * b * (c2 * c2))
			p.ffd[q] = -4 * rdim / (2 * b * c2)
		default:
			p.ffb[q] = rdim / (b * c2)
			p.ffc[q] = rdim * (rdim + 2) / (2 * b * (c2 * c2))
			p.ffd[q] = -rdim / (2 * b * c2)
		}
	}
	// The two routines reach dx/dt by different roundings; each keeps its own
	// so that the results agree with the original's to the last bit.
	p.cspdEq = 1 / (math.Sqrt(2) / p.cspd)
	p.cspdProps = p.cspd / math.Sqrt(2)
	return p
}

// tau is the relaxation time 6ν/(c²Δt) + 1/2.
func (p *params) tau() float64 { return 6*p.nu/(p.cspd*p.cspd*p.dt) + 0.5 }

// pressure is the ideal gas's (the original's van der Waals terms are zero).
func (p *params) pressure(rho float64) float64 { return rho * p.rgas * p.temp }

// equil fills feq with the equilibrium distribution at density rho,
// velocity (ux, uy) and pressure pr (equil.F).
func (p *params) equil(feq *[9]float64, rho, ux, uy, pr float64) {
	c2 := p.cspd * p.cspd
	aa := (p.rdim / (p.b * c2)) * pr
	aa0 := rho - p.b*aa
	for q := range 9 {
		var fa, cx, cy float64
		switch {
		case q == 0:
			fa = aa0 + 4*aa
		case q <= 4:
			fa = 4 * aa
		default:
			fa = aa
		}
		if q != 0 {
			cx, cy = p.cspdEq*float64(ex[q]), p.cspdEq*float64(ey[q])
		}
		feq[q] = fa + rho*(p.ffb[q]*(ux*cx+uy*cy)+
			p.ffc[q]*(ux*ux*(cx*cx)+2*ux*uy*cx*cy+uy*uy*(cy*cy))+
			p.ffd[q]*(ux*ux+uy*uy))
	}
}

// moments returns the density and velocity of the distribution f
// (properties.F).
func (p *params) moments(f *[9]float64) (rho, ux, uy float64) {
	var mx, my float64
	for q := range 9 {
		var cx, cy float64
		if q != 0 {
			cx, cy = p.cspdProps*float64(ex[q]), p.cspdProps*float64(ey[q])
		}
		rho += f[q]
		mx += cx * f[q]
		my += cy * f[q]
	}
	return rho, mx / rho, my / rho
}

// grid is one process's view of a ghosted block: lo and hi are the
// corners of the block with its halo (global indices, hi inclusive) and ld
// the storage's pitches, as AccessGhosts returns them.
type grid struct {
	lo, hi, ld []int
}

// at is the offset of component c of cell (i, j) in a block of ncomp
// components per cell.
func (g grid) at(i, j, c int) int {
	if len(g.ld) == 1 {
		return (i-g.lo[0])*g.ld[0] + j - g.lo[1]
	}
	return ((i-g.lo[0])*g.ld[0]+j-g.lo[1])*g.ld[1] + c
}

// lattice is what a process holds of the simulation: its blocks of the
// distributions f (9 per cell), the fields and the boundary kinds, each
// with a halo one cell wide.
type lattice struct {
	*params
	f, fld []float64
	bc     []int32
	g      grid // f's and fld's layout along the first two dimensions
	gbc    grid
	moved  []moments // step's streamed moments, kept between steps
}

// moments are a cell's density and velocity.
type moments struct{ rho, ux, uy float64 }

// owned calls fn for each cell the process owns, rows of constant j in
// turn, as the original's loops run (it fixes the order of the sums).
func (lt *lattice) owned(fn func(i, j int)) {
	for j := lt.g.lo[1] + 1; j < lt.g.hi[1]; j++ {
		for i := lt.g.lo[0] + 1; i < lt.g.hi[0]; i++ {
			fn(i, j)
		}
	}
}

// inside reports whether (i, j) is a point of the grid.
func (lt *lattice) inside(i, j int) bool { return i >= 0 && j >= 0 && i < lt.n && j < lt.n }

func (lt *lattice) fAt(i, j int) int { return lt.g.at(i, j, 0) }

// fldAt is the offset of cell (i, j)'s fields: fld has nField components
// and f has 9, so the two layouts differ in their last pitch.
func (lt *lattice) fldAt(i, j, c int) int {
	return ((i-lt.g.lo[0])*lt.g.ld[0]+j-lt.g.lo[1])*nField + c
}

func (lt *lattice) bcAt(i, j int) int32 { return lt.bc[lt.gbc.at(i, j, 0)] }

// stream returns the distribution that arrives at cell (i, j) from the
// post-collision distributions (in f, halo filled), timestep.F's streaming
// and get_patch.F's boundary cells.
func (lt *lattice) stream(s *[9]float64, i, j int) {
	f := lt.f
	self := lt.fAt(i, j)
	s[0] = f[self]
	kind := lt.bcAt(i, j)
	if kind == fluid {
		for q := 1; q < 9; q++ {
			s[q] = f[lt.fAt(i-ex[q], j-ey[q])+q]
		}
		return
	}
	// mask: 0 a fluid neighbour, 1 a boundary cell beside one (it passes
	// its populations on), 2 a boundary cell or outside (bounce back).
	var mask [3][3]int
	for l := -1; l <= 1; l++ {
		for k := -1; k <= 1; k++ {
			mask[k+1][l+1] = 2
			if lt.inside(i+k, j+l) && lt.bcAt(i+k, j+l) == fluid {
				mask[k+1][l+1] = 0
			}
		}
	}
	for l := -1; l <= 1; l++ {
		for k := -1; k <= 1; k++ {
			if mask[k+1][l+1] == 0 || k == 0 && l == 0 {
				continue
			}
			for ll := max(l-1, -1); ll <= min(l+1, 1); ll++ {
				for kk := max(k-1, -1); kk <= min(k+1, 1); kk++ {
					if mask[kk+1][ll+1] == 0 {
						mask[k+1][l+1] = 1
					}
				}
			}
		}
	}
	// in[k+1][l+1] is the population that arrives from (k, l).
	var in [3][3]float64
	var rho, ux float64
	for l := -1; l <= 1; l++ {
		for k := -1; k <= 1; k++ {
			if mask[k+1][l+1] == 2 {
				in[k+1][l+1] = f[self+dirOf[k+1][l+1]]
			} else {
				in[k+1][l+1] = f[lt.fAt(i+k, j+l)+dirOf[-k+1][-l+1]]
			}
			v := in[k+1][l+1]
			rho += v
			ux -= lt.cspdProps * float64(k) * v
		}
	}
	if kind == movLid {
		// Move x momentum between the two populations that leave
		// downwards diagonally, so that the cell gets the lid's velocity.
		du := lt.lid - ux/rho
		in[2][2] -= 0.5 * rho * du / lt.cspdProps
		in[0][2] += 0.5 * rho * du / lt.cspdProps
	}
	for q := 1; q < 9; q++ {
		s[q] = in[-ex[q]+1][-ey[q]+1]
	}
}

// step advances the process's cells one time step, its halo of f being
// current, and returns their density and momentum sums (timestep.F): stream,
// take the moments of what arrived, relax towards their equilibrium.
//
// As in the original, the relaxation starts from each cell's distribution
// before streaming (fg(·,·,19:27)), the streamed one only setting the
// equilibrium.
func (lt *lattice) step() (sum [3]float64) {
	var s, feq [9]float64
	// One buffer for every step: a new one each step was 0.4 MB of garbage
	// per step on 129 × 129, a garbage collection every third step.
	cells := lt.moved[:0]
	lt.owned(func(i, j int) {
		lt.stream(&s, i, j)
		rho, ux, uy := lt.moments(&s)
		cells = append(cells, moments{rho, ux, uy})
		sum[0] += rho
		sum[1] += rho * ux
		sum[2] += rho * uy
	})
	lt.moved = cells
	// Only after every cell has streamed: relaxing overwrites f in place.
	n := 0
	lt.owned(func(i, j int) {
		c := cells[n]
		n++
		pr := lt.pressure(c.rho)
		at := lt.fldAt(i, j, 0)
		lt.fld[at+fRho], lt.fld[at+fUx], lt.fld[at+fUy], lt.fld[at+fP] = c.rho, c.ux, c.uy, pr
		tau := lt.fld[at+fTau]
		if tau <= 0 {
			return
		}
		lt.equil(&feq, c.rho, c.ux, c.uy, pr)
		f := lt.f[lt.fAt(i, j):]
		for q := range 9 {
			f[q] = f[q] - (f[q]-feq[q])/tau
		}
	})
	return sum
}

// vorticity sets each owned cell's vorticity ∂uy/∂x − ∂ux/∂y from its fluid
// neighbours, weighted by direction (vorticity.F); the fields' halo must be
// current.
func (lt *lattice) vorticity() {
	fld := lt.fld
	lt.owned(func(i, j int) {
		c := lt.fldAt(i, j, 0)
		var dux, duy [2]float64
		var drxi, dryi float64
		for l := -1; l <= 1; l++ {
			dy := float64(l) * lt.dx
			var dyi float64
			if dy != 0 {
				dyi = 1 / dy
			}
			for k := -1; k <= 1; k++ {
				if k == 0 && l == 0 || !lt.inside(i+k, j+l) || lt.bcAt(i+k, j+l) != fluid {
					continue
				}
				dx := float64(k) * lt.dx
				var dxi float64
				if dx != 0 {
					dxi = 1 / dx
				}
				dri := 1 / math.Sqrt(dx*dx+dy*dy)
				adxi := math.Abs(dx * (dri * dri))
				adyi := math.Abs(dy * (dri * dri))
				nb := lt.fldAt(i+k, j+l, 0)
				uxt, uyt := fld[nb+fUx], fld[nb+fUy]
				dux[0] += (uxt - fld[c+fUx]) * dxi * adxi
				dux[1] += (uxt - fld[c+fUx]) * dyi * adyi
				duy[0] += (uyt - fld[c+fUy]) * dxi * adxi
				duy[1] += (uyt - fld[c+fUy]) * dyi * adyi
				drxi += adxi
				dryi += adyi
			}
		}
		fld[c+fVort] = duy[0]/drxi - dux[1]/dryi
	})
}
