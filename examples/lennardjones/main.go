// Command lennardjones runs molecular dynamics of Lennard-Jones particles
// in a periodic box, after GA's global/examples/lennard-jones/lennard.c:
// positions, forces and velocities live in global arrays; the matrix of
// pair forces is cut into blocks that processes draw from a shared counter
// (ReadInc), each getting the positions its block needs and accumulating
// its forces into the force array; velocity Verlet moves every process's
// own atoms in place.
//
//	go build -o bin/lennardjones ./examples/lennardjones
//	./mpirun.sh -np 4 bin/lennardjones -n 256 -equil 2500 -steps 5000
//
// The atoms start on a face-centred cubic lattice with Gaussian velocities
// (drawn with the C library's rand, as the original does) scaled to the
// temperature, which equilibration restores every 10 steps; production
// then runs at constant energy. The program prints the kinetic, potential
// and total energy, temperature and pressure as it goes and the averages
// of production, and exits non-zero unless the total energy is conserved
// within a tolerance that scales with the square of the time step, the
// forces sum to zero (Newton's third law) at every step, and the total
// momentum stays zero, each within its rounding.
//
// The original's defaults are -n 256 -block 64 -dt 0.004, and its time,
// accumulated in floating point, makes its 10 units of equilibration and
// 20 of production 2501 and 4999 steps: -equil 2501 -steps 4999 runs it.
// Its pressure sums x·F over positions folded into the box, which is not
// the virial of a periodic system; this one sums r·F over pairs.
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/program"
)

var (
	natoms  = flag.Int("n", 256, "number of particles")
	block   = flag.Int("block", 64, "particles per block of the force matrix (must divide -n)")
	dt      = flag.Float64("dt", 0.004, "time step")
	equil   = flag.Int("equil", 2500, "equilibration steps, rescaling the velocities every 10")
	steps   = flag.Int("steps", 5000, "production steps, at constant energy")
	seed    = flag.Uint("seed", 1, "seed of the C library's rand (srand) for the initial velocities")
	skip    = flag.Int("skip", 0, "discard this many of rand's numbers before drawing the velocities (see README: GA C's put to k processes draws k)")
	every   = flag.Int("every", 250, "print every this many steps")
	density = flag.Float64("density", 1.05, "number density")
	temp    = flag.Float64("temp", 2.0, "temperature")
)

// rescaleEvery is how often equilibration restores the temperature.
const rescaleEvery = 10

// energyTol is c in the bound c·dt² on the largest drift of the total
// energy per particle from its value when production starts. Velocity
// Verlet conserves a shadow energy that differs from the true one by
// O(dt²): the energy's standard deviation per particle measured here is
// about 30·dt² for 256 particles and 50·dt² for 108 (at dt = 0.004, 0.002
// and 0.001, density 1.05, temperature 2), and its largest excursion up
// to 150·dt² and 360·dt². The force has kinks (the nearest image changes
// where a separation reaches half the box), which add a small error of
// first order. 600 leaves room for other seeds and sizes, yet fails for a
// force that is not the potential's gradient, or a wrong step.
const energyTol = 600

func main() {
	flag.Parse()
	program.Main("lennardjones", 1, func() error { return run(os.Stdout) })
}

func run(out io.Writer) error {
	if err := ga.Init(); err != nil {
		return err
	}
	defer ga.Terminate()
	_, err := simulate(out, config{
		natoms: *natoms, block: *block, dt: *dt, equil: *equil, steps: *steps,
		seed: uint32(*seed), skip: *skip, every: *every, density: *density, temp: *temp,
	})
	return err
}

type config struct {
	natoms, block       int
	dt                  float64
	equil, steps, every int
	seed                uint32
	skip                int
	density, temp       float64
}

// row is what one step gives.
type row struct {
	step                                             int
	kinetic, potential, total, temperature, pressure float64
}

// summary is what a run gives: the printed rows, and the production's
// largest energy drift per particle and its averages.
type summary struct {
	rows       []row
	drift      float64
	production stats
}

