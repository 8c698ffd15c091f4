package ga

import (
	"github.com/goga-hpc/goga/ga/internal/linalg"
	"github.com/goga-hpc/goga/scalapack"
)

// The linear solvers hand global arrays to ScaLAPACK through the bridge in
// ga/internal/linalg: each call here validates its arguments and agrees on
// them (the opening), then the bridge reads, checks, solves and writes
// back, agreeing again where the contract needs it (see its package doc).

// SetSolverBlockSize sets the block size of the block-cyclic copies that the
// linear solvers hand to ScaLAPACK (default 32) for arrays of the default
// group. Every process must set the same value.
func SetSolverBlockSize(nb int) error {
	g, err := current("SetSolverBlockSize")
	if err != nil {
		return err
	}
	if nb < 1 {
		return errorf("SetSolverBlockSize", "", "block size %d; want at least 1", nb)
	}
	g.la.SetBlock(nb)
	return nil
}

// systemShape checks A (n × n) and B (n × nrhs) and returns n and nrhs.
func systemShape[T scalapack.Elem](op string, a, b *Array[T]) (n, nrhs int, err error) {
	if err := a.valid(op); err != nil {
		return 0, 0, err
	}
	if err := b.valid(op); err != nil {
		return 0, 0, err
	}
	if len(a.dims) != 2 || a.dims[0] != a.dims[1] {
		return 0, 0, errorf(op, a.name, "dims %v: A must be a square matrix", a.dims)
	}
	n = a.dims[0]
	if len(b.dims) != 2 || b.dims[0] != n {
		return 0, 0, errorf(op, b.name, "dims %v: B must be %d × nrhs for A of dims %v", b.dims, n, a.dims)
	}
	if a == b {
		return 0, 0, errorf(op, a.name, "A and B are the same array")
	}
	return n, b.dims[1], nil
}

// solve solves op(A)·X = B, overwriting B with X and leaving A as it was:
// it validates and agrees, then solves in the bridge (linalg.Solve). It is
// collective.
func solve[T scalapack.Elem](op string, how linalg.Method, trans TransOp, a, b *Array[T]) (Factorization, error) {
	g, err := groupOf(op, a)
	if err != nil {
		return 0, err
	}
	n, nrhs, check := systemShape(op, a, b)
	l := newArgs(op).ints("how", int(how), int(trans)).ints("nb", g.la.Block())
	if err := opening(g, op, a.Name(), check, writing(array(array(l, "A", a), "B", b), b)); err != nil {
		return 0, err
	}
	used, err := linalg.Solve(g.la, &bridgeCall{g, op}, how, trans, bridged[T]{a}, bridged[T]{b}, n, nrhs)
	if used == linalg.ByCholesky {
		return ByCholesky, err
	}
	return ByLU, err
}

// LuSolve solves op(A)·X = B by LU factorization with partial pivoting
// (GA_Lu_solve, which is double only: goga's takes single and double, real
// and complex), trans NoTrans for A, Trans for Aᵀ, ConjTrans for Aᴴ (Aᵀ for
// real A). A is n × n and left as it was; B is n × nrhs and is overwritten
// by X. A singular A returns a *scalapack.SingularError. It is collective.
func LuSolve[T scalapack.Elem](trans TransOp, a, b *Array[T]) error {
	t := upperTrans(trans)
	if t != NoTrans && t != Trans && t != ConjTrans {
		return errorf("LuSolve", "", "trans %q; want NoTrans, Trans or ConjTrans ('N', 'T' or 'C')", trans)
	}
	_, err := solve("LuSolve", linalg.ByLU, t, a, b)
	return err
}

// LltSolve solves A·X = B for symmetric (complex: Hermitian) positive
// definite A by Cholesky factorization (GA_Llt_solve). A is left as it was and B overwritten by X;
// an A that is not positive definite returns a
// *scalapack.NotPositiveDefiniteError. Unlike GA, which factors a
// nonsymmetric A's lower triangle and returns the solution of another
// system, LltSolve checks that A is symmetric (a pass over A that costs
// about as much as reading it once) and returns an error wrapping
// ErrNotSymmetric if it is not. It is collective.
func LltSolve[T scalapack.Elem](a, b *Array[T]) error {
	_, err := solve("LltSolve", linalg.ByCholesky, NoTrans, a, b)
	return err
}

// Solve solves A·X = B by Cholesky factorization, and by LU when A turns out
// not to be positive definite (GA_Solve). Unlike GA, which would apply
// Cholesky to a nonsymmetric A's lower triangle and return a wrong answer,
// Solve checks for symmetry first and takes LU at once for a nonsymmetric A.
// A is left as it was and B overwritten by X. It is collective.
func Solve[T scalapack.Elem](a, b *Array[T]) error {
	_, err := SolveBy(a, b)
	return err
}

// SolveBy is Solve that also returns the factorization that solved the
// system, as GA_Solve's value says it (0: Cholesky; above 0: LU):
// ByCholesky where A was symmetric positive definite, ByLU where it was not
// symmetric, or not positive definite. It is collective.
func SolveBy[T scalapack.Elem](a, b *Array[T]) (Factorization, error) {
	return solve("Solve", linalg.ByCholeskyOrLU, NoTrans, a, b)
}

// SpdInvert replaces the symmetric (complex: Hermitian) positive definite
// A by its inverse (GA_Spd_invert). A that is not symmetric (checked, unlike GA), holds NaN
// or Inf, or is not positive definite is left as it was and an error
// returned: one wrapping ErrNotSymmetric or ErrNotFinite, or a
// *scalapack.NotPositiveDefiniteError. It is collective.
func SpdInvert[T scalapack.Elem](a *Array[T]) error {
	const op = "SpdInvert"
	g, err := groupOf(op, a)
	if err != nil {
		return err
	}
	check := a.valid(op)
	if check == nil && (len(a.dims) != 2 || a.dims[0] != a.dims[1]) {
		check = errorf(op, a.name, "dims %v: A must be a square matrix", a.dims)
	}
	if err := opening(g, op, a.Name(), check, array(newArgs(op).ints("nb", g.la.Block()), "A", a)); err != nil {
		return err
	}
	return linalg.SpdInvert(g.la, &bridgeCall{g, op}, bridged[T]{a}, a.dims[0])
}
