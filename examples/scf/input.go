package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// beInpt is be.inpt, the original's input: four beryllium atoms 4 bohr
// apart on a line.
const beInpt = `4

4  0.000  0.000 0.000
4  4.000  0.000 0.000
4  8.000  0.000 0.000
4 12.000  0.000 0.000
`

// nbfAtom is the number of s functions on each atom.
const nbfAtom = 15

// beExponents are the exponents of a beryllium atom's functions: nine on
// the nucleus, then six of 0.3 displaced ±1.6 bohr along x, y and z.
var beExponents = [nbfAtom]float64{1741.0, 262.1, 60.33, 17.62, 5.933, 2.185, 0.859, 0.1806, 0.05835,
	0.3, 0.3, 0.3, 0.3, 0.3, 0.3}

type atom struct{ q, x, y, z float64 }

type function struct{ x, y, z, expnt, rnorm float64 }

// molecule is the input and what input and ininrm derive from it.
type molecule struct {
	atoms []atom
	basis []function
	enrep float64 // nuclear repulsion energy
	nocc  int     // doubly occupied orbitals
	boys  *boys
}

// readXYZ reads the original's input: the number of atoms, a blank line,
// then one line per atom of an atomic number (ignored: every atom is
// beryllium) and x, y, z in bohr.
func readXYZ(r io.Reader) ([]float64, error) {
	var fields []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		fields = append(fields, strings.Fields(sc.Text())...)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(fields) == 0 {
		return nil, fmt.Errorf("input: empty")
	}
	n, err := strconv.Atoi(fields[0])
	if err != nil || n < 1 {
		return nil, fmt.Errorf("input: number of atoms %q", fields[0])
	}
	if len(fields) < 1+4*n {
		return nil, fmt.Errorf("input: %d atoms need %d numbers after the count, have %d", n, 4*n, len(fields)-1)
	}
	xyz := make([]float64, 3*n)
	for i := range n {
		for c := range 3 {
			v, err := strconv.ParseFloat(fields[1+4*i+1+c], 64)
			if err != nil {
				return nil, fmt.Errorf("input: atom %d: %v", i+1, err)
			}
			xyz[3*i+c] = v
		}
	}
	return xyz, nil
}

// newMolecule places the basis functions on the atoms at xyz and computes
// the nuclear repulsion and normalization constants, as input and ininrm do.
func newMolecule(xyz []float64) *molecule {
	m := &molecule{boys: newBoys()}
	for i := 0; i < len(xyz); i += 3 {
		a := atom{q: 4, x: xyz[i], y: xyz[i+1], z: xyz[i+2]}
		m.atoms = append(m.atoms, a)
		for j, e := range beExponents {
			f := function{x: a.x, y: a.y, z: a.z, expnt: e}
			switch j {
			case 9:
				f.x += 1.6
			case 10:
				f.x -= 1.6
			case 11:
				f.y += 1.6
			case 12:
				f.y -= 1.6
			case 13:
				f.z += 1.6
			case 14:
				f.z -= 1.6
			}
			f.rnorm = math.Pow(e*2/math.Pi, 0.75)
			m.basis = append(m.basis, f)
		}
	}
	for i, a := range m.atoms {
		for _, b := range m.atoms[i+1:] {
			r := math.Sqrt(sq(a.x-b.x) + sq(a.y-b.y) + sq(a.z-b.z))
			m.enrep += a.q * b.q / r
		}
	}
	m.nocc = 2 * len(m.atoms)
	return m
}

