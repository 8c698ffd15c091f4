//go:build !mpich

package cgo

// #cgo pkg-config: ompi-c scalapack-openmpi
import "C"

// Implementation names the MPI library this package was built against.
const Implementation = "Open MPI"