func simulate(out io.Writer, c config) (summary, error) {
	me, nproc := ga.Nodeid(), ga.Nnodes()
	switch {
	case c.natoms < 2 || c.block < 1 || c.natoms%c.block != 0:
		return summary{}, fmt.Errorf("-n %d -block %d: need at least 2 particles, in blocks that divide them", c.natoms, c.block)
	case !(c.dt > 0) || !(c.density > 0) || !(c.temp > 0):
		return summary{}, fmt.Errorf("-dt %g -density %g -temp %g: all must be positive", c.dt, c.density, c.temp)
	case c.equil < 0 || c.steps < 1 || c.every < 1 || c.skip < 0:
		return summary{}, fmt.Errorf("-equil %d -steps %d -every %d -skip %d: need equil ≥ 0, steps ≥ 1, every ≥ 1, skip ≥ 0",
			c.equil, c.steps, c.every, c.skip)
	}
	s, err := newSystem(c)
	if err != nil {
		return summary{}, err
	}
	defer s.destroy()
	n := float64(c.natoms)
	if me == 0 {
		fmt.Fprintf(out, "Lennard-Jones molecular dynamics of %d particles on %d processes\n", c.natoms, nproc)
		fmt.Fprintf(out, "blocks of %d particles (%d tasks), density %f, temperature %f, time step %f\n",
			c.block, s.perSide*s.perSide, c.density, c.temp, c.dt)
		fmt.Fprintf(out, "box side %f, volume %f\n", s.box, s.box*s.box*s.box)
	}
	if err := s.initialize(c); err != nil {
		return summary{}, err
	}

	var sum summary
	var check checks
	fr, err := s.computeForces()
	if err != nil {
		return summary{}, err
	}
	// measure gives the velocities the last half kick of a step of dt (if
	// dt is not 0) and measures the step.
	measure := func(step int, dt float64) (row, error) {
		p, err := s.properties(dt)
		if err != nil {
			return row{}, err
		}
		check.measure(p, fr, dt, c.natoms, nproc)
		r := row{step: step, kinetic: p.kinetic, potential: fr.potential, total: p.kinetic + fr.potential}
		r.temperature = 2.0 * p.kinetic / 3.0 / n
		r.pressure = c.density * (r.temperature + fr.virial/3.0/n)
		if step%c.every == 0 || step == c.equil+c.steps {
			sum.rows = append(sum.rows, r)
			if me == 0 {
				fmt.Fprintf(out, "%8d %9.3f %12f %13f %13f %12f %12f\n",
					step, float64(step)*c.dt, r.kinetic, r.potential, r.total, r.temperature, r.pressure)
			}
		}
		return r, nil
	}
	if me == 0 {
		fmt.Fprintf(out, "equilibration, rescaling to temperature %f every %d steps:\n", c.temp, rescaleEvery)
		fmt.Fprintf(out, "%8s %9s %12s %13s %13s %12s %12s\n", "step", "time", "kinetic", "potential", "total", "temperature", "pressure")
	}
	if _, err := measure(0, 0); err != nil {
		return summary{}, err
	}
	// step is a velocity Verlet step but for its last half kick, which
	// measure gives.
	step := func() error {
		if err := s.drift(c.dt); err != nil {
			return err
		}
		fr, err = s.computeForces()
		return err
	}
	for k := 1; k <= c.equil; k++ {
		if err := step(); err != nil {
			return summary{}, err
		}
		if _, err := measure(k, c.dt); err != nil {
			return summary{}, err
		}
		if k%rescaleEvery == 0 {
			scale, err := s.rescale(c.temp)
			if err != nil {
				return summary{}, err
			}
			check.rescaled(scale)
		}
	}

	// Production: constant energy, measured against the energy it starts with.
	p, err := s.properties(0)
	if err != nil {
		return summary{}, err
	}
	start := p.kinetic + fr.potential
	if me == 0 {
		fmt.Fprintf(out, "production at constant energy, from total energy %f:\n", start)
	}
	var prod stats
	for k := c.equil + 1; k <= c.equil+c.steps; k++ {
		if err := step(); err != nil {
			return summary{}, err
		}
		r, err := measure(k, c.dt)
		if err != nil {
			return summary{}, err
		}
		prod.add(r)
		sum.drift = max(sum.drift, math.Abs(r.total-start)/n)
	}
	sum.production = prod
	if me == 0 {
		prod.print(out, c.natoms)
	}
	return sum, check.verdict(out, me, sum.drift, energyTol*c.dt*c.dt)
}

// newSystem creates the arrays: natoms × 3, cut only between atoms.
func newSystem(c config) (*system, error) {
	s := &system{natoms: c.natoms, block: c.block, perSide: c.natoms / c.block}
	// The box's side, as lennard.c computes it.
	s.box = math.Pow(float64(c.natoms)/c.density, 1.0/3.0)
	var err error
	if s.x, err = ga.Create[float64]("positions", []int{c.natoms, 3}, []int{1, 3}); err != nil {
		return nil, err
	}
	if s.f, err = s.x.Duplicate("forces"); err != nil {
		s.destroy()
		return nil, err
	}
	if s.v, err = s.x.Duplicate("velocities"); err != nil {
		s.destroy()
		return nil, err
	}
	if s.counter, err = ga.Create[int64]("task counter", []int{1}, nil); err != nil {
		s.destroy()
		return nil, err
	}
	s.lo, s.hi, s.owns = s.x.Distribution(ga.Nodeid())
	s.xi = make([]float64, 3*c.block)
	s.xj = make([]float64, 3*c.block)
	s.force = make([]float64, 3*c.natoms)
	return s, nil
}

