// Package armci is goga's one-sided runtime, in the manner of ARMCI: memory
// that a group of processes allocates together, and put, get, accumulate and
// read-modify-write operations that any process issues on any other's memory
// without the other taking part. Global arrays move all their data through it.
//
//	rt, err := armci.Init(mpi.World())              // collective
//	seg, err := rt.Malloc(1 << 20)                   // collective: 1 MiB on every rank
//	err = armci.Put(seg, peer, 0, []float64{1, 2})   // into peer's part at byte 0
//	err = armci.Acc(seg, peer, 0, []float64{1, 1}, 2.0)
//	err = rt.Barrier()                               // every operation complete everywhere
//	v, err := armci.FetchAdd[int64](seg, 0, 64, 1)   // a ticket from rank 0's counter
//
// # Addressing
//
// A Segment has a part on every rank of its communicator, of each rank's own
// size (zero allowed). Operations name a segment, a rank and a byte offset into
// that rank's part; where ARMCI takes a remote pointer, goga takes (segment,
// rank, offset), so every operation is checked against the part's size before
// anything moves. Local buffers are Go slices.
//
// # Operations and their completion
//
//   - Put, Get, Acc: contiguous. PutS, GetS, AccS: strided (Strided, up to
//     seven levels, ARMCI_PutS semantics). PutV, GetV, AccV: lists of
//     equal-sized pieces (IOVec).
//   - Blocking puts and accumulates return when the local buffer may be reused;
//     gets return with the data. Fence(rank) waits until this process's
//     operations are complete at rank, AllFence at every rank, Barrier is
//     AllFence plus a barrier.
//   - NbPut, NbGet, NbAcc and their strided and vector forms return a Handle;
//     Wait or Test completes it, WaitAll completes everything in flight. The Go
//     buffers of operations in flight are pinned.
//   - Acc adds scale·src, atomically per element with respect to every other
//     accumulate, for int32, int64, float32, float64, complex64 and complex128.
//   - FetchAdd, Swap and CompareSwap on int32 and int64 are atomic with respect
//     to each other (not to puts or accumulates on the same element, as in ARMCI).
//   - Mutexes: CreateMutexes, Lock, Unlock, DestroyMutexes; waiters queue and are
//     served in rank order after the holder.
//
// # How data moves
//
// When every rank of a segment's communicator shares a node, the segment is one
// MPI shared-memory window that every rank maps: a put or get is a memory copy
// with no MPI call and no cgo crossing for small sizes; an accumulate holds a
// lock word in front of the target's part; read-modify-write uses the
// processor's atomic instructions. Read-modify-write on one segment always uses
// one mechanism.
//
// Otherwise (ranks on several nodes, or WithoutSharedMemory, or GOGA_ARMCI_SHM=0)
// the segment is an MPI-3 window held in one lock_all epoch: puts, gets and
// accumulates are MPI_Put, MPI_Get and MPI_Accumulate completed with
// MPI_Win_flush_local, strided patches are nested hvector datatypes moved in one
// call, fences are MPI_Win_flush, and read-modify-write is MPI_Fetch_and_op or
// MPI_Compare_and_swap. Transports that need the target's help to complete RMA
// (Open MPI's osc ucx over TCP) would stall while the target computes, so the
// runtime then runs a goroutine that enters MPI every 200 µs.
//
// # Performance
//
// Measured on 2026-11-22 on this project's machine (2 vCPUs of an AMD
// "Turin-like" virtual processor, 24 GiB, Debian 12, Open MPI 4.1.4, Go 1.26),
// 2 ranks on one node, `make bench-armci`: cmd/armcibench against the
// reference ../shared/anchor/armcibench.c over ARMCI-MPI 0.3.1 (Debian), run
// alternately 7 times, medians. Speedup above 1 means goga is faster.
//
//	metric                          bytes      goga    ARMCI-MPI  unit   goga speedup
//	armci_put_contig_us                    8   0.02002   0.08987  us     4.49
//	armci_put_contig_us                   64  0.009776   0.08373  us     8.56
//	armci_put_contig_us                  512   0.01557    0.0869  us     5.58
//	armci_put_contig_us                 4096   0.05755    0.1244  us     2.16
//	armci_put_contig_us                32768     0.505    0.3557  us     0.70
//	armci_put_contig_us               262144     3.456     3.277  us     0.95
//	armci_put_contig_MBps             262144 7.586e+04     8e+04  MB/s   0.95
//	armci_put_contig_us              2097152     105.3     90.39  us     0.86
//	armci_put_contig_MBps            2097152 1.991e+04  2.32e+04  MB/s   0.86
//	armci_put_contig_us              8388608      1014     882.6  us     0.87
//	armci_put_contig_MBps            8388608      8273      9505  MB/s   0.87
//	armci_get_contig_us                    8   0.02333   0.08455  us     3.62
//	armci_get_contig_us                   64   0.02034   0.08387  us     4.12
//	armci_get_contig_us                  512   0.02508   0.08753  us     3.49
//	armci_get_contig_us                 4096   0.06897    0.1239  us     1.80
//	armci_get_contig_us                32768    0.7746    0.5106  us     0.66
//	armci_get_contig_us               262144     3.691     2.976  us     0.81
//	armci_get_contig_MBps             262144 7.102e+04 8.809e+04  MB/s   0.81
//	armci_get_contig_us              2097152     52.75     47.48  us     0.90
//	armci_get_contig_MBps            2097152 3.976e+04 4.417e+04  MB/s   0.90
//	armci_get_contig_us              8388608     236.3     219.8  us     0.93
//	armci_get_contig_MBps            8388608 3.551e+04 3.816e+04  MB/s   0.93
//	armci_acc_contig_us                    8   0.04434   0.09915  us     2.24
//	armci_acc_contig_us                   64   0.04541    0.0886  us     1.95
//	armci_acc_contig_us                  512   0.06234   0.09142  us     1.47
//	armci_acc_contig_us                 4096    0.1948    0.1228  us     0.63
//	armci_acc_contig_us                32768    0.7878     0.577  us     0.73
//	armci_acc_contig_us               262144      3.47     3.797  us     1.09
//	armci_acc_contig_MBps             262144 7.554e+04 6.903e+04  MB/s   1.09
//	armci_acc_contig_us              2097152     54.81      57.5  us     1.05
//	armci_acc_contig_MBps            2097152 3.826e+04 3.647e+04  MB/s   1.05
//	armci_acc_contig_us              8388608       278     292.9  us     1.05
//	armci_acc_contig_MBps            8388608 3.017e+04 2.864e+04  MB/s   1.05
//	armci_put_2d_us                      128    0.1215    0.3296  us     2.71
//	armci_put_2d_us                     2048    0.2884     1.156  us     4.01
//	armci_put_2d_us                    32768      1.12     4.673  us     4.17
//	armci_put_2d_us                   524288     11.31     25.03  us     2.21
//	armci_put_2d_MBps                 524288 4.634e+04 2.095e+04  MB/s   2.21
//	armci_put_2d_us                  8388608     217.8     286.9  us     1.32
//	armci_put_2d_MBps                8388608 3.852e+04 2.924e+04  MB/s   1.32
//	armci_get_2d_us                      128   0.06575    0.3287  us     5.00
//	armci_get_2d_us                     2048    0.1548     1.151  us     7.44
//	armci_get_2d_us                    32768    0.8824     4.707  us     5.33
//	armci_get_2d_us                   524288     11.43     26.02  us     2.28
//	armci_get_2d_MBps                 524288 4.587e+04 2.015e+04  MB/s   2.28
//	armci_get_2d_us                  8388608     210.9     264.8  us     1.26
//	armci_get_2d_MBps                8388608 3.977e+04 3.168e+04  MB/s   1.26
//	armci_acc_2d_us                      128   0.09752    0.3485  us     3.57
//	armci_acc_2d_us                     2048    0.2648     1.217  us     4.60
//	armci_acc_2d_us                    32768     1.845     4.839  us     2.62
//	armci_acc_2d_us                   524288      35.8     28.35  us     0.79
//	armci_acc_2d_MBps                 524288 1.464e+04  1.85e+04  MB/s   0.79
//	armci_acc_2d_us                  8388608     301.1     369.4  us     1.23
//	armci_acc_2d_MBps                8388608 2.786e+04 2.271e+04  MB/s   1.23
//	armci_fetch_add_aggregate_Mops         2      46.4     10.09  Mop/s  4.60
//	armci_barrier_us                       2    0.9165    0.3501  us     0.38
//
// Where goga wins: small transfers (no MPI call and no cgo crossing on the
// shared-memory path: 4-9x), strided patches (one copy per row instead of an
// MPI datatype engine: 1.3-7x), fetch-and-add (a CPU atomic: 4-15x) and large
// accumulates (a vectorized kernel under one lock). Where it misses its targets:
//   - contiguous put and get from 256 KiB up run at 0.81-0.95 of ARMCI-MPI's
//     bandwidth. Both sides are a memcpy between two processes' mappings; the
//     gap is within this machine's run-to-run noise at 256 KiB and about 10%
//     at 2-8 MiB, where Open MPI's copy path seems to stream better.
//   - 2-D accumulate of 512 KiB (0.79): 256 rows of 2 KiB, each a separate
//     kernel call under the lock, against Open MPI's single op/avx pass.
//   - barrier (0.38, about 0.9 µs against 0.35 µs): an MPI_Barrier plus a
//     fence of every segment; with each rank bound to one core, the Go
//     runtime's own threads share that core with the spinning barrier. Sizes
//     this small vary by 2x between runs here.
//   - 32 KiB put, get and acc (0.63-0.73): between the small path and the
//     large-copy threshold.
package armci
