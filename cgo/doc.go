// Package cgo is the one goga package that imports "C". It holds raw bindings to
// the MPI library (and, in later layers, BLACS, ScaLAPACK and BLAS) and the small C
// shim they need.
//
// Nothing here is meant for end users: package mpi wraps these calls in an
// idiomatic, checked API. The rules this package keeps:
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
//
// Build flags come from pkg-config: Open MPI (ompi-c) by default, MPICH (mpich)
// with the build tag "mpich".
package cgo
