package ga

import (
	"fmt"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/layout"
)

// Handles. A goga array is its *Array: GA's integer handle checks become
// questions about the pointer, answered with an error or a bool instead of
// an abort. An array is valid from its creation until its Destroy, or the
// Terminate that destroys every array, except while Deallocate has taken
// its memory (or its parent's, for an overlay).

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
	_, ok := a.m.BaseDeal().(*layout.ProcGrid)
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
//
// A device backend would be a transport of armci's (its seam: Segment.to,
// one transport per rank): a segment whose parts are device memory,
// allocated through the device's runtime and registered with MPI where it
// is device-aware (else staged through pinned host buffers), serving Put,
// Get, Acc and the strided and vector forms by device copies between
// peers on a node (IPC handles in place of shared memory) and by MPI RMA
// on device buffers between nodes. Every call that moves a patch reaches
// memory through that seam; what reads or writes the local block directly
// (Access and AccessLocal, the element-wise and matrix math, the ghost
// updates, dra's bands) would need device kernels or staging as well.
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

// Memory. Deallocate frees an array's memory and keeps the array, which
// Allocate gives memory again, as GA_Deallocate and GA_Allocate do on a
// handle; in between, every call but Allocate and Destroy refuses it
// (ErrDestroyed). An overlay (Overlay) has its parent's memory: it is
// refused once the parent is destroyed or deallocated, and its Destroy
// frees nothing.

// overlaid is what an overlay needs of its parent, whatever its type.
type overlaid interface {
	Valid() bool
	Name() string
	segment() *armci.Segment
	isReadOnly() bool
}

func (a *Array[T]) segment() *armci.Segment { return a.seg }
func (a *Array[T]) isReadOnly() bool        { return a.readOnly }

// usable refuses an array without memory, and a read-only one to a call
// that writes it.
func (a *Array[T]) usable(op string) error {
	if a.freed {
		return &Error{Op: op, Array: a.name, Err: ErrDestroyed, Msg: "its memory was freed by Deallocate (Allocate gives it memory again)"}
	}
	if p := a.parent; p != nil && (!p.Valid() || p.segment() != a.seg) {
		return &Error{Op: op, Array: a.name, Err: ErrDestroyed, Msg: fmt.Sprintf("it overlays %q, whose memory was destroyed or deallocated", p.Name())}
	}
	// Only a read_only array or an overlay can refuse a write: the others
	// skip the lookup, which cost an 8-byte Put 15% of its time.
	if (a.readOnly || a.parent != nil) && (writes[op] || handsOut[op]) {
		return a.writable(op)
	}
	return nil
}

// Deallocate frees the array's memory but keeps the array, with its name,
// shape and distribution, for Allocate (GA_Deallocate). It is collective;
// pending operations on the array must be complete. An overlay has no
// memory of its own to free.
func (a *Array[T]) Deallocate() error {
	g, err := groupOf("Deallocate", a)
	if err != nil {
		return err
	}
	check := a.valid("Deallocate")
	if check == nil && a.parent != nil {
		check = errorf("Deallocate", a.name, "an overlay has no memory of its own (its parent %q has)", a.parent.Name())
	}
	if err := agree(g, false, "Deallocate", a.Name(), check, array(newArgs("Deallocate"), "a", a)); err != nil {
		return err
	}
	if err := a.release(); err != nil {
		return err
	}
	a.seg, a.freed = nil, true
	return nil
}

// Allocate gives a deallocated array memory again (GA_Allocate on a handle
// that GA_Deallocate freed); its elements are then undefined. It is
// collective, and counts against the memory limit as creation does.
func (a *Array[T]) Allocate() error {
	g, err := groupOf("Allocate", a)
	if err != nil {
		return err
	}
	check := a.handle("Allocate")
	if check == nil && !a.freed {
		check = errorf("Allocate", a.name, "the array has its memory; Allocate follows Deallocate")
	}
	if check == nil {
		check = a.limit("Allocate")
	}
	if err := agree(g, false, "Allocate", a.Name(), check, array(newArgs("Allocate"), "a", a)); err != nil {
		return err
	}
	if err := a.malloc("Allocate"); err != nil {
		return err
	}
	a.freed = false
	return nil
}

