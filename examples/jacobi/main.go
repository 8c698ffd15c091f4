// Command jacobi solves Laplace's equation on an n × n grid by Jacobi
// iteration on a global array with ghost cells, GA's classic stencil
// pattern: each process updates its own block from its halo, then
// UpdateGhosts refreshes every halo from the neighbours.
//
//	go build -o bin/jacobi ./examples/jacobi
//	./mpirun.sh -np 4 bin/jacobi -n 32
//
// The boundary holds u(i, j) = i² − j², which the 5-point stencil averages
// exactly (its discrete Laplacian is 2 − 2 = 0), so the converged interior
// must equal it too. The program prints the residual (the largest change of
// an iteration) as it goes and exits non-zero if the answer is wrong.
//
// With -h5 FILE it writes the field to the HDF5 file FILE every -h5every
// iterations (and at the last), as the datasets u/000100, u/000200, ...
// with their iteration and residual as attributes, through package h5;
// then it reads the last one back and checks it. h5py, ParaView or any
// HDF5 reader opens the file (examples/README.md shows a plot in three
// lines of Python).
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/h5"
	"github.com/goga-hpc/goga/internal/program"
	"github.com/goga-hpc/goga/mpi"
)

var (
	n     = flag.Int("n", 32, "grid points along each side")
	tol   = flag.Float64("tol", 1e-11, "stop when no point changes by more than this")
	iters = flag.Int("iters", 20000, "give up after this many iterations")
	every = flag.Int("every", 100, "print the residual every this many iterations")
	h5out = flag.String("h5", "", "write the field to this HDF5 file every -h5every iterations")
	h5ev  = flag.Int("h5every", 100, "iterations between the fields -h5 writes")
)

func main() {
	flag.Parse()
	program.Main("jacobi", 1, func() error { return run(os.Stdout) })
}

// exact is the harmonic function whose boundary values the grid holds.
func exact(i, j int) float64 { return float64(i*i - j*j) }

func run(out io.Writer) error {
	if err := ga.Init(); err != nil {
		return err
	}
	defer ga.Terminate()
	size := *n
	if size < 3 {
		return fmt.Errorf("-n %d: the grid needs an interior", size)
	}
	// A halo one cell wide is all the 5-point stencil reads. The ends are
	// not periodic: the halo past the grid's edge is never read, because
	// the edge itself is boundary and is not updated.
	u, err := ga.CreateGhosts[float64]("u", []int{size, size}, []int{1, 1}, nil)
	if err != nil {
		return err
	}
	defer u.Destroy()
	if err := u.SetPeriodic(false, false); err != nil {
		return err
	}

	// Each process writes the boundary values and a zero interior into its
	// own block, in place. lo and hi include the halo, ld is its pitch.
	// (With more processes than rows, some own nothing.)
	var data []float64
	var lo, hi, ld []int
	_, _, owns := u.Distribution(ga.Nodeid())
	if owns {
		if data, lo, hi, ld, err = u.AccessGhosts(); err != nil {
			return err
		}
	}
	at := func(i, j int) int { return (i-lo[0])*ld[0] + j - lo[1] }
	// interior reports whether (i, j) is updated: inside the grid, off its edge.
	interior := func(i, j int) bool { return i > 0 && j > 0 && i < size-1 && j < size-1 }
	if owns {
		for i := lo[0] + 1; i < hi[0]; i++ {
			for j := lo[1] + 1; j < hi[1]; j++ {
				data[at(i, j)] = 0
				if !interior(i, j) {
					data[at(i, j)] = exact(i, j)
				}
			}
		}
	}
	if err := u.UpdateGhosts(); err != nil {
		return err
	}

	fields, err := newFields(u)
	if err != nil {
		return err
	}

	var next []float64
	if owns {
		next = make([]float64, (hi[0]-lo[0]-1)*(hi[1]-lo[1]-1))
	}
	me := ga.Nodeid()
	start := mpi.Wtime()
	it, resid := 0, math.Inf(1)
	for it < *iters && resid > *tol {
		it++
		// New values from the old ones, own block only, read from the halo.
		change := []float64{0}
		if owns {
			k := 0
			for i := lo[0] + 1; i < hi[0]; i++ {
				for j := lo[1] + 1; j < hi[1]; j++ {
					v := data[at(i, j)]
					if interior(i, j) {
						v = (data[at(i-1, j)] + data[at(i+1, j)] + data[at(i, j-1)] + data[at(i, j+1)]) / 4
					}
					change[0] = max(change[0], math.Abs(v-data[at(i, j)]))
					next[k] = v
					k++
				}
			}
			// Only after every new value is computed: the block's own
			// elements are overwritten in place.
			k = 0
			for i := lo[0] + 1; i < hi[0]; i++ {
				for j := lo[1] + 1; j < hi[1]; j++ {
					data[at(i, j)] = next[k]
					k++
				}
			}
		}
		if err := ga.Gop(change, ga.OpMax); err != nil {
			return err
		}
		resid = change[0]
		if me == 0 && (it%*every == 0 || it == 1 || resid <= *tol) {
			fmt.Fprintf(out, "iteration %5d  residual %.3e\n", it, resid)
		}
		// A collective sync: every block is written before any halo is read.
		if err := u.UpdateGhosts(); err != nil {
			return err
		}
		if it%*h5ev == 0 || it == *iters || resid <= *tol {
			if err := fields.write(it, resid); err != nil {
				return err
			}
		}
	}
	if err := fields.close(out); err != nil {
		return err
	}
	elapsed := mpi.Wtime() - start

	// The answer: the largest error against the exact solution, everywhere.
	worst := []float64{0}
	if owns {
		for i := lo[0] + 1; i < hi[0]; i++ {
			for j := lo[1] + 1; j < hi[1]; j++ {
				worst[0] = max(worst[0], math.Abs(data[at(i, j)]-exact(i, j)))
			}
		}
	}
	if err := ga.Gop(worst, ga.OpMax); err != nil {
		return err
	}
	if me == 0 {
		fmt.Fprintf(out, "%d × %d grid on %d processes: %d iterations in %.3f s, largest error %.2e\n",
			size, size, ga.Nnodes(), it, elapsed, worst[0])
	}
	// Jacobi's error shrinks like its residual, a factor 1/(1−ρ) ≈ 2n²/π²
	// larger; allow that.
	if bound := *tol * float64(size*size); resid > *tol || worst[0] > bound {
		return fmt.Errorf("not converged: residual %.3e after %d iterations, error %.3e (want below %.1e)", resid, it, worst[0], bound)
	}
	return nil
}

