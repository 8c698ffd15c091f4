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
	"github.com/goga-hpc/goga/mpi"
)

func TestMain(m *testing.M) { os.Exit(mpitest.Main(m)) }

// The values below were printed by GA's own global/examples/md_cluster
// (GlobalArrays/ga at dd40347), built against Debian's GA 5.8.2 with
// `mpifort -O2 -fallow-argument-mismatch -DMPI -DMSG_COMMS_MPI
// $(ga-config --fflags) *.F $(ga-config --ldflags --libs)` after adding
// the missing ierr to grp_sim.F's mpi_finalize call, and run with
// ./mpirun.sh on one process, from its md_lj.in with the number of steps,
// the seed, the printing frequency and the start of the averages changed
// (first, fourth, seventh and eighth lines: "300, 0.01, 2, -44933", ...,
// "100", "50000,0,2000000"). Its group of one process runs the tasks in
// order and writes task t's cluster (tasks-t+1 atoms) to md.out(7-t).
//
// printed holds, per task, what it prints at steps 100, 200 and 300: the
// pressure, total, potential and kinetic energy and temperature.
var printed = [][3][5]string{
	{{"-0.0000", "-0.7156", "-6.024", "5.308", "0.442"}, {"-0.0000", "0.2860", "-7.343", "7.629", "0.636"}, {"-0.0000", "3.2253", "-5.295", "8.520", "0.710"}},
	{{"-0.0003", "-1.2572", "-5.279", "4.021", "0.383"}, {"0.0006", "-1.3130", "-7.257", "5.944", "0.566"}, {"-0.0001", "-4.0796", "-9.238", "5.158", "0.491"}},
	{{"-0.0002", "-1.2168", "-4.696", "3.479", "0.387"}, {"-0.0003", "-4.0154", "-7.102", "3.086", "0.343"}, {"-0.0001", "-0.4481", "-6.258", "5.810", "0.646"}},
	{{"-0.0000", "1.2406", "-1.486", "2.727", "0.364"}, {"0.0001", "0.1434", "-1.865", "2.009", "0.268"}, {"0.0003", "4.0226", "-2.714", "6.737", "0.898"}},
	{{"0.0000", "0.8465", "-0.769", "1.616", "0.269"}, {"0.0001", "0.6830", "-1.936", "2.619", "0.436"}, {"0.0001", "0.0476", "-1.929", "1.977", "0.329"}},
	{{"-0.0000", "0.2990", "-0.796", "1.095", "0.243"}, {"0.0000", "1.1134", "-0.781", "1.894", "0.421"}, {"0.0001", "0.0606", "-0.988", "1.049", "0.233"}},
	{{"-0.0000", "0.5584", "-0.756", "1.314", "0.438"}, {"-0.0001", "-0.4184", "-0.697", "0.279", "0.093"}, {"0.0000", "1.1778", "-0.883", "2.060", "0.687"}},
	{{"-0.0000", "-0.2844", "-0.794", "0.510", "0.340"}, {"-0.0000", "-0.4415", "-0.929", "0.487", "0.325"}, {"-0.0001", "-0.4117", "-0.725", "0.313", "0.209"}},
}

// The averages of temperature and potential energy it prints for each
// cluster size, 2 to 9 atoms, from 20000 steps averaged after step 1000
// ("20000, 0.01, 2, SEED", ..., "50000,1000,2000000"), with SEED = -1, …,
// -15 and its own -44933.
var (
	originalTemperature = [][]float64{
		{0.5412, 0.4549, 0.5425, 0.4692, 0.4468, 0.4765, 0.4652, 0.4889, 0.5155, 0.4382, 0.4534, 0.4648, 0.5069, 0.5060, 0.5557, 0.5028},
		{0.4650, 0.4120, 0.4795, 0.4022, 0.4432, 0.4689, 0.4390, 0.4778, 0.4718, 0.4196, 0.4347, 0.4896, 0.4470, 0.4584, 0.5026, 0.4593},
		{0.4674, 0.4447, 0.4744, 0.4542, 0.4532, 0.4704, 0.4557, 0.4971, 0.4706, 0.4425, 0.4791, 0.4630, 0.4922, 0.4739, 0.4945, 0.4552},
		{0.4582, 0.4345, 0.4928, 0.4765, 0.4614, 0.4672, 0.4704, 0.4860, 0.4737, 0.4433, 0.4624, 0.4857, 0.4932, 0.4747, 0.4835, 0.4752},
		{0.4798, 0.4547, 0.4887, 0.4829, 0.4794, 0.4814, 0.4868, 0.4858, 0.4875, 0.4591, 0.4679, 0.4781, 0.4889, 0.5073, 0.4975, 0.4779},
		{0.4834, 0.4600, 0.4972, 0.4835, 0.4814, 0.4805, 0.4691, 0.4950, 0.4870, 0.4571, 0.4813, 0.4966, 0.4847, 0.5029, 0.4894, 0.4926},
		{0.4958, 0.4753, 0.4846, 0.4835, 0.4723, 0.4935, 0.4772, 0.4841, 0.5062, 0.4764, 0.4903, 0.4785, 0.4919, 0.4923, 0.4795, 0.4902},
		{0.5064, 0.4768, 0.4895, 0.4823, 0.4928, 0.4965, 0.4730, 0.5071, 0.4915, 0.4755, 0.4951, 0.4993, 0.4976, 0.5033, 0.4897, 0.4995},
	}
	originalPotential = [][]float64{
		{-0.0925, -0.0224, -0.0084, -0.0548, -0.1359, -0.0125, -0.1252, -0.0865, -0.0528, -0.1091, -0.0687, -0.0406, -0.0598, -0.0590, -0.1052, -0.0181},
		{-0.2580, -0.2176, -0.2634, -0.0896, -0.3996, -0.2918, -0.3220, -0.2713, -0.1796, -0.4044, -0.3298, -0.2525, -0.3321, -0.3517, -0.3427, -0.2561},
		{-0.8298, -0.8116, -0.7746, -0.8916, -0.5449, -0.8157, -0.6602, -0.6261, -0.9870, -1.0723, -0.9642, -0.6513, -0.8720, -0.7664, -1.0438, -0.7841},
		{-1.3446, -1.8947, -1.4095, -1.9875, -1.8425, -1.8173, -1.7475, -2.0760, -1.7377, -1.7095, -1.8825, -1.8191, -2.2157, -1.7979, -1.8400, -1.6108},
		{-2.9144, -3.0919, -2.5657, -2.3259, -3.2270, -2.9077, -3.7446, -3.1685, -2.8637, -3.6447, -2.9007, -3.5103, -3.1459, -3.4278, -2.7672, -3.2523},
		{-5.3256, -5.1282, -5.5415, -5.0410, -4.7389, -4.4277, -5.8065, -5.9409, -4.6775, -5.3691, -5.6025, -4.6893, -4.3047, -4.8025, -3.8041, -4.5180},
		{-7.4609, -8.7173, -6.0763, -7.7247, -7.2865, -6.3053, -7.0619, -6.7211, -7.0555, -7.7358, -6.6460, -7.1100, -6.5962, -6.3929, -7.4730, -7.3485},
		{-9.5338, -10.7279, -9.1730, -9.9701, -8.8926, -10.3818, -9.3298, -9.7159, -10.9507, -10.6585, -8.8173, -10.7707, -9.3648, -9.5331, -10.5041, -9.0776},
	}
)

