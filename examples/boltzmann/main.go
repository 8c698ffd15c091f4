// Command boltzmann simulates flow in a lid-driven square cavity with a
// lattice Boltzmann method on a D2Q9 lattice, after GA's
// global/examples/boltzmann (BJ Palmer and DR Rector, J. Comput. Phys.
// 161, 1-20, 2000): an ideal gas at constant temperature fills the cavity,
// its walls bounce the distributions back and its top edge moves along x.
//
//	go build -o bin/boltzmann ./examples/boltzmann
//	./mpirun.sh -np 4 bin/boltzmann -n 129 -steps 5000
//
// The distributions live in a global array with a halo one cell wide,
// split over a process grid as the original splits it; each step updates
// the halo (UpdateGhosts) and streams from it. The program prints what the
// original prints (total mass and x and y momentum, every -every steps),
// then the kinetic energy and the extremes of the vorticity, and can
// write the fields in the original's TecPlot format (-out) and draw the
// vorticity with velocity arrows over it (-plot, plot.go). It exits
// non-zero unless the mass stays what it was to rounding and the cells of
// the lid move at its velocity.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/goga-hpc/goga/examples/internal/explot"
	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/program"
	"github.com/goga-hpc/goga/mpi"
)

// The defaults are the original's (common's NSIZE, setup.F): Reynolds
// number lid·xmax/viscosity = 128.
var (
	n         = flag.Int("n", 129, "grid points along each side")
	steps     = flag.Int("steps", 5000, "time steps")
	every     = flag.Int("every", 200, "print the totals every this many steps")
	xmax      = flag.Float64("xmax", 256, "side of the cavity")
	viscosity = flag.Float64("viscosity", 1, "viscosity")
	dt        = flag.Float64("dt", 1, "time step")
	lid       = flag.Float64("lid", 0.5, "velocity of the lid")
	out       = flag.String("out", "", "write the final fields to this file, in TecPlot format")
	plotFile  = flag.String("plot", "", "draw the final vorticity and velocity to this file (.png or .svg)")
)

// rho0 is the initial density: the original's single-precision literal 2.7.
var rho0 = float64(float32(2.7))

// massTol bounds the relative change of the total mass over a run: streaming
// and relaxation move mass exactly, so only rounding may change it.
const massTol = 1e-11

func main() {
	flag.Parse()
	program.Main("boltzmann", 1, func() error { return run(os.Stdout) })
}

// factor splits p processes over a grid of two dimensions as main.F's
// factor does: the prime factors of p, largest first, each multiplying the
// dimension that is smallest so far.
func factor(p int) [2]int {
	var primes []int
	for i := 2; i <= p; i++ {
		prime := true
		for _, q := range primes {
			if i%q == 0 {
				prime = false
				break
			}
		}
		if prime {
			primes = append(primes, i)
		}
	}
	var fac []int
	for _, q := range primes {
		for r := p; r%q == 0; r /= q {
			fac = append(fac, q)
		}
	}
	dims := [2]int{1, 1}
	for i := len(fac) - 1; i >= 0; i-- {
		d := 0
		if dims[1] < dims[0] {
			d = 1
		}
		dims[d] *= fac[i]
	}
	return dims
}

// starts returns where each of p blocks along an extent of n begins, as
// main.F's map does.
func starts(n, p int) []int {
	s := make([]int, p)
	for j := range s {
		s[j] = int(float64(j) / float64(p) * float64(n))
	}
	return s
}

