// Package scalapack is distributed dense linear algebra on block-cyclic
// matrices over BLACS grids, through the system's ScaLAPACK library.
//
// This first part holds the descriptor and index arithmetic: Desc (DESCINIT
// with its checks returned as errors), Numroc, and the maps between global,
// local and process indices, all 0-based. The drivers (Gesv, Potrf, Gemm,
// Syevd, …) follow.
package scalapack
