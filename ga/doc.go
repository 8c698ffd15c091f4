// Package ga is Global Arrays for Go: n-dimensional arrays distributed over
// the processes of an MPI job, which any process reads and writes one-sidedly,
// as if in shared memory, with the semantics of the Global Arrays toolkit.
//
// A complete program (build it with go build, run it with
// ./mpirun.sh -np 4 ./prog):
//
//	package main
//
//	import (
//		"fmt"
//		"log"
//
//		"github.com/goga-hpc/goga/ga"
//	)
//
//	func main() {
//		if err := ga.Init(); err != nil { // starts MPI too
//			log.Fatal(err)
//		}
//		defer ga.Terminate()
//		me, n := ga.Nodeid(), ga.Nnodes()
//
//		// A 100×100 matrix of float64, distributed in blocks.
//		a, err := ga.Create[float64]("A", []int{100, 100}, nil)
//		if err != nil {
//			log.Fatal(err)
//		}
//		if err := a.Zero(); err != nil {
//			log.Fatal(err)
//		}
//		// Every process adds 1 to the same 10×10 patch: accumulate is atomic.
//		ones := make([]float64, 100)
//		for i := range ones {
//			ones[i] = 1
//		}
//		lo, hi := []int{40, 40}, []int{49, 49}
//		if err := a.Acc(lo, hi, ones, nil, 1.0); err != nil {
//			log.Fatal(err)
//		}
//		if err := ga.Sync(); err != nil { // every operation complete everywhere
//			log.Fatal(err)
//		}
//		if me == 0 {
//			v := make([]float64, 1)
//			if err := a.Get([]int{45, 45}, []int{45, 45}, v, nil); err != nil {
//				log.Fatal(err)
//			}
//			fmt.Printf("a[45][45] = %v with %d processes\n", v[0], n) // = n
//		}
//	}
//
// # Conventions
//
// Indices follow GA's C interface: 0-based, in C order (the last index
// fastest), and a patch [lo, hi] includes both ends. The manual's Fortran
// examples convert by reversing the index order and subtracting one. A local
// buffer holds a patch in C order; ld gives its leading dimensions (ndim-1
// values, ld[k] the extent of buffer dimension k+1), and nil means packed.
// Element types are int32, int64, float32, float64, complex64 and complex128
// (GA's C_INT, C_LONG, C_FLOAT, C_DBL, C_SCPL, C_DCPL), fixed at compile time by
// Array[T]. A plain Go type of the program's own, registered with
// RegisterType, makes a UserArray, which moves elements and their fields
// but does no arithmetic (usertype.go). Sizes and indices are Go ints: no 2^31 limits.
// Where GA takes a character or a string to choose an operation, goga takes
// a named type whose constants spell the choices (choices.go): TransOp
// (NoTrans, Trans, ConjTrans for GA's 'n', 't', 'c') and Op (OpSum, OpProd,
// OpMax, OpMin, OpAbsMax, OpAbsMin, OpOr for GA's "+", "*", "max", "min",
// "absmax", "absmin", "or"). Their underlying types are GA's, so GA's own
// spellings still compile.
//
// # Distribution
//
// By default an array is cut into at most one block per process exactly as the
// GA C library cuts it (the same process grid and block boundaries: checked
// against GA 5.8's NGA_Distribution for 1-4 dimensions on 1-16 processes).
// Chunk asks for a minimum block size; Irregular names the block boundaries.
// Blocks are dealt to processes in row-major order over the process grid.
//
// # Memory consistency
//
// As in GA: a blocking Put, Acc or Scatter returns when its buffer may be
// reused, a Get when the data has arrived. Blocking operations of one process
// are ordered only where they overlap. Only concurrent reads, concurrent
// accumulates (atomic per element) and disjoint puts are consistent without
// synchronization; anything else needs a mutex (Lock), Fence (after InitFence:
// this process's operations are complete at their targets) or Sync (a barrier
// that completes every operation everywhere). An MPI barrier is not a Sync.
// Non-blocking operations are unordered until waited on. Operations are truly
// one-sided: they complete whatever the owner is doing. Collective array
// operations synchronize at entry and exit unless MaskSync says otherwise.
//
// # Errors
//
// Where GA aborts, goga returns an *Error that names the call, the array and
// the offending values: a subscript or patch outside the array, a shape or
// element-count mismatch, a buffer too short for its patch and ld, an ld whose
// pitches would overflow, a destroyed array (ErrDestroyed), a nil one
// (ErrNil), ReadInc on a non-integer array, creation past the memory limit
// (ErrMemoryLimit) or past what the machine can hold (wrapping
// armci.ErrNoRoom), dims whose byte size overflows. Nothing is written when an
// error is returned. Every one-sided patch operation, on the fast path or
// not, is checked by one validation with overflow-checked arithmetic.
//
// Collective calls validate, agree, then act: each process checks its own
// arguments, then all of them learn, in one reduction of three integers that
// rides on the synchronization the call makes anyway, whether any process
// refused and whether they all passed the same arguments (a hash of the
// arrays' identities, dims, distribution, lengths, roots, operations). So a
// mistake on one process is an error on every process, and nothing is
// changed: the refusing process gets its own error, the others one wrapping
// ErrPeer (with the refusing process's message and sentinel), and processes
// that passed different arguments one wrapping ErrMismatch. The calls that
// agree: Sync, Create, CreateIrreg, Allocate, Duplicate, Destroy, Zero,
// Fill, Scale, Copy, Add, Dot, Print, Brdcst, Gop, CreateMutexes,
// DestroyMutexes, and the linear algebra (LuSolve, LltSolve, Solve,
// SpdInvert, the Diag calls, Gemm, LoadMatrixMarket, with the solver block
// size among the arguments). The solvers also refuse, on every process, input that
// ScaLAPACK would turn into a wrong answer without an error: NaN or Inf in A
// or B (ErrNotFinite, naming the element), and a nonsymmetric A for
// LltSolve and SpdInvert (ErrNotSymmetric), found in passes over data each
// process reads anyway. Since Sync agrees too, processes
// that reach different collective calls meet in the same reduction and all
// get an error instead of passing each other. A tested program can give
// that up where it costs most, at Init: Init(Unchecked()) (or
// GOGA_UNCHECKED=1) makes Brdcst, Gop and Sync, and their processor-group
// forms, the bare MPI call, and then only a process's own mistakes are
// errors (see Unchecked for what is lost).
// What it costs: over shared memory the barrier of the call's implicit sync
// does a few more atomic operations; elsewhere an MPI_Allreduce of a fixed
// record (the maxima, and room for a small reduction) replaces the
// MPI_Barrier, or, across nodes where MPI does not yield when idle, the same
// record exchanged point to point while the waiting process serves its peers'
// requests (armci's exchange.go). Gop and Brdcst, which have no sync, are that
// one collective for buffers of at most 1 KiB on one node and 256 bytes across
// nodes (armci's AllMaxReduce and AllMaxBrdcst): it carries every process's
// buffer too, combined in rank order (all get the same bits). Longer ones pay
// the agreement before their own MPI collective. The text of the last
// Gop's and the last Brdcst's arguments is kept, so that a loop calling
// them alike does not format and hash it again. Measured against GA C
// (2 ranks): on one node Gop of one float64 0.225 µs
// against GA_Dgop's 0.233, Brdcst of 8 bytes 0.243 against GA_Brdcst's
// 0.124; across two nodes 10.4-11.0 µs against 9.3 and 10.5-11.7 against
// 4.7 (GA C does not agree, and its broadcast does not wait for every
// process; ours cannot, as every process must hear whether another
// refused). Collective array operations agree a second time at their
// closing sync, on whether every process's part succeeded. With the
// opening sync masked (MaskSync), a call makes no
// synchronization, as in GA, so it cannot agree: each process checks only
// its own arguments, and one that refuses still meets the others at the
// closing sync (if that is not masked too) with its error.
//
// Memory handed out in place (Access, AccessLocal, AccessBlock...) belongs to
// the array. A read_only array refuses to hand it out (ErrReadOnly), as it
// refuses every write: AccessRead gives it for reading. After Destroy, its
// pages give their memory back but stay mapped inaccessible until Terminate
// (for the last 64 arrays destroyed, up to 1 TiB), so a write through a
// slice kept past Destroy stops the program at that line with Go's
// "unexpected fault address" report, instead of landing in another array.
//
// Inquiries on a nil *Array (Name, Dims, BlockInfo, ProcGrid, ...) answer
// with zero values; every call that acts returns an error wrapping ErrNil.
//
// # Interoperating with MPI
//
// Init adopts an MPI that the program (or C code linked into it) already
// started, and then leaves finalizing to it. InitComm runs GA on any
// communicator, so other processes can do other MPI work meanwhile. Comm
// returns GA's communicator for MPI code that works on the same processes
// (Comm().Handle() passes it to C).
//
// # Block-cyclic arrays
//
// BlockCyclic and BlockCyclicGrid cut an array into many equal blocks dealt
// to the processes in turn, so that each owns several, as ScaLAPACK's
// matrices are distributed:
//
//	a, err := ga.New[float64](n, n).Name("A").
//		BlockCyclicGrid([]int{64, 64}, []int{2, 2}).Allocate()
//	for _, i := range a.LocalBlocks() {
//		lo, hi, _ := a.Distribution(i) // block i's patch
//		data, ld, _ := a.AccessBlock(i) // and its elements, in place
//		...
//	}
//
// Every one-sided operation and collective works on them unchanged. With
// BlockCyclic, block i (C order) belongs to process i mod Nnodes() and each
// process keeps its blocks one after another; with BlockCyclicGrid, block
// (i, j) belongs to the process at (i mod P0, j mod P1) of the grid (ranks
// row-major) and each process keeps one local array, which AccessBlockSegment
// returns. Both reproduce the GA C library's storage exactly (GA 5.8's
// NGA_Access_block_segment, checked in internal/layout). As in GA, Distribution
// takes a block index on these arrays; Locate still returns the owning rank
// (LocateBlock gives the block) and LocateRegion names both.
//
// # Linear algebra
//
// LuSolve, LltSolve, Solve, SpdInvert, Gemm and MatmulPatch hand float32,
// float64, complex64 and complex128 arrays (GA's solvers are double only)
// to ScaLAPACK (package scalapack), all through one bridge: a 2-D patch of an
// array (its leading patch for Gemm and the solvers, any 2-D slice for
// MatmulPatch) read into a block-cyclic matrix and written back. (On one
// node Gemm and MatmulPatch multiply in place instead, each process its
// blocks of C with the BLAS from the operands' storage, when every process
// maps every block and C is neither operand.) Each call validates its
// arguments and agrees on them here, then acts in the bridge, package
// ga/internal/linalg. B is n × nrhs (GA's C interface wants its
// transpose) and is overwritten by X; A is left as it was. A singular or
// non-positive-definite A returns scalapack's typed errors, with A and B
// unchanged.
//
// All of them work on transposes: a process's part of a 2-D array is
// row-major, which read column-major is its part of the transpose, so A·X =
// B is solved as Xᵀ·Aᵀ = Bᵀ (from the right, with triangular solves) and
// C = op(A)·op(B) as Cᵀ = op(B)ᵀ·op(A)ᵀ. A made with BlockCyclicGrid in
// square blocks is solved where it lies: its storage is Aᵀ on the transposed
// BLACS grid, which ScaLAPACK factors after one local memory copy (A must
// survive; SpdInvert works in A itself), and B, when it has the same grid
// and row blocks, is solved in its own storage. Any other operand is read by
// one Get per block straight into a block-cyclic transpose on a near-square
// grid of all processes (blocks of SetSolverBlockSize, default 32; Gemm's of
// 64: for each the fastest measured), and the result written back by Puts.
// The copies live in memory kept between calls (mapped with transparent huge
// pages), and the BLACS grids are kept, both until Terminate; both, and the
// block size, belong to the arrays' group.
//
// The eigensolvers DiagStd, Diag and DiagReuse (GA_Diag_std, GA_Diag,
// GA_Diag_reuse, which abort in a GA built without PeIGS) cross the same
// bridge to package peigs, in parallel, for float32, float64, complex64 and
// complex128 arrays; DiagStdSeq and DiagSeq solve on the group's first
// process alone. Every eigenvalue comes back ascending, on every process;
// the eigenvectors are the rows of V, as GA's C interface returns them
// (v·a = Λ·v·s, v·s·vᴴ = I), which is ScaLAPACK's Z in V's storage: a V that
// lies as a BlockCyclicGrid A does receives it in place. A and S are left
// as they were; one that is not symmetric (Hermitian), by peigs's check, or
// holds NaN or Inf is refused (ErrNotSymmetric, ErrNotFinite), and an S that
// is not positive definite is a *scalapack.NotPositiveDefiniteError.
//
// # gonum
//
// Global arrays meet gonum.org/v1/gonum/mat at the edges (gonum.go): a
// process's block of a 2-D float64 or complex128 array as a *mat.Dense or
// *mat.CDense that shares its memory (LocalDense, LocalCDense, BlockDense
// for a block-cyclic block; LocalVec for a 1-D block), and patches read into
// gonum matrices or written and accumulated from them, a matrix's stride
// serving as the leading dimension (GetDense, GetIntoDense, PutDense,
// AccDense and their CDense forms). goga's products and solves call
// OpenBLAS through cgo/ (on one node straight on the blocks, elsewhere
// through ScaLAPACK), and its element-wise operations are Go loops over each
// process's runs, with long float runs handed to small vectorized C
// kernels of goga's own (cgo/kernels.h: c = αa + βb, c = a·b, dot, norms,
// argmax), one cgo crossing per run; where one call's runs outgrow the
// last-level cache, c = αa + βb and c = a·b write with non-temporal stores.
// Those beat GA C's loops (BENCHMARKS.md); BLAS has no c = a·b,
// norm-and-maximum or argmax-with-first-index to offer. Accumulates of
// float32 and float64 from 16 elements on run AVX2 loops in Go's assembler
// (no crossing: armci's acc_amd64.s), or gonum's own BLAS axpy on a CPU
// without AVX2. A program that runs BLAS on its
// own blocks does it through gonum on LocalDense's matrix, with gonum's own
// BLAS or, through blas64.Use, an OpenBLAS-backed one
// (gonum.org/v1/netlib).
//
// # Seams
//
// Groups. GA's state lives in one context per group of processes (group.go):
// the armci runtime over the group's communicator, this process's rank in it,
// the fence, the sync mask, the statistics, the mutexes, the BLACS grids, the
// solver block size and the scratch. Every array holds the group it was
// created on, and its methods and the collectives on it use that group and
// its ranks; the package functions (Sync, Nodeid, Nnodes, Comm, Brdcst, Gop,
// the mutexes, SetSolverBlockSize) use the default group, which Init makes
// the group of every process. A processor group (Pgroup, pgroup.go) is a
// new group over a sub-communicator, with an armci runtime of its own, and
// SetDefault changes the default. A collective call agrees over the group
// it runs on; an array of another group among its arguments is refused,
// except by Copy and CopyPatch from or into a group that contains it, which
// run on the smaller group. A sync on a group also completes this process's
// operations on its other groups' arrays, as GA_Pgroup_sync's fence does.
// Only a group's processes hold its arrays, so one-sided operations reach
// them from those processes. The memory limit and the cluster's nodes stay
// per process.
//
// Mirrored arrays. When GA runs on several nodes, Init makes the group of
// each node's processes; an array made with PgroupGetMirror's handle lives
// on this process's node group, one copy per node (mirror.go), so its
// one-sided operations touch the node's copy and its collectives the node
// alone, and ranks in its locality calls (Distribution, Locate) are ranks
// on the node, as in GA. MergeMirrored sums the copies, in one reduction
// between the processes of one rank on their nodes when the nodes run as
// many processes, else through a distributed array. Copy and CopyPatch
// between a mirrored and a distributed array run on the distributed
// array's group, each process reading or filling its node's copy. On one
// node the node's group is the world group.
//
// Layouts. How an array is cut into blocks, which process owns each and where
// in its storage each element lives is the array's layout
// (internal/layout): the blocks, common to every distribution, and a Deal
// that gives them to processes (one per process, round-robin, or a process
// grid). The array code reaches storage only through the layout: Place for
// one-sided transfers and in-place access, LocalSize for the allocation, and
// Spans, the runs of a process's own elements in its storage, for the
// element-wise collectives. A new distribution is a new Deal; ghost cells
// are a Deal whose storage is larger than its blocks (Place's extents and
// offsets include the halo, and Spans leaves it out), and a restricted
// process list is a Deal whose owners are the listed ranks.
//
// Element types. Arrays are generic over Elem; what depends on the kind of
// number (order and magnitude for the element-wise kernels) is chosen once
// per call in ga/internal/kernels (kinds.go), and what crosses into C
// (ScaLAPACK's s, d, c and z routines) is generated in cgo/ from one table
// keyed by element type. A new element type is a row of that table and a
// case in kinds.go.
//
// Transports. Arrays move data only through armci segments, which reach
// each process's storage by a transport chosen per target (shared memory on
// the node, MPI RMA beyond it; see armci's documentation): ga needs no change
// for a new transport.
//
// # Handles and tracing
//
// An array is its *Array, so GA's handle checks are questions about the
// pointer: Valid, and CheckHandle, which returns an error (wrapping ErrNil
// or ErrDestroyed) where GA aborts. SetDebug(true) makes every collective
// call of this process write a line with its arguments, the text the
// processes agree on (array numbers and types, dims, distribution, roots),
// to SetDebugOutput's writer, os.Stderr by default. The profile
// (GOGA_PROFILE=dir or StartProfile) counts every process's operations, bytes
// and time per target under the same names, for cmd/gaprof to draw; both are
// described in docs/PROFILE.md.
//
// Deallocate frees an array's memory and keeps the array for Allocate;
// Overlay makes an array in another's memory. SetProperty("read_only")
// makes every call that would write the array an error wrapping
// ErrReadOnly, on every process of a collective call, with nothing
// changed: puts, accumulates, scatters, the collectives on it alone, and
// the calls on several arrays whose output it is (Copy into it, Add, the
// element-wise and linear-algebra calls, ...); UpdateGhosts, which writes
// only halos, stays allowed. When the array's processes span several
// nodes, it also copies the array to each node, and until UnsetProperty
// (or Destroy) gets read the node's copy, with no traffic between nodes;
// on one node nothing is copied, since gets read the owners' memory
// directly already.
//
// # GA C names
//
// Every GA C call this package covers, and its goga spelling (a is an
// *Array[T]):
//
//	GA_Initialize                 Init
//	GA_Initialize_args            Init (MPI is started without argc and argv, as MPI-2 allows; mpirun passes what it needs in the environment)
//	GA_Initialize_ltd             InitLimited
//	GA_Initialize_comm (GA 5.9)   InitComm
//	GA_Terminate                  Terminate
//	GA_Initialized                Initialized
//	GA_MPI_Comm                   Comm
//	GA_Nodeid, GA_Nnodes          Nodeid, Nnodes
//	GA_Set_memory_limit           SetMemoryLimit
//	GA_Memory_limited             MemoryLimited
//	GA_Memory_avail               MemoryAvail
//	GA_Inquire_memory             InquireMemory
//	NGA_Create                    Create[T](name, dims, chunk)
//	NGA_Create_irreg              CreateIrreg[T](name, dims, starts)
//	GA_Create_handle + GA_Set_data  New[T](dims...)
//	GA_Set_array_name             (*Builder).Name
//	GA_Set_chunk                  (*Builder).Chunk
//	GA_Set_irreg_distr            (*Builder).Irregular (block starts per dimension)
//	GA_Allocate                   (*Builder).Allocate
//	GA_Duplicate                  a.Duplicate
//	GA_Destroy                    a.Destroy
//	NGA_Put, NGA_Get              a.Put, a.Get
//	NGA_Acc                       a.Acc
//	NGA_Read_inc                  a.ReadInc
//	NGA_Scatter, NGA_Gather       a.Scatter, a.Gather
//	NGA_Scatter_acc               a.ScatterAcc
//	NGA_Scatter_flat, NGA_Gather_flat  a.ScatterFlat, a.GatherFlat (subscripts in one flat list, ndim values each)
//	NGA_Scatter_acc_flat          a.ScatterAccFlat
//	NGA_Alloc_gatscat_buf         AllocGatscatBuf(n) (local, as GA's: scratch kept for this process's gathers and scatters of up to n elements; a larger call still works, with scratch of its own)
//	NGA_Free_gatscat_buf          FreeGatscatBuf (local; an error when nothing is allocated)
//	NGA_Periodic_get, NGA_Periodic_put, NGA_Periodic_acc  a.PeriodicGet, a.PeriodicPut, a.PeriodicAcc
//	NGA_Strided_get, NGA_Strided_put, NGA_Strided_acc  a.StridedGet, a.StridedPut, a.StridedAcc
//	NGA_NbGet, NGA_NbPut, NGA_NbAcc  a.NbGet, a.NbPut, a.NbAcc
//	NGA_NbWait, NGA_NbTest        (*Handle).Wait, (*Handle).Test
//	GA_Sync                       Sync
//	GA_Init_fence, GA_Fence       InitFence, Fence
//	GA_Mask_sync                  MaskSync
//	GA_Create_mutexes             CreateMutexes
//	GA_Destroy_mutexes            DestroyMutexes
//	GA_Lock, GA_Unlock            Lock, Unlock
//	NGA_Distribution              a.Distribution
//	NGA_Locate                    a.Locate
//	NGA_Locate_region             a.LocateRegion
//	NGA_Locate_nnodes             a.LocateNnodes (the pieces LocateRegion lists: processes, or blocks on a block-cyclic array, as in GA)
//	NGA_Locate_num_blocks         a.LocateNnodes (the blocks a patch touches; GA answers -1 unless the array is block-cyclic, where the two agree)
//	NGA_Access                    a.Access (a.AccessLocal for the whole block; a.AccessRead reads in place, read_only arrays too, which refuse Access and its kin)
//	NGA_Release                   a.Release
//	NGA_Release_update            a.ReleaseUpdate
//	NGA_Proc_topology             a.ProcTopology (C order, as dims; GA C answers in Fortran order: its coord[k] is goga's c[ndim-1-k])
//	GA_Get_proc_index             a.ProcTopology (a process's grid coordinates; GA's aborts unless UsesProcGrid, goga's answers for any array with a process grid)
//	GA_Get_proc_grid              a.ProcGrid (C order, as dims; GA C answers in Fortran order: its dims[k] is goga's g[ndim-1-k])
//	GA_Set_block_cyclic           (*Builder).BlockCyclic
//	GA_Set_block_cyclic_proc_grid  (*Builder).BlockCyclicGrid
//	GA_Total_blocks               a.TotalBlocks
//	NGA_Locate_region (per block)  a.BlockOwner(i) (the process that owns block i)
//	GA_Get_block_info             a.BlockInfo
//	GA_Nblock                     a.BlockInfo (its first result: the blocks along each dimension)
//	NGA_Access_block              a.AccessBlock (a.LocalBlocks lists them)
//	NGA_Access_block_grid         a.AccessBlockGrid
//	NGA_Access_block_segment      a.AccessBlockSegment
//	NGA_Release_block             a.ReleaseBlock
//	NGA_Release_update_block      a.ReleaseUpdateBlock
//	NGA_Release_block_grid        a.ReleaseBlockGrid
//	NGA_Release_update_block_grid  a.ReleaseUpdateBlockGrid
//	NGA_Release_block_segment     a.ReleaseBlockSegment
//	NGA_Release_update_block_segment  a.ReleaseUpdateBlockSegment
//	GA_Cluster_nnodes             ClusterNnodes
//	GA_Cluster_nodeid             ClusterNodeid
//	GA_Cluster_proc_nodeid        ClusterProcNodeid
//	GA_Cluster_nprocs             ClusterNprocs
//	GA_Cluster_procid             ClusterProcid
//	NGA_Inquire                   a.Inquire (a.Dims, a.Ndim)
//	GA_Inquire_name               a.Name
//	GA_Ndim, GA_Get_dimension     a.Ndim
//	NGA_Compare_distr, GA_Compare_distr  CompareDistr(a, b)
//	GA_Brdcst                     Brdcst
//	GA_Gop, GA_Igop, GA_Lgop, GA_Llgop, GA_Fgop, GA_Dgop, GA_Cgop, GA_Zgop  Gop (op OpSum, OpProd, OpMax, OpMin, OpAbsMax, OpAbsMin or OpOr: GA's "+", "*", "max", "min", "absmax", "absmin", "or")
//	GA_Zero, GA_Fill, GA_Scale    a.Zero, a.Fill, a.Scale
//	GA_Copy                       Copy(a, b)
//	GA_Add                        Add(alpha, a, beta, b, c)
//	GA_Idot, GA_Ldot, GA_Lldot, GA_Fdot, GA_Ddot, GA_Cdot, GA_Zdot  Dot(a, b)
//	GA_Zero_patch, NGA_Zero_patch  a.ZeroPatch
//	GA_Fill_patch, NGA_Fill_patch  a.FillPatch
//	GA_Scale_patch, NGA_Scale_patch  a.ScalePatch
//	GA_Copy_patch, NGA_Copy_patch  CopyPatch(trans, a, alo, ahi, b, blo, bhi) (trans NoTrans or Trans: GA's 'n', 't')
//	GA_Add_patch, NGA_Add_patch   AddPatch(alpha, a, alo, ahi, beta, b, blo, bhi, c, clo, chi)
//	NGA_Idot_patch, NGA_Ldot_patch, NGA_Lldot_patch, NGA_Fdot_patch, NGA_Ddot_patch, NGA_Cdot_patch, NGA_Zdot_patch  DotPatch(a, ta, alo, ahi, b, tb, blo, bhi) (ta, tb NoTrans or Trans)
//	GA_Abs_value, GA_Abs_value_patch  a.AbsValue, a.AbsValuePatch
//	GA_Add_constant, GA_Add_constant_patch  a.AddConstant, a.AddConstantPatch
//	GA_Recip, GA_Recip_patch      a.Recip, a.RecipPatch (a zero: ErrZeroDivisor, not an abort)
//	GA_Elem_multiply, GA_Elem_multiply_patch  ElemMultiply(a, b, c), ElemMultiplyPatch
//	GA_Elem_divide, GA_Elem_divide_patch  ElemDivide(a, b, c), ElemDividePatch (a zero: ErrZeroDivisor)
//	GA_Elem_maximum, GA_Elem_maximum_patch  ElemMaximum(a, b, c), ElemMaximumPatch
//	GA_Elem_minimum, GA_Elem_minimum_patch  ElemMinimum(a, b, c), ElemMinimumPatch
//	GA_Median, GA_Median_patch    Median(a, b, c, m), MedianPatch
//	GA_Step_max, GA_Step_max_patch  StepMax(a, b), StepMaxPatch (b without a negative element: GA's infinity of the type, as GA C returns)
//	GA_Step_bound_info, GA_Step_bound_info_patch, GA_Step_max2, GA_Step_max2_patch  StepBoundInfo(xx, vv, xxll, xxuu), StepBoundInfoPatch (GA 4 named them GA_Step_max2; a step that nothing bounds: GA's infinity of the type, as GA C returns)
//	GA_INFINITY_I, GA_INFINITY_L, GA_INFINITY_F, GA_INFINITY_D  (constants InfinityI, InfinityL, InfinityF, InfinityD, for int32, int64, float32, float64; the steps return them as float64 and never more)
//	GA_Shift_diagonal             a.ShiftDiagonal
//	GA_Set_diagonal               a.SetDiagonal
//	GA_Add_diagonal               a.AddDiagonal
//	GA_Zero_diagonal              a.ZeroDiagonal
//	GA_Get_diag                   a.GetDiag
//	GA_Scale_rows, GA_Scale_cols  a.ScaleRows, a.ScaleCols
//	GA_Norm1, GA_Norm_infinity    a.Norm1, a.NormInfinity (sum and max of |a| over all entries, as GA computes)
//	GA_Lu_solve                   LuSolve(trans, a, b) (every float type; trans NoTrans, Trans or ConjTrans: GA's 'n', 't', and 'c' too)
//	GA_Llt_solve                  LltSolve(a, b) (Hermitian A for complex types)
//	GA_Solve                      Solve(a, b) (SolveBy(a, b) also returns the factorization used, ByCholesky or ByLU: GA_Solve's 0 and > 0)
//	GA_Spd_invert                 SpdInvert(a)
//	GA_Diag_std                   DiagStd(a, v) (eigenvalues, error; eigenvectors in v's rows; parallel, not an abort)
//	GA_Diag                       Diag(a, s, v)
//	GA_Diag_reuse                 DiagReuse(control, a, s, v) (0 factors S and keeps it, > 0 reuses, < 0 frees)
//	GA_Diag_std_seq, GA_Diag_seq  DiagStdSeq(a, v), DiagSeq(a, s, v) (on the first process)
//	GA_Sgemm, GA_Dgemm, GA_Cgemm, GA_Zgemm  Gemm(ta, tb, m, n, k, alpha, a, b, beta, c) (ta, tb NoTrans or Trans)
//	GA_Matmul_patch, NGA_Matmul_patch  MatmulPatch(ta, tb, alpha, a, alo, ahi, b, blo, bhi, beta, c, clo, chi) (ta, tb NoTrans or Trans; C-order patches as they lie, op applied; GA_Matmul_patch's Fortran view and NGA_Matmul_patch's op() bounds map as its doc says; vectors read as GA reads them)
//	NGA_Access (through gonum)    LocalDense, LocalCDense, LocalVec
//	NGA_Access_block (gonum)      BlockDense
//	NGA_Get (into gonum)          GetDense, GetIntoDense, GetCDense, GetIntoCDense
//	NGA_Put, NGA_Acc (from gonum)  PutDense, AccDense, PutCDense, AccCDense
//	GA_Print                      a.Print (a.Fprint)
//	GA_Print_file                 a.Fprint (to any io.Writer)
//	GA_Print_distribution         a.PrintDistribution (a.FprintDistribution to any io.Writer)
//	GA_Print_stats                PrintStats (ReadStats; Stats.MaxMemory is GA's max memory consumed)
//	GA_Transpose                  Transpose(a, b)
//	GA_Symmetrize                 a.Symmetrize (float and complex, not only double)
//	GA_Randomize                  a.Randomize(val, seed) (SplitMix64 by C-order position, not rand())
//	NGA_Select_elem               a.SelectElem(op) (op OpMin or OpMax; value and subscript; ties: the first in C order)
//	GA_Print_patch, NGA_Print_patch  a.PrintPatch (a.FprintPatch; C-order, 0-based indices; GA_Print_patch's 2-D ilo, ihi, jlo, jhi are lo {ilo, jlo}, hi {ihi, jhi})
//	GA_Summarize                  Summarize (Fsummarize; local, as in GA)
//	GA_Patch_enum                 a.PatchEnum(lo, hi, start, inc)
//	GA_Scan_copy                  ScanCopy(src, dst, mask, lo, hi) (any layouts; dst must differ from src and mask)
//	GA_Scan_add                   ScanAdd(src, dst, mask, lo, hi, exclusive)
//	GA_Pack, GA_Unpack            Pack, Unpack(src, dst, mask, lo, hi) (count, error) (too short a vector: an error, not an abort)
//	GA_Pgroup_create              PgroupCreate(ranks) (collective over the default group, as GA 5's; p is a *Pgroup)
//	GA_Pgroup_destroy             p.Destroy (refused while arrays live on p or p is a default)
//	GA_Pgroup_set_default         p.SetDefault (local, as GA's)
//	GA_Pgroup_get_default         PgroupGetDefault
//	GA_Pgroup_get_world           PgroupGetWorld
//	GA_Pgroup_nodeid              p.Nodeid (-1 outside p)
//	GA_Pgroup_nnodes, GA_Get_pgroup_size  p.Nnodes
//	GA_Pgroup_sync                p.Sync
//	GA_Pgroup_brdcst              PgroupBrdcst(p, buf, root)
//	GA_Pgroup_igop, GA_Pgroup_lgop, GA_Pgroup_llgop, GA_Pgroup_fgop, GA_Pgroup_dgop, GA_Pgroup_cgop, GA_Pgroup_zgop  PgroupGop(p, x, op) (every type and op of Gop)
//	GA_Pgroup_split               p.Split(n)
//	GA_Pgroup_split_irreg         p.SplitIrreg(color)
//	GA_Pgroup_duplicate           p.Duplicate (collective over p)
//	GA_Pgroup_self                PgroupSelf (collective over the default group, as GA_Pgroup_create is)
//	GA_Pgroup_absolute_id         p.AbsoluteId(pid) (the world rank of p's rank pid)
//	GA_MPI_Comm_pgroup            p.Comm
//	GA_Set_pgroup                 (*Builder).Pgroup(p)
//	GA_Get_pgroup                 a.Pgroup
//	NGA_Create_config             CreateConfig[T](name, dims, chunk, p)
//	NGA_Create_irreg_config       CreateIrregConfig[T](name, dims, starts, p)
//	NGA_Create_ghosts_config      CreateGhostsConfig[T](name, dims, width, chunk, p)
//	NGA_Create_ghosts_irreg_config  CreateGhostsIrregConfig[T](name, dims, width, starts, p)
//	GA_Pgroup_get_mirror          PgroupGetMirror (arrays made with it are mirrored: one copy per node)
//	GA_Merge_mirrored             a.MergeMirrored (collective over every process)
//	NGA_Merge_distr_patch         MergeDistrPatch(a, alo, ahi, b, blo, bhi) (one shape, as GA requires)
//	GA_Is_mirrored                a.IsMirrored (true on one node too, where GA C answers 0: see IsMirrored)
//	NGA_Create_ghosts             CreateGhosts[T](name, dims, width, chunk)
//	NGA_Create_ghosts_irreg       CreateGhostsIrreg[T](name, dims, width, starts)
//	GA_Set_ghosts                 (*Builder).Ghosts(width...) (not with BlockCyclic: an error)
//	GA_Has_ghosts                 a.HasGhosts (a.GhostWidths: the widths, zeros without ghosts)
//	GA_Update_ghosts              a.UpdateGhosts (corners included, always periodic, as GA)
//	GA_Set_ghost_corner_flag      (none needed: UpdateGhosts always fills the corners, GA's default; turning them off only saves work, and UpdateGhostDir takes the corners per call)
//	NGA_Update_ghost_dir, NGA_Update_ghosts_dir  a.UpdateGhostDir(dim, side, corners) (dim in C order: GA's C call numbers dimensions the Fortran way, its 0 is goga's last; the manual spells it both ways)
//	NGA_NbGet_ghost_dir           a.NbGetGhostDir(dir) (dir in C order; not collective: sync before, Wait before reading)
//	NGA_Access_ghosts             a.AccessGhosts (data, halo's lo and hi in global indices, ld); a.GhostDims: its dims
//	NGA_Access_ghost_element      a.AccessGhostElement(sub) (sub counted from the halo's first element, as GA)
//	NGA_Release_ghosts, NGA_Release_update_ghosts  a.ReleaseGhosts, a.ReleaseUpdateGhosts
//	NGA_Release_ghost_element, NGA_Release_update_ghost_element  a.ReleaseGhostElement, a.ReleaseUpdateGhostElement
//	NGA_Get_ghost_block           a.GetGhostBlock(lo, hi, buf, ld) (from the local halo when inside it, else Get)
//	NGA_Update_ghosts_nb          a.NbUpdateGhosts (not collective, as GA's: sync before, Wait before reading)
//	(none: GA always wraps around)  a.SetPeriodic(periodic...) (dimensions whose outer ghost cells updates leave alone)
//	GA_Set_restricted             (*Builder).SetRestricted(list...) (with ghost cells and block-cyclic layouts too: blocks dealt as over len(list) processes, process k's to list[k]; a BlockCyclicGrid grid of len(list) processes)
//	GA_Set_restricted_range       (*Builder).SetRestrictedRange(lo, hi)
//	GA_Set_tiled_proc_grid        (*Builder).SetTiledProcGrid(block, grid)
//	GA_Set_tiled_irreg_proc_grid  (*Builder).SetTiledIrregProcGrid(starts, grid)
//	GA_Check_handle               a.CheckHandle(msg) (an error wrapping ErrNil or ErrDestroyed, not an abort)
//	GA_Valid_handle, GA_Verify_handle  a.Valid
//	GA_Uses_proc_grid             a.UsesProcGrid (BlockCyclicGrid and SetTiledProcGrid arrays)
//	GA_Set_memory_dev             (*Builder).SetMemoryDev(device) ("host" only: another device is an error at Allocate; SetMemoryDev says what a device backend needs)
//	GA_Uses_ma                    UsesMA (false: no MA)
//	GA_Uses_fapi                  UsesFAPI (false: no Fortran interface)
//	GA_Register_stack_memory      RegisterStackMemory (accepted and ignored: there is no MA stack to replace)
//	GA_Set_irreg_flag             (none needed: GA's internal flag that an irregular distribution sets; the layout says it here)
//	GA_Set_debug, GA_Get_debug    SetDebug, Debug (each collective call's arguments traced on this process)
//	NGA_Create64, NGA_Put64, GA_Dgemm64, …  (none needed: goga's sizes and indices are Go ints, 64 bits wide, so every call is the 64-bit one)
//	GA_Wtime                      (none needed: mpi.Wtime)
//	GA_Rand, NGA_Rand             (none needed: math/rand/v2; GA's is one generator per process, seeded by its first call)
//	GA_List_nodeid, NGA_List_nodeid  (none needed: it sets list[i] = i, process i's id)
//	GA_Getmem, GA_Freemem         (not provided: collective memory for GA_Assemble_duplicate to wrap, which goga does not provide; arrays allocate their own)
//	GA_Error                      (none needed: calls return errors; mpi.Abort ends the job as GA_Error does)
//	GA_Deallocate                 a.Deallocate (memory freed, the array kept)
//	GA_Allocate (after GA_Deallocate)  a.Allocate
//	GA_Overlay                    Overlay(b, parent) (b a *Builder; any two element types)
//	GA_Set_property, GA_Unset_property  a.SetProperty("read_only"), a.SetProperty("read_cache"), a.UnsetProperty (either way every write refused, ErrReadOnly, in-place access too, where AccessRead reads; read_only on several nodes: gets read a copy per node made at once; read_cache on several nodes: Get reads other nodes' blocks through a cache per node, each block copied when first read, where GA C caches the patches each process read; both freed by UnsetProperty)
//	GA_Assemble_duplicate         (not provided. GA's wraps memory from GA_Getmem, GA's own collective allocation whose header lists every process's pointer, not any memory the caller holds. goga's remotely reachable memory is the MPI windows armci allocates (MPI_Win_allocate_shared on a node, MPI_Win_allocate across nodes), and an array in memory an array already holds is Overlay(b, parent). Go's rules do not forbid the rest outright but constrain it: a Go slice would need MPI_Win_create, cgo lets MPI keep a Go pointer past the call only while runtime.Pinner pins it, for the window's whole life, and the node's other processes could not map it (it is in no shared window), so every access to it, theirs included, would go through MPI: goga does not offer that path)
//	NGA_Register_type             RegisterType[U] (U plain data: no pointers, strings, slices...; local, as GA's)
//	NGA_Deregister_type           DeregisterType[U] (arrays of U made before keep working)
//	NGA_Create (registered type)  CreateUser[U](name, dims, chunk) (u a *UserArray[U]: u.Put, u.Get, u.NbPut, u.NbGet, u.Scatter, u.Gather, u.Distribution, u.Dims, u.Name, u.Destroy, and the rows below; no arithmetic)
//	NGA_Create_config (registered type)  CreateUserConfig[U](name, dims, chunk, p) (not on the mirror group)
//	GA_Zero, GA_Fill (registered type)  u.Zero, u.Fill (GA C refuses Fill on a registered type, "type not supported"; here it copies the value's bytes)
//	GA_Copy (registered type)     CopyUser(a, b) (elements matched in C order, as Copy; run on b's processes, so a's group must contain b's)
//	NGA_Copy_patch (registered type)  CopyPatchUser(trans, a, alo, ahi, b, blo, bhi) (as CopyPatch: NoTrans or Trans, any shapes of one count)
//	NGA_Access, NGA_Release, NGA_Release_update (registered type)  u.Access, u.Release, u.ReleaseUpdate
//	NGA_Periodic_get, NGA_Periodic_put (registered type)  u.PeriodicGet, u.PeriodicPut (no acc: it needs arithmetic)
//	NGA_Strided_get, NGA_Strided_put (registered type)  u.StridedGet, u.StridedPut (no acc)
//	NGA_Locate, NGA_Locate_region (registered type)  u.Locate, u.LocateRegion
//	GA_Duplicate (registered type)  u.Duplicate(name)
//	GA_Print (registered type)    u.Print, u.Fprint (GA C refuses it, "wrong type"; here each element is written as fmt's %v writes it)
//	NGA_Put_field, NGA_Get_field  PutField(u, off, lo, hi, buf, ld), GetField (off from unsafe.Offsetof; buf's element type is the field's, its size GA's fsize)
//	NGA_NbPut_field, NGA_NbGet_field, NGA_Nbput_field, NGA_Nbget_field  NbPutField, NbGetField (ga.h spells them Nbput, Nbget)
//	NGA_Sprs_array_create         CreateSparse[T](idim, jdim) (s a *Sparse[T], on the default group)
//	NGA_Sprs_array_add_element    s.AddElement(i, j, v) (local; an element added twice holds the sum)
//	NGA_Sprs_array_assemble       s.Assemble
//	NGA_Sprs_array_row_distribution  s.RowDistribution(rank)
//	NGA_Sprs_array_column_distribution  s.ColumnDistribution(block)
//	NGA_Sprs_array_access_col_block  s.AccessColBlock(block) (idx, jdx, val in place; nil for a block without elements)
//	NGA_Sprs_array_matvec_multiply  s.MatVec(a, v) (v = S·a, v of the matrix's rows)
//	NGA_Sprs_array_destroy        s.Destroy
//	NGA_Sprs_array_scale          s.Scale(alpha)
//	NGA_Sprs_array_shift_diag     s.ShiftDiag(shift) (S + shift·I: a diagonal element the matrix lacks is stored, where GA C shifts only the stored ones)
//	NGA_Sprs_array_get_diag       s.Diag (a new vector of idim elements, split as the rows are)
//	NGA_Sprs_array_get_column     s.Column(j) (a new vector of idim elements, split as the rows are)
//	NGA_Sprs_array_diag_left_multiply  s.DiagLeftMultiply(d) (S = D·S)
//	NGA_Sprs_array_diag_right_multiply  s.DiagRightMultiply(d) (S = S·D; d has jdim elements, where GA C asks idim)
//	NGA_Sprs_array_get_block      s.Block(irow, icol) (a SparseBlock copy; collective, every process naming the block it wants, as goga's matrix lives in each process's own memory)
//	NGA_Sprs_array_matmat_multiply  s.MatMat(b) (a new assembled Sparse, S·B)
//	NGA_Sprs_array_sprsdns_multiply  SparseDenseMultiply(s, b) (a new dense S·B, split by S's rows)
//	NGA_Sprs_array_dnssprs_multiply  DenseSparseMultiply(a, s) (a new dense A·S; every process gathers all of S, as in GA C)
//	NGA_Sprs_array_count_sketch   s.CountSketch(k, seed) (sketch, labels, weights; labels and weights from seed and the row alone)
//	NGA_Sprs_array_create_from_dense  CreateSparseFromDense(a) (non-zero elements and every diagonal one, as GA C)
//	NGA_Sprs_array_create_from_sparse  CreateDenseFromSparse(s) (GA's name for the dense array made of a sparse one)
//	NGA_Sprs_array_duplicate      s.Duplicate
//	NGA_Sprs_array_col_block_list, NGA_Sprs_array_export  (not provided: a block without elements is AccessColBlock's nil; export is not there)
//	(Go only)                     SetDebugOutput (where the trace goes: os.Stderr by default)
//	(Go only)                     StartProfile(dir), StopProfile (the profile of a run, also GOGA_PROFILE=dir; Terminate stops it and writes dir/goga-profile.json; docs/PROFILE.md)
//	(Go only)                     ReadProfile (p a *Profile: p.Traffic, p.Times, p.Tasks, p.CallTimes, p.OpNames, p.Class, what cmd/gaprof draws)
//	(Go only)                     Unchecked (an Init option: Brdcst, Gop and Sync without their agreement)
//	(Go only)                     a.BlockCyclic (whether the array is block-cyclic)
//	(Go only)                     a.LocateBlock(sub) (the block that holds an element)
//	(Go only)                     SetSolverBlockSize (the block size of the solvers' block-cyclic copies)
//	(Go only)                     ReadMatrixMarket (parse a Matrix Market file; LoadMatrixMarket puts it into an array)
//	(Go only)                     a.String (fmt's name, type and dims of an array)
//	(Go only)                     (*Error).Unwrap (errors.Is and errors.As on ga's errors)
//
// # Costs at scale
//
// What ga keeps in each process, as P (the processes of the array's group),
// n (those of this process's node), N (the nodes) and B (the array's
// blocks) grow; armci's doc says the same of the runtime and of the segment
// under each array (48P to 80P bytes, the largest term):
//
//	                         bytes in each process
//	GA (Init)                the world's members 8P; the cluster 16P + 24N
//	                         (each process's node, each node's processes)
//	each group               its members 8P
//	each array               the map: a word per block along each dimension
//	                         (d·P^(1/d) for GA's default distribution, B^(1/d)
//	                         per dimension block-cyclic); its own blocks and
//	                         their spans, 8 and 16 each; the corner table,
//	                         184 per block where B ≤ 4096, none beyond (the
//	                         general path then places each block as it goes);
//	                         a Direct of 56 per rank from the lowest to the
//	                         highest this process maps (its node's n where
//	                         ranks are placed by node, none where MPI maps
//	                         nothing); and the armci segment
//
// TestArrayCostsAtScale checks the Directs and the corners. With GA's
// default distribution, B = P: the corner table is 184P up to 4096
// processes, 0.75 MB an array at 4096, and none from 4097 on.
//
// Messages. A collective call that agrees (validate, agree, act) adds one
// agreement to what it does: on one node a barrier in shared memory, across
// nodes ⌊log2 P⌋ rounds of point-to-point records or one MPI_Allreduce
// (armci's doc), and one MPI_Bcast more only where a process refused.
// Create is that agreement and armci's Malloc (two Allgathers of 8 and 16
// bytes a process where other nodes are reached by active messages, the
// first alone elsewhere), Destroy the agreement and
// a barrier. Sync is a fence of every target written and the agreement.
// Brdcst and Gop of up to 1 KiB on one node and 256 bytes across nodes are
// one agreement that carries the data; larger ones add the MPI call. A
// Put, Get or Acc sends nothing to a block this process maps, and one
// armci operation per owner's block otherwise.
//
// O(P) per process: the cluster and the groups' members, as GA C keeps
// them, each Create's Allgathers, and the armci segment's per-target
// tables (80P bytes across nodes: 8 MB an array at P = 100,000); armci's
// doc says what would make them smaller.
//
// # Performance
//
// BENCHMARKS.md, at the root of the repository, compares this package with the
// GA C library, and `make bench` measures again and rewrites its table.
//
// cmd/gabench also prints, on one node, what ga stands on, measured in the
// same run: armci's 8-byte put, get and accumulate, right after ga's with
// the same loop, buffer and count, and its fetch-and-add (armci_*), a plain
// 8 MiB copy within one process (put_memcpy_limit_MBps), and the linked
// BLAS's dgemm alone in one process with a thread per rank
// (dgemm_limit_GFlops, in a child process after the job). Nine runs, 2
// ranks on a 2-core AMD EPYC virtual machine, ratios taken within each run
// (a run where one of the pair met a noisy moment gives the extremes):
//
//	                         ga against armci or the limit, per run
//	put 8 B                  1.04-1.76x slower (median 1.21)
//	get 8 B                  0.89-2.23x slower (median 1.44)
//	acc 8 B                  1.10-1.25x slower (median 1.13)
//	ReadInc / fetch-and-add  0.65-0.95x (median 0.90)
//	put 8 MiB / memcpy       1.03-1.28x (median 1.15)
//	Gemm n = 1000 / dgemm    0.88-1.01x (median 0.96)
//	Gemm n = 2000 / dgemm    0.92-1.02x (median 0.97)
//
// Gemm took 85-94 GF/s at n = 1000 and 97-104 at n = 2000 in every run,
// against GA C's medians of 55 and 76 in make bench on the same machine.
// The 8-byte calls take 11-21 ns, where one nanosecond is a tenth of the ratio and the
// sets move by as much: without its statistics (a pin of a per-P slot and
// two adds, 4 ns of an 8-byte Put's 16 on one rank), ga's Put took
// armci.Put's 10.8 ns. ReadInc's loop is gabench.c's, 20 000 calls (under a
// millisecond); ReadInc pins its statistics slot before the fetch-and-add
// (below): pinned after it, its ratio moved between 0.57x and 1.08x from
// run to run, against 0.90-0.92x.
//
// A patch inside one block, contiguous there and packed in the caller's
// buffer, is placed from a table made at creation (quick.go): in one pass
// over its dimensions that calls nothing when it lies in the block that the
// last such call found, after a search otherwise. It is then copied straight
// into the owner's mapped storage (armci.Direct, whose one-element put, get
// and accumulate inline), and its statistics are added in place under one
// pin of a per-P slot (internal/percpu), without a locked instruction. On
// this machine a call costs 1.2-1.6 ns: an 8-byte Put makes five (Put,
// quick, tally, and the runtime's pin and unpin), 16 ns on one rank
// against armci.Put's 10.8. ReadInc on integers takes the same way to a CPU
// fetch-and-add, counted after it; with two processes on one counter every
// nanosecond between two fetch-and-adds costs rate.
// Gemm and MatmulPatch multiply in place on one node
// (ga/internal/linalg/mapped.go):
// repeated on the same arrays, a product of n = 1000 reaches 0.95x of the
// BLAS alone; gabench times the first product on new arrays, which pays
// for the first product of the process (BENCHMARKS.md).
package ga