// defaults are the flags' defaults (the original's input, but for its
// number of steps and the start of its averages).
var defaults = params{steps: 20000, dt: 0.01, temp: 0.5, resample: 100, rcut: 2.5, center: 20, equil: 1000, seed: -44933}

// TestMdCluster runs the program from its flags on groups of two
// processes (one on 1 and 3 processes, the last of 3 a group alone); run
// fails unless every cluster conserves its energy between draws.
func TestMdCluster(t *testing.T) {
	extest.Run(t, run, "energy conserved between velocity draws", func() {
		*group, *steps, *equil = 2, 2000, 1000
	})
}

// TestOriginal runs the original's first 300 steps on one group of every
// process, which takes the tasks in order as the original's one process
// does, and wants what it printed at steps 100, 200 and 300, to its
// printed digits: on one process the same run, on more the same with the
// atoms split between the group's processes. In the two-node pass the
// group spans both nodes, and its Gets and Gops cross the network.
func TestOriginal(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		p := defaults
		p.steps, p.equil, p.every = 300, 0, 100
		tab := clusters1(t, p, 0)
		for k, want := range printed {
			r := tab.task(k)
			for s, w := range want {
				x := r[fTrace+7*s : fTrace+7*s+7]
				got := [5]string{fmt.Sprintf("%.4f", x[1]), fmt.Sprintf("%.4f", x[2]),
					fmt.Sprintf("%.3f", x[3]), fmt.Sprintf("%.3f", x[4]), fmt.Sprintf("%.3f", x[5])}
				if got != w {
					t.Errorf("task %d (%g atoms), step %g: pressure, energy, potential, kinetic, temperature %v, the original %v",
						k, r[fAtoms], x[0], got, w)
				}
			}
		}
	}, mpitest.AcrossNodes())
}

// TestAverages runs the default input on groups of one process, where
// which process takes which task, and so the draws, depend on timing, and
// wants each cluster's average temperature and potential energy within 4
// standard deviations of the original's over 16 seeds. On one process it
// also checks that the energy's error is velocity Verlet's: halving the
// step over the same span of time must cut the largest changes between
// draws (summed over the clusters) by more than 2.5, where 4 is the
// asymptote, a first-order step gives 2 and a force that is not the
// potential's gradient (2% too strong, say) less.
func TestAverages(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		tab := clusters1(t, defaults, 1)
		if mpi.World().Size() == 1 {
			half := defaults
			half.dt, half.steps, half.resample, half.center, half.equil = defaults.dt/2, 2*defaults.steps, 2*defaults.resample, 2*defaults.center, 2*defaults.equil
			finer := clusters1(t, half, 1)
			coarse, fine := 0.0, 0.0
			for k := range originalPotential {
				coarse += tab.task(k)[fDrift]
				fine += finer.task(k)[fDrift]
			}
			t.Logf("largest energy changes between draws, summed: %.4f at dt %g, %.4f at dt %g", coarse, defaults.dt, fine, half.dt)
			if !(coarse > 2.5*fine) {
				t.Errorf("halving the time step cut the energy's changes from %.4f to %.4f only", coarse, fine)
			}
		}
		for k := range originalPotential {
			r := tab.task(k)
			n := int(r[fAtoms])
			for _, q := range []struct {
				name     string
				got      float64
				original []float64
			}{
				{"temperature", r[fMeans+2], originalTemperature[n-2]},
				{"potential energy", r[fMeans+3], originalPotential[n-2]},
			} {
				mean, dev := extest.MeanDeviation(q.original)
				if math.Abs(q.got-mean) > 4*dev {
					t.Errorf("%d atoms: average %s %.4f, the original's over 16 seeds %.4f ± %.4f", n, q.name, q.got, mean, dev)
				}
			}
		}
	})
}

func clusters1(t *testing.T, p params, size int) table {
	mpitest.Must(t, ga.Init())
	defer ga.Terminate()
	tab, err := clusters(io.Discard, p, 8, size)
	mpitest.Must(t, err)
	return tab
}
