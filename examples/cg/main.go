// Command cg solves A·x = b by the preconditioned conjugate gradient
// method on a sparse matrix whose rows are spread over the processes,
// GA's conjugate_gradient example: each process holds its rows of A in
// compressed sparse row form and its part of every vector, the product A·d
// reads the whole of d, and the scalars of the method come from dot
// products over the distributed vectors.
//
//	go build -o bin/cg ./examples/cg
//	./mpirun.sh -np 4 bin/cg -m 100
//
// The matrix is the 5-point Laplacian of an m × m grid (order m²), b is 1
// and the first guess x is 1, as in the original; the preconditioner is its
// scaled Jacobi one, 10/a_ii. The program prints δ = rᵀM⁻¹r at the start,
// then per iteration β, δ and ‖r‖, and exits non-zero if the residual
// breaks CG's bound or the answer does not solve the system. With -plot
// FILE, process 0 draws ‖r_k‖/‖r_0‖ and that bound against k into FILE.
package main

import (
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

var (
	side  = flag.Int("m", 100, "grid points along each side; the matrix has order m²")
	iters = flag.Int("iters", 0, "give up after this many iterations (0: the matrix's order)")
	tol   = flag.Float64("tol", 1e-4, "stop when sqrt(rᵀM⁻¹r / r₀ᵀM⁻¹r₀) is this small")
	every = flag.Int("every", 1, "print every this many iterations")
)

func main() {
	flag.Parse()
	program.Main("cg", 1, func() error { return run(os.Stdout) })
}

func run(out io.Writer) error {
	if err := ga.Init(); err != nil {
		return err
	}
	defer ga.Terminate()
	me, nproc := ga.Nodeid(), ga.Nnodes()
	m := *side
	n := m * m
	if m < 2 || n < nproc {
		return fmt.Errorf("-m %d: want a grid of 2 × 2 or more, and at least one row per process (%d)", m, nproc)
	}
	if *plotFile != "" {
		if _, err := explot.Format(*plotFile); err != nil {
			return err
		}
	}
	maxit := *iters
	if maxit <= 0 {
		maxit = n
	}
	mat := laplacian(m)
	if me == 0 {
		fmt.Fprintf(out, "conjugate gradient: %d × %d grid's Laplacian, %d rows, %d non-zeros, %d processes\n",
			m, m, n, len(mat.val), nproc)
	}

	// Process 0 holds the whole matrix, as the original's reader does, and
	// Assemble hands each process its rows.
	a, err := ga.CreateSparse[float64](n, n)
	if err != nil {
		return err
	}
	defer a.Destroy()
	if me == 0 {
		for i := range n {
			for k := mat.rowptr[i]; k < mat.rowptr[i+1]; k++ {
				if err := a.AddElement(i, mat.col[k], mat.val[k]); err != nil {
					return err
				}
			}
		}
	}
	if err := a.Assemble(); err != nil {
		return err
	}

	// Every vector is split as the matrix's rows are, so that a process's
	// part of a product is its own part of the result.
	starts := make([]int, nproc)
	for p := range starts {
		starts[p], _, _ = a.RowDistribution(p)
	}
	names := []string{"b", "x", "r", "d", "q", "s", "minv"}
	vs := make([]*ga.Array[float64], len(names))
	for i, name := range names {
		if vs[i], err = ga.CreateIrreg[float64](name, []int{n}, [][]int{starts}); err != nil {
			return err
		}
		defer vs[i].Destroy()
	}
	b, x, r, d, q, s, minv := vs[0], vs[1], vs[2], vs[3], vs[4], vs[5], vs[6]
	if err := b.Fill(1); err != nil {
		return err
	}
	if err := x.Fill(1); err != nil {
		return err
	}
	if err := jacobi(a, minv); err != nil {
		return err
	}

	// dot keeps the first error in derr, checked once the scalars are in.
	var derr error
	dot := func(u, v *ga.Array[float64]) float64 {
		if derr != nil {
			return 0
		}
		var p float64
		p, derr = ga.Dot(u, v)
		return p
	}
	// r = b − A·x, d = M⁻¹r.
	if err := a.MatVec(x, q); err != nil {
		return err
	}
	if err := ga.Add(1, b, -1, q, r); err != nil {
		return err
	}
	if err := ga.ElemMultiply(minv, r, d); err != nil {
		return err
	}
	delta := dot(d, r)
	delta0, r0 := delta, math.Sqrt(dot(r, r))
	if derr != nil {
		return derr
	}
	if me == 0 {
		fmt.Fprintf(out, "delta0 is %.15e  ||r0|| %.15e\n", delta0, r0)
		fmt.Fprintf(out, "\titer\tbeta\tdelta\t||r||\n")
	}

	// The matrix's diagonal is constant, so M is a multiple of the identity
	// and the iterates are plain CG's: ‖r_k‖ ≤ 2√κ·ρ^k·‖r_0‖ with
	// ρ = (√κ − 1)/(√κ + 1), from the A-norm bound on the error.
	kappa := laplacianCond(m)
	rho := (math.Sqrt(kappa) - 1) / (math.Sqrt(kappa) + 1)
	curve.kappa, curve.resid, curve.bound = kappa, []float64{1}, []float64{2 * math.Sqrt(kappa)}
	start := mpi.Wtime()
	it := 0
	for ; it < maxit && delta > *tol**tol*delta0; it++ {
		if err := a.MatVec(d, q); err != nil {
			return err
		}
		dq := dot(d, q)
		if derr != nil {
			return derr
		}
		if !(dq > 0) {
			return fmt.Errorf("iteration %d: dᵀA·d = %g; A is not positive definite", it+1, dq)
		}
		alpha := delta / dq
		if err := ga.Add(1, x, alpha, d, x); err != nil {
			return err
		}
		if err := ga.Add(1, r, -alpha, q, r); err != nil {
			return err
		}
		if err := ga.ElemMultiply(minv, r, s); err != nil {
			return err
		}
		old := delta
		delta = dot(s, r)
		beta := delta / old
		if err := ga.Add(1, s, beta, d, d); err != nil {
			return err
		}
		rn := math.Sqrt(dot(r, r))
		if derr != nil {
			return derr
		}
		if me == 0 && ((it+1)%*every == 0 || it == 0) {
			fmt.Fprintf(out, "\t%d\t%.15e\t%.15e\t%.15e\n", it+1, beta, delta, rn)
		}
		bound := 2 * math.Sqrt(kappa) * math.Pow(rho, float64(it+1))
		curve.resid, curve.bound = append(curve.resid, rn/r0), append(curve.bound, bound)
		if rn > bound*r0*(1+1e-12) {
			return fmt.Errorf("iteration %d: ||r|| %.6e above CG's bound %.6e (κ %.4g)", it+1, rn, bound*r0, kappa)
		}
	}
	elapsed := mpi.Wtime() - start
	if delta > *tol**tol*delta0 {
		return fmt.Errorf("not converged after %d iterations: sqrt(delta/delta0) %.3e, want %.1e", it, math.Sqrt(delta/delta0), *tol)
	}
	if most := math.Ceil(math.Log(2*math.Sqrt(kappa) / *tol) / math.Log(1/rho)); it > n || float64(it) > most {
		return fmt.Errorf("%d iterations; CG needs at most %d (the order) and its bound %.0f", it, n, most)
	}

	// The answer, checked from the matrix itself on process 0 rather than
	// from CG's own residual.
	recur := math.Sqrt(dot(r, r))
	if derr != nil {
		return derr
	}
	res := []float64{0}
	if me == 0 {
		all := make([]float64, n)
		if err := x.Get([]int{0}, []int{n - 1}, all, nil); err != nil {
			return err
		}
		res[0] = mat.residual(all)
	}
	if err := ga.Brdcst(res, 0); err != nil {
		return err
	}
	// Process 0 draws; the others learn from it whether that worked.
	if *plotFile != "" {
		failed, perr := []int{0}, error(nil)
		if me == 0 {
			if perr = drawCurve(*plotFile, m, nproc); perr != nil {
				failed[0] = 1
			}
		}
		if err := ga.Brdcst(failed, 0); err != nil {
			return err
		}
		switch {
		case perr != nil:
			return fmt.Errorf("-plot %q: %w", *plotFile, perr)
		case failed[0] != 0:
			return fmt.Errorf("-plot %q: process 0 could not draw the residual curve", *plotFile)
		}
	}
	bnorm := math.Sqrt(float64(n))
	if me == 0 {
		fmt.Fprintf(out, "Done with CG after %d iterations: sqrt(delta/delta0) %.15e\n", it, math.Sqrt(delta/delta0))
		fmt.Fprintf(out, "error is %.15e (||b - Ax||²)\n", res[0]*res[0])
		fmt.Fprintf(out, "||b - Ax|| / ||b|| = %.3e, below %.1e, in %d iterations, %.3f s\n", res[0]/bnorm, *tol, it, elapsed)
	}
	switch {
	case res[0]/bnorm > *tol:
		return fmt.Errorf("||b - Ax|| / ||b|| = %.3e; want below %.1e", res[0]/bnorm, *tol)
	case math.Abs(res[0]-recur) > 1e-10*bnorm:
		return fmt.Errorf("||b - Ax|| = %.6e but CG's recurrence gives %.6e", res[0], recur)
	}
	return nil
}

// jacobi sets minv to the original's preconditioner: 10/a_ii on each row,
// and 0.1 where the diagonal is missing or not positive. Each process finds
// its rows' diagonal in the column block that holds it.
func jacobi(a *ga.Sparse[float64], minv *ga.Array[float64]) error {
	lo, hi, ok := a.RowDistribution(ga.Nodeid())
	if !ok {
		return ga.Sync()
	}
	m := make([]float64, hi-lo+1)
	for blk := range ga.Nnodes() {
		jlo, jhi, ok := a.ColumnDistribution(blk)
		if !ok || jhi < lo || jlo > hi {
			continue
		}
		idx, jdx, val, err := a.AccessColBlock(blk)
		if err != nil {
			return err
		}
		for i := max(lo, jlo); i <= min(hi, jhi) && idx != nil; i++ {
			for k := idx[i-lo]; k < idx[i-lo+1]; k++ {
				if jdx[k] == i && val[k] > 0 {
					m[i-lo] = 10 / val[k]
				}
			}
		}
	}
	for i := range m {
		if m[i] == 0 {
			m[i] = 0.1
		}
	}
	if err := minv.Put([]int{lo}, []int{hi}, m, nil); err != nil {
		return err
	}
	return ga.Sync()
}
