// Command scf solves the Hartree–Fock equations for a cluster of beryllium
// atoms by direct self-consistent field iteration, in the style of NWChem:
// GA's example global/examples/scf (scf.F, integ.F, input.F) in Go.
//
//	go build -o bin/scf ./examples/scf
//	./mpirun.sh -np 4 bin/scf [-input be.inpt] [-maxiter 30] [-tol 0.5e-3] [-plot scf.png]
//
// Each atom carries 15 normalized s-type Gaussians (nine on the nucleus,
// six displaced ±1.6 bohr along the axes). Every step of an iteration is a
// task pool on a shared counter (ReadInc): the one-electron Hamiltonian and
// the two-electron part of the Fock matrix are built block by block, the
// latter by getting blocks of the density and accumulating blocks of F
// (Get, Acc) over all (ij|kl) that pass a Schwarz screen; then F is
// transformed to an orthonormal basis (Gemm), diagonalized on one process
// (DiagStdSeq) with a level shift while far from diagonal, and the new
// density made and compared with the old.
//
// It prints what the original prints: per iteration the total energy, the
// largest change of a density element (deltad, the convergence measure) and
// the largest off-diagonal element of the transformed F (deltaf); then the
// final energy, the lowest eigenvalues and the count of integrals screened
// or computed. It exits non-zero unless the SCF converges, the Fock matrix
// is symmetric every iteration, the energy decreases from the second
// iteration on, the density holds 4 electrons per atom, and every integral
// was screened or computed exactly once per iteration.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/goga-hpc/goga/examples/internal/explot"
	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/program"
	"github.com/goga-hpc/goga/mpi"
)

var (
	input   = flag.String("input", "", "XYZ file of the atoms (default: the original's be.inpt, 4 atoms)")
	maxiter = flag.Int("maxiter", 30, "give up after this many iterations")
	tol     = flag.Float64("tol", 0.5e-3, "converged when no density element changes by more than this")
	chunk   = flag.Int("chunk", 20, "block size of the task pools")
	plotTo  = flag.String("plot", "", "draw the energy and deltad per iteration into this file (.png or .svg)")
)

func main() {
	flag.Parse()
	program.Main("scf", 1, func() error { return run(os.Stdout) })
}

// fortranD formats v as Fortran's 1pd9.2 does.
func fortranD(v float64) string { return strings.Replace(fmt.Sprintf("%9.2E", v), "E", "D", 1) }

// readInput reads the atoms on process 0 and gives every process them.
func readInput() ([]float64, error) {
	var (
		text    []byte
		readErr error
	)
	if ga.Nodeid() == 0 {
		text = []byte(beInpt)
		if *input != "" {
			text, readErr = os.ReadFile(*input)
		}
	}
	n := []int64{int64(len(text))}
	if err := ga.Brdcst(n, 0); err != nil {
		return nil, err
	}
	if n[0] == 0 {
		if readErr != nil {
			return nil, fmt.Errorf("-input %q: %v", *input, readErr)
		}
		return nil, fmt.Errorf("-input %q: empty or unreadable on process 0", *input)
	}
	if ga.Nodeid() != 0 {
		text = make([]byte, n[0])
	}
	if err := ga.Brdcst(text, 0); err != nil {
		return nil, err
	}
	return readXYZ(bytes.NewReader(text))
}

