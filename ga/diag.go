package ga

import (
	"github.com/goga-hpc/goga/ga/internal/linalg"
	"github.com/goga-hpc/goga/scalapack"
)

// The eigensolvers validate and agree here, then solve in the bridge
// (linalg.Diag, which says how the arrays reach package peigs).

// DiagStd solves the standard symmetric (Hermitian) eigenproblem of the
// n × n array a (GA_Diag_std): it returns every eigenvalue, ascending, and
// writes the eigenvectors into v as its rows, so that v·a = Λ·v and
// v·vᴴ = I (for a real a, its rows are a's eigenvectors). a is left as it
// was. Unlike GA, which aborts without PeIGS, it runs in parallel on
// ScaLAPACK (see package peigs), and a that is not symmetric or holds NaN
// or Inf is an error wrapping ErrNotSymmetric or ErrNotFinite, with nothing
// changed. Eigenvectors that fail to converge are a *scalapack.EigenError,
// with v's contents undefined. It is collective.
func DiagStd[T scalapack.Elem](a, v *Array[T]) ([]float64, error) {
	return diag("DiagStd", linalg.Standard, 0, false, a, nil, v)
}

// Diag solves the generalized eigenproblem a·x = λ·s·x with s positive
// definite (GA_Diag): it returns every eigenvalue, ascending, and writes
// the eigenvectors into v as its rows, so that v·a = Λ·v·s and v·s·vᴴ = I.
// a and s are left as they were. An s that is not positive definite is a
// *scalapack.NotPositiveDefiniteError; otherwise as DiagStd. It is
// collective.
func Diag[T scalapack.Elem](a, s, v *Array[T]) ([]float64, error) {
	return diag("Diag", linalg.Generalized, 0, false, a, s, v)
}

// DiagReuse is Diag for repeated calls with one s (GA_Diag_reuse): control
// 0 factors s, solves and keeps the factorization; control > 0 solves with
// the kept factorization of that s (s must not have changed since; an
// error if none is kept); control < 0 frees the kept factorization and
// returns no eigenvalues. One factorization is kept per process group,
// until freed, replaced, or the group ends (Terminate, Pgroup.Destroy).
// It is collective.
func DiagReuse[T scalapack.Elem](control int, a, s, v *Array[T]) ([]float64, error) {
	const op = "DiagReuse"
	if control < 0 {
		g, err := groupOf(op, s)
		if err != nil {
			return nil, err
		}
		g.la.Forget()
		return nil, nil
	}
	return diag(op, linalg.Reuse, control, false, a, s, v)
}

// DiagStdSeq is DiagStd solved on one process, the group's first
// (GA_Diag_std_seq), as GA does for small matrices: it reads a whole, and
// runs ScaLAPACK's divide and conquer on a one-process grid (LAPACK's
// algorithm with the library's blocked kernels). It is collective.
func DiagStdSeq[T scalapack.Elem](a, v *Array[T]) ([]float64, error) {
	return diag("DiagStdSeq", linalg.Standard, 0, true, a, nil, v)
}

// DiagSeq is Diag solved on one process, as DiagStdSeq (GA_Diag_seq). It
// is collective.
func DiagSeq[T scalapack.Elem](a, s, v *Array[T]) ([]float64, error) {
	return diag("DiagSeq", linalg.Generalized, 0, true, a, s, v)
}

// diag checks and agrees on the arguments, then solves in the bridge on
// the processes' near-square grid or the grid of a BlockCyclicGrid a, or if
// seq on the group's first process alone.
func diag[T scalapack.Elem](op string, kind linalg.Kind, control int, seq bool, a, s, v *Array[T]) ([]float64, error) {
	g, err := groupOf(op, a)
	if err != nil {
		return nil, err
	}
	check := diagShape(op, kind, a, s, v)
	if check == nil && kind == linalg.Reuse && control > 0 && !linalg.Factored[T](g.la, s.id) {
		check = errorf(op, s.name, "no factorization of this S is kept: call with control 0 first")
	}
	l := newArgs(op).ints("kind", int(kind), control).ints("nb", g.la.Block())
	if err := opening(g, op, a.Name(), check, writing(array(array(array(l, "A", a), "S", s), "V", v), v)); err != nil {
		return nil, err
	}
	p := linalg.Problem[T]{Kind: kind, Control: control, Seq: seq, A: bridged[T]{a}, S: bridged[T]{s}, V: bridged[T]{v}}
	if s != nil {
		p.SID = s.id
	}
	return linalg.Diag(g.la, &bridgeCall{g, op}, p)
}

// diagShape checks the arrays of an eigenproblem: a square, s (unless
// kind is linalg.Standard) and v of its shape, v distinct from both.
func diagShape[T scalapack.Elem](op string, kind linalg.Kind, a, s, v *Array[T]) error {
	if err := a.valid(op); err != nil {
		return err
	}
	if err := v.valid(op); err != nil {
		return err
	}
	if len(a.dims) != 2 || a.dims[0] != a.dims[1] {
		return errorf(op, a.name, "dims %v: A must be a square matrix", a.dims)
	}
	if len(v.dims) != 2 || v.dims[0] != a.dims[0] || v.dims[1] != a.dims[1] {
		return errorf(op, v.name, "dims %v: V must have A's dims %v", v.dims, a.dims)
	}
	if v == a {
		return errorf(op, a.name, "A and V are the same array")
	}
	if kind == linalg.Standard {
		return nil
	}
	if err := s.valid(op); err != nil {
		return err
	}
	if len(s.dims) != 2 || s.dims[0] != a.dims[0] || s.dims[1] != a.dims[1] {
		return errorf(op, s.name, "dims %v: S must have A's dims %v", s.dims, a.dims)
	}
	if v == s {
		return errorf(op, s.name, "S and V are the same array")
	}
	return nil
}
