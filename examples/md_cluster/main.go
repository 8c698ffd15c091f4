// Command md_cluster runs molecular dynamics of small Lennard-Jones
// clusters on processor groups, after GA's global/examples/md_cluster
// (grp_sim.F and cl_sim.F): the processes split into groups, each group
// takes the next task from a counter shared by all (ReadInc on a world
// array, read by the group's first process and summed over the group), and
// simulates that task's cluster on its own processes, with arrays on the
// group, until the tasks run out. Task t (from 0) simulates a cluster of
// tasks-t+1 atoms, so the largest go first.
//
//	go build -o bin/md_cluster ./examples/md_cluster
//	./mpirun.sh -np 4 bin/md_cluster -steps 20000
//
// Each cluster starts on the lattice sites newcfg fills, with velocities
// drawn from a Maxwell–Boltzmann distribution at the temperature, which are
// drawn again every -resample steps (the original's algorithm 6, mbstep);
// between draws the atoms move at constant energy by velocity Verlet. An
// atom beyond the confining sphere (radius at least the cutoff) that moves
// outward is turned back, and the centre of mass's motion is taken out at
// every step. The program prints, for each task, the averages and root
// mean square fluctuations of the energies, temperature and pressure after
// -equil steps (prtnrg), the energies every -every steps, and grp_sim's
// times per task and per group; it fails unless every run conserves its
// energy between draws (see energyTol).
//
// The original's input (md_lj.in) asks for 10⁹ steps, and only after
// 50000 does it shrink and grow the confining sphere by Monte Carlo and
// bounce atoms off it at the exact time they reach it; this port stops
// before that regime (its runs take -steps, default a few seconds).
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/program"
)

var (
	tasks    = flag.Int("tasks", 8, "number of tasks (clusters); task t has tasks-t+1 atoms")
	group    = flag.Int("group", 1, "processes per group (0: all in one group)")
	steps    = flag.Int("steps", 20000, "time steps per cluster")
	dt       = flag.Float64("dt", 0.01, "time step")
	temp     = flag.Float64("temp", 0.5, "temperature of the Maxwell-Boltzmann velocities")
	resample = flag.Int("resample", 100, "draw new velocities every this many steps")
	rcut     = flag.Float64("rcut", 2.5, "cutoff of the pair potential")
	center   = flag.Int("center", 20, "move the centre of mass to the origin every this many steps")
	equil    = flag.Int("equil", 1000, "average after this many steps")
	every    = flag.Int("every", 0, "print the energies every this many steps (0: never)")
	seed     = flag.Int64("seed", -44933, "seed of the random number generator (negative)")
)

// energyTol is c in the bound c·dt²·atoms on the largest change of a
// cluster's energy between two draws of the velocities that the steps make
// (velocity Verlet's error; the removal of the centre's motion is
// accounted for). Over the default run's 8 clusters with 4 seeds it
// reaches 30 to 145 at dt 0.01, and alike at dt 0.005 (twice the steps and
// draws every 200): the error scales as dt². A force that is not the
// potential's gradient, or a first-order step, breaks it.
const energyTol = 400

// maxTrace bounds the energies recorded per task.
const maxTrace = 1000

// fields of a task's row in the results array, before its trace.
const (
	fGroup = iota
	fAtoms
	fSamples
	fRadius
	fDrift
	fSeconds
	fMeans // energy, kinetic, temperature, potential, repulsion, dispersion, pressure, enthalpy
	fRms   = fMeans + 8
	fTrace = fRms + 8 // then 7 numbers per sample
)

func main() {
	flag.Parse()
	program.Main("md_cluster", 1, func() error { return run(os.Stdout) })
}

func run(out io.Writer) error {
	if err := ga.Init(); err != nil {
		return err
	}
	defer ga.Terminate()
	p := params{steps: *steps, dt: *dt, temp: *temp, resample: *resample, rcut: *rcut,
		center: *center, equil: *equil, every: *every, seed: *seed}
	_, err := clusters(out, p, *tasks, *group)
	return err
}

// table is what the tasks gave: a row of width numbers per task (the
// f... fields, then the recorded energies).
type table struct {
	rows  []float64
	width int
}

func (t table) task(k int) []float64 { return t.rows[k*t.width : (k+1)*t.width] }

