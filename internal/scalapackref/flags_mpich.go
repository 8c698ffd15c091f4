//go:build mpich

package scalapackref

// #cgo pkg-config: scalapack-mpich
import "C"