func run(out io.Writer) error {
	if err := ga.Init(); err != nil {
		return err
	}
	defer ga.Terminate()
	if *maxiter < 1 || *chunk < 1 || !(*tol > 0) {
		return fmt.Errorf("-maxiter %d, -chunk %d, -tol %g: all must be positive", *maxiter, *chunk, *tol)
	}
	if *plotTo != "" {
		if _, err := explot.Format(*plotTo); err != nil {
			return err
		}
	}
	xyz, err := readInput()
	if err != nil {
		return err
	}
	me := ga.Nodeid()
	m := newMolecule(xyz)
	c, err := newSCF(m, *chunk)
	if err != nil {
		return err
	}
	defer c.destroy()
	nbfn := int64(c.nbfn)
	if me == 0 {
		fmt.Fprintf(out, "\n Example Direct Self Consistent Field Program\n --------------------------------------------\n\n")
		fmt.Fprintf(out, " no. of atoms .............. %5d\n no. of occupied orbitals .. %5d\n no. of basis functions .... %5d\n",
			len(m.atoms), m.nocc, c.nbfn)
		fmt.Fprintf(out, " basis functions^4 %15d\n convergence threshold ..... %s\n chunk size .................%5d\n\n",
			nbfn*nbfn*nbfn*nbfn, fortranD(*tol), *chunk)
	}

	start := mpi.Wtime()
	if err := c.denges(); err != nil {
		return err
	}
	if err := c.makeob(rand.New(rand.NewPCG(uint64(me), 48))); err != nil {
		return err
	}
	if err := c.makesz(); err != nil {
		return err
	}

	var (
		energies  []float64
		deltads   []float64
		eigv      []float64
		asymWorst float64
		converged bool
		iter      int
	)
	for iter = 1; iter <= *maxiter; iter++ {
		eone, err := c.oneel()
		if err != nil {
			return err
		}
		etwo, err := c.twoel()
		if err != nil {
			return err
		}
		asym, big, err := c.asymmetry()
		if err != nil {
			return err
		}
		asymWorst = max(asymWorst, asym/big)
		var tester float64
		if eigv, tester, err = c.diagon(iter); err != nil {
			return err
		}
		if err := c.makden(); err != nil {
			return err
		}
		deltad, err := c.dendif()
		if err != nil {
			return err
		}
		// Damping: half the old density in iterations 2 to 5, for the
		// larger clusters only.
		scale := 0.0
		if iter >= 2 && iter <= 5 && c.nbfn > 60 {
			scale = 0.5
		}
		if err := ga.Add(scale, c.dens, 1-scale, c.work, c.dens); err != nil {
			return err
		}
		energy := m.enrep + eone + etwo
		energies = append(energies, energy)
		deltads = append(deltads, deltad)
		if me == 0 {
			fmt.Fprintf(out, " iter=%3d, energy=%15.8f, deltad=%s, deltaf=%s\n", iter, energy, fortranD(deltad), fortranD(tester))
		}
		if deltad < *tol {
			converged = true
			break
		}
	}
	if !converged {
		iter--
		if me == 0 {
			fmt.Fprintf(out, "  SCF failed to converge in %d iters\n", iter)
		}
	}
	elapsed := mpi.Wtime() - start

	cuts := []int64{c.icut1, c.icut2, c.icut3}
	if err := ga.Gop(cuts, ga.OpSum); err != nil {
		return err
	}
	electrons, err := ga.Dot(c.dens, c.ident) // ident holds S: tr(D·S)
	if err != nil {
		return err
	}
	final := energies[len(energies)-1]
	if me == 0 {
		fmt.Fprintf(out, "\n\n final energy = %18.11f\n\n eigenvalues\n\n           col  1\n", final)
		for i := range min(c.nbfn, m.nocc+5) {
			fmt.Fprintf(out, "row%4d %9.4f\n", i+1, eigv[i])
		}
		nints := cuts[0] + cuts[1] + cuts[2]
		fmt.Fprintf(out, "\nNo. of integrals screened or computed (all iters)\n-------------------------------------\n\n")
		fmt.Fprintf(out, "  failed #ij test failed #kl test        #compute          #total fraction\n")
		fmt.Fprintf(out, "  --------------- --------------- --------------- --------------- --------\n")
		fmt.Fprintf(out, "  %15d %15d %15d %15d%9.6f\n", cuts[0], cuts[1], cuts[2], nints, float64(cuts[2])/float64(nints))
		fmt.Fprintf(out, "\n elapsed time in seconds %.3f on %d processes\n", elapsed, ga.Nnodes())
	}
	if *plotTo != "" {
		if err := drawOn0(*plotTo, series{energy: energies, deltad: deltads}); err != nil {
			return err
		}
	}
	return check(out, me == 0, checks{
		converged: converged, iters: iter, energies: energies, asym: asymWorst,
		electrons: electrons, nelec: 2 * m.nocc, nints: cuts[0] + cuts[1] + cuts[2], nbfn: nbfn,
	})
}

// checks are the quantities run checks, the same on every process.
type checks struct {
	converged   bool
	iters       int
	energies    []float64
	asym        float64 // largest |F − Fᵀ| / largest |F| over the iterations
	electrons   float64 // tr(D·S)
	nelec       int
	nints, nbfn int64
}

// check says what is wrong with the run, if anything; every process
// returns the same error.
func check(out io.Writer, print bool, k checks) error {
	var bad []string
	if !k.converged {
		bad = append(bad, fmt.Sprintf("no convergence in %d iterations", k.iters))
	}
	if k.asym > 1e-12 {
		bad = append(bad, fmt.Sprintf("Fock matrix not symmetric: |F − Fᵀ| / |F| = %.2e", k.asym))
	}
	for i := 2; i < len(k.energies); i++ {
		if k.energies[i] > k.energies[i-1]+1e-10 {
			bad = append(bad, fmt.Sprintf("energy rose in iteration %d: %.11f after %.11f", i+1, k.energies[i], k.energies[i-1]))
		}
	}
	if math.Abs(k.electrons-float64(k.nelec)) > 1e-8 {
		bad = append(bad, fmt.Sprintf("tr(D·S) = %.10f, want %d electrons", k.electrons, k.nelec))
	}
	if want := k.nbfn * k.nbfn * k.nbfn * k.nbfn * int64(k.iters); k.nints != want {
		bad = append(bad, fmt.Sprintf("%d integrals screened or computed, want nbfn⁴·iterations = %d", k.nints, want))
	}
	if len(bad) > 0 {
		return errors.New(strings.Join(bad, "; "))
	}
	if print {
		fmt.Fprintf(out, "Fock matrix symmetric (|F − Fᵀ| / |F| ≤ %.1e); energy decreasing from iteration 2; tr(D·S) = %.10f electrons; each integral once per iteration\n",
			k.asym, k.electrons)
	}
	return nil
}
