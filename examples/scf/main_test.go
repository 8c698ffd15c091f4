package main

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/examples/internal/extest"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

func TestMain(m *testing.M) { os.Exit(mpitest.Main(m)) }

// The original's output on the same input, from the second iteration to
// the integral counts (its timing table left out, trailing blanks
// trimmed): GA's global/examples/scf at dd4034712e5e built against
// Debian's GA 5.8.2 (mpifort -fdefault-integer-8 -fallow-argument-mismatch
// -DMSG_COMMS_MPI, with mpi_finalize given its ierr) and run on 1 and 3
// processes, which print the same. The first iteration's deltaf depends on
// the random start of the similarity transform and is left out.
const (
	// be.inpt, as the original ships it (cscf.h's chunk size 20).
	wantBe4 = ` iter=  2, energy=   -58.18221882, deltad= 3.77D-01, deltaf= 3.83D-02
 iter=  3, energy=   -58.19790029, deltad= 1.27D-01, deltaf= 3.34D-02
 iter=  4, energy=   -58.19984816, deltad= 4.68D-02, deltaf= 5.76D-03
 iter=  5, energy=   -58.20032575, deltad= 2.16D-02, deltaf= 2.26D-03
 iter=  6, energy=   -58.20045801, deltad= 1.07D-02, deltaf= 1.23D-03
 iter=  7, energy=   -58.20049566, deltad= 5.48D-03, deltaf= 6.55D-04
 iter=  8, energy=   -58.20050645, deltad= 2.85D-03, deltaf= 3.57D-04
 iter=  9, energy=   -58.20050956, deltad= 1.50D-03, deltaf= 1.92D-04
 iter= 10, energy=   -58.20051045, deltad= 7.96D-04, deltaf= 1.03D-04
 iter= 11, energy=   -58.20051071, deltad= 4.25D-04, deltaf= 5.56D-05


 final energy =    -58.20051070842

 eigenvalues

           col  1
row   1   -4.7292
row   2   -4.7290
row   3   -4.7184
row   4   -4.7184
row   5   -0.4643
row   6   -0.4057
row   7   -0.3112
row   8   -0.1494
row   9    0.0492
row  10    0.1270
row  11    0.1270
row  12    0.1838
row  13    0.1929

No. of integrals screened or computed (all iters)
-------------------------------------

  failed #ij test failed #kl test        #compute          #total fraction
  --------------- --------------- --------------- --------------- --------
         42292800        46966788        53300412       142560000 0.373881
`
	// testdata/be2.inpt, be.inpt's first two atoms, with cscf.h's chunk
	// size set to 7 (uneven blocks: 7, 7, 7, 7, 2).
	wantBe2 = ` iter=  2, energy=   -29.10063707, deltad= 8.04D-02, deltaf= 3.28D-02
 iter=  3, energy=   -29.10609357, deltad= 2.94D-02, deltaf= 1.07D-02
 iter=  4, energy=   -29.10648310, deltad= 1.45D-02, deltaf= 2.35D-03
 iter=  5, energy=   -29.10654811, deltad= 6.34D-03, deltaf= 9.42D-04
 iter=  6, energy=   -29.10655947, deltad= 2.69D-03, deltaf= 3.89D-04
 iter=  7, energy=   -29.10656147, deltad= 1.13D-03, deltaf= 1.62D-04
 iter=  8, energy=   -29.10656182, deltad= 4.73D-04, deltaf= 6.79D-05


 final energy =    -29.10656182047

 eigenvalues

           col  1
row   1   -4.7343
row   2   -4.7341
row   3   -0.4249
row   4   -0.2304
row   5    0.1101
row   6    0.1643
row   7    0.1643
row   8    0.2699
row   9    0.2806

No. of integrals screened or computed (all iters)
-------------------------------------

  failed #ij test failed #kl test        #compute          #total fraction
  --------------- --------------- --------------- --------------- --------
           547200          913760         5019040         6480000 0.774543
`
)

// TestSCFBe2 runs two atoms in small uneven blocks; run fails unless the
// SCF converges with a symmetric Fock matrix, a falling energy and the
// right electron and integral counts, and it must print what the original
// printed, digit for digit.
func TestSCFBe2(t *testing.T) {
	extest.Run(t, run, wantBe2, func() { *input, *chunk, *maxiter, *tol = "testdata/be2.inpt", 7, 30, 0.5e-3 })
}

// TestSCFBe4 runs the original's own input, be.inpt, as TestSCFBe2 does.
func TestSCFBe4(t *testing.T) {
	extest.Run(t, run, wantBe4, func() { *input, *chunk, *maxiter, *tol = "", 20, 30, 0.5e-3 })
}

// TestSCFPlot runs TestSCFBe2's case with -plot: process 0 must write a PNG
// of 16 × 14 cm at 96 dpi whose series are, iteration by iteration, the
// energies and deltads the run printed. A -plot name that is neither .png
// nor .svg is refused on every process before any work.
func TestSCFPlot(t *testing.T) {
	iterLine := regexp.MustCompile(`(?m)^ iter=\s*(\d+), energy=\s*(\S+), deltad=\s*(\S+),`)
	mpitest.Run(t, func(t *testing.T) {
		name := filepath.Join(t.TempDir(), "scf.png")
		*input, *chunk, *maxiter, *tol, *plotTo = "testdata/be2.inpt", 7, 30, 0.5e-3, name
		defer func() { *plotTo = "" }()
		plotted = series{}
		var out bytes.Buffer
		mpitest.Must(t, run(&out))
		if mpi.World().Rank() == 0 {
			f, err := os.Open(name)
			mpitest.Must(t, err)
			cfg, err := png.DecodeConfig(f)
			f.Close()
			mpitest.Must(t, err)
			if cfg.Width != 605 || cfg.Height != 529 {
				t.Errorf("picture is %d × %d pixels, want 605 × 529", cfg.Width, cfg.Height)
			}
			lines := iterLine.FindAllStringSubmatch(out.String(), -1)
			if len(lines) != 8 || len(plotted.energy) != len(lines) || len(plotted.deltad) != len(lines) {
				t.Errorf("%d iterations printed (want 8), %d energies and %d deltads plotted",
					len(lines), len(plotted.energy), len(plotted.deltad))
			}
			for i, l := range lines[:min(len(lines), len(plotted.energy), len(plotted.deltad))] {
				e, d := fmt.Sprintf("%.8f", plotted.energy[i]), strings.TrimSpace(fortranD(plotted.deltad[i]))
				if l[1] != fmt.Sprint(i+1) || l[2] != e || l[3] != d {
					t.Errorf("printed iteration %s: energy %s, deltad %s; plotted point %d: %s, %s", l[1], l[2], l[3], i+1, e, d)
				}
			}
		}

		*plotTo = filepath.Join(t.TempDir(), "scf.jpg")
		err := run(&bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), `extension ".jpg"`) {
			t.Errorf("-plot %s: error %v, want one naming the extension", *plotTo, err)
		}
		if _, serr := os.Stat(*plotTo); serr == nil {
			t.Errorf("-plot %s wrote a file", *plotTo)
		}
	})
}
