package mpi

import (
	"fmt"

	"github.com/goga-hpc/goga/cgo"
)

// Comm is an MPI communicator. The predefined World and Self are never freed;
// communicators made by Dup, Split, SplitType and Create are freed with Free.
// A nil *Comm stands for MPI_COMM_NULL (what Split returns to a rank that gave
// the color Undefined); its methods return errors.
type Comm struct {
	h          cgo.Comm
	rank, size int
	freed      bool
	predefined bool
}

// Before Init no process knows its rank: World and Self answer rank -1 of
// size 0, as an unusable Comm does, not a rank 0 that every process would
// claim.
var (
	world = &Comm{predefined: true, rank: -1}
	self  = &Comm{predefined: true, rank: -1}
)

func init() {
	world.h = cgo.CommWorld
	self.h = cgo.CommSelf
}

// World returns MPI_COMM_WORLD.
func World() *Comm { return world }

// Self returns MPI_COMM_SELF.
func Self() *Comm { return self }

// Special ranks and tags.
const (
	AnySource = cgo.AnySource // Recv, Probe: match any sender
	AnyTag    = cgo.AnyTag    // Recv, Probe: match any tag
	ProcNull  = cgo.ProcNull  // the null process: sends and receives to it do nothing
	Undefined = cgo.Undefined // Split: a color for ranks that join no new communicator
)

// valid checks that c can be used.
func (c *Comm) valid(op string) error {
	if err := running(op); err != nil {
		return err
	}
	if c == nil {
		return stateErr(op, "comm", ErrNil)
	}
	if c.freed {
		return stateErr(op, "comm", ErrFreed)
	}
	return nil
}

// Rank returns this process's rank in c: -1 for a nil or unusable Comm, and
// for World and Self before Init.
func (c *Comm) Rank() int {
	if c == nil || c.freed {
		return -1
	}
	return c.rank
}

// Size returns the number of processes in c: 0 for a nil or unusable Comm,
// and for World and Self before Init.
func (c *Comm) Size() int {
	if c == nil || c.freed {
		return 0
	}
	return c.size
}

func (c *Comm) String() string {
	switch {
	case c == nil:
		return "MPI_COMM_NULL"
	case c == world:
		return "MPI_COMM_WORLD"
	case c == self:
		return "MPI_COMM_SELF"
	}
	return fmt.Sprintf("Comm(rank %d of %d)", c.rank, c.size)
}

// wrap makes a Comm of a new handle with MPI_ERRORS_RETURN set.
func wrap(op string, h cgo.Comm) (*Comm, error) {
	if h == cgo.CommNull {
		return nil, nil
	}
	if err := check(op, cgo.CommErrorsReturn(h)); err != nil {
		return nil, err
	}
	r, s, rc := cgo.CommRankSize(h)
	if err := check(op, rc); err != nil {
		return nil, err
	}
	return &Comm{h: h, rank: r, size: s}, nil
}

// Dup is MPI_Comm_dup: a new communicator with the same processes.
func (c *Comm) Dup() (*Comm, error) {
	if err := c.valid("Dup"); err != nil {
		return nil, err
	}
	h, rc := cgo.CommDup(c.h)
	if err := check("Dup", rc); err != nil {
		return nil, err
	}
	return wrap("Dup", h)
}

// Split is MPI_Comm_split: ranks with the same color form a new communicator,
// ordered by key, then by rank in c. A rank whose color is Undefined gets nil.
func (c *Comm) Split(color, key int) (*Comm, error) {
	if err := c.valid("Split"); err != nil {
		return nil, err
	}
	if color < 0 && color != Undefined {
		return nil, argErr("Split", "color", "%d is negative (use mpi.Undefined to opt out)", color)
	}
	h, rc := cgo.CommSplit(c.h, color, key)
	if err := check("Split", rc); err != nil {
		return nil, err
	}
	return wrap("Split", h)
}

// SplitKind selects how SplitType groups processes.
type SplitKind int

// SplitShared groups the processes that can share memory: those on one node
// (MPI_COMM_TYPE_SHARED).
const SplitShared SplitKind = cgo.CommTypeShared

// SplitType is MPI_Comm_split_type. With SplitShared every node's ranks get a
// communicator of their own, ordered by key. Undefined as the kind gives nil.
func (c *Comm) SplitType(kind SplitKind, key int) (*Comm, error) {
	if err := c.valid("SplitType"); err != nil {
		return nil, err
	}
	if kind != SplitShared && int(kind) != Undefined {
		return nil, argErr("SplitType", "kind", "unknown split kind %d", kind)
	}
	h, rc := cgo.CommSplitType(c.h, int(kind), key)
	if err := check("SplitType", rc); err != nil {
		return nil, err
	}
	return wrap("SplitType", h)
}

// Create is MPI_Comm_create: a communicator of the group's processes, which must
// be a subset of c. It is collective over c; ranks outside the group get nil.
func (c *Comm) Create(g *Group) (*Comm, error) {
	if err := c.valid("Create"); err != nil {
		return nil, err
	}
	if err := g.valid("Create"); err != nil {
		return nil, err
	}
	h, rc := cgo.CommCreate(c.h, g.h)
	if err := check("Create", rc); err != nil {
		return nil, err
	}
	return wrap("Create", h)
}