// clusters runs the tasks on groups of size processes (grp_sim), prints
// what they gave, and returns it on every process. It fails unless every
// task conserved its energy between draws of the velocities.
func clusters(out io.Writer, p params, ntasks, size int) (table, error) {
	begin := time.Now()
	ntrace := 0
	if p.every > 0 {
		ntrace = p.steps / p.every
	}
	switch {
	case ntasks < 1 || size < 0:
		return table{}, fmt.Errorf("-tasks %d -group %d: need at least one task and a group size ≥ 0", ntasks, size)
	case p.steps < 1 || p.resample < 1 || p.center < 1 || p.equil < 0 || p.equil >= p.steps || p.every < 0 || ntrace > maxTrace:
		return table{}, fmt.Errorf("-steps %d -resample %d -center %d -equil %d -every %d: need steps, resample, center ≥ 1, 0 ≤ equil < steps, every ≥ 0 and at most %d records",
			p.steps, p.resample, p.center, p.equil, p.every, maxTrace)
	case !(p.dt > 0) || !(p.temp > 0) || !(p.rcut > 0) || p.seed >= 0:
		return table{}, fmt.Errorf("-dt %g -temp %g -rcut %g -seed %d: need positive dt, temp and rcut and a negative seed", p.dt, p.temp, p.rcut, p.seed)
	}

	// grp_sim: groups of consecutive processes (the last one smaller if the
	// size does not divide them), made by every process.
	np, me := ga.Nnodes(), ga.Nodeid()
	if size == 0 || size > np {
		size = np
	}
	ngroups := (np + size - 1) / size
	groups := make([]*ga.Pgroup, ngroups)
	for k := range groups {
		var ranks []int
		for r := k * size; r < min((k+1)*size, np); r++ {
			ranks = append(ranks, r)
		}
		pg, err := ga.PgroupCreate(ranks)
		if err != nil {
			return table{}, err
		}
		groups[k] = pg
	}
	mine := groups[me/size]
	counter, err := ga.Create[int64]("counter", []int{1}, nil)
	if err != nil {
		return table{}, err
	}
	width := fTrace + 7*ntrace
	results, err := ga.Create[float64]("results", []int{ntasks, width}, []int{1, width})
	if err != nil {
		return table{}, err
	}
	if err := counter.Zero(); err != nil {
		return table{}, err
	}
	if err := results.Zero(); err != nil {
		return table{}, err
	}

	if err := mine.SetDefault(); err != nil {
		return table{}, err
	}
	var g gauss // a process's generator, as the original's, lasts across its tasks
	for {
		next := []int64{0}
		if ga.Nodeid() == 0 {
			if next[0], err = counter.ReadInc([]int{0}, 1); err != nil {
				return table{}, err
			}
		}
		if err := ga.Gop(next, "+"); err != nil {
			return table{}, err
		}
		task := int(next[0])
		if task >= ntasks {
			break
		}
		res, err := simulate(ntasks-task+1, p, &g)
		if err != nil {
			return table{}, err
		}
		if ga.Nodeid() == 0 {
			if err := results.Put([]int{task, 0}, []int{task, width - 1}, row(res, me/size, width), nil); err != nil {
				return table{}, err
			}
		}
	}
	if err := ga.PgroupGetWorld().SetDefault(); err != nil {
		return table{}, err
	}
	if err := ga.Sync(); err != nil {
		return table{}, err
	}
	tab := table{make([]float64, ntasks*width), width}
	if err := results.Get([]int{0, 0}, []int{ntasks - 1, width - 1}, tab.rows, []int{width}); err != nil {
		return table{}, err
	}
	elapsed := []float64{time.Since(begin).Seconds()}
	if err := ga.Gop(elapsed, "+"); err != nil {
		return table{}, err
	}
	if me == 0 {
		report(out, p, tab, ntrace, ngroups, size, elapsed[0]/float64(np))
	}
	var bad error
	for k := 0; k < ntasks; k++ {
		r := tab.task(k)
		if bound := energyTol * p.dt * p.dt * r[fAtoms]; !(r[fDrift] <= bound) {
			bad = fmt.Errorf("task %d (%g atoms): the steps changed the energy by up to %g between draws of the velocities, over %g·dt²·atoms = %g",
				k, r[fAtoms], r[fDrift], float64(energyTol), bound)
		}
	}
	if bad == nil && me == 0 {
		fmt.Fprintf(out, "energy conserved between velocity draws within %d·dt² per atom\n", energyTol)
	}
	if err := results.Destroy(); err != nil {
		return table{}, err
	}
	if err := counter.Destroy(); err != nil {
		return table{}, err
	}
	for _, pg := range groups {
		if err := pg.Destroy(); err != nil {
			return table{}, err
		}
	}
	return tab, bad
}