// atDens is a beryllium atom's density in this basis, hardwired instead of
// an atomic SCF (denges), in Fortran's column order. Its diagonal is half
// the density's (see atomDensity).
var atDens = [nbfAtom * nbfAtom]float64{
	0.000002, 0.000027, 0.000129, 0.000428, 0.000950, 0.001180,
	0.000457, -0.000270, -0.000271, 0.000004, 0.000004, 0.000004,
	0.000004, 0.000004, 0.000004, 0.000027, 0.000102, 0.000987,
	0.003269, 0.007254, 0.009007, 0.003492, -0.002099, -0.002108,
	0.000035, 0.000035, 0.000035, 0.000035, 0.000035, 0.000035,
	0.000129, 0.000987, 0.002381, 0.015766, 0.034988, 0.043433,
	0.016835, -0.010038, -0.010082, 0.000166, 0.000166, 0.000166,
	0.000166, 0.000166, 0.000166, 0.000428, 0.003269, 0.015766,
	0.026100, 0.115858, 0.144064, 0.055967, -0.035878, -0.035990,
	0.000584, 0.000584, 0.000584, 0.000584, 0.000584, 0.000584,
	0.000950, 0.007254, 0.034988, 0.115858, 0.128586, 0.320120,
	0.124539, -0.083334, -0.083536, 0.001346, 0.001346, 0.001346,
	0.001346, 0.001346, 0.001346, 0.001180, 0.009007, 0.043433,
	0.144064, 0.320120, 0.201952, 0.159935, -0.162762, -0.162267,
	0.002471, 0.002471, 0.002471, 0.002471, 0.002471, 0.002471,
	0.000457, 0.003492, 0.016835, 0.055967, 0.124539, 0.159935,
	0.032378, -0.093780, -0.093202, 0.001372, 0.001372, 0.001372,
	0.001372, 0.001372, 0.001372, -0.000270, -0.002099, -0.010038,
	-0.035878, -0.083334, -0.162762, -0.093780, 0.334488, 0.660918,
	-0.009090, -0.009090, -0.009090, -0.009090, -0.009090, -0.009090,
	-0.000271, -0.002108, -0.010082, -0.035990, -0.083536, -0.162267,
	-0.093202, 0.660918, 0.326482, -0.008982, -0.008982, -0.008981,
	-0.008981, -0.008981, -0.008982, 0.000004, 0.000035, 0.000166,
	0.000584, 0.001346, 0.002471, 0.001372, -0.009090, -0.008982,
	0.000062, 0.000124, 0.000124, 0.000124, 0.000124, 0.000124,
	0.000004, 0.000035, 0.000166, 0.000584, 0.001346, 0.002471,
	0.001372, -0.009090, -0.008982, 0.000124, 0.000062, 0.000124,
	0.000124, 0.000124, 0.000124, 0.000004, 0.000035, 0.000166,
	0.000584, 0.001346, 0.002471, 0.001372, -0.009090, -0.008981,
	0.000124, 0.000124, 0.000062, 0.000124, 0.000124, 0.000124,
	0.000004, 0.000035, 0.000166, 0.000584, 0.001346, 0.002471,
	0.001372, -0.009090, -0.008981, 0.000124, 0.000124, 0.000124,
	0.000062, 0.000124, 0.000124, 0.000004, 0.000035, 0.000166,
	0.000584, 0.001346, 0.002471, 0.001372, -0.009090, -0.008981,
	0.000124, 0.000124, 0.000124, 0.000124, 0.000062, 0.000124,
	0.000004, 0.000035, 0.000166, 0.000584, 0.001346, 0.002471,
	0.001372, -0.009090, -0.008982, 0.000124, 0.000124, 0.000124,
	0.000124, 0.000124, 0.000062,
}

// atomDensity is atDens as a row-major block with its diagonal doubled.
// Its values are rounded to float32 first: the original's data statement
// holds them as single-precision constants, and the first iteration's
// energy shows it (in the 8th decimal).
func atomDensity() []float64 {
	d := make([]float64, nbfAtom*nbfAtom)
	for i := range nbfAtom {
		for j := range nbfAtom {
			d[i*nbfAtom+j] = float64(float32(atDens[j*nbfAtom+i]))
		}
		d[i*nbfAtom+i] *= 2
	}
	return d
}
