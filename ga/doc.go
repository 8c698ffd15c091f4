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
// Array[T]. Sizes and indices are Go ints: no 2^31 limits.
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
// element-count mismatch, a buffer too short for its patch and ld, a destroyed
// array (ErrDestroyed), ReadInc on a non-integer array, creation past the
// memory limit (ErrMemoryLimit). Nothing is written when an error is returned.
// Collective calls check what every process shares before they communicate,
// so all fail alike and none is left waiting.
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
// NGA_Access_block_segment, checked in internal/dist). As in GA, Distribution
// takes a block index on these arrays; Locate still returns the owning rank
// (LocateBlock gives the block) and LocateRegion names both.
//
// # Linear algebra
//
// LuSolve, LltSolve, Solve, SpdInvert and Gemm hand float64 (Gemm also
// complex128) arrays to ScaLAPACK (package scalapack). B is n × nrhs (GA's C
// interface wants its transpose) and is overwritten by X; A is left as it
// was. A singular or non-positive-definite A returns scalapack's typed
// errors, with A and B unchanged.
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
// pages), and the BLACS grids are kept, both until Terminate.
//
// # GA C names
//
// Every GA C call this package covers, and its goga spelling (a is an
// *Array[T]):
//
//	GA_Initialize                 Init
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
//	GA_Create_handle + GA_Set_data New[T](dims...)
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
//	NGA_Periodic_get/_put/_acc    a.PeriodicGet, a.PeriodicPut, a.PeriodicAcc
//	NGA_Strided_get/_put/_acc     a.StridedGet, a.StridedPut, a.StridedAcc
//	NGA_NbGet, NGA_NbPut, NGA_NbAcc a.NbGet, a.NbPut, a.NbAcc
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
//	NGA_Access                    a.Access (a.AccessLocal for the whole block)
//	NGA_Release                   a.Release
//	NGA_Release_update            a.ReleaseUpdate
//	NGA_Proc_topology             a.ProcTopology
//	GA_Get_proc_grid              a.ProcGrid
//	GA_Set_block_cyclic           (*Builder).BlockCyclic
//	GA_Set_block_cyclic_proc_grid (*Builder).BlockCyclicGrid
//	GA_Total_blocks               a.TotalBlocks
//	GA_Get_block_info             a.BlockInfo
//	NGA_Access_block              a.AccessBlock (a.LocalBlocks lists them)
//	NGA_Access_block_grid         a.AccessBlockGrid
//	NGA_Access_block_segment      a.AccessBlockSegment
//	NGA_Release_block             a.ReleaseBlock
//	NGA_Release_update_block      a.ReleaseUpdateBlock
//	NGA_Release_block_grid        a.ReleaseBlockGrid
//	NGA_Release_update_block_grid a.ReleaseUpdateBlockGrid
//	NGA_Release_block_segment     a.ReleaseBlockSegment
//	NGA_Release_update_block_segment a.ReleaseUpdateBlockSegment
//	GA_Cluster_nnodes             ClusterNnodes
//	GA_Cluster_nodeid             ClusterNodeid
//	GA_Cluster_proc_nodeid        ClusterProcNodeid
//	GA_Cluster_nprocs             ClusterNprocs
//	GA_Cluster_procid             ClusterProcid
//	NGA_Inquire                   a.Inquire (a.Dims, a.Ndim)
//	GA_Inquire_name               a.Name
//	GA_Ndim                       a.Ndim
//	NGA_Compare_distr             CompareDistr(a, b)
//	GA_Brdcst                     Brdcst
//	GA_Gop, GA_Dgop, GA_Igop, ... Gop (ops "+", "*", "max", "min", "absmax", "absmin")
//	GA_Zero, GA_Fill, GA_Scale    a.Zero, a.Fill, a.Scale
//	GA_Copy                       Copy(a, b)
//	GA_Add                        Add(alpha, a, beta, b, c)
//	GA_Idot, GA_Ddot, GA_Zdot, …  Dot(a, b)
//	GA_Lu_solve                   LuSolve(trans, a, b)
//	GA_Llt_solve                  LltSolve(a, b)
//	GA_Solve                      Solve(a, b)
//	GA_Spd_invert                 SpdInvert(a)
//	GA_Dgemm, GA_Zgemm            Gemm(ta, tb, m, n, k, alpha, a, b, beta, c)
//	GA_Print                      a.Print (a.Fprint)
//	GA_Print_distribution         a.PrintDistribution
//	GA_Print_stats                PrintStats (ReadStats)
//
// # Performance
//
// Measured on 2026-11-22 on this project's machine (2 vCPUs of an AMD
// "Turin-like" virtual processor, 24 GiB, Debian 12, Open MPI 4.1.4, Go 1.26),
// 2 ranks on one node, `make bench`: cmd/gabench against the reference
// ../shared/anchor/gabench.c over the GA C library 5.8 (Debian, over
// ARMCI-MPI), run alternately 7 times, medians. Speedup above 1 means goga is
// faster. Rank 0 moves data into rank 1's block.
//
//	metric                             bytes      goga      GA C  unit  goga speedup
//	put_contig_us                          8   0.05948    0.1962  us     3.30
//	put_contig_us                         64   0.05905    0.1845  us     3.12
//	put_contig_us                        512   0.06202    0.1866  us     3.01
//	put_contig_us                       4096   0.08858    0.2265  us     2.56
//	put_contig_us                      32768     0.552    0.4624  us     0.84
//	put_contig_us                     262144     3.545     3.568  us     1.01
//	put_contig_MBps                   262144 7.394e+04 7.346e+04  MB/s   1.01
//	put_contig_us                    2097152     99.86     94.78  us     0.95
//	put_contig_MBps                  2097152   2.1e+04 2.213e+04  MB/s   0.95
//	put_contig_us                    8388608     950.1     910.4  us     0.96
//	put_contig_MBps                  8388608      8829      9215  MB/s   0.96
//	get_contig_us                          8     0.103    0.3027  us     2.94
//	get_contig_us                         64    0.1104    0.3075  us     2.79
//	get_contig_us                        512    0.1111    0.3025  us     2.72
//	get_contig_us                       4096    0.1793    0.3354  us     1.87
//	get_contig_us                      32768    0.5944    0.6097  us     1.03
//	get_contig_us                     262144      2.74     3.002  us     1.10
//	get_contig_MBps                   262144 9.566e+04 8.732e+04  MB/s   1.10
//	get_contig_us                    2097152     49.08     44.23  us     0.90
//	get_contig_MBps                  2097152 4.273e+04 4.742e+04  MB/s   0.90
//	get_contig_us                    8388608     206.5     200.5  us     0.97
//	get_contig_MBps                  8388608 4.062e+04 4.185e+04  MB/s   0.97
//	acc_contig_us                          8   0.05892    0.2297  us     3.90
//	acc_contig_us                         64   0.05766    0.2182  us     3.78
//	acc_contig_us                        512   0.06194     0.227  us     3.66
//	acc_contig_us                       4096   0.08656    0.2664  us     3.08
//	acc_contig_us                      32768    0.5011    0.7076  us     1.41
//	acc_contig_us                     262144     2.683     4.086  us     1.52
//	acc_contig_MBps                   262144 9.772e+04 6.416e+04  MB/s   1.52
//	acc_contig_us                    2097152     45.39     57.12  us     1.26
//	acc_contig_MBps                  2097152  4.62e+04 3.671e+04  MB/s   1.26
//	acc_contig_us                    8388608       190     292.7  us     1.54
//	acc_contig_MBps                  8388608 4.416e+04 2.865e+04  MB/s   1.54
//	put_2d_us                            128    0.1714    0.4391  us     2.56
//	put_2d_us                           2048    0.2718     1.329  us     4.89
//	put_2d_us                          32768      1.11      5.11  us     4.60
//	put_2d_us                         524288     17.43     32.27  us     1.85
//	put_2d_MBps                       524288 3.009e+04 1.625e+04  MB/s   1.85
//	put_2d_us                        8388608      1079      1208  us     1.12
//	put_2d_MBps                      8388608      7775      6941  MB/s   1.12
//	get_2d_us                            128    0.2886     0.552  us     1.91
//	get_2d_us                           2048    0.3964     1.405  us     3.54
//	get_2d_us                          32768    0.9887     5.065  us     5.12
//	get_2d_us                         524288     11.84     27.62  us     2.33
//	get_2d_MBps                       524288  4.43e+04 1.898e+04  MB/s   2.33
//	get_2d_us                        8388608     217.1     332.3  us     1.53
//	get_2d_MBps                      8388608 3.863e+04 2.524e+04  MB/s   1.53
//	acc_2d_us                            128    0.1502    0.4798  us     3.19
//	acc_2d_us                           2048     0.251     1.386  us     5.52
//	acc_2d_us                          32768    0.9753     5.171  us     5.30
//	acc_2d_us                         524288     11.58     29.11  us     2.51
//	acc_2d_MBps                       524288 4.529e+04 1.801e+04  MB/s   2.51
//	acc_2d_us                        8388608     231.8     356.3  us     1.54
//	acc_2d_MBps                      8388608  3.62e+04 2.354e+04  MB/s   1.54
//	read_inc_aggregate_Mops                2     10.13     3.217  Mop/s  3.15
//	sync_us                                2    0.5301    0.5549  us     1.05
//	dgemm_GFlops                        1000     26.85     19.29  GF/s   1.39
//	dgemm_GFlops                        2000     44.24     34.07  GF/s   1.30
//	lu_solve_s                          1000   0.01728   0.04513  s      2.61
//	lu_solve_s                          2000   0.08127   0.08437  s      1.04
//
// The linear algebra rows (11 alternate runs, measured later the same day, on
// a busier machine) run gabench.c's sequence on n × n arrays with the default
// distribution: dgemm, then LuSolve of a 1 + n·I system with one right-hand
// side. Order matters: the product reads A first, in both programs, so that
// the solve finds the pages and the C heap warm; GA C's lu_solve without the
// dgemm before it takes 0.158 s at n = 2000. LuSolve's copies are in 32 × 32
// blocks (64 measured 0.088 s at n = 2000). The same solve on BlockCyclicGrid
// arrays, in place (gabench's lu_solve_inplace_s), is 3.73x and 1.18x GA C's
// lu_solve, and 1.03x and 0.95x (that is, within 5%) the same system solved
// by scalapack.Gesv directly on ScaLAPACK matrices (scalapack_gesv_s); its
// overhead is the local copy of A that the factorization overwrites.
//
// Small transfers take a third of GA C's time: a patch that one process owns
// moves with one memory copy (or one strided copy) and no allocation, where GA
// goes through ARMCI-MPI and MPI_Put. Read-increment is a CPU atomic (3x);
// sync is a shared-memory barrier (on par). Targets missed: contiguous put
// and get of 2 and 8 MiB run at 0.90-0.97 of GA C's bandwidth (one memcpy
// between two processes either way; see armci's documentation).
package ga
