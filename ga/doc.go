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
//	GA_Print                      a.Print (a.Fprint)
//	GA_Print_distribution         a.PrintDistribution
//	GA_Print_stats                PrintStats (ReadStats)
package ga