// Overlay makes the array b describes in the memory of parent, which must
// be of the same group and hold at least as many bytes as the new array
// needs on every process (GA_Overlay). The two see the same bytes, each
// through its own type and distribution. It is collective.
func Overlay[T, P Elem](b *Builder[T], parent *Array[P]) (*Array[T], error) {
	const op = "Overlay"
	g, err := b.on(op)
	if err != nil {
		return nil, err
	}
	m, check := b.restrictedLayout(op, g.size())
	if check == nil {
		check = b.checkDevice(op)
	}
	if check == nil {
		check = parent.valid(op)
	}
	if check == nil && parent.g != g {
		check = errorf(op, b.name, "its parent %q lives on another group of processes", parent.name)
	}
	a := placed[T](g, b.name, m, check == nil)
	if check == nil && a.bytes > parent.bytes {
		check = errorf(op, b.name, "needs %d bytes on process %d; its parent %q has %d there", a.bytes, g.rank, parent.name, parent.bytes)
	}
	l := array(b.args(op).ints("ghosts", b.ghosts...).ints("restricted", b.restricted...), "parent", parent)
	if err := agree(g, false, op, b.name, check, l); err != nil {
		return nil, err
	}
	a.seg, a.parent, a.mirrored = parent.seg, parent, parent.mirrored
	a.id = g.register(a)
	return a, nil
}

// Properties. GA's one property, "read_only", promises that the array will
// not change until UnsetProperty, and lets gets use that.
//
// Every call that would write the array is refused, on the process that
// makes it (one-sided calls) or on every process of the call (collective
// ones), with an error wrapping ErrReadOnly that names the array, and
// nothing changes. There are two shapes of check. A call on the array
// alone names its operation in writes, and valid refuses it there: the
// one-sided puts, accumulates, scatters and ReadInc, the releases that say
// memory was written, and the collectives that change only the array
// (Zero, Fill, Scale, the element-wise calls on it alone, Symmetrize,
// SpdInvert, ...), and Deallocate. A call on several arrays marks the one
// it writes with writing as it builds the text of its arguments, and the
// agreement refuses it (see screen): Copy and CopyPatch into it, Add and
// AddPatch, the element-wise calls with an output, Transpose, Gemm and
// MatmulPatch, the matrix calls with a vector (SetDiagonal, ScaleRows,
// GetDiag's vector, ...), the solvers' right-hand sides, Diag's
// eigenvectors, the scans' and packs' outputs, MergeDistrPatch and
// Sparse.MatVec. Writes through an overlay of a read_only array are
// refused too, and an overlay cannot be made read_only (its parent, or
// another overlay, could write its memory).
//
// In-place access would hand out memory that a write changes with no call
// to refuse, so it is refused as a write, on the process that asks:
// Access, AccessLocal, AccessBlock, AccessBlockGrid, AccessBlockSegment,
// AccessGhosts, AccessGhostElement and gonum's views of them (LocalDense,
// LocalCDense, LocalVec, BlockDense). AccessRead gives the same memory for
// reading, on any array; a program that writes through it breaks its own
// promise, which goga cannot see. (GA C hands out the memory and checks
// nothing.)
//
// UpdateGhosts, UpdateGhostDir and NbUpdateGhosts are allowed: they write
// only the halos, which are not elements of the array, with values of the
// array, which does not change. (GA C checks no writes at all; its
// read_only lays the array out again over each node and leaves ghost cells
// out of that layout.)
//
// The copy per node: when the array's processes span several nodes,
// SetProperty copies the whole array into an array on each node's
// processes, and while read_only, Get, NbGet, StridedGet, PeriodicGet,
// Gather, GatherFlat and the collectives' reads of the array read their
// node's copy, through shared memory, with no traffic between nodes; their
// counts go to the statistics of the node's group, as a mirrored array's
// do. On one node nothing is copied: gets read the owners' memory directly
// already. AccessRead gives this process's own block of the array, which
// is its memory either way. UnsetProperty and Destroy free the copy.
// The copies count against the memory limit.

// writes are the calls on one array that read_only refuses.
var writes = map[string]bool{
	"Put": true, "Acc": true, "ReadInc": true, "Scatter": true, "ScatterAcc": true,
	"ScatterFlat": true, "ScatterAccFlat": true,
	"PeriodicPut": true, "PeriodicAcc": true, "StridedPut": true, "StridedAcc": true,
	"NbPut": true, "NbAcc": true,
	"ReleaseUpdate": true, "ReleaseUpdateBlock": true, "ReleaseUpdateBlockGrid": true,
	"ReleaseUpdateBlockSegment": true, "ReleaseUpdateGhosts": true, "ReleaseUpdateGhostElement": true,
	"Zero": true, "Fill": true, "Scale": true, "ZeroPatch": true, "FillPatch": true, "ScalePatch": true,
	"AbsValue": true, "AbsValuePatch": true, "AddConstant": true, "AddConstantPatch": true,
	"Recip": true, "RecipPatch": true, "ShiftDiagonal": true, "ZeroDiagonal": true,
	"Symmetrize": true, "Randomize": true, "PatchEnum": true, "MergeMirrored": true,
	"SpdInvert": true, "Deallocate": true,
}

