package ga

import "github.com/goga-hpc/goga/scalapack"

// Where GA C takes a character or a string to choose among a few
// operations, goga takes a named type whose constants spell GA's choices.
// The underlying types are GA's, so GA's own spellings, untyped constants
// such as 'n' or "absmax", compile too; a value outside the set returns an
// error that names it.

// TransOp selects op(X) in Gemm, MatmulPatch, CopyPatch, DotPatch and
// LuSolve: X itself, its transpose, or its conjugate transpose. It is
// scalapack.Trans, so the same values pass on to ScaLAPACK unchanged. GA's
// lower-case 'n', 't' and 'c' are accepted as their upper-case constants.
// Which of the three a call takes is in its doc: only LuSolve takes
// ConjTrans.
type TransOp = scalapack.Trans

// op(X) = X, Xᵀ or Xᴴ (GA's 'N', 'T' and 'C').
const (
	NoTrans   TransOp = scalapack.NoTrans
	Trans     TransOp = scalapack.Transpose
	ConjTrans TransOp = scalapack.ConjTrans
)

// upperTrans is t with GA's lower-case spelling read as the constant it
// names.
func upperTrans(t TransOp) TransOp {
	if t >= 'a' && t <= 'z' {
		return t - 'a' + 'A'
	}
	return t
}

// Op names the operation by which Gop and PgroupGop combine values over
// processes, and which element SelectElem finds. Its values are GA's
// strings.
type Op string

// The operations of GA_Gop: the sum, the product, the largest and the
// smallest value, those of the absolute values, and the bitwise or.
// SelectElem takes OpMin and OpMax.
const (
	OpSum    Op = "+"
	OpProd   Op = "*"
	OpMax    Op = "max"
	OpMin    Op = "min"
	OpAbsMax Op = "absmax"
	OpAbsMin Op = "absmin"
	OpOr     Op = "or"
)

// Factorization is the factorization that solved a system (SolveBy).
type Factorization int

const (
	// ByCholesky: A was symmetric (Hermitian) positive definite.
	ByCholesky Factorization = iota
	// ByLU: A was not symmetric, or not positive definite.
	ByLU
)

func (f Factorization) String() string {
	if f == ByCholesky {
		return "Cholesky"
	}
	return "LU"
}
