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
// gets a Grid whose In is false. Broadcasts and combines take the scope
// (Row, Column, All) and a Topology, the BLACS's TOP (DefaultTopology, or
// "", lets the BLACS choose; IncreasingRing, Hypercube, … name the guide's
// letters).
//
// # BLACS names
//
// Every routine of the BLACS guide (LAWN 94) and of the MPI BLACS's handle
// calls, and its goga spelling (g is a *Grid; v is the type letter, I, S, D,
// C or Z, which T chooses):
//
//	BLACS_PINFO                       Pinfo (MPI_COMM_WORLD's rank and size; no grid needed)
//	BLACS_SETUP                       (none needed: it builds PVM's virtual machine, and over MPI is BLACS_PINFO, which is Pinfo)
//	BLACS_GET(_, 0)                   System(mpi.World()) (the default system context, 0)
//	BLACS_GET(_, 1), BLACS_SET(_, 1)  (none needed: the message-ID range; every grid has MPI communicators of its own)
//	BLACS_GET(_, 2)                   (none needed: the debug level; goga checks the arguments before each call, at any level)
//	BLACS_GET(g, 10..16)              g.Get(what) (SystemContext, BroadcastRings, BroadcastBranches, CombineRings, CombineBranches, Repeatable, Coherent)
//	BLACS_SET(g, 11..16)              g.Set(what, val) (unknown values and bad counts: an error, not a warning)
//	BLACS_GRIDINIT                    GridInit(c, order, rows, cols)
//	BLACS_GRIDMAP                     GridMap(c, usermap)
//	BLACS_FREEBUFF                    g.FreeBuff(wait)
//	BLACS_GRIDEXIT                    g.Exit
//	BLACS_ABORT                       Abort(g, code) (MPI_Abort of the whole job with code)
//	BLACS_EXIT                        Exit(continueMPI) (every grid freed; MPI finalized unless continueMPI)
//	BLACS_GRIDINFO                    g.Info (g.In: whether this process is in the grid)
//	BLACS_PNUM                        g.Pnum
//	BLACS_PCOORD                      g.Pcoord
//	BLACS_BARRIER                     g.Barrier(scope)
//	Csys2blacs_handle                 System(c)
//	Cblacs2sys_handle                 g.Comm (the grid's communicator, BLACS_GET(g, 10) turned back into an MPI communicator)
//	Cfree_blacs_system_handle         FreeSystem(h)
//	vGESD2D, vGERV2D                  Gesd2d, Gerv2d
//	vTRSD2D, vTRRV2D                  Trsd2d, Trrv2d
//	vGEBS2D, vGEBR2D                  Gebs2d, Gebr2d
//	vTRBS2D, vTRBR2D                  Trbs2d, Trbr2d
//	vGSUM2D                           Gsum2d
//	vGAMX2D, vGAMN2D                  Gamx2d, Gamn2d
//	SETPVMTIDS                        (none needed: PVM only)
//	DCPUTIME, DWALLTIME               (none needed: Go's time package, or mpi.Wtime)
//	KSENDID, KRECVID, KBSID, KBRID    (none needed: tags for native messages beside the BLACS's; the grid's communicator, g.Comm, is a duplicate that the BLACS do not use)
//	(Go only)                         g.Context (the context number, for ScaLAPACK descriptors)
package blacs
