package main

import (
	"fmt"
	"math"

	"github.com/goga-hpc/goga/ga"
)

// system is one process's view of the simulation: the global arrays of
// positions, forces and velocities (natoms × 3, distributed by whole
// atoms, all three alike), the task counter, and this process's buffers.
type system struct {
	natoms, block int
	perSide       int // blocks along each side of the force matrix
	box           float64
	x, f, v       *ga.Array[float64]
	counter       *ga.Array[int64]

	// This process's own atoms [lo[0], hi[0]], if it owns any.
	lo, hi []int
	owns   bool

	xi, xj []float64 // the two blocks of positions a task reads
	force  []float64 // this process's share of every atom's force
}

// forces is what one force computation gives besides the forces.
type forces struct {
	potential float64
	virial    float64 // Σ over pairs of r·F, for the pressure
	pairAbs   float64 // Σ over pairs of |Fx|+|Fy|+|Fz|, the scale of the rounding in ΣF
}

// computeForces fills f with the force on every atom and returns the
// potential energy, as lennard.c's computeFG: the natoms × natoms matrix of
// pair forces is cut into perSide² blocks, which processes draw one at a
// time from a shared counter (dynamic load balancing). For a block a
// process gets the positions of its row's and its column's atoms, adds the
// block's pair forces into its own full-length force vector, and at the
// end accumulates that vector into f.
//
// f must be zero and the counter reset (resetCounter) on entry, and
// nothing else in flight: the sync it starts with then completes the
// positions and those.
func (s *system) computeForces() (forces, error) {
	me := ga.Nodeid()
	if err := ga.Sync(); err != nil {
		return forces{}, err
	}
	clear(s.force)
	var sums forces
	first, last := s.natoms, -1 // the atoms this process's force touches
	for task := me; task < s.perSide*s.perSide; {
		bx, by := task/s.perSide, task%s.perSide
		if err := s.getBlock(bx, s.xi); err != nil {
			return forces{}, err
		}
		if err := s.getBlock(by, s.xj); err != nil {
			return forces{}, err
		}
		s.pairs(bx, by, &sums)
		first = min(first, bx*s.block, by*s.block)
		last = max(last, bx*s.block+s.block-1, by*s.block+s.block-1)
		next, err := s.counter.ReadInc([]int{0}, 1)
		if err != nil {
			return forces{}, err
		}
		task = int(next)
	}
	if last >= 0 {
		lo, hi := []int{first, 0}, []int{last, 2}
		if err := s.f.Acc(lo, hi, s.force[3*first:3*last+3], nil, 1); err != nil {
			return forces{}, err
		}
	}
	total := []float64{sums.potential, sums.virial, sums.pairAbs}
	if err := ga.Gop(total, ga.OpSum); err != nil { // a collective: every Acc has been issued
		return forces{}, err
	}
	// Sync completes the accumulates everywhere before anyone reads f.
	return forces{total[0], total[1], total[2]}, ga.Sync()
}

// resetCounter sets the task counter for the next force computation:
// each process's first task is its rank, so the counter starts at nproc.
func (s *system) resetCounter() error {
	if ga.Nodeid() != 0 {
		return nil
	}
	return s.counter.Put([]int{0}, []int{0}, []int64{int64(ga.Nnodes())}, nil)
}

// getBlock reads the positions of block b's atoms into buf.
func (s *system) getBlock(b int, buf []float64) error {
	lo, hi := []int{b * s.block, 0}, []int{b*s.block + s.block - 1, 2}
	return s.x.Get(lo, hi, buf, nil)
}

// pairs adds the pair forces of block (bx, by) of the force matrix, with
// xi and xj holding its row's and column's positions. Every pair is
// counted once: a diagonal block takes its lower triangle; of the two
// blocks (bx, by) and (by, bx) off the diagonal, the one below it takes
// its row atoms against the upper half of its column atoms, the one above
// it the lower half of its row atoms against all its column atoms. The
// arithmetic is lennard.c's LJ_FG, in its order, so that one process
// rounds as the original does.
func (s *system) pairs(bx, by int, sums *forces) {
	b := s.block
	iFrom, iTo, jFrom, jTo := 0, b, 0, b
	switch {
	case bx == by:
		iFrom = 1 // and j < i
	case bx > by:
		jFrom = b / 2
	default:
		iTo = b / 2
	}
	box := s.box
	xi, xj, force := s.xi, s.xj, s.force
	for i := iFrom; i < iTo; i++ {
		xt, yt, zt := xi[3*i], xi[3*i+1], xi[3*i+2]
		a := 3 * (bx*b + i)
		if bx == by {
			jTo = i
		}
		for j := jFrom; j < jTo; j++ {
			xx := image(xt-xj[3*j], box)
			yy := image(yt-xj[3*j+1], box)
			zz := image(zt-xj[3*j+2], box)
			rij := xx*xx + yy*yy + zz*zz
			r2 := 1.0 / rij
			r6 := r2 * r2 * r2
			r12 := r6 * r6
			sums.potential += 4.0 * (r12 - r6)
			// The force on i is −∇U = r·(48/r¹⁴ − 24/r⁸); on j the opposite.
			temp := r2 * (48.0*r12 - 24.0*r6)
			sums.virial += rij * temp
			fx, fy, fz := xx*temp, yy*temp, zz*temp
			sums.pairAbs += math.Abs(fx) + math.Abs(fy) + math.Abs(fz)
			c := 3 * (by*b + j)
			force[a] += fx
			force[a+1] += fy
			force[a+2] += fz
			force[c] -= fx
			force[c+1] -= fy
			force[c+2] -= fz
		}
	}
}

// image folds a separation d to its nearest periodic image in a box of
// side box (lennard.c's nearest image approximation, with its comparisons).
func image(d, box float64) float64 {
	sign := -1.0
	if d > 0 {
		sign = 1
	}
	if d*sign > box/2 {
		d -= sign * box
	}
	return d
}

// local calls do with this process's own positions, forces and velocities
// in place (lennard.c's NGA_Access of the three arrays; they share one
// distribution) and releases them. It does not sync: the callers do where
// other processes read what it writes.
func (s *system) local(write bool, do func(x, f, v []float64)) error {
	if !s.owns {
		do(nil, nil, nil)
		return nil
	}
	arrays := []*ga.Array[float64]{s.x, s.f, s.v}
	var data [3][]float64
	for k, a := range arrays {
		d, ld, err := a.Access(s.lo, s.hi)
		if err != nil {
			return err
		}
		if ld[0] != 3 {
			return fmt.Errorf("%s: local block has pitch %d, want 3", a.Name(), ld[0])
		}
		data[k] = d[:3*(s.hi[0]-s.lo[0]+1)]
	}
	do(data[0], data[1], data[2])
	for _, a := range arrays {
		release := a.Release
		if write {
			release = a.ReleaseUpdate
		}
		if err := release(s.lo, s.hi); err != nil {
			return err
		}
	}
	return nil
}