func run(w io.Writer) error {
	if err := ga.Init(); err != nil {
		return err
	}
	defer ga.Terminate()
	me, nproc := ga.Nodeid(), ga.Nnodes()
	size := *n
	pgrid := factor(nproc)
	switch {
	case size < 4:
		return fmt.Errorf("-n %d: the cavity needs at least 4 points along a side", size)
	case size < max(pgrid[0], pgrid[1]):
		return fmt.Errorf("-n %d: fewer points than the %d × %d processes along a side", size, pgrid[0], pgrid[1])
	case *steps < 0 || *every < 1:
		return fmt.Errorf("-steps %d -every %d: want steps ≥ 0 and every ≥ 1", *steps, *every)
	case !(*xmax > 0 && *viscosity > 0 && *dt > 0):
		return fmt.Errorf("-xmax %g -viscosity %g -dt %g: all must be positive", *xmax, *viscosity, *dt)
	}
	if *plotFile != "" {
		if _, err := explot.Format(*plotFile); err != nil {
			return err
		}
	}
	p := newParams(size, *xmax, *viscosity, *dt, *lid)

	// The distributions, the fields (density, velocity, pressure,
	// relaxation time, vorticity) and the boundary kinds, split alike, each
	// cell's components kept together on one process. The original keeps
	// 27 components per cell in its distribution array (the distribution,
	// its equilibrium and a copy to stream from); here only the 9 that
	// neighbours read are global.
	blocks := [][]int{starts(size, pgrid[0]), starts(size, pgrid[1])}
	fa, err := ga.CreateGhostsIrreg[float64]("lb_dist", []int{size, size, 9}, []int{1, 1, 0}, append(blocks, []int{0}))
	if err != nil {
		return err
	}
	defer fa.Destroy()
	flda, err := ga.CreateGhostsIrreg[float64]("fields", []int{size, size, nField}, []int{1, 1, 0}, append(blocks, []int{0}))
	if err != nil {
		return err
	}
	defer flda.Destroy()
	bca, err := ga.CreateGhostsIrreg[int32]("bc_mask", []int{size, size}, []int{1, 1}, blocks)
	if err != nil {
		return err
	}
	defer bca.Destroy()

	// The halo past the cavity's edge is never read: the edge cells are
	// walls or lid, and their neighbours outside count as walls.
	for _, err := range []error{fa.SetPeriodic(false, false, false), flda.SetPeriodic(false, false, false), bca.SetPeriodic(false, false)} {
		if err != nil {
			return err
		}
	}

	lt := &lattice{params: p}
	var lo, hi, ld []int
	if lt.f, lo, hi, ld, err = fa.AccessGhosts(); err != nil {
		return err
	}
	lt.g = grid{lo, hi, ld}
	if lt.fld, _, _, _, err = flda.AccessGhosts(); err != nil {
		return err
	}
	if lt.bc, lo, hi, ld, err = bca.AccessGhosts(); err != nil {
		return err
	}
	lt.gbc = grid{lo, hi, ld}

	// Walls on three sides, the lid on top (largest y), and the corners
	// walls (setup.F).
	lt.owned(func(i, j int) {
		k := int32(fluid)
		switch {
		case i == 0 || i == size-1 || j == 0:
			k = wall
		case j == size-1:
			k = movLid
		}
		lt.bc[lt.gbc.at(i, j, 0)] = k
	})
	if err := bca.UpdateGhosts(); err != nil {
		return err
	}

	// The fluid at rest, its distribution in equilibrium.
	if me == 0 {
		fmt.Fprintf(w, "lid-driven cavity, %d × %d grid, %d steps on %d processes (%d × %d)\n",
			size, size, *steps, nproc, pgrid[0], pgrid[1])
		fmt.Fprintf(w, "Value of tau_rho is %.17g\n", p.tau())
	}
	var feq [9]float64
	sum := []float64{0, 0, 0}
	lt.owned(func(i, j int) {
		at := lt.fldAt(i, j, 0)
		pr := p.pressure(rho0)
		copy(lt.fld[at:at+nField], []float64{rho0, 0, 0, pr, p.tau(), 0})
		p.equil(&feq, rho0, 0, 0, pr)
		f := lt.f[lt.fAt(i, j):]
		copy(f[:9], feq[:])
		rho, ux, uy := p.moments(&feq)
		sum[0] += rho
		sum[1] += rho * ux
		sum[2] += rho * uy
	})
	if err := ga.Gop(sum, ga.OpSum); err != nil {
		return err
	}
	mass0 := sum[0]
	if me == 0 {
		fmt.Fprintf(w, "Total mass is %.17g\nTotal x-momentum is %.17g\nTotal y-momentum is %.17g\n", sum[0], sum[1], sum[2])
	}

	var tLB, tGhost float64
	drift := 0.0
	for it := 1; it <= *steps; it++ {
		t0 := mpi.Wtime()
		// As the original (timestep.F), without the update's syncs: each
		// process wrote its own cells only, before the last Gop, and the
		// update itself meets the neighbours between packing and reading
		// their faces (UpdateGhosts' doc).
		ga.MaskSync(false, false)
		if err := fa.UpdateGhosts(); err != nil {
			return err
		}
		t1 := mpi.Wtime()
		s := lt.step()
		tGhost += t1 - t0
		tLB += mpi.Wtime() - t0
		copy(sum, s[:])
		if err := ga.Gop(sum, ga.OpSum); err != nil {
			return err
		}
		if math.IsNaN(sum[0]+sum[1]+sum[2]) || math.IsInf(sum[0]+sum[1]+sum[2], 0) {
			return fmt.Errorf("step %d: the totals are not finite (mass %g, momentum %g, %g): the run is unstable", it, sum[0], sum[1], sum[2])
		}
		drift = max(drift, math.Abs(sum[0]-mass0))
		if me == 0 && it%*every == 0 {
			fmt.Fprintf(w, "Completed step %d\nTotal density is %.17g\nTotal x-momentum is %.17g\nTotal y-momentum is %.17g\n", it, sum[0], sum[1], sum[2])
		}
	}

	if err := flda.UpdateGhosts(); err != nil {
		return err
	}
	lt.vorticity()
	st, err := summarize(lt)
	if err != nil {
		return err
	}
	times := []float64{tLB, tGhost}
	if err := ga.Gop(times, ga.OpSum); err != nil {
		return err
	}
	if me == 0 {
		fmt.Fprintf(w, "Kinetic energy is %.17g\n", st.ke)
		fmt.Fprintf(w, "Smallest vorticity is %.17g at (%d, %d)\n", st.vmin, st.imin[0], st.imin[1])
		fmt.Fprintf(w, "Largest vorticity is %.17g at (%d, %d)\n", st.vmax, st.imax[0], st.imax[1])
		fmt.Fprintf(w, "Largest departure of the lid's cells from the lid's velocity is %.3g\n", st.lidDev)
		fmt.Fprintf(w, "Largest change of the total mass is %.3g (relative %.2g)\n", drift, drift/mass0)
		fmt.Fprintf(w, "Average time in lattice Boltzmann updates : %10.4f\n", times[0]/float64(nproc))
		fmt.Fprintf(w, "Average time in ghost cell updates        : %10.4f\n", times[1]/float64(nproc))
	}
	if *out != "" && me == 0 {
		if err := writeTecplot(*out, flda, p); err != nil {
			return err
		}
	}
	if *plotFile != "" && me == 0 {
		if err := plotFlow(*plotFile, flda, p, *steps); err != nil {
			return err
		}
	}
	if err := ga.Sync(); err != nil {
		return err
	}

	if drift > massTol*mass0 {
		return fmt.Errorf("the total mass changed by %.3g over the run (relative %.2g, want at most %g)", drift, drift/mass0, massTol)
	}
	// At rest before the first step, the lid's cells move with it after it.
	if *steps > 0 && st.lidDev > 1e-12*max(1, math.Abs(*lid)) {
		return fmt.Errorf("a cell of the lid moves %g off the lid's velocity %g along x", st.lidDev, *lid)
	}
	return nil
}

