//go:build !mpich

package hdf5

// #cgo pkg-config: hdf5-openmpi
import "C"
