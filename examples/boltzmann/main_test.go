package main

import (
	"bytes"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

func TestMain(m *testing.M) { os.Exit(mpitest.Main(m)) }

// What GA's original printed for a 32 × 32 cavity of side 62 (spacing 2,
// as the original's 129 points over 256 have, so τ = 1.25; at side 256 a
// 32-point grid is unstable) after 40 steps. Made by building
// global/examples/boltzmann (GlobalArrays/ga dd4034712e5e) against
// Debian's GA 5.8.2 with mpifort -fdefault-integer-8 -O0, with NSIZE=32 in
// common, nsteps = 40 and xmax = 62.0 in setup.F and its report every 10
// steps instead of 200 (boltzmann.F), run on 1 process. Its totals are
// list-directed output (17 digits).
var (
	origTau  = 1.25
	origMass = 2764.8000488281245
	// step, total density, total x- and y-momentum
	origSteps = [][4]float64{
		{10, 2764.8000488281195, 68.796874023052794, 0.43044844119005155},
		{20, 2764.8000488281259, 75.746616984211499, 0.79511109284285986},
		{30, 2764.8000488281245, 71.703605292977201, 0.80848166120640386},
		{40, 2764.8000488281245, 60.396538912701899, 0.53554747874191877},
	}
)

// From the same run's bltz.dat, which holds the fields to 4 decimals:
// the vorticity's extremes and where they are ((i, j) from 0, j along the
// lid's normal), and the kinetic energy Σ ½ρ|u|² of the rounded fields,
// whose rounding can move it by at most origKETol.
const (
	origVMin, origVMax   = -0.2481, 0.0702
	origAtMin, origAtMax = "(2, 31)", "(0, 31)"
	origKE, origKETol    = 18.194471427952003, 0.0087
	fourDecimals         = 0.5e-4 + 1e-12
	// Relative, on more than one process, where the sums over processes
	// run in another order; on one the totals agree to the last bit.
	totalsTol = 1e-12
)

// TestBoltzmann runs the small cavity on 1-4 processes (run itself checks
// that the mass is conserved and the lid's cells move with it) and compares
// what it prints with the original's.
func TestBoltzmann(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		*n, *xmax, *viscosity, *dt, *lid, *steps, *every, *out, *plotFile = 32, 62, 1, 1, 0.5, 40, 10, "", ""
		var buf bytes.Buffer
		mpitest.Must(t, run(&buf))
		if mpi.World().Rank() == 0 {
			compareOriginal(t, buf.String())
		}
	}, mpitest.AcrossNodes())
}

// values returns the number after each line of the output that begins
// with prefix, in order.
func values(t *testing.T, text, prefix string) []float64 {
	var v []float64
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			var x float64
			if _, err := fmt.Sscan(rest, &x); err != nil {
				t.Errorf("%q: %v", line, err)
			}
			v = append(v, x)
		}
	}
	return v
}

func compareOriginal(t *testing.T, text string) {
	near := func(what string, got, want, tol float64) {
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.17g, the original's %.17g (tolerance %.2g)", what, got, want, tol)
		}
	}
	rel := func(x float64) float64 {
		if mpi.World().Size() == 1 {
			return 0
		}
		return totalsTol * max(1, math.Abs(x))
	}
	one := func(prefix string) float64 {
		v := values(t, text, prefix)
		if len(v) != 1 {
			t.Errorf("want one line %q, got %d in:\n%s", prefix, len(v), text)
			return math.NaN()
		}
		return v[0]
	}
	near("tau", one("Value of tau_rho is "), origTau, 0)
	near("initial mass", one("Total mass is "), origMass, rel(origMass))
	at := values(t, text, "Completed step ")
	rho := values(t, text, "Total density is ")
	mom := values(t, text, "Total x-momentum is ")
	momy := values(t, text, "Total y-momentum is ")
	if len(at) != len(origSteps) || len(rho) != len(at) || len(mom) != len(at)+1 || len(momy) != len(at)+1 {
		t.Errorf("want %d reports of the totals, got:\n%s", len(origSteps), text)
		return
	}
	near("initial x-momentum", mom[0], 0, 0)
	near("initial y-momentum", momy[0], 0, 0)
	for k, o := range origSteps {
		near("step", at[k], o[0], 0)
		near(fmt.Sprintf("density at step %g", o[0]), rho[k], o[1], rel(o[1]))
		near(fmt.Sprintf("x-momentum at step %g", o[0]), mom[k+1], o[2], rel(o[2]))
		near(fmt.Sprintf("y-momentum at step %g", o[0]), momy[k+1], o[3], rel(o[3]))
	}
	near("kinetic energy", one("Kinetic energy is "), origKE, origKETol)
	near("smallest vorticity", one("Smallest vorticity is "), origVMin, fourDecimals)
	near("largest vorticity", one("Largest vorticity is "), origVMax, fourDecimals)
	if !strings.Contains(text, " at "+origAtMin+"\n") || !strings.Contains(text, " at "+origAtMax+"\n") {
		t.Errorf("the vorticity's extremes are not at %s and %s as the original's:\n%s", origAtMin, origAtMax, text)
	}
}

