package main

import (
	"math"
	"time"

	"github.com/goga-hpc/goga/ga"
)

// params are a simulation's input, md_lj.in's and atom.inp's lines that
// the cluster runs use.
type params struct {
	steps    int     // time steps
	dt       float64 // time step
	temp     float64 // temperature of the Maxwell–Boltzmann velocities
	resample int     // draw new velocities every this many steps
	rcut     float64 // cutoff of the pair potential, where it is shifted to zero
	center   int     // move the centre of mass to the origin every this many steps
	equil    int     // accumulate statistics after this step
	every    int     // record the energies every this many steps (0: never)
	seed     int64   // the generator's seed, negative
}

// box is the side of the periodic cell of an isolated cluster (newcfg's 25).
const box = 25.0

// sample is what one step measures.
type sample struct {
	step                                                  int
	pressure, total, potential, kinetic, temperature, ham float64
}

// moments accumulates a quantity's sum and sum of squares (estat).
type moments struct{ sum, sum2 float64 }

func (m *moments) add(x float64) { m.sum += x; m.sum2 += x * x }

// mean and rms are the average and root mean square fluctuation over n
// samples (prtnrg).
func (m moments) mean(n int) float64 { return m.sum / float64(n) }
func (m moments) rms(n int) float64 {
	a := m.mean(n)
	return math.Sqrt(math.Abs(m.sum2/float64(n) - a*a))
}

// result is what one task gives.
type result struct {
	natoms, samples                                    int
	radius                                             float64
	energy, kinetic, temperature, potential, repulsion moments
	dispersion, pressure, enthalpy                     moments
	drift, seconds                                     float64
	trace                                              []sample
}

