package scalapack

import (
	"fmt"
	"unsafe"

	"github.com/goga-hpc/goga/cgo"
)

// EigenError is INFO > 0 from an eigensolver: it did not converge.
type EigenError struct {
	Op   string
	Info int
}

func (e *EigenError) Error() string {
	return fmt.Sprintf("scalapack: %s: the eigensolver failed to converge (INFO %d)", e.Op, e.Info)
}

// eigenvalues is room for n eigenvalues in T's real precision, as the
// drivers write them, and a reader of the first m as float64.
func eigenvalues[T Elem](n int) (unsafe.Pointer, func(m int) []float64) {
	if t := typeOf[T](); t == cgo.TypeS || t == cgo.TypeC {
		w := make([]float32, max(n, 1))
		return unsafe.Pointer(&w[0]), func(m int) []float64 {
			out := make([]float64, m)
			for i := range out {
				out[i] = float64(w[i])
			}
			return out
		}
	}
	w := make([]float64, max(n, 1))
	return unsafe.Pointer(&w[0]), func(m int) []float64 { return w[:m] }
}

// eigenvectors checks Z, or makes it when nil: n × n on A's grid in A's
// square blocks, as the drivers need it.
func eigenvectors[T Elem](op string, a, z *Matrix[T]) (*Matrix[T], error) {
	if err := sameGrid(op, a, a); err != nil {
		return nil, err
	}
	if z == nil {
		return NewMatrix[T](a.Grid, a.Desc.N, a.Desc.N, a.Desc.MB, a.Desc.NB)
	}
	if z.Desc.Ctxt != a.Desc.Ctxt || z.Desc.M != a.Desc.N || z.Desc.N != a.Desc.N || z.Desc.MB != a.Desc.MB || z.Desc.NB != a.Desc.NB ||
		z.Desc.RSrc != a.Desc.RSrc || z.Desc.CSrc != a.Desc.CSrc {
		return nil, errf(op, "z", "%d×%d in %d×%d blocks; want %d×%d in A's %d×%d blocks, on A's grid from A's first process",
			z.Desc.M, z.Desc.N, z.Desc.MB, z.Desc.NB, a.Desc.N, a.Desc.N, a.Desc.MB, a.Desc.NB)
	}
	return z, nil
}

// Syevd returns every eigenvalue of the symmetric or Hermitian matrix A
// (ascending) and writes the eigenvectors as the columns of Z, by divide and
// conquer (PxSYEVD, PxHEEVD). Z is n × n on A's grid in A's blocks; nil
// makes one. A's uplo triangle is used and A is destroyed. The workspace is
// queried and allocated for the caller.
func Syevd[T Elem](uplo Uplo, a, z *Matrix[T]) ([]float64, *Matrix[T], error) {
	if err := checkUplo("Syevd", uplo); err != nil {
		return nil, nil, err
	}
	z, err := eigenvectors("Syevd", a, z)
	if err != nil {
		return nil, nil, err
	}
	w, vals := eigenvalues[T](a.Desc.N)
	info := cgo.Pevd(typeOf[T](), 'V', byte(uplo), a.Desc.N, a.ptr(), a.desc32(), w, z.ptr(), z.desc32())
	if err := infoErr("Syevd", info, func(i int) error { return &EigenError{"Syevd", i} }); err != nil {
		return nil, nil, err
	}
	return vals(a.Desc.N), z, nil
}

// EigenRange selects which eigenvalues Syevr computes (ScaLAPACK's RANGE).
type EigenRange byte

// The eigenvalues Syevr computes.
const (
	AllEigen   EigenRange = 'A' // every one
	ValueRange EigenRange = 'V' // those in (vl, vu]
	IndexRange EigenRange = 'I' // the il-th to the iu-th, ascending, 0-based
)