func (s *system) destroy() {
	for _, a := range []*ga.Array[float64]{s.x, s.f, s.v} {
		if a != nil {
			a.Destroy()
		}
	}
	if s.counter != nil {
		s.counter.Destroy()
	}
}

// initialize puts the atoms on a face-centred cubic lattice of the fewest
// cells that hold them, with Gaussian velocities of zero total momentum
// scaled to the temperature. Every process draws the same numbers;
// process 0 writes them.
func (s *system) initialize(c config) error {
	cells := 1
	for 4*cells*cells*cells < s.natoms {
		cells++
	}
	side := s.box / float64(cells)
	fcc := [4][3]float64{{0, 0, 0}, {0, 0.5, 0.5}, {0.5, 0, 0.5}, {0.5, 0.5, 0}}
	x := make([]float64, 0, 3*s.natoms)
	for i := range cells {
		for j := range cells {
			for k := range cells {
				cell := [3]float64{float64(i) * side, float64(j) * side, float64(k) * side}
				for m := 0; m < 4 && len(x) < 3*s.natoms; m++ {
					for d := range 3 {
						x = append(x, cell[d]+side*fcc[m][d])
					}
				}
			}
		}
	}
	v := make([]float64, 3*s.natoms)
	var mean [3]float64
	g := gaussian{rand: newCRand(c.seed)}
	for range c.skip {
		g.rand.next()
	}
	for i := range v {
		v[i] = g.next()
		mean[i%3] += v[i]
	}
	for i := range v {
		v[i] -= mean[i%3] / float64(s.natoms)
	}
	if ga.Nodeid() == 0 {
		all := []int{s.natoms - 1, 2}
		if err := s.x.Put([]int{0, 0}, all, x, nil); err != nil {
			return err
		}
		if err := s.v.Put([]int{0, 0}, all, v, nil); err != nil {
			return err
		}
	}
	if err := s.resetCounter(); err != nil {
		return err
	}
	if err := s.f.Zero(); err != nil { // it syncs: the puts are complete
		return err
	}
	_, err := s.rescale(c.temp)
	return err
}

// rescale scales the velocities to the temperature and returns the factor.
func (s *system) rescale(temp float64) (float64, error) {
	sq := []float64{0}
	if err := s.local(false, func(_, _, v []float64) {
		for _, vk := range v {
			sq[0] += vk * vk
		}
	}); err != nil {
		return 0, err
	}
	if err := ga.Gop(sq, ga.OpSum); err != nil {
		return 0, err
	}
	scale := math.Sqrt(float64(3*s.natoms) * temp / sq[0])
	return scale, s.local(true, func(_, _, v []float64) {
		for k := range v {
			v[k] *= scale
		}
	})
}

// drift is the first half of a velocity Verlet step: move every atom a
// step on (folded back into the box) and its velocity half a step, with
// the forces at the start, which it then zeroes for the next computation.
func (s *system) drift(dt float64) error {
	if err := s.resetCounter(); err != nil {
		return err
	}
	return s.local(true, func(x, f, v []float64) {
		for k := range x {
			x[k] += v[k]*dt + 0.5*f[k]*dt*dt
			if x[k] < 0.0 {
				x[k] += s.box
			}
			if x[k] >= s.box {
				x[k] -= s.box
			}
			v[k] += 0.5 * f[k] * dt
		}
		clear(f)
	})
}

// props are the sums over all atoms that one step's checks and printout need.
type props struct {
	kinetic  float64
	momentum [3]float64 // Σv
	speed    [3]float64 // Σ|v|, the scale of the rounding in Σv
	force    [3]float64 // ΣF
}

// properties first moves the velocities the last half step of a step of
// dt with the new forces, if dt is not 0.
func (s *system) properties(dt float64) (props, error) {
	sums := make([]float64, 10)
	if err := s.local(dt != 0, func(_, f, v []float64) {
		for k := range v {
			if dt != 0 {
				v[k] += 0.5 * f[k] * dt
			}
			sums[0] += 0.5 * v[k] * v[k]
			sums[1+k%3] += v[k]
			sums[4+k%3] += math.Abs(v[k])
			sums[7+k%3] += f[k]
		}
	}); err != nil {
		return props{}, err
	}
	if err := ga.Gop(sums, ga.OpSum); err != nil {
		return props{}, err
	}
	p := props{kinetic: sums[0]}
	copy(p.momentum[:], sums[1:4])
	copy(p.speed[:], sums[4:7])
	copy(p.force[:], sums[7:10])
	return p, nil
}