// row is a task's result as a row of the results array.
func row(r result, grp, width int) []float64 {
	x := make([]float64, width)
	x[fGroup], x[fAtoms], x[fSamples] = float64(grp), float64(r.natoms), float64(r.samples)
	x[fRadius], x[fDrift], x[fSeconds] = r.radius, r.drift, r.seconds
	for k, m := range []moments{r.energy, r.kinetic, r.temperature, r.potential, r.repulsion, r.dispersion, r.pressure, r.enthalpy} {
		x[fMeans+k] = m.mean(r.samples)
		x[fRms+k] = m.rms(r.samples)
	}
	for k, s := range r.trace {
		copy(x[fTrace+7*k:], []float64{float64(s.step), s.pressure, s.total, s.potential, s.kinetic, s.temperature, s.ham})
	}
	return x
}

// report prints what the tasks gave, in task order, and grp_sim's times.
func report(out io.Writer, p params, tab table, ntrace, ngroups, size int, elapsed float64) {
	ntasks := len(tab.rows) / tab.width
	fmt.Fprintf(out, "md_cluster: %d tasks on %d groups of %d processes, %d steps of %g, temperature %g, velocities drawn every %d steps, averages after step %d\n",
		ntasks, ngroups, size, p.steps, p.dt, p.temp, p.resample, p.equil)
	if ntrace > 0 {
		fmt.Fprintf(out, "%5s %6s %10s %12s %12s %12s %12s %12s %12s\n",
			"task", "atoms", "time", "pressure", "total", "potential", "kinetic", "temperature", "hamiltonian")
		for t := 0; t < ntasks; t++ {
			r := tab.task(t)
			for k := 0; k < ntrace; k++ {
				s := r[fTrace+7*k : fTrace+7*k+7]
				fmt.Fprintf(out, "%5d %6.0f %10.4f %12.4f %12.4f %12.3f %12.3f %12.3f %12.4f\n",
					t, r[fAtoms], s[0]*p.dt, s[1], s[2], s[3], s[4], s[5], s[6])
			}
		}
	}
	fmt.Fprintf(out, "Average energy statistics:\n%5s %6s %5s %7s %10s %10s %10s %10s %10s %10s %10s %10s\n",
		"task", "atoms", "group", "radius", "<E>", "<KE>", "<T>", "<PE>", "<rep>", "<disp>", "<P>", "<H>")
	for t := 0; t < ntasks; t++ {
		r := tab.task(t)
		m := r[fMeans : fMeans+8]
		fmt.Fprintf(out, "%5d %6.0f %5.0f %7.4f %10.4f %10.4f %10.4f %10.4f %10.4f %10.4f %10.6f %10.4f\n",
			t, r[fAtoms], r[fGroup], r[fRadius], m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7])
	}
	fmt.Fprintf(out, "Root mean square fluctuations and the largest energy change between draws:\n%5s %6s %8s %10s %10s %10s %10s %10s %10s %12s\n",
		"task", "atoms", "samples", "E", "KE", "T", "PE", "P", "H", "drift")
	for t := 0; t < ntasks; t++ {
		r := tab.task(t)
		m := r[fRms : fRms+8]
		fmt.Fprintf(out, "%5d %6.0f %8.0f %10.4f %10.4f %10.4f %10.4f %10.6f %10.4f %12.4e\n",
			t, r[fAtoms], r[fSamples], m[0], m[1], m[2], m[3], m[6], m[7], r[fDrift])
	}
	group := make([]float64, ngroups)
	mint, maxt := math.Inf(1), math.Inf(-1)
	for t := 0; t < ntasks; t++ {
		r := tab.task(t)
		fmt.Fprintf(out, "Time for task[%3d]           : %16.4f\n", t+1, r[fSeconds])
		group[int(r[fGroup])] += r[fSeconds]
		mint, maxt = math.Min(mint, r[fSeconds]), math.Max(maxt, r[fSeconds])
	}
	ming, maxg := math.Inf(1), math.Inf(-1)
	for k, s := range group {
		fmt.Fprintf(out, "Time for group[%3d]          : %16.4f\n", k+1, s)
		ming, maxg = math.Min(ming, s), math.Max(maxg, s)
	}
	fmt.Fprintf(out, "Number of tasks              : %12d\n", ntasks)
	fmt.Fprintf(out, "Number of processors in group: %12d\n", size)
	fmt.Fprintf(out, "Minimum time for task        : %16.4f\n", mint)
	fmt.Fprintf(out, "Maximum time for task        : %16.4f\n", maxt)
	fmt.Fprintf(out, "Minimum time for group       : %16.4f\n", ming)
	fmt.Fprintf(out, "Maximum time for group       : %16.4f\n", maxg)
	fmt.Fprintf(out, "Elapsed time for simulation  : %16.4f\n", elapsed)
}
