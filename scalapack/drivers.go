package scalapack

import (
	"fmt"
	"unsafe"

	"github.com/goga-hpc/goga/cgo"
)

// SingularError is ScaLAPACK's INFO > 0 from an LU factorization: U(i, i) is
// exactly zero (Index is 0-based), so the matrix is singular.
type SingularError struct {
	Op    string
	Index int
}

func (e *SingularError) Error() string {
	return fmt.Sprintf("scalapack: %s: the matrix is singular (U[%d][%d] is zero)", e.Op, e.Index, e.Index)
}

// NotPositiveDefiniteError is ScaLAPACK's INFO > 0 from a Cholesky
// factorization: the leading minor of order Order is not positive definite.
type NotPositiveDefiniteError struct {
	Op    string
	Order int
}

func (e *NotPositiveDefiniteError) Error() string {
	return fmt.Sprintf("scalapack: %s: the matrix is not positive definite (leading minor of order %d)", e.Op, e.Order)
}

func infoErr(op string, info int, positive func(int) error) error {
	switch {
	case info == 0:
		return nil
	case info < 0 || positive == nil:
		return fmt.Errorf("scalapack: %s: ScaLAPACK returned INFO %d", op, info)
	}
	return positive(info)
}

// sameGrid checks that b lives on a's grid with compatible blocking for a solve.
func sameGrid[T Elem](op string, a, b *Matrix[T]) error {
	if a == nil || b == nil {
		return errf(op, "a", "nil matrix")
	}
	if a.Desc.Ctxt != b.Desc.Ctxt {
		return errf(op, "b", "on another grid than a")
	}
	if a.Desc.M != a.Desc.N {
		return errf(op, "a", "%d×%d is not square", a.Desc.M, a.Desc.N)
	}
	if b.Desc.M != a.Desc.N {
		return errf(op, "b", "has %d rows; a is %d×%d", b.Desc.M, a.Desc.M, a.Desc.N)
	}
	if a.Desc.MB != a.Desc.NB || b.Desc.MB != a.Desc.MB {
		return errf(op, "b", "blocks %d×%d (a) and %d rows (b) must be square and equal", a.Desc.MB, a.Desc.NB, b.Desc.MB)
	}
	return nil
}

// ipiv returns a pivot vector of the size ScaLAPACK needs for a.
func (a *Matrix[T]) ipiv() []int32 {
	lr, _ := a.LocalShape()
	return make([]int32, lr+a.Desc.MB)
}

// Gesv solves A·X = B by LU factorization with partial pivoting (PxGESV). A is
// overwritten by its factors and B by X.
func Gesv[T Elem](a, b *Matrix[T]) error {
	if err := sameGrid("Gesv", a, b); err != nil {
		return err
	}
	info := cgo.Pgesv(typeOf[T](), a.Desc.N, b.Desc.N, a.ptr(), a.desc32(), a.ipiv(), b.ptr(), b.desc32())
	return infoErr("Gesv", info, func(i int) error { return &SingularError{"Gesv", i - 1} })
}

// Getrf factors A = P·L·U in place (PxGETRF) and returns the pivots for Getrs.
func Getrf[T Elem](a *Matrix[T]) ([]int32, error) {
	if a == nil {
		return nil, errf("Getrf", "a", "nil matrix")
	}
	if a.Desc.MB != a.Desc.NB {
		return nil, errf("Getrf", "a", "blocks %d×%d must be square", a.Desc.MB, a.Desc.NB)
	}
	ipiv := a.ipiv()
	info := cgo.Pgetrf(typeOf[T](), a.Desc.M, a.Desc.N, a.ptr(), a.desc32(), ipiv)
	return ipiv, infoErr("Getrf", info, func(i int) error { return &SingularError{"Getrf", i - 1} })
}

// Trans selects op(A) in solves and products.
type Trans byte

// op(A) = A, Aᵀ or Aᴴ.
const (
	NoTrans   Trans = 'N'
	Transpose Trans = 'T'
	ConjTrans Trans = 'C'
)

// Getrs solves op(A)·X = B with the factors and pivots from Getrf (PxGETRS);
// B is overwritten by X.
func Getrs[T Elem](trans Trans, a *Matrix[T], ipiv []int32, b *Matrix[T]) error {
	if trans != NoTrans && trans != Transpose && trans != ConjTrans {
		return errf("Getrs", "trans", "%q; want NoTrans, Transpose or ConjTrans", byte(trans))
	}
	if err := sameGrid("Getrs", a, b); err != nil {
		return err
	}
	if len(ipiv) < len(a.ipiv()) {
		return errf("Getrs", "ipiv", "holds %d pivots; Getrf gives %d", len(ipiv), len(a.ipiv()))
	}
	info := cgo.Pgetrs(typeOf[T](), byte(trans), a.Desc.N, b.Desc.N, a.ptr(), a.desc32(), ipiv, b.ptr(), b.desc32())
	return infoErr("Getrs", info, nil)
}