// stats are the final field's summaries: kinetic energy, the extremes of
// the vorticity with where they are, and how far the cells of the lid are
// from moving at its velocity (the lid's boundary condition sets their x
// velocity to it exactly).
type stats struct {
	ke, vmin, vmax, lidDev float64
	imin, imax             [2]int
}

func summarize(lt *lattice) (stats, error) {
	v := []float64{0, math.Inf(1), math.Inf(-1), 0}
	lt.owned(func(i, j int) {
		c := lt.fldAt(i, j, 0)
		rho, ux, uy := lt.fld[c+fRho], lt.fld[c+fUx], lt.fld[c+fUy]
		v[0] += 0.5 * rho * (ux*ux + uy*uy)
		v[1] = min(v[1], lt.fld[c+fVort])
		v[2] = max(v[2], lt.fld[c+fVort])
		if lt.bcAt(i, j) == movLid {
			v[3] = max(v[3], math.Abs(ux-lt.lid))
		}
	})
	if err := ga.Gop(v[:1], ga.OpSum); err != nil {
		return stats{}, err
	}
	if err := ga.Gop(v[1:2], ga.OpMin); err != nil {
		return stats{}, err
	}
	if err := ga.Gop(v[2:4], ga.OpMax); err != nil {
		return stats{}, err
	}
	// Where: the first cell, in the order i·n + j, that holds each extreme.
	where := []int64{math.MaxInt64, math.MaxInt64}
	lt.owned(func(i, j int) {
		k := int64(i*lt.n + j)
		if w := lt.fld[lt.fldAt(i, j, fVort)]; w == v[1] {
			where[0] = min(where[0], k)
		}
		if w := lt.fld[lt.fldAt(i, j, fVort)]; w == v[2] {
			where[1] = min(where[1], k)
		}
	})
	if err := ga.Gop(where, ga.OpMin); err != nil {
		return stats{}, err
	}
	n := int64(lt.n)
	return stats{
		ke: v[0], vmin: v[1], vmax: v[2], lidDev: v[3],
		imin: [2]int{int(where[0] / n), int(where[0] % n)},
		imax: [2]int{int(where[1] / n), int(where[1] % n)},
	}, nil
}

