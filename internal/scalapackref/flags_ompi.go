//go:build !mpich

package scalapackref

// #cgo pkg-config: scalapack-openmpi
import "C"
