// Package cgo is goga's binding layer, the one library package that imports
// "C". It is not an API: its calls check nothing and may change with any
// release. What it binds:
//
//   - MPI (mpi.go and mpi_*.go by concern, file.go for MPI-IO, userop.go for
//     user-defined operators), over the C shim shim.h;
//   - the BLACS (blacs.go) and ScaLAPACK's drivers (scalapack_gen.go);
//   - the BLAS's xGEMM in one process (blas.go);
//   - armci's links, message loops that run in C (link.go);
//   - vectorized kernels: accumulate, element-wise operations, norms, argmax
//     and streaming copies (kernels.h, kernels_gen.go);
//   - a thread's time slice (sched.go: sched_setattr, which Go's syscall
//     package does not name on every architecture).
//
// # Who calls it
//
// Packages mpi, blacs, scalapack and armci wrap these calls in checked,
// idiomatic ones; everything above reaches MPI, the BLACS and ScaLAPACK
// through them (which MPI library the build uses is mpi.Implementation).
// Above armci, two callers reach in directly, through named entry points
// and nothing else, for local loops that no layer between owns (those
// layers distribute and communicate; these run on one process's memory):
//
//   - ga: the element-wise kernels of its collectives on local runs
//     (AxpbyFloat32/64, MulFloat32/64, DotFloat32/64, BestFloat32/64,
//     NormsFloat32/64, in ga/internal/kernels/ckernels.go) and Gemm on
//     mapped blocks (ga/internal/linalg/mapped.go);
//   - cmd/gabench: Dgemm, one process's BLAS speed, the limit that
//     distributed products are measured against.
//
// TestCallers keeps this list true: a new caller above armci takes one of
// these entry points, or adds a named one here and there.
//
// HDF5 is bound beside this package, in cgo/hdf5, by the same rules, so
// that only programs that write HDF5 link libhdf5 (and the tens of
// libraries it loads, about 20 ms at every start). Package h5 is its one
// caller, and TestCallers holds that too.
//
// # Rules
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
//   - Two families are generated from tables, each by a command under
//     internal/ with a test that fails while its output is stale (run go
//     generate here after changing a table). internal/scalapackgen writes
//     the ScaLAPACK bindings (scalapack_gen.h, scalapack_gen.go): every
//     driver for every element type, s, d, c and z, chosen by a Type, never
//     by an element's size; a new driver is one entry there, a new element
//     type one row. internal/kernelsgen writes the kernels' instances
//     (kernels_gen.h, of the macros in kernels.h) and their Go wrappers
//     (kernels_gen.go, AccFloat64 and the like): a kernel for another
//     element type is one name more in its rows.
//
// Build flags come from pkg-config: Open MPI (ompi-c) by default, MPICH (mpich)
// with the build tag "mpich".
package cgo