// Free is MPI_Comm_free. It is collective. World and Self cannot be freed.
func (c *Comm) Free() error {
	if err := c.valid("Free"); err != nil {
		return err
	}
	if c.predefined {
		return argErr("Free", "comm", "%v is predefined and cannot be freed", c)
	}
	if err := check("Free", cgo.CommFree(c.h)); err != nil {
		return err
	}
	c.freed = true
	return nil
}

// Comparison is the result of Compare.
type Comparison int

// Results of Compare.
const (
	Ident     Comparison = cgo.Ident     // the same communicator
	Congruent Comparison = cgo.Congruent // same processes, same order, different context
	Similar   Comparison = cgo.Similar   // same processes, different order
	Unequal   Comparison = cgo.Unequal   // different processes
)

func (r Comparison) String() string {
	switch r {
	case Ident:
		return "Ident"
	case Congruent:
		return "Congruent"
	case Similar:
		return "Similar"
	}
	return "Unequal"
}

// Compare is MPI_Comm_compare.
func (c *Comm) Compare(o *Comm) (Comparison, error) {
	if err := c.valid("Compare"); err != nil {
		return Unequal, err
	}
	if err := o.valid("Compare"); err != nil {
		return Unequal, err
	}
	r, rc := cgo.CommCompare(c.h, o.h)
	return Comparison(r), check("Compare", rc)
}

// Group is MPI_Comm_group: the group of c's processes. Free it when done.
func (c *Comm) Group() (*Group, error) {
	if err := c.valid("Group"); err != nil {
		return nil, err
	}
	h, rc := cgo.CommGroup(c.h)
	if err := check("Group", rc); err != nil {
		return nil, err
	}
	return newGroup("Group", h)
}

// Barrier is MPI_Barrier.
func (c *Comm) Barrier() error {
	if err := c.valid("Barrier"); err != nil {
		return err
	}
	return check("Barrier", cgo.Barrier(c.h))
}

// Ibarrier is MPI_Ibarrier: a barrier that completes when the request does
// (Wait or Test).
func (c *Comm) Ibarrier() (*Request, error) {
	if err := c.valid("Ibarrier"); err != nil {
		return nil, err
	}
	r := &Request{op: "Ibarrier"}
	h, rc := cgo.Ibarrier(c.h)
	return r.started(h, check("Ibarrier", rc))
}

// Abort is MPI_Abort on c: it ends the processes of c (in practice, the job).
func (c *Comm) Abort(code int) error {
	if err := c.valid("Abort"); err != nil {
		return err
	}
	return check("Abort", abort(c.h, code))
}

// Handle returns the C MPI_Comm as an integer, for C code compiled into the same
// binary: cast it back with (MPI_Comm)h. A nil Comm gives MPI_COMM_NULL.
func (c *Comm) Handle() uintptr {
	if c == nil {
		return uintptr(cgo.CommNull)
	}
	return uintptr(c.h)
}

// CommFromHandle wraps a C MPI_Comm (as from Handle, or from C code cast to
// uintptr_t). The result is not owned: Free works on it only if the caller owns
// the communicator. It sets MPI_ERRORS_RETURN on the handle.
func CommFromHandle(h uintptr) (*Comm, error) {
	if err := running("CommFromHandle"); err != nil {
		return nil, err
	}
	switch cgo.Comm(h) {
	case cgo.CommWorld:
		return world, nil
	case cgo.CommSelf:
		return self, nil
	case cgo.CommNull:
		return nil, nil
	case 0:
		return nil, argErr("CommFromHandle", "h", "zero handle")
	}
	return wrap("CommFromHandle", cgo.Comm(h))
}

// Fortran returns the Fortran handle of c (MPI_Comm_c2f), as BLACS and
// ScaLAPACK take it.
func (c *Comm) Fortran() int {
	if c == nil {
		return cgo.CommC2F(cgo.CommNull)
	}
	return cgo.CommC2F(c.h)
}

// CommFromFortran wraps a Fortran communicator handle (MPI_Comm_f2c).
func CommFromFortran(f int) (*Comm, error) {
	if err := running("CommFromFortran"); err != nil {
		return nil, err
	}
	return CommFromHandle(uintptr(cgo.CommF2C(f)))
}

// checkRank checks a rank argument against c.
func (c *Comm) checkRank(op, arg string, r int, allowAny bool) error {
	if r == ProcNull || (allowAny && r == AnySource) {
		return nil
	}
	if r < 0 || r >= c.size {
		return argErr(op, arg, "rank %d out of range [0, %d)", r, c.size)
	}
	return nil
}

// checkRoot checks a root argument against c.
func (c *Comm) checkRoot(op string, root int) error {
	if root < 0 || root >= c.size {
		return argErr(op, "root", "rank %d out of range [0, %d)", root, c.size)
	}
	return nil
}
