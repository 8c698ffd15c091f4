// Package peigs solves symmetric and Hermitian eigenproblems on block-cyclic
// matrices (scalapack.Matrix), in parallel over their BLACS grid: the role
// the PeIGS library had for Global Arrays, played by ScaLAPACK's drivers.
//
//	Standard      A·z = λ·z                    all pairs: PxSYEVD / PxHEEVD (divide and conquer)
//	                                           a range by index or value: PxSYEVR / PxHEEVR (MRRR)
//	Factorize     S = L·Lᴴ, kept in a Factor   PxPOTRF
//	Generalized   A·z = λ·S·z (ibtype 1),      PxSYGST / PxHEGST to a standard problem,
//	              A·S·z = λ·z (2), S·A·z = λ·z (3)   solved as above, then PxTRSM / PxTRMM back
//
// Element types are float64 and float32 (symmetric) and complex128 and
// complex64 (Hermitian): ScaLAPACK has every driver in all four precisions.
// Eigenvalues come back ascending as float64, eigenvectors as the columns
// of an n × n matrix on A's grid in A's blocks, orthonormal (Zᴴ·Z = I), or
// S-orthonormal for the generalized problem (Zᴴ·S·Z = I, types 1 and 2).
// The lower triangle is what ScaLAPACK reads; the check below reads both.
//
// The generalized problem is reduced with a Factor rather than handed to
// PxSYGVX, so that a caller solving many problems with one S (GA's
// GA_Diag_reuse) factors it once.
//
// # Errors
//
// Nothing a caller can get wrong aborts the job. Every solver first checks
// that A (and S) is symmetric, or Hermitian, within a tolerance
// (Options.Tol; see CheckSymmetric for the measure, a probe by random
// vectors that costs one local pass and one reduction), and refuses one
// that is not, or that holds NaN or Inf, with a *NotSymmetricError. An S
// that is not positive definite is a *scalapack.NotPositiveDefiniteError
// naming the leading minor, eigenvectors that failed to converge a
// *scalapack.EigenError, and bad arguments (shapes, ranges, ibtype) an
// *Error. All of them are decided alike on every process of the grid, and
// leave A and S unchanged: the solvers work on copies unless
// Options.Overwrite lets them use A and S themselves.
//
// # ELPA
//
// ELPA is not offered as a backend. Debian 12's libelpa-dev (2022.11.001)
// installs and links with the same Open MPI (libmpi.so.40) and ScaLAPACK,
// so it could be; but measured on a 2-core VM (2 ranks, n = 1000, a 1 × 2
// grid, OPENBLAS_NUM_THREADS=1, 3 runs each, C against the libraries
// directly), its one-stage solver took 0.110-0.121 s on the (2, -1) matrix
// where PDSYEVD took 0.112-0.145 s, and 0.114-0.121 s on a random symmetric
// matrix against 0.125-0.138 s; its two-stage solver took 0.27-0.30 s
// (Debian's build has generic kernels only). A gain of 0-8% does not pay
// for a second eigensolver library that every goga program would link.
//
// # Performance
//
// All pairs of the (2, -1) matrix of order 1000 on 2 ranks of one node
// (1 × 2 grid, 32 × 32 blocks, OPENBLAS_NUM_THREADS=1), as cmd/gabench
// times them: through ga.DiagStd on arrays of GA's default distribution
// (read into block-cyclic copies) and on BlockCyclicGrid arrays in
// ScaLAPACK's layout (solved where they lie), and through scalapack.Syevd
// directly, the floor. GA C's figure is GA_Diag_std_seq (its GA_Diag_std
// aborts without PeIGS), from bench/ref/gabench.c. Medians on a
// 2-core VM while it was quiet (BENCHMARKS.md has the current diag_std_s
// row):
//
//	metric               seconds   ratio
//	diag_std_s (GA C)    0.760
//	diag_std_s           0.110     6.9× faster than GA C (compare.sh -n 5)
//	diag_std_inplace_s   0.109     1.028 × scalapack_syevd_s
//	diag_std_s           0.111     1.042 × scalapack_syevd_s
//	scalapack_syevd_s    0.107
//
// The last three are medians of 15 alternating solves in one job, the
// ratios medians of each round's ratio. What DiagStd adds to the direct
// call, about 3 ms in place: the symmetry check (1.0 ms, one pass over each
// process's 4 MB), the copy of A that ScaLAPACK destroys, and the
// agreements; Z is written straight into V's storage.
//
// Why all pairs go to divide and conquer and ranges to MRRR, measured the
// same way on a random symmetric matrix of order 1000 (medians of 7):
// PDSYEVD 0.126 s for all pairs, PDSYEVR 0.248 s for all of them and
// 0.085 s for the lowest 100.
package peigs