// Uplo selects the triangle of a symmetric or Hermitian matrix that is used.
type Uplo byte

// Triangles.
const (
	Upper Uplo = 'U'
	Lower Uplo = 'L'
)

func checkUplo(op string, u Uplo) error {
	if u != Upper && u != Lower {
		return errf(op, "uplo", "%q; want Upper or Lower", byte(u))
	}
	return nil
}

// Posv solves A·X = B for symmetric (Hermitian) positive definite A by
// Cholesky factorization (PxPOSV); A's uplo triangle is overwritten by the
// factor and B by X.
func Posv[T Elem](uplo Uplo, a, b *Matrix[T]) error {
	if err := checkUplo("Posv", uplo); err != nil {
		return err
	}
	if err := sameGrid("Posv", a, b); err != nil {
		return err
	}
	info := cgo.Pposv(typeOf[T](), byte(uplo), a.Desc.N, b.Desc.N, a.ptr(), a.desc32(), b.ptr(), b.desc32())
	return infoErr("Posv", info, func(i int) error { return &NotPositiveDefiniteError{"Posv", i} })
}

// Potrf factors A = UᴴU or LLᴴ in place (PxPOTRF).
func Potrf[T Elem](uplo Uplo, a *Matrix[T]) error {
	if err := checkUplo("Potrf", uplo); err != nil {
		return err
	}
	if err := sameGrid("Potrf", a, a); err != nil {
		return err
	}
	info := cgo.Ppotrf(typeOf[T](), byte(uplo), a.Desc.N, a.ptr(), a.desc32())
	return infoErr("Potrf", info, func(i int) error { return &NotPositiveDefiniteError{"Potrf", i} })
}

// Potrs solves A·X = B with the factor from Potrf (PxPOTRS).
func Potrs[T Elem](uplo Uplo, a, b *Matrix[T]) error {
	if err := checkUplo("Potrs", uplo); err != nil {
		return err
	}
	if err := sameGrid("Potrs", a, b); err != nil {
		return err
	}
	info := cgo.Ppotrs(typeOf[T](), byte(uplo), a.Desc.N, b.Desc.N, a.ptr(), a.desc32(), b.ptr(), b.desc32())
	return infoErr("Potrs", info, nil)
}

// Gemm computes C = alpha·op(A)·op(B) + beta·C (PxGEMM).
func Gemm[T Elem](ta, tb Trans, alpha T, a, b *Matrix[T], beta T, c *Matrix[T]) error {
	if a == nil || b == nil || c == nil {
		return errf("Gemm", "a", "nil matrix")
	}
	m, k := a.Desc.M, a.Desc.N
	if ta != NoTrans {
		m, k = k, m
	}
	kb, n := b.Desc.M, b.Desc.N
	if tb != NoTrans {
		kb, n = n, kb
	}
	if k != kb || c.Desc.M != m || c.Desc.N != n {
		return errf("Gemm", "b", "op(A) is %d×%d, op(B) %d×%d, C %d×%d", m, k, kb, n, c.Desc.M, c.Desc.N)
	}
	if a.Desc.Ctxt != b.Desc.Ctxt || a.Desc.Ctxt != c.Desc.Ctxt {
		return errf("Gemm", "c", "matrices on different grids")
	}
	cgo.Pgemm(typeOf[T](), byte(ta), byte(tb), m, n, k, unsafe.Pointer(&alpha), a.ptr(), a.desc32(), b.ptr(), b.desc32(), unsafe.Pointer(&beta), c.ptr(), c.desc32())
	return nil
}

// Getri replaces A, factored by Getrf, by its inverse (PxGETRI). The
// workspace is queried and allocated for the caller.
func Getri[T Elem](a *Matrix[T], ipiv []int32) error {
	if err := sameGrid("Getri", a, a); err != nil {
		return err
	}
	if len(ipiv) < len(a.ipiv()) {
		return errf("Getri", "ipiv", "holds %d pivots; Getrf gives %d", len(ipiv), len(a.ipiv()))
	}
	info := cgo.Pgetri(typeOf[T](), a.Desc.N, a.ptr(), a.desc32(), ipiv)
	return infoErr("Getri", info, func(i int) error { return &SingularError{"Getri", i - 1} })
}

// Potri replaces A's uplo triangle, factored by Potrf, by that triangle of
// A⁻¹ (PxPOTRI).
func Potri[T Elem](uplo Uplo, a *Matrix[T]) error {
	if err := checkUplo("Potri", uplo); err != nil {
		return err
	}
	if err := sameGrid("Potri", a, a); err != nil {
		return err
	}
	info := cgo.Ppotri(typeOf[T](), byte(uplo), a.Desc.N, a.ptr(), a.desc32())
	return infoErr("Potri", info, func(i int) error { return &SingularError{"Potri", i - 1} })
}
