package cgo

//go:generate go run ./internal/scalapackgen -o .

/*
#include <stddef.h>
*/
import "C"

import "unsafe"

// Descriptors cross as [9]int32, ScaLAPACK's DESC arrays.
func cdesc(d *[9]int32) *C.int { return (*C.int)(unsafe.Pointer(&d[0])) }
