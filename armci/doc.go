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
//     served in rank order after the holder. A process holds a mutex as a
//     whole: its goroutines queue for it like for a sync.Mutex, and any of
//     them may unlock it.
//   - BarrierMax is Barrier that also reduces a few integers by maximum on the
//     way (AllMax: without the fence). Layers above agree through it: a
//     collective call tells every process whether any refused its arguments,
//     and compares a hash of them, for the cost of the barrier it makes anyway.
//
// # Memory and its limits
//
// Malloc agrees before any window exists: a negative size, or a segment that
// cannot exist on this machine (a part larger than memory and swap, or
// shared-memory parts larger together than the file system backing them
// holds) is an error on every rank, wrapping ErrNoRoom, where MPI would fail
// on one rank and leave the others waiting. Free gives the memory back but
// keeps the window, its part's pages inaccessible, until Finalize (at most
// 64 windows or 1 TiB per communicator; past that the oldest is freed), so
// that a slice of Local kept past Free faults at once instead of writing
// into whatever MPI or the Go runtime would map at those addresses next.
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
// MPI_Compare_and_swap. MPI counts are C ints, so a transfer of more than 1 GiB
// goes as one call per GiB (a strided patch split into runs of whole rows).
// The goroutines of a process take turns at each target (one operation and
// its completion at a time): threads competing inside MPI for one target were
// a hundred times slower over TCP than one thread alone. Transports that need the target's help to complete RMA
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
//	metric                             bytes      goga ARMCI-MPI  unit  goga speedup
//	armci_put_contig_us                    8   0.02106   0.09052  us     4.30
//	armci_put_contig_us                   64   0.01004   0.08315  us     8.28
//	armci_put_contig_us                  512   0.01541   0.08813  us     5.72
//	armci_put_contig_us                 4096   0.05599    0.1215  us     2.17
//	armci_put_contig_us                32768     0.506     0.345  us     0.68
//	armci_put_contig_us               262144     3.517     3.329  us     0.95
//	armci_put_contig_MBps             262144 7.453e+04 7.874e+04  MB/s   0.95
//	armci_put_contig_us              2097152       102     91.57  us     0.90
//	armci_put_contig_MBps            2097152 2.057e+04  2.29e+04  MB/s   0.90
//	armci_put_contig_us              8388608     983.7     891.6  us     0.91
//	armci_put_contig_MBps            8388608      8528      9409  MB/s   0.91
//	armci_get_contig_us                    8   0.01567   0.08452  us     5.39
//	armci_get_contig_us                   64   0.01537    0.0842  us     5.48
//	armci_get_contig_us                  512   0.02861   0.08608  us     3.01
//	armci_get_contig_us                 4096   0.07377     0.127  us     1.72
//	armci_get_contig_us                32768    0.8049    0.5097  us     0.63
//	armci_get_contig_us               262144     2.993     2.984  us     1.00
//	armci_get_contig_MBps             262144 8.758e+04 8.786e+04  MB/s   1.00
//	armci_get_contig_us              2097152     49.68     47.07  us     0.95
//	armci_get_contig_MBps            2097152 4.221e+04 4.455e+04  MB/s   0.95
//	armci_get_contig_us              8388608     219.2     215.5  us     0.98
//	armci_get_contig_MBps            8388608 3.827e+04 3.893e+04  MB/s   0.98
//	armci_acc_contig_us                    8   0.02202   0.09572  us     4.35
//	armci_acc_contig_us                   64   0.02662   0.09404  us     3.53
//	armci_acc_contig_us                  512   0.03753   0.09542  us     2.54
//	armci_acc_contig_us                 4096    0.1235    0.1239  us     1.00
//	armci_acc_contig_us                32768     0.503     0.556  us     1.11
//	armci_acc_contig_us               262144     3.425     3.781  us     1.10
//	armci_acc_contig_MBps             262144 7.653e+04 6.934e+04  MB/s   1.10
//	armci_acc_contig_us              2097152     51.56     57.31  us     1.11
//	armci_acc_contig_MBps            2097152 4.067e+04 3.659e+04  MB/s   1.11
//	armci_acc_contig_us              8388608     256.8     279.4  us     1.09
//	armci_acc_contig_MBps            8388608 3.266e+04 3.003e+04  MB/s   1.09
//	armci_put_2d_us                      128   0.06582    0.3309  us     5.03
//	armci_put_2d_us                     2048    0.1583     1.162  us     7.34
//	armci_put_2d_us                    32768    0.8548     4.695  us     5.49
//	armci_put_2d_us                   524288     10.97     24.58  us     2.24
//	armci_put_2d_MBps                 524288  4.78e+04 2.133e+04  MB/s   2.24
//	armci_put_2d_us                  8388608     209.7     307.7  us     1.47
//	armci_put_2d_MBps                8388608     4e+04 2.726e+04  MB/s   1.47
//	armci_get_2d_us                      128   0.06499    0.3257  us     5.01
//	armci_get_2d_us                     2048     0.157     1.155  us     7.36
//	armci_get_2d_us                    32768    0.8824     4.706  us     5.33
//	armci_get_2d_us                   524288     11.26     25.79  us     2.29
//	armci_get_2d_MBps                 524288 4.654e+04 2.033e+04  MB/s   2.29
//	armci_get_2d_us                  8388608     202.2     261.2  us     1.29
//	armci_get_2d_MBps                8388608  4.15e+04 3.211e+04  MB/s   1.29
//	armci_acc_2d_us                      128   0.09432    0.3525  us     3.74
//	armci_acc_2d_us                     2048    0.2661      1.22  us     4.58
//	armci_acc_2d_us                    32768     1.873      4.85  us     2.59
//	armci_acc_2d_us                   524288     25.94     28.14  us     1.08
//	armci_acc_2d_MBps                 524288 2.021e+04 1.863e+04  MB/s   1.08
//	armci_acc_2d_us                  8388608     298.2     370.5  us     1.24
//	armci_acc_2d_MBps                8388608 2.813e+04 2.264e+04  MB/s   1.24
//	armci_fetch_add_aggregate_Mops         2     50.88     3.444  Mop/s 14.77
//	armci_barrier_us                       2    0.5524    0.6161  us     1.12
//
// Where goga wins: small transfers (no MPI call and no cgo crossing on the
// shared-memory path: 4-9x), strided patches (one copy per row instead of an
// MPI datatype engine: 1.3-7x), fetch-and-add (a CPU atomic: 4-15x) and large
// accumulates (a vectorized kernel under one lock), barrier (a counter in
// shared memory instead of an MPI_Barrier). Where it misses its targets:
//   - contiguous put and get from 256 KiB up run at 0.90-1.00 of ARMCI-MPI's
//     bandwidth. Both sides are one memcpy between two processes' mappings
//     (goga calls the C library's memcpy from 64 KiB); the remaining 5-10% at
//     2-8 MiB is within this machine's run-to-run spread for single runs, but
//     the medians lean Open MPI's way consistently.
//   - 32 KiB put and get (0.63-0.68; not a target size): below the size where
//     goga hands the copy to memcpy, Go's copy is slower between processes.
package armci
