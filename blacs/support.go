package blacs

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/goga-hpc/goga/cgo"
	"github.com/goga-hpc/goga/mpi"
)

// What names a value of BLACS_GET and BLACS_SET: the guide's WHAT codes that
// belong to a grid.
type What int

// The grid's values (guide §9.4). Set changes the topology tunings, which
// stay until set again; SystemContext is read-only.
const (
	SystemContext     What = 10 // the system context (Csys2blacs_handle) of the grid's own communicator
	BroadcastRings    What = 11 // rings of the multiring broadcast, topology "M" (not 0; below 0: decreasing)
	BroadcastBranches What = 12 // branches of the general-tree broadcast, topology "T" (at least 1)
	CombineRings      What = 13 // rings of the multiring combine, topology "M" (not 0)
	CombineBranches   What = 14 // branches of the general-tree combine, topology "T" (at least 1)
	Repeatable        What = 15 // non-zero: combines give bit-identical results on every call
	Coherent          What = 16 // non-zero: one process computes a combine's result and sends it to the others
)

func (w What) String() string {
	switch w {
	case SystemContext:
		return "SystemContext"
	case BroadcastRings:
		return "BroadcastRings"
	case BroadcastBranches:
		return "BroadcastBranches"
	case CombineRings:
		return "CombineRings"
	case CombineBranches:
		return "CombineBranches"
	case Repeatable:
		return "Repeatable"
	case Coherent:
		return "Coherent"
	}
	return fmt.Sprintf("What(%d)", int(w))
}

// Set changes one of the grid's topology tunings (BLACS_SET, WHAT 11 to 16).
// The C BLACS only warn about a bad value and carry on; Set refuses it, and
// the values that are not the grid's: the message-ID range (WHAT 1), which
// MPI communicators make unnecessary, and the read-only SystemContext and
// debug level (WHAT 10, 2). It is local: every process of an operation must
// set the same values before it, as the guide asks.
func (g *Grid) Set(what What, val int) error {
	if err := g.valid("Set"); err != nil {
		return err
	}
	switch what {
	case BroadcastRings, CombineRings:
		if val == 0 {
			return errf("Set", what.String(), "0 rings; want a non-zero count (below 0: decreasing rings)")
		}
	case BroadcastBranches, CombineBranches:
		if val < 1 {
			return errf("Set", what.String(), "%d branches; want at least 1", val)
		}
	case Repeatable, Coherent:
	case SystemContext:
		return errf("Set", what.String(), "read-only: it is the grid's own communicator")
	default:
		return errf("Set", what.String(), "not a value BLACS_SET changes on a grid; want BroadcastRings, BroadcastBranches, CombineRings, CombineBranches, Repeatable or Coherent (the message-ID range is not needed over MPI communicators)")
	}
	cgo.BlacsSet(g.ctxt, int(what), val)
	return nil
}

// Get returns one of the grid's values (BLACS_GET, WHAT 10 to 16). BLACS_GET's
// other values: WHAT 0, the default system context, is System(mpi.World()).
func (g *Grid) Get(what What) (int, error) {
	if err := g.valid("Get"); err != nil {
		return 0, err
	}
	if what < SystemContext || what > Coherent {
		return 0, errf("Get", what.String(), "not a value of a grid; want SystemContext or a tuning that Set takes")
	}
	return cgo.BlacsGet(g.ctxt, int(what)), nil
}

// Pinfo returns this process's number and the number of processes, those of
// MPI_COMM_WORLD (BLACS_PINFO). It needs no grid, but MPI must be running.
func Pinfo() (pnum, nprocs int, err error) {
	if !mpi.Initialized() || mpi.Finalized() {
		return 0, 0, errf("Pinfo", "MPI", "not running (initialized %v, finalized %v)", mpi.Initialized(), mpi.Finalized())
	}
	pnum, nprocs = cgo.BlacsPinfo()
	return pnum, nprocs, nil
}

// FreeBuff frees the BLACS's buffers for sends (BLACS_FREEBUFF); wait first
// waits for the sends still under way, else only the finished ones' buffers
// go. The buffers are shared by every grid, and made again when needed.
func (g *Grid) FreeBuff(wait bool) error {
	if err := g.valid("FreeBuff"); err != nil {
		return err
	}
	cgo.BlacsFreeBuff(g.ctxt, wait)
	return nil
}

// Abort ends every process of the job with exit code code (BLACS_ABORT): it
// prints the BLACS's message naming the process that asked and calls
// MPI_Abort on MPI_COMM_WORLD (through mpi.Abort, which gives the launcher
// time to forward the message; Cblacs_abort does not, and MPICH's launcher
// lost it). g only names the process in the message; it may be nil or
// exited. Without MPI running, the process exits alone with code.
func Abort(g *Grid, code int) {
	if mpi.Initialized() && !mpi.Finalized() {
		ctxt, row, col := -1, -1, -1
		if g.In() {
			ctxt, row, col = g.ctxt, g.MyRow, g.MyCol
		}
		fmt.Fprintf(os.Stderr, "{%d,%d}, pnum=%d, Contxt=%d, killed other procs, exiting with error #%d.\n\n",
			row, col, mpi.World().Rank(), ctxt, code)
	}
	mpi.Abort(code)
}

// exits counts the calls of Exit; a Grid made before the last is freed.
var exits atomic.Uint64

// systems holds the system contexts System handed out and FreeSystem has
// not freed, so that freeing an unknown one is an error, not a BLACS warning.
var systems sync.Map

// Exit frees every grid of this process, waiting for its sends (BLACS_EXIT).
// With continueMPI, MPI keeps running and grids can be made again; without,
// MPI is finalized as mpi.Finalize does (not at all if goga adopted it). It
// frees the grids that other packages keep too (ga's solvers keep theirs
// until ga.Terminate): call it after them.
func Exit(continueMPI bool) error {
	if !mpi.Initialized() || mpi.Finalized() {
		return errf("Exit", "MPI", "not running")
	}
	cgo.BlacsExitContinue()
	exits.Add(1)
	if !continueMPI {
		return mpi.Finalize()
	}
	return nil
}

// FreeSystem frees a system context that System returned
// (Cfree_blacs_system_handle); grids made from it stay. The world's, 0, is
// never freed, and is refused like a handle System did not return.
func FreeSystem(h int) error {
	if h == 0 {
		return errf("FreeSystem", "h", "0 is MPI_COMM_WORLD's system context, which the BLACS never free")
	}
	if _, ok := systems.LoadAndDelete(h); !ok {
		return errf("FreeSystem", "h", "%d is not a system context System returned (or it was freed)", h)
	}
	cgo.BlacsFreeSystem(h)
	return nil
}
