package ga

import (
	"fmt"

	"github.com/goga-hpc/goga/internal/layout"
)

// Handles. A goga array is its *Array: GA's integer handle checks become
// questions about the pointer, answered with an error or a bool instead of
// an abort. An array is valid from its creation until its Destroy, or the
// Terminate that destroys every array.

// CheckHandle returns an error wrapping ErrNil or ErrDestroyed, with msg
// in its message, if a is not a live array (GA_Check_handle, which aborts
// instead). It is local.
func (a *Array[T]) CheckHandle(msg string) error {
	if err := a.valid("CheckHandle"); err != nil {
		e := err.(*Error)
		e.Msg = fmt.Sprintf("%s: %s", msg, e.Msg)
		return e
	}
	return nil
}

// Valid reports whether a is a live array (GA_Valid_handle, GA_Verify_handle).
func (a *Array[T]) Valid() bool { return a.valid("Valid") == nil }

// UsesProcGrid reports whether a deals its blocks over a process grid, as
// BlockCyclicGrid and SetTiledProcGrid arrays do (GA_Uses_proc_grid).
func (a *Array[T]) UsesProcGrid() bool {
	if a == nil {
		return false
	}
	_, ok := a.m.Deal().(*layout.ProcGrid)
	return ok
}

// UsesMA reports false: goga keeps no data in MA, GA's memory allocator
// (GA_Uses_ma). Arrays live in MPI windows; the memory limit is kept by
// accounting (SetMemoryLimit).
func UsesMA() bool { return false }

// UsesFAPI reports false: goga has no Fortran interface (GA_Uses_fapi).
func UsesFAPI() bool { return false }

// RegisterStackMemory accepts GA's hook for replacing MA's stack with the
// program's own allocator (GA_Register_stack_memory) and ignores it: goga
// has no MA stack; its scratch memory is Go's, or C memory it maps itself.
func RegisterStackMemory(alloc func(bytes int) []byte, free func([]byte)) {}

// SetMemoryDev chooses the device the array's memory lives on
// (GA_Set_memory_dev). There is only the host here: "host" (or "") is
// accepted, anything else makes Allocate fail on every process, naming it.
func (b *Builder[T]) SetMemoryDev(device string) *Builder[T] {
	b.device = device
	return b
}

// checkDevice is Allocate's verdict on SetMemoryDev's device.
func (b *Builder[T]) checkDevice(op string) error {
	if b.device == "" || b.device == "host" {
		return nil
	}
	return errorf(op, b.name, "memory device %q: goga has no devices, only \"host\" memory", b.device)
}
