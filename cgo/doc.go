// Package cgo is goga's internal binding layer, the one library package that
// imports "C": raw bindings to MPI, BLACS, ScaLAPACK and the BLAS's xGEMM
// (blas.go), the small C shims they need, and the vectorized kernels of
// accumulate, element-wise operations and streaming copies (kernels.h), and
// a thread's time slice (sched.go: sched_setattr, which Go's syscall
// package does not name on every architecture). It is not an API: its
// calls check nothing and may change with any release. Packages mpi,
// blacs, scalapack and armci wrap them in checked, idiomatic ones; three
// callers above them reach in directly, each for what no layer between
// offers: ga for the element-wise kernels of its collectives (ckernels.go)
// and the BLAS Gemm on mapped blocks (gemm_mapped.go), cmd/gabench for
// Dgemm as a benchmark's limit, and internal/mpitest for Implementation,
// to tell Open MPI from MPICH. The rules this package keeps:
//
//   - MPI handles cross into Go as small named integer types (Comm, Group,
//     Datatype, Op, Win, Request). Open MPI's handles are pointers and MPICH's are
//     ints; both fit a uintptr, and the shim casts them back.
//   - Every function returns MPI's own return code; the caller turns it into an
//     error. Nothing here checks arguments.
//   - One Go call is one cgo crossing (about 26 ns here): where an operation needs
//     several MPI calls, the shim makes them on the C side.
//   - Buffers are unsafe.Pointer. Functions that let MPI keep a buffer past their
//     return (Isend, Irecv, Rput, Rget, Raccumulate) need the caller to pin it.
//   - The ScaLAPACK bindings (scalapack_gen.h, scalapack_gen.go) are generated
//     by internal/scalapackgen from one table: every driver for every element
//     type, s, d, c and z, chosen by a Type, never by an element's size. A new
//     driver is one entry there, a new element type one row; run go generate
//     here afterwards (make test fails while the files are stale).
//
// Build flags come from pkg-config: Open MPI (ompi-c) by default, MPICH (mpich)
// with the build tag "mpich".
package cgo