// fields writes u's field to the HDF5 file -h5 names, if it names one.
type fields struct {
	u    *ga.Array[float64]
	f    *h5.File
	last string // the dataset written last
	n    int    // fields written
}

func newFields(u *ga.Array[float64]) (*fields, error) {
	w := &fields{u: u}
	if *h5out == "" {
		return w, nil
	}
	var err error
	if w.f, err = h5.Create(*h5out); err != nil {
		return nil, err
	}
	return w, w.f.SetAttr("/", "title", fmt.Sprintf("Jacobi iteration for Laplace's equation on a %d × %d grid", *n, *n))
}

// write writes the field of iteration it, with its residual.
func (w *fields) write(it int, resid float64) error {
	if w.f == nil {
		return nil
	}
	w.last = fmt.Sprintf("u/%06d", it)
	w.n++
	if err := h5.Write(w.f, w.last, w.u, nil); err != nil {
		return err
	}
	if err := w.f.SetAttr(w.last, "iteration", it); err != nil {
		return err
	}
	return w.f.SetAttr(w.last, "residual", resid)
}

// close closes the file, which then appears under its name, and checks
// that its last field is u.
func (w *fields) close(out io.Writer) error {
	if w.f == nil {
		return nil
	}
	if err := w.f.Close(); err != nil {
		return err
	}
	f, err := h5.Open(*h5out, h5.ModeRead)
	if err != nil {
		return err
	}
	defer f.Close()
	v, err := h5.Load[float64](f, w.last, "check")
	if err != nil {
		return err
	}
	defer v.Destroy()
	diff := []float64{0}
	if lo, hi, ok := v.Distribution(ga.Nodeid()); ok {
		m := (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1)
		a, b := make([]float64, m), make([]float64, m)
		if err := w.u.Get(lo, hi, a, nil); err != nil {
			return err
		}
		if err := v.Get(lo, hi, b, nil); err != nil {
			return err
		}
		for k := range a {
			diff[0] = max(diff[0], math.Abs(a[k]-b[k]))
		}
	}
	if err := ga.Gop(diff, ga.OpMax); err != nil {
		return err
	}
	if diff[0] != 0 {
		return fmt.Errorf("%s in %s differs from the field by up to %g", w.last, *h5out, diff[0])
	}
	if ga.Nodeid() == 0 {
		fmt.Fprintf(out, "%d fields written to %s; the last, %s, read back exactly\n", w.n, *h5out, w.last)
	}
	return nil
}