// writeTecplot writes the coordinates, density, velocity and vorticity as
// printdat.F does, each a block of rows of constant y, at most 256 points
// along a side. (The original leaves its x and y spacing unset and so
// writes its coordinates wrong; these are right.)
func writeTecplot(path string, flda *ga.Array[float64], p *params) error {
	size := p.n
	inc := 1
	if size > 256 {
		inc = size / 256
	}
	cnt := (size-1)/inc + 1
	fld := make([]float64, size*size*nField)
	if err := flda.Get([]int{0, 0, 0}, []int{size - 1, size - 1, nField - 1}, fld, []int{size, nField}); err != nil {
		return err
	}
	file, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(file)
	fmt.Fprintln(bw, `TITLE = "Lattice Boltzmann Simulation"`)
	fmt.Fprintln(bw, `VARIABLES = "X" "Y" "RHO" "UX" "UY" "VORTICITY"`)
	fmt.Fprintf(bw, "ZONE I=%8d J=%8d DATAPACKING=BLOCK\n", cnt, cnt)
	first := true
	block := func(value func(i, j int) float64) {
		if !first {
			fmt.Fprintln(bw, " ")
		}
		first = false
		for j := 0; j < size; j += inc {
			for k, i := 0, 0; i < size; k, i = k+1, i+inc {
				if k%5 == 0 {
					if k > 0 {
						fmt.Fprintln(bw)
					}
					fmt.Fprint(bw, "    ")
				}
				fmt.Fprintf(bw, "%12.4f", value(i, j))
			}
			fmt.Fprintln(bw)
		}
	}
	block(func(i, _ int) float64 { return float64(i) * p.dx })
	block(func(_, j int) float64 { return float64(j) * p.dx })
	for _, c := range []int{fRho, fUx, fUy, fVort} {
		block(func(i, j int) float64 { return fld[(i*size+j)*nField+c] })
	}
	if err := bw.Flush(); err != nil {
		file.Close()
		return err
	}
	return file.Close()
}