// handsOut are the calls that hand out the array's writable memory, which
// read_only refuses as writes; the refusal points to AccessRead.
var handsOut = map[string]bool{
	"Access": true, "AccessLocal": true, "AccessBlock": true, "AccessBlockGrid": true,
	"AccessBlockSegment": true, "AccessGhosts": true, "AccessGhostElement": true,
	"LocalDense": true, "LocalCDense": true, "LocalVec": true, "BlockDense": true,
}

// writable refuses op's write into a while a is read_only, or while the
// array whose memory it overlays is.
func (a *Array[T]) writable(op string) error {
	hint := ""
	if handsOut[op] {
		hint = "; its memory would be writable: AccessRead reads in place"
	}
	switch {
	case a.readOnly:
		return &Error{Op: op, Array: a.name, Err: ErrReadOnly, Msg: "the array is read_only (UnsetProperty lifts it)" + hint}
	case a.parent != nil && a.parent.isReadOnly():
		return &Error{Op: op, Array: a.name, Err: ErrReadOnly, Msg: fmt.Sprintf("it overlays %q, which is read_only (UnsetProperty on it lifts it)%s", a.parent.Name(), hint)}
	}
	return nil
}

// writing notes that the collective call whose arguments l holds writes
// x: if x is read_only, every process of the call refuses it before it
// acts (see screen). A nil x is left to the call to refuse.
func writing[T Elem](l *args, x *Array[T]) *args {
	if x != nil && l.refused == nil {
		l.refused = x.writable(l.op)
	}
	return l
}

// SetProperty gives the array a property (GA_Set_property): "read_only"
// or "read_cache". Either way every call that would write the array is
// then refused (ErrReadOnly) until UnsetProperty. With "read_only", on
// several nodes, gets read a copy of it on their node, made now; with
// "read_cache", Get reads the blocks of other nodes through a cache on
// its node, filled block by block as they are first read (readcache.go). It is collective: it completes
// every process's operations first, as a sync does, and then, on several
// nodes, copies the array to each; if a copy cannot be made (the memory
// limit), the array is left without the property, on every process. An
// array has one property at a time; an overlay cannot have it.
func (a *Array[T]) SetProperty(property string) error {
	const op = "SetProperty"
	g, err := groupOf(op, a)
	if err != nil {
		return err
	}
	check := a.valid(op)
	switch {
	case check != nil:
	case property != "read_only" && property != "read_cache":
		check = errorf(op, a.name, "property %q; the properties are \"read_only\" and \"read_cache\"", property)
	case a.readOnly:
		check = errorf(op, a.name, "the array already has a property (\"read_only\" or \"read_cache\")")
	case a.parent != nil:
		check = errorf(op, a.name, "an overlay cannot be read_only: %q, whose memory it shares, could still be written", a.parent.Name())
	}
	if err := agree(g, true, op, a.Name(), check, array(newArgs(op).str("property", property), "a", a)); err != nil {
		return err
	}
	if property == "read_cache" {
		c, err := a.cacheOnNodes(op)
		if err != nil {
			return err
		}
		a.readOnly, a.cache = true, c
		return nil
	}
	c, err := a.copyToNodes(op)
	if err != nil {
		return err
	}
	a.readOnly, a.nodeCopy = true, c
	return nil
}

// UnsetProperty takes the array's property away (GA_Unset_property), and
// frees its copies on the nodes. It is collective, like SetProperty.
func (a *Array[T]) UnsetProperty() error {
	const op = "UnsetProperty"
	g, err := groupOf(op, a)
	if err != nil {
		return err
	}
	check := a.valid(op)
	if check == nil && !a.readOnly {
		check = errorf(op, a.name, "the array has no property")
	}
	if err := agree(g, true, op, a.Name(), check, array(newArgs(op), "a", a)); err != nil {
		return err
	}
	a.readOnly = false
	if err := a.dropCache(); err != nil {
		return err
	}
	return a.dropNodeCopy()
}
