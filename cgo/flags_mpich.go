//go:build mpich

package cgo

// #cgo pkg-config: mpich scalapack-mpich
import "C"

// Implementation names the MPI library this package was built against.
const Implementation = "MPICH"