// Syevr returns the eigenvalues of the symmetric or Hermitian matrix A that
// rng selects (AllEigen, ValueRange or IndexRange; the others' bounds are
// ignored), ascending, and writes their eigenvectors into Z's first columns,
// by the MRRR algorithm (PxSYEVR, PxHEEVR). Z is as for Syevd. A's uplo
// triangle is used and A is destroyed.
func Syevr[T Elem](uplo Uplo, a, z *Matrix[T], rng EigenRange, vl, vu float64, il, iu int) ([]float64, *Matrix[T], error) {
	if err := checkUplo("Syevr", uplo); err != nil {
		return nil, nil, err
	}
	z, err := eigenvectors("Syevr", a, z)
	if err != nil {
		return nil, nil, err
	}
	n := a.Desc.N
	switch rng {
	case AllEigen:
	case ValueRange:
		if !(vl < vu) {
			return nil, nil, errf("Syevr", "vl", "%v is not below vu %v", vl, vu)
		}
	case IndexRange:
		if il < 0 || iu < il || iu >= n {
			return nil, nil, errf("Syevr", "il", "[%d, %d] is not a range of the indices 0 to %d", il, iu, n-1)
		}
	default:
		return nil, nil, errf("Syevr", "rng", "%q; want AllEigen, ValueRange or IndexRange", byte(rng))
	}
	w, vals := eigenvalues[T](n)
	info, found := cgo.Pevr(typeOf[T](), byte(rng), byte(uplo), n, a.ptr(), a.desc32(), vl, vu, il+1, iu+1, w, z.ptr(), z.desc32())
	if err := infoErr("Syevr", info, func(i int) error { return &EigenError{"Syevr", i} }); err != nil {
		return nil, nil, err
	}
	return vals(found), z, nil
}

// Sygst reduces the generalized symmetric-definite (Hermitian-definite)
// problem to a standard one (PxSYGST, PxHEGST): with B's Cholesky factor
// from Potrf (B = L·Lᴴ for uplo Lower, Uᴴ·U for Upper), A's uplo triangle
// becomes that of L⁻¹·A·L⁻ᴴ for ibtype 1 (A·x = λ·B·x) or Lᴴ·A·L for ibtype 2
// (A·B·x = λ·x) and 3 (B·A·x = λ·x). The eigenvalues of the result times
// scale are the problem's.
func Sygst[T Elem](ibtype int, uplo Uplo, a, b *Matrix[T]) (scale float64, err error) {
	if err := checkPair("Sygst", ibtype, uplo, a, b); err != nil {
		return 0, err
	}
	info := cgo.Pgst(typeOf[T](), ibtype, byte(uplo), a.Desc.N, a.ptr(), a.desc32(), b.ptr(), b.desc32(), &scale)
	return scale, infoErr("Sygst", info, nil)
}

// checkPair checks the arguments of a generalized problem.
func checkPair[T Elem](op string, ibtype int, uplo Uplo, a, b *Matrix[T]) error {
	if ibtype < 1 || ibtype > 3 {
		return errf(op, "ibtype", "%d; want 1, 2 or 3", ibtype)
	}
	if err := checkUplo(op, uplo); err != nil {
		return err
	}
	if err := sameGrid(op, a, b); err != nil {
		return err
	}
	if b.Desc.N != a.Desc.N || b.Desc.NB != a.Desc.NB {
		return errf(op, "b", "%d×%d in %d×%d blocks; A is %d×%d in %d×%d blocks",
			b.Desc.M, b.Desc.N, b.Desc.MB, b.Desc.NB, a.Desc.M, a.Desc.N, a.Desc.MB, a.Desc.NB)
	}
	return nil
}

// Sygvx returns every eigenvalue (ascending) and eigenvector of the
// generalized symmetric-definite (Hermitian-definite) problem (PxSYGVX,
// PxHEGVX, RANGE 'A'): ibtype 1 is A·x = λ·B·x, 2 is A·B·x = λ·x, 3 is
// B·A·x = λ·x, with B positive definite. The eigenvectors are the columns of
// a new matrix on A's grid, normalized so that Zᴴ·B·Z = I (ibtype 1 and 2).
// A and B are destroyed. A B that is not positive definite returns a
// *NotPositiveDefiniteError.
func Sygvx[T Elem](ibtype int, uplo Uplo, a, b *Matrix[T]) ([]float64, *Matrix[T], error) {
	if err := checkPair("Sygvx", ibtype, uplo, a, b); err != nil {
		return nil, nil, err
	}
	z, err := NewMatrix[T](a.Grid, a.Desc.N, a.Desc.N, a.Desc.MB, a.Desc.NB)
	if err != nil {
		return nil, nil, err
	}
	n := a.Desc.N
	w, vals := eigenvalues[T](n)
	ifail := make([]int32, max(n, 1))
	rows, cols, _, _ := a.Grid.Info()
	info, found := cgo.Pgvx(typeOf[T](), ibtype, byte(uplo), n, a.ptr(), a.desc32(), b.ptr(), b.desc32(), w, z.ptr(), z.desc32(), ifail, rows*cols)
	switch {
	case info > 0 && info/16%2 == 1:
		return nil, nil, &NotPositiveDefiniteError{"Sygvx", int(ifail[0])}
	case info != 0:
		return nil, nil, infoErr("Sygvx", info, func(i int) error { return &EigenError{"Sygvx", i} })
	case found != n:
		return nil, nil, &EigenError{"Sygvx", info}
	}
	return vals(n), z, nil
}
