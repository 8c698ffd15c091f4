package blacs

import (
	"fmt"
	"reflect"

	"github.com/goga-hpc/goga/cgo"
	"github.com/goga-hpc/goga/mpi"
)

// Elem is the set of BLACS element types: integer (I), single (S), double
// (D), single complex (C) and double complex (Z).
type Elem interface {
	~int32 | ~float32 | ~float64 | ~complex64 | ~complex128
}

// typeOf maps T to its BLACS type by its underlying kind, so that named types
// (type Real float64, type Cplx complex64) get their own type's routines: a
// size-based guess would send a ~int32 as float and a ~complex64 as double.
func typeOf[T Elem]() cgo.BlacsType {
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Int32:
		return cgo.BlacsInt
	case reflect.Float32:
		return cgo.BlacsFloat
	case reflect.Float64:
		return cgo.BlacsDouble
	case reflect.Complex64:
		return cgo.BlacsComplex
	}
	return cgo.BlacsZomplex
}

// Error is misuse refused before the BLACS sees it (the BLACS would abort).
type Error struct {
	Op, Arg, Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("blacs: %s: %s: %s", e.Op, e.Arg, e.Msg) }

func errf(op, arg, format string, a ...any) error {
	return &Error{Op: op, Arg: arg, Msg: fmt.Sprintf(format, a...)}
}

// Order is how GridInit numbers processes onto the grid.
type Order byte

// Grid orders.
const (
	RowMajor    Order = 'R'
	ColumnMajor Order = 'C'
)

// Scope selects the processes of a broadcast, combine or barrier.
type Scope byte

// Scopes: this process's grid row, its grid column, or the whole grid.
const (
	Row    Scope = 'R'
	Column Scope = 'C'
	All    Scope = 'A'
)

// Topology names the pattern a broadcast or combine follows among the
// scope's processes (the BLACS's TOP). Only its first character counts, in
// either case, as in the BLACS; Topology("1") to Topology("9") are trees of
// that many branches.
type Topology string

// The BLACS's topologies. The rings and trees take their counts from
// g.Set (BroadcastRings, CombineRings, BroadcastBranches,
// CombineBranches).
const (
	DefaultTopology Topology = " " // the BLACS's choice; "" too
	IncreasingRing  Topology = "I"
	DecreasingRing  Topology = "D"
	SplitRing       Topology = "S"
	MultiRing       Topology = "M"
	Hypercube       Topology = "H" // for a combine, bidirectional exchange
	Tree            Topology = "T"
	FullyConnected  Topology = "F"
)

// Grid is a BLACS process grid: a context over some processes of an MPI
// communicator, arranged in Rows × Cols. A process that the grid leaves out
// gets a Grid whose In reports false; it must make no calls on it but Exit.
type Grid struct {
	ctxt         int
	Rows, Cols   int
	MyRow, MyCol int
	exited       bool
	gen          uint64 // exits when it was made: Exit frees every older grid
}

// System returns the BLACS system context of an MPI communicator
// (Csys2blacs_handle), the input of GridInit and GridMap.
func System(c *mpi.Comm) (int, error) {
	if c == nil {
		return 0, errf("System", "comm", "nil communicator")
	}
	h := cgo.BlacsFromComm(cgo.Comm(c.Handle()))
	systems.Store(h, true)
	return h, nil
}

// GridInit makes a rows × cols grid of the first rows·cols processes of c,
// numbered in row- or column-major order (BLACS_GRIDINIT). It is collective
// over c; c must have at least rows·cols processes.
func GridInit(c *mpi.Comm, order Order, rows, cols int) (*Grid, error) {
	if c == nil {
		return nil, errf("GridInit", "comm", "nil communicator")
	}
	if order != RowMajor && order != ColumnMajor {
		return nil, errf("GridInit", "order", "%q; want RowMajor or ColumnMajor", byte(order))
	}
	if rows < 1 || cols < 1 || rows*cols > c.Size() {
		return nil, errf("GridInit", "rows", "a %d×%d grid does not fit %d processes", rows, cols, c.Size())
	}
	sys, err := System(c)
	if err != nil {
		return nil, err
	}
	return newGrid(cgo.BlacsGridInit(sys, byte(order), rows, cols)), nil
}

