//go:build mpich

package ctest

// #cgo pkg-config: mpich
import "C"
