// Package blacs is the BLACS (Basic Linear Algebra Communication
// Subprograms) on MPI communicators: process grids and contexts, and the
// matrix-shaped point-to-point, broadcast and combine operations that
// ScaLAPACK is built on. It calls the C BLACS in the system's ScaLAPACK
// library.
//
//	g, err := blacs.GridInit(mpi.World(), blacs.RowMajor, 2, 2) // collective
//	if g.In() {
//		rows, cols, r, c := g.Info()
//		x := []float64{float64(r*cols + c)}
//		blacs.Gsum2d(g, blacs.All, "", 1, 1, x, 1, -1, -1) // x = 0+1+2+3 everywhere
//	}
//	g.Exit() // MPI keeps running
//
// Matrices are column-major with a leading dimension, as in the BLACS guide.
// One generic function serves each routine family over the guide's five
// element types (int32, float32, float64, complex64, complex128): Gesd2d is
// IGESD2D, SGESD2D, DGESD2D, CGESD2D and ZGESD2D. Arguments the BLACS would
// abort on (coordinates outside the grid, a short matrix, a bad scope) are
// refused with an *Error before the call. A process that a grid leaves out
// gets a Grid whose In is false.
package blacs