// TestBoltzmannPlot runs the small cavity with -plot on 1-4 processes and
// checks on process 0 that the picture is a PNG of the set size, drawn
// from the fields the run printed: the vorticity's extremes exactly, the
// kinetic energy to rounding, one arrow per stride-th cell each way with
// that cell's velocity. A file name that is neither .png nor .svg is an
// error on every process before the run.
func TestBoltzmannPlot(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		defer func() { *plotFile = "" }()
		*n, *xmax, *viscosity, *dt, *lid, *steps, *every, *out = 32, 62, 1, 1, 0.5, 40, 10, ""
		*plotFile = filepath.Join(t.TempDir(), "flow.jpg")
		if err := run(&bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "flow.jpg") {
			t.Errorf("-plot flow.jpg: got error %v, want one naming the file", err)
		}
		*plotFile = filepath.Join(t.TempDir(), "flow.png")
		var buf bytes.Buffer
		mpitest.Must(t, run(&buf))
		if mpi.World().Rank() != 0 {
			return
		}
		text := buf.String()
		f, err := os.Open(*plotFile)
		if err != nil {
			t.Errorf("the picture: %v", err)
			return
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Errorf("the picture does not decode as PNG: %v", err)
			return
		}
		wantW, wantH := int(math.Round(plotW.Dots(plotDPI))), int(math.Round(plotH.Dots(plotDPI)))
		if b := img.Bounds(); b.Dx() != wantW || b.Dy() != wantH {
			t.Errorf("the picture is %d × %d pixels, want %d × %d", b.Dx(), b.Dy(), wantW, wantH)
		}

		if drawn.n != *n || len(drawn.fld) != *n**n*nField {
			t.Errorf("drawn %d values on a %d-point side, want %d on %d", len(drawn.fld), drawn.n, *n**n*nField, *n)
			return
		}
		vmin, vmax, ke := math.Inf(1), math.Inf(-1), 0.0
		for c := 0; c < *n**n; c++ {
			v := drawn.fld[c*nField:]
			vmin, vmax = min(vmin, v[fVort]), max(vmax, v[fVort])
			ke += 0.5 * v[fRho] * (v[fUx]*v[fUx] + v[fUy]*v[fUy])
		}
		printed := func(prefix string) float64 {
			v := values(t, text, prefix)
			if len(v) != 1 {
				t.Errorf("want one line %q in:\n%s", prefix, text)
				return math.NaN()
			}
			return v[0]
		}
		if p := printed("Smallest vorticity is "); vmin != p {
			t.Errorf("the drawn vorticity's least is %.17g, the run printed %.17g", vmin, p)
		}
		if p := printed("Largest vorticity is "); vmax != p {
			t.Errorf("the drawn vorticity's largest is %.17g, the run printed %.17g", vmax, p)
		}
		if p := printed("Kinetic energy is "); math.Abs(ke-p) > 1e-12*p {
			t.Errorf("the drawn fields' kinetic energy is %.17g, the run printed %.17g", ke, p)
		}
		if !(drawn.hi > 0 && drawn.lo == -drawn.hi && drawn.hi <= max(-vmin, vmax)) {
			t.Errorf("colour range [%g, %g]: want symmetric about 0, within the vorticity's [%g, %g]", drawn.lo, drawn.hi, vmin, vmax)
		}

		// n = 32 and 16 arrows a side: every 2nd cell from 1.
		if len(drawn.arrows) != 16*16 {
			t.Errorf("drew %d arrows, want 16 × 16", len(drawn.arrows))
		}
		for k, a := range drawn.arrows {
			i, j := 1+2*(k/16), 1+2*(k%16)
			c := (i**n + j) * nField
			if a.i != i || a.j != j || a.ux != drawn.fld[c+fUx] || a.uy != drawn.fld[c+fUy] {
				t.Errorf("arrow %d is %+v, want cell (%d, %d) with velocity (%g, %g)", k, a, i, j, drawn.fld[c+fUx], drawn.fld[c+fUy])
				break
			}
		}
	})
}
