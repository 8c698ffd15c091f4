//go:build !mpich

package ctest

// #cgo pkg-config: ompi-c
import "C"