// GridMap makes a grid with an explicit map: process usermap[i][j] of c (a
// rank in c) sits at grid position (i, j) (BLACS_GRIDMAP). It is collective
// over c.
func GridMap(c *mpi.Comm, usermap [][]int) (*Grid, error) {
	if c == nil {
		return nil, errf("GridMap", "comm", "nil communicator")
	}
	rows := len(usermap)
	if rows == 0 || len(usermap[0]) == 0 {
		return nil, errf("GridMap", "usermap", "empty")
	}
	cols := len(usermap[0])
	flat := make([]int, rows*cols) // column-major, as the BLACS reads it
	seen := map[int]bool{}
	for i, row := range usermap {
		if len(row) != cols {
			return nil, errf("GridMap", "usermap", "row %d has %d entries, row 0 has %d", i, len(row), cols)
		}
		for j, r := range row {
			if r < 0 || r >= c.Size() || seen[r] {
				return nil, errf("GridMap", "usermap", "entry (%d,%d) = %d: not a distinct rank of the %d-process communicator", i, j, r, c.Size())
			}
			seen[r] = true
			flat[i+j*rows] = r
		}
	}
	sys, err := System(c)
	if err != nil {
		return nil, err
	}
	return newGrid(cgo.BlacsGridMap(sys, flat, rows, cols)), nil
}

func newGrid(ctxt int) *Grid {
	g := &Grid{ctxt: ctxt, MyRow: -1, MyCol: -1, gen: exits.Load()}
	if ctxt >= 0 {
		g.Rows, g.Cols, g.MyRow, g.MyCol = cgo.BlacsGridInfo(ctxt)
	}
	return g
}

// In reports whether this process is part of the grid.
func (g *Grid) In() bool {
	return g != nil && !g.gone() && g.ctxt >= 0 && g.MyRow >= 0 && g.MyRow < g.Rows && g.MyCol >= 0 && g.MyCol < g.Cols
}

// gone reports whether the grid was freed, by its Exit or the package's.
func (g *Grid) gone() bool { return g.exited || g.gen != exits.Load() }

// Context returns the BLACS context, for ScaLAPACK descriptors.
func (g *Grid) Context() int { return g.ctxt }

func (g *Grid) valid(op string) error {
	if !g.In() {
		return errf(op, "grid", "this process is not in the grid (or it has exited)")
	}
	return nil
}

// Info returns the grid's shape and this process's coordinates
// (BLACS_GRIDINFO).
func (g *Grid) Info() (rows, cols, myrow, mycol int) { return g.Rows, g.Cols, g.MyRow, g.MyCol }

// Pnum returns the process number (rank in the grid's communicator) at (row,
// col) (BLACS_PNUM).
func (g *Grid) Pnum(row, col int) (int, error) {
	if err := g.valid("Pnum"); err != nil {
		return 0, err
	}
	if err := g.coord("Pnum", "row", row, col, false); err != nil {
		return 0, err
	}
	return cgo.BlacsPnum(g.ctxt, row, col), nil
}

// Pcoord returns the grid coordinates of process number pnum (BLACS_PCOORD).
func (g *Grid) Pcoord(pnum int) (row, col int, err error) {
	if err := g.valid("Pcoord"); err != nil {
		return 0, 0, err
	}
	if pnum < 0 || pnum >= g.Rows*g.Cols {
		return 0, 0, errf("Pcoord", "pnum", "%d out of range [0, %d)", pnum, g.Rows*g.Cols)
	}
	row, col = cgo.BlacsPcoord(g.ctxt, pnum)
	return row, col, nil
}

// Comm returns the MPI communicator of the grid's processes, ranked as Pnum
// numbers them.
func (g *Grid) Comm() (*mpi.Comm, error) {
	if err := g.valid("Comm"); err != nil {
		return nil, err
	}
	return mpi.CommFromHandle(uintptr(cgo.BlacsComm(cgo.BlacsGet(g.ctxt, 10))))
}

// Barrier waits for every process of the scope (BLACS_BARRIER).
func (g *Grid) Barrier(scope Scope) error {
	if err := g.valid("Barrier"); err != nil {
		return err
	}
	if err := checkScope("Barrier", scope); err != nil {
		return err
	}
	cgo.BlacsBarrier(g.ctxt, byte(scope))
	return nil
}

// Exit frees the grid (BLACS_GRIDEXIT). MPI keeps running.
func (g *Grid) Exit() error {
	if g == nil || g.gone() {
		return errf("Exit", "grid", "already exited (by Exit or the package's Exit)")
	}
	if g.ctxt >= 0 {
		cgo.BlacsGridExit(g.ctxt)
	}
	g.exited = true
	return nil
}

func checkScope(op string, s Scope) error {
	if s != Row && s != Column && s != All {
		return errf(op, "scope", "%q; want Row, Column or All", byte(s))
	}
	return nil
}

// coord checks grid coordinates; allowAll admits -1 (leave on all).
func (g *Grid) coord(op, arg string, row, col int, allowAll bool) error {
	if allowAll && (row == -1 || col == -1) {
		return nil
	}
	if row < 0 || row >= g.Rows || col < 0 || col >= g.Cols {
		return errf(op, arg, "(%d,%d) is outside the %d×%d grid", row, col, g.Rows, g.Cols)
	}
	return nil
}
