// Package scalapack is distributed dense linear algebra on block-cyclic
// matrices over BLACS grids, through the system's ScaLAPACK library.
//
// Desc is DESCINIT with its checks returned as errors; Numroc and the maps
// between global, local and process indices are 0-based. A Matrix is a grid,
// a descriptor and the local column-major part, with Fill (from a function of
// the global indices) and Gather (the whole matrix, for checking). The
// drivers work in single and double precision, real or complex:
//
//	Gesv, Getrf, Getrs      LU solve (PDGESV, PDGETRF, PDGETRS; PZ… for complex128)
//	Posv, Potrf, Potrs      Cholesky solve (PDPOSV, PDPOTRF, PDPOTRS)
//	Getri, Potri            inverses from the factors (PDGETRI, PDPOTRI)
//	Gemm                    C = alpha·op(A)·op(B) + beta·C (PDGEMM)
//	Trsm, Trmm              triangular solve and product (PDTRSM, PDTRMM)
//	Syevd                   symmetric (Hermitian) eigenpairs, all (PDSYEVD, PZHEEVD)
//	Syevr                   … all or a range by index or value, an EigenRange (PDSYEVR, PZHEEVR)
//	Sygst                   generalized problem to standard form (PDSYGST, PZHEGST)
//	Sygvx                   generalized symmetric-definite eigenproblem (PDSYGVX, PZHEGVX)
//
// Workspace queries are made for the caller.
// A singular matrix comes back as *SingularError and one that is not
// positive definite as *NotPositiveDefiniteError, each with the index
// ScaLAPACK's INFO gives.
package scalapack
