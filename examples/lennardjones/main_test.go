package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"testing"

	"github.com/goga-hpc/goga/examples/internal/extest"
	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

func TestMain(m *testing.M) { os.Exit(mpitest.Main(m)) }

// The values below were printed by GA's own
// global/examples/lennard-jones/lennard.c (GlobalArrays/ga at dd40347),
// built against Debian's GA 5.8.2 with
// `mpicc -O2 -DHAVE_STDIO_H=1 -DHAVE_STDLIB_H=1 -DHAVE_UNISTD_H=1
// -DHAVE_MATH_H=1 -DMSG_COMMS_MPI lennard.c $(ga-config --cppflags
// --ldflags --libs) -lgfortran -lm` and run with ./mpirun.sh, twice on
// each of 1 to 4 processes. It prints the total energy once per unit of
// time (every 250 steps at its time step 0.004; its time accumulates in
// floating point, so from time 5 on it prints a step later than we do).
//
// On one process it draws the velocities from rand() seeded 1. On k > 1 it
// draws them after k numbers fewer: its NGA_Put of the positions, which
// spans k processes, calls srand(0) (GA's gaPermuteProcList seeds with the
// rank) and draws k numbers to order the targets. -skip k reproduces that.
// Its runs agree with each other to the printed digits up to time 3, then
// drift apart (chaos amplifies the rounding of sums whose order depends
// on which process drew which block). On 3 processes it goes its own way
// from the first step: each process owns 256 of the 768 coordinates and
// updates only the whole atoms among them, so one coordinate per process
// never moves; its values are not used.
var original = []struct {
	np, skip int
	total    []string // at steps 0, 250, 500, 750
}{
	{1, 0, []string{"-1376.647257", "-692.334305", "-732.768561", "-644.942389"}},
	{2, 2, []string{"-1376.647257", "-507.211123", "-599.052202"}},
	{4, 4, []string{"-1376.647257", "-703.103429", "-656.664194", "-667.966219"}},
}

// small is the configuration of the statistical comparison: lennard.c
// with NATOMS 108, BLOCK_SIZE 27, EQUILIBRIUM_TIME 2.0 and SIMULATION_TIME
// 4.0 (500 and 1001 steps as its time accumulates), and srand(SEED) before
// the velocities are drawn, run on one process with SEED = 1, …, 16.
var small = config{natoms: 108, block: 27, dt: 0.004, equil: 500, steps: 1001, every: 250, seed: 1, density: 1.05, temp: 2}

// Its total energy at steps 0, 250 and 500 with SEED = 1, and the
// production averages it prints for each seed.
var (
	smallTotal       = []string{"-551.276634", "-282.197822", "-273.082910"}
	smallTemperature = []float64{1.978338, 2.038022, 2.082941, 2.002650, 1.980498, 2.030125, 2.017618, 1.942184,
		1.962380, 1.871100, 2.029701, 2.137401, 2.013915, 1.999133, 1.933952, 2.023803}
	smallPotential = []float64{-5.506802, -5.411645, -5.333262, -5.494738, -5.487664, -5.453200, -5.458778, -4.620327,
		-5.476808, -5.650669, -5.406612, -5.310990, -5.490401, -5.490038, -5.565133, -5.202917}
)

// TestLennardJones runs the program from its flags at a small size; run
// fails unless energy, momentum and the sum of the forces are conserved.
func TestLennardJones(t *testing.T) {
	extest.Run(t, run, "energy, momentum and Newton's third law hold", func() {
		*natoms, *block, *equil, *steps, *every = 108, 27, 200, 300, 100
	})
}

// TestOriginal runs lennard.c's own input (256 particles, blocks of 64)
// for its first 3 units of time, on every process count, and wants the
// total energies it printed, to its printed digits: the same on 1 to 4
// processes, and as the original's on 1, 2 and 4 once the velocities are
// drawn as it draws them there.
func TestOriginal(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		for _, o := range original {
			c := config{natoms: 256, block: 64, dt: 0.004, every: 250, seed: 1, skip: o.skip, density: 1.05, temp: 2}
			c.equil, c.steps = 250*(len(o.total)-1), 1
			sum := simulate1(t, c)
			wantTotals(t, fmt.Sprintf("lennard.c on %d processes", o.np), sum, o.total)
		}
	})
}

// TestAverages compares the production averages at 108 particles with
// lennard.c's over 16 seeds, and checks that the total energy's
// fluctuation shrinks like dt² (velocity Verlet): halving the step (over
// the same span of time) must cut it by more than 3, where 4 is the
// asymptote and a first-order integrator would give 2.
func TestAverages(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		sum := simulate1(t, small)
		wantTotals(t, "lennard.c, 108 particles", sum, smallTotal)
		n := sum.production.steps
		for _, q := range []struct {
			name     string
			got      float64
			original []float64
		}{
			{"temperature", sum.production.temperature.mean(n), smallTemperature},
			{"potential energy per particle", sum.production.potential.mean(n) / float64(small.natoms), smallPotential},
		} {
			mean, dev := extest.MeanDeviation(q.original)
			if math.Abs(q.got-mean) > 3*dev {
				t.Errorf("average %s %f, lennard.c's over 16 seeds %f ± %f", q.name, q.got, mean, dev)
			}
		}

		half := small
		half.dt, half.equil, half.steps, half.every = small.dt/2, 2*small.equil, 2*small.steps, 1<<30
		finer := simulate1(t, half)
		coarse := sum.production.total.deviation(n)
		fine := finer.production.total.deviation(finer.production.steps)
		if ga.Nodeid() == 0 {
			t.Logf("total energy's deviation per particle: %.3e at dt %g, %.3e at dt %g", coarse/108, small.dt, fine/108, half.dt)
		}
		if !(coarse > 3*fine) {
			t.Errorf("halving the time step cut the energy's fluctuation from %.3e to %.3e only", coarse, fine)
		}
	})
}

// TestCRand checks the port of glibc's rand against the numbers it gives
// after srand(1) and srand(7).
func TestCRand(t *testing.T) {
	for _, c := range []struct {
		seed uint32
		want []int32
	}{
		{1, []int32{1804289383, 846930886, 1681692777, 1714636915, 1957747793}},
		{0, []int32{1804289383, 846930886}},
		{7, []int32{1045618677, 1863967299}},
	} {
		r := newCRand(c.seed)
		for k, w := range c.want {
			if got := r.next(); got != w {
				t.Errorf("srand(%d): rand() number %d is %d, want %d", c.seed, k, got, w)
			}
		}
	}
}

// simulate1 runs the simulation between Init and Terminate.
func simulate1(t *testing.T, c config) summary {
	mpitest.Must(t, ga.Init())
	defer ga.Terminate()
	sum, err := simulate(io.Discard, c)
	mpitest.Must(t, err)
	return sum
}

// wantTotals compares the total energies printed every 250 steps with the
// original's, to its printed digits.
func wantTotals(t *testing.T, what string, sum summary, want []string) {
	for k, w := range want {
		if k >= len(sum.rows) || sum.rows[k].step != 250*k {
			mpitest.Fatalf(t, "%s: no row for step %d in %v", what, 250*k, sum.rows)
		}
		if got := fmt.Sprintf("%f", sum.rows[k].total); got != w {
			t.Errorf("%s: total energy at step %d is %s, want %s", what, 250*k, got, w)
		}
	}
}