// stats are running sums of the production's quantities.
type stats struct {
	steps                                   int
	temperature, pressure, potential, total moments
	kinetic                                 float64
}

type moments struct{ sum, sq float64 }

func (m *moments) add(x float64) { m.sum += x; m.sq += x * x }

// mean and deviation over n samples.
func (m moments) mean(n int) float64 { return m.sum / float64(n) }
func (m moments) deviation(n int) float64 {
	mean := m.mean(n)
	return math.Sqrt(max(0, m.sq/float64(n)-mean*mean))
}

func (st *stats) add(r row) {
	st.steps++
	st.temperature.add(r.temperature)
	st.pressure.add(r.pressure)
	st.potential.add(r.potential)
	st.total.add(r.total)
	st.kinetic += r.kinetic
}

func (st stats) print(out io.Writer, natoms int) {
	n, fn := st.steps, float64(natoms)
	fmt.Fprintf(out, "averages over %d production steps:\n", n)
	fmt.Fprintf(out, "temperature                   = %f  +-  %f\n", st.temperature.mean(n), st.temperature.deviation(n))
	fmt.Fprintf(out, "pressure                      = %f  +-  %f\n", st.pressure.mean(n), st.pressure.deviation(n))
	fmt.Fprintf(out, "potential energy per particle = %f  +-  %f\n", st.potential.mean(n)/fn, st.potential.deviation(n)/fn)
	fmt.Fprintf(out, "total energy per particle     = %f  +-  %f\n", st.total.mean(n)/fn, st.total.deviation(n)/fn)
	fmt.Fprintf(out, "energy fluctuation            = %f  (deviation of the total over the mean kinetic energy)\n",
		st.total.deviation(n)/(st.kinetic/float64(n)))
}

// checks keeps the worst of each conservation law over the run, as a
// fraction of what rounding allows.
type checks struct {
	force, momentum float64    // largest |ΣF| and |Σv| over their bounds
	drifted         [3]float64 // how far rounding may have moved Σv so far
}

const eps = 0x1p-53 // unit roundoff

// measure checks one step's sums. The pair forces cancel exactly, so ΣF
// is rounding only: each force is a sum of pair terms (in a process's own
// vector, then across processes by accumulate), off by at most
// (natoms+nproc)·ε times the sum of its terms' magnitudes; summing the
// forces adds as much again; every pair term is in two forces. So
// |ΣF| ≤ 4·(natoms+nproc)·ε·pairAbs. Σv starts at rounding (the mean is
// subtracted) and a step moves it by dt·ΣF and the rounding of two
// velocity updates, 2ε·Σ|v|; a rescale multiplies it by its factor;
// the start (the mean and its subtraction) and the summing are off by
// up to 4·natoms·ε·Σ|v| together.
func (c *checks) measure(p props, fr forces, dt float64, natoms, nproc int) {
	forceBound := 4 * float64(natoms+nproc) * eps * fr.pairAbs
	for d := range 3 {
		c.force = max(c.force, math.Abs(p.force[d])/forceBound)
		if dt > 0 {
			c.drifted[d] += 2*eps*p.speed[d] + dt*forceBound
		}
		bound := c.drifted[d] + 4*float64(natoms)*eps*p.speed[d]
		c.momentum = max(c.momentum, math.Abs(p.momentum[d])/bound)
	}
}

// rescaled notes that the velocities were multiplied by scale.
func (c *checks) rescaled(scale float64) {
	for d := range 3 {
		c.drifted[d] *= max(1, scale)
	}
}

func (c *checks) verdict(out io.Writer, me int, drift, driftTol float64) error {
	if me == 0 {
		fmt.Fprintf(out, "largest energy drift per particle %.3e (tolerance %g·dt² = %.3e)\n", drift, float64(energyTol), driftTol)
		fmt.Fprintf(out, "largest |sum of forces| %.3f of its rounding bound, largest |total momentum| %.3f of its\n", c.force, c.momentum)
	}
	switch {
	case !(drift <= driftTol):
		return fmt.Errorf("total energy not conserved: drifted %.3e per particle, tolerance %.3e", drift, driftTol)
	case !(c.force <= 1):
		return fmt.Errorf("forces do not sum to zero: %.3g times the rounding bound", c.force)
	case !(c.momentum <= 1):
		return fmt.Errorf("total momentum not zero: %.3g times the rounding bound", c.momentum)
	}
	if me == 0 {
		fmt.Fprintln(out, "energy, momentum and Newton's third law hold")
	}
	return nil
}
