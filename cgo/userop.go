package cgo

/*
#include <stddef.h>
*/
import "C"

import (
	"sync"
	"unsafe"
)

// User-defined operators (MPI_Op_create) are Go functions that MPI calls from
// inside a reduction. MPI passes no user data to them, so each one takes a
// slot, and the slot's C function (shim.h) tells Go which.

// UserOps is how many user-defined operators can exist at once.
const UserOps = 16

// UserFunc combines n elements: inout[i] = in[i] op inout[i].
type UserFunc func(in, inout unsafe.Pointer, n int)

var userOps struct {
	sync.RWMutex
	f [UserOps]UserFunc
}

//export gogaUserOp
func gogaUserOp(slot C.int, in, inout unsafe.Pointer, n C.int) {
	userOps.RLock()
	f := userOps.f[slot]
	userOps.RUnlock()
	f(in, inout, int(n))
}