// simulate runs the molecular dynamics of an isolated cluster of n
// Lennard-Jones atoms (mass, ε and σ 1) on the default group, as cl_sim
// does: the atoms start on newcfg's lattice sites with Maxwell–Boltzmann
// velocities; every p.resample steps they get new ones (mbstep), and in
// between they move by velocity Verlet (the original's three-point Gear
// predictor-corrector, which is velocity Verlet). An atom farther than the
// sphere's radius from the centre of mass that moves outward has its
// radial velocity reversed (cluster_therm), and the centre of mass's
// motion is taken out after every step. The positions are a global array
// cut between the group's processes by atoms; each moves its own atoms in
// place (Access), gets all positions for the forces on its own, and the
// sums (centre of mass, momentum, energies) are group Gops.
func simulate(n int, p params, g *gauss) (result, error) {
	start := time.Now()
	res := result{natoms: n}
	me := ga.Nodeid()
	x, err := ga.Create[float64]("positions", []int{n, 3}, []int{1, 3})
	if err != nil {
		return res, err
	}
	defer x.Destroy()
	lo, hi, owns := x.Distribution(me)
	first, last := 0, -1
	if owns {
		first, last = lo[0], hi[0]
	}
	own := last - first + 1

	initial, radius := clusterConfig(n, p.rcut)
	res.radius = radius
	// rdpar seeds the generator and draws once; rdcfg draws each atom's
	// velocity, atom by atom. Every process of the group draws them all and
	// keeps its own.
	g.uniform.next(p.seed)
	scale := math.Sqrt(p.temp)
	v := make([][3]float64, own)
	for i := 0; i < n; i++ {
		for j := 0; j < 3; j++ {
			if r := scale * g.next(); i >= first && i <= last {
				v[i-first][j] = r
			}
		}
	}
	if owns {
		buf, _, err := x.Access(lo, hi)
		if err != nil {
			return res, err
		}
		for i := 0; i < own; i++ {
			copy(buf[3*i:3*i+3], initial[first+i][:])
		}
		if err := x.ReleaseUpdate(lo, hi); err != nil {
			return res, err
		}
	}

	// sums adds this process's parts over the group.
	sums := func(parts ...float64) ([]float64, error) {
		err := ga.Gop(parts, "+")
		return parts, err
	}
	// positions are the whole array's, after every process's updates. A
	// process moves its atoms again only after the Gop that ends the step,
	// which every process reaches after its Get.
	all := make([]float64, 3*n)
	positions := func() error {
		if err := ga.Sync(); err != nil {
			return err
		}
		return x.Get([]int{0, 0}, []int{n - 1, 2}, all, []int{3})
	}
	// centre is the centre of mass of the atoms (cluster_com), a sum of
	// each process's own.
	centre := func() ([3]float64, error) {
		var c [3]float64
		if owns {
			buf, _, err := x.Access(lo, hi)
			if err != nil {
				return c, err
			}
			for i := 0; i < own; i++ {
				for j := range c {
					c[j] += buf[3*i+j]
				}
			}
			if err := x.Release(lo, hi); err != nil {
				return c, err
			}
		}
		if _, err := sums(c[:]...); err != nil {
			return c, err
		}
		for j := range c {
			c[j] /= float64(n)
		}
		return c, nil
	}
	// move applies f to this process's positions in place.
	move := func(f func(i int, r []float64)) error {
		if !owns {
			return nil
		}
		buf, _, err := x.Access(lo, hi)
		if err != nil {
			return err
		}
		for i := 0; i < own; i++ {
			f(i, buf[3*i:3*i+3])
		}
		return x.ReleaseUpdate(lo, hi)
	}
	// stopCentre takes out the motion of the centre of mass and returns the
	// kinetic energy before (com, kin, com_rmv) and after.
	stopCentre := func(extra ...float64) (float64, float64, []float64, error) {
		parts := make([]float64, 4+len(extra))
		for i := range v {
			for j := 0; j < 3; j++ {
				parts[j] += v[i][j]
				parts[3] += 0.5 * v[i][j] * v[i][j]
			}
		}
		copy(parts[4:], extra)
		s, err := sums(parts...)
		if err != nil {
			return 0, 0, nil, err
		}
		pcm := s[:3]
		for i := range v {
			for j := 0; j < 3; j++ {
				v[i][j] -= pcm[j] / float64(n)
			}
		}
		return s[3], s[3] - (sq(pcm[0])+sq(pcm[1])+sq(pcm[2]))/(2*float64(n)), s[4:], nil
	}

	f := make([][3]float64, own)
	a := make([][3]float64, own)
	rc2 := p.rcut * p.rcut
	shift12, shift6 := 4/math.Pow(p.rcut, 12), 4/math.Pow(p.rcut, 6)
	// forces gives the forces on this process's atoms and the repulsion,
	// dispersion and virial (Σ r·F) of the pairs it counts (pairs, with the
	// potential shifted to zero at the cutoff).
	forces := func() (rep, disp, vir float64, err error) {
		if err := positions(); err != nil {
			return 0, 0, 0, err
		}
		for k := 0; k < own; k++ {
			i := first + k
			f[k] = [3]float64{}
			for j := 0; j < n; j++ {
				if j == i {
					continue
				}
				var d [3]float64
				r2 := 0.0
				for c := range d {
					d[c] = all[3*i+c] - all[3*j+c]
					d[c] -= box * math.Round(d[c]/box)
					r2 += d[c] * d[c]
				}
				if r2 >= rc2 {
					continue
				}
				r6i := 1 / (r2 * r2 * r2)
				phir, phid := 4*r6i*r6i, -4*r6i
				dedr := (12*phir + 6*phid) / r2
				for c := range d {
					f[k][c] += dedr * d[c]
				}
				if j > i {
					rep += phir - shift12
					disp += phid + shift6
					vir += dedr * r2
				}
			}
		}
		return rep, disp, vir, nil
	}

	rep, disp, vir, err := forces()
	if err != nil {
		return res, err
	}
	copy(a, f)
	kinetic0 := 0.0
	for i := range v {
		kinetic0 += 0.5 * (sq(v[i][0]) + sq(v[i][1]) + sq(v[i][2]))
	}
	s, err := sums(kinetic0, rep, disp)
	if err != nil {
		return res, err
	}
	rep, disp = s[1], s[2]
	dof := float64(3*n - 3)
	volume := box * box * box
	// reference is the energy the last step left, drift the sum of the
	// changes of the steps since the velocities were last drawn.
	reference, drift := s[0]+rep+disp, 0.0
	for step := 1; step <= p.steps; step++ {
		if step%p.resample == 0 {
			// mbstep: new velocities, column by column, then no net momentum.
			for j := 0; j < 3; j++ {
				for i := 0; i < n; i++ {
					if r := scale * g.next(); i >= first && i <= last {
						v[i-first][j] = r
					}
				}
			}
			_, after, _, err := stopCentre()
			if err != nil {
				return res, err
			}
			reference, drift = after+rep+disp, 0
		}
		c, err := centre()
		if err != nil {
			return res, err
		}
		h := p.dt / 2 * p.dt
		err = move(func(i int, r []float64) {
			var d [3]float64
			dist := 0.0
			for j := range d {
				d[j] = r[j] - c[j]
				dist += d[j] * d[j]
			}
			if dist = math.Sqrt(dist); dist > radius {
				rdot := (v[i][0]*d[0] + v[i][1]*d[1] + v[i][2]*d[2]) / dist
				if rdot > 0 {
					for j := range d {
						v[i][j] -= 2 * rdot * d[j] / dist
					}
				}
			}
			for j := 0; j < 3; j++ {
				r[j] += p.dt*v[i][j] + h*a[i][j]
				v[i][j] += p.dt * a[i][j]
			}
		})
		if err != nil {
			return res, err
		}
		if step%p.center == 0 {
			c, err := centre()
			if err != nil {
				return res, err
			}
			if err := move(func(_ int, r []float64) {
				for j := range c {
					r[j] -= c[j]
				}
			}); err != nil {
				return res, err
			}
		}
		rep, disp, vir, err = forces()
		if err != nil {
			return res, err
		}
		for i := range v {
			for j := 0; j < 3; j++ {
				v[i][j] += p.dt / 2 * (f[i][j] - a[i][j])
				a[i][j] = f[i][j]
			}
		}
		kinetic, after, s, err := stopCentre(rep, disp, vir)
		if err != nil {
			return res, err
		}
		rep, disp, vir = s[0], s[1], s[2]
		potential := rep + disp
		total := kinetic + potential
		// What the step changed of the energy the last one left: velocity
		// Verlet's error, as resampling and the removal of the centre's
		// motion are accounted for in reference.
		drift += total - reference
		res.drift = math.Max(res.drift, math.Abs(drift))
		reference = after + potential
		temperature := 2 * kinetic / dof
		pressure := temperature*float64(n-1)/volume + vir/(3*volume)
		if p.every > 0 && step%p.every == 0 {
			res.trace = append(res.trace, sample{step, pressure, total, potential, kinetic, temperature, total})
		}
		if step > p.equil {
			res.samples++
			res.energy.add(total)
			res.kinetic.add(kinetic)
			res.temperature.add(temperature)
			res.potential.add(potential)
			res.repulsion.add(rep)
			res.dispersion.add(disp)
			res.pressure.add(pressure)
			res.enthalpy.add(total + (2*kinetic+vir)/3)
		}
	}
	res.seconds = time.Since(start).Seconds()
	return res, nil
}
