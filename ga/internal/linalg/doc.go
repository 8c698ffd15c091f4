// Package linalg is ga's linear-algebra bridge: products (Matmul), linear
// solves (Solve), the inverse of a positive definite matrix (SpdInvert) and
// eigenproblems (Diag) on 2-D patches of global arrays, through the BLAS on
// mapped blocks, ScaLAPACK (package scalapack) and package peigs.
//
// Package ga's calls (Gemm, MatmulPatch, LuSolve, LltSolve, Solve,
// SpdInvert, DiagStd, Diag, DiagReuse, DiagStdSeq, DiagSeq) validate their
// arguments and agree on them, then call here. What the bridge needs of
// ga it reaches through two interfaces that ga implements: Array, one of
// ga's arrays (its patches' Gets and Puts, its storage, its layout), and
// Call, the collective call it works for (its further agreements and its
// errors). What it keeps from call to call (BLACS grids, scratch memory,
// the solvers' block size, DiagReuse's factor) is an Env, one per ga
// process group. It imports nothing of ga: ga imports it.
//
// Everything here works on transposes. A process's part of a 2-D array is
// row-major; read column-major it is that process's part of the transpose.
// So a BlockCyclicGrid matrix on a P0 × P1 grid is, where it lies,
// ScaLAPACK's Aᵀ on a P1 × P0 BLACS grid whose column-major ranks are GA's
// row-major ones; and any array is copied into a block-cyclic Aᵀ by Gets of
// its patches straight into place, with no transposing (transposed.go). The
// solvers therefore work on M = Aᵀ: A·X = B is Xᵀ·M = Bᵀ, with Y = Bᵀ solved
// from the right by triangular solves (solve.go), and a product C =
// op(A)·op(B) is Cᵀ = op(B)ᵀ·op(A)ᵀ (matmul.go; on one node each process
// multiplies its share of C with the BLAS straight from the operands'
// storage, mapped.go). The input checks the solvers add to ScaLAPACK's are
// in check.go, the eigensolvers in diag.go.
package linalg

import (
	"slices"
	"unsafe"
)

// Array is one of ga's arrays as the bridge uses it. Its 2-D patches are
// read and written by Get, NbGet and Put; where it lies as ScaLAPACK can
// use it (ProcGrid, BlockSize) its storage (Local) is used in place; and
// where every process maps every block (Mappable), products read and write
// the blocks where they live (Starts, At).
type Array[T any] interface {
	Name() string
	Dims() []int // not to be changed
	Get(lo, hi []int, buf []T, ld []int) error
	NbGet(lo, hi []int, buf []T, ld []int) (Waiter, error)
	Put(lo, hi []int, buf []T, ld []int) error
	// MapIn maps the other processes' parts into this one where it maps
	// them at all, in one call each rather than a page fault per page.
	MapIn() error
	// Local is this process's storage (nil if it stores nothing).
	Local() ([]T, error)
	// StoredBlocks calls f for every block this process owns, with its
	// patch, the offset of its first element in Local, and the storage's
	// extents.
	StoredBlocks(f func(lo, hi []int, off int, ext []int) error) error
	// ProcGrid is the process grid of an array made by BlockCyclicGrid
	// (nil for any other), BlockSize its block size along dimension d.
	ProcGrid() []int
	BlockSize(d int) int
	// Mappable reports whether every process maps every block of the
	// array, the same verdict everywhere, with a table of their placement,
	// and no other array shares its memory.
	Mappable() bool
	// Starts is the first index of each block along dimension d.
	Starts(d int) []int
	// At points at element (i, j) of a Mappable 2-D array in its owner's
	// storage, and returns the storage's pitch.
	At(i, j int) (unsafe.Pointer, int)
}

// Waiter is a non-blocking operation in flight.
type Waiter interface{ Wait() error }

// Call is the collective call of ga that the bridge works for. ga has
// validated its arguments and agreed on them; Agree and Close are the
// call's further agreements, with the same contract: every process returns
// the same error, local's if this process had one.
type Call interface {
	// Agree is an agreement on local, this process's verdict; with fence
	// it is also a synchronization (GA_Sync).
	Agree(fence bool, array string, local error) error
	// Close is the call's last agreement, with its implicit sync unless
	// MaskSync masked it.
	Close(array string, local error) error
	// AllMax replaces v by its elementwise maximum over the processes.
	AllMax(v []int64) error
	// Refuse is the call's error for the named array, refused for why.
	Refuse(array string, why Why, msg string) error
}

// Why is the reason the bridge refuses an operand that ScaLAPACK would
// turn into a wrong answer.
type Why int

const (
	NotFinite    Why = iota // it holds NaN or Inf
	NotSymmetric            // Cholesky or an eigensolver needs it symmetric (Hermitian)
)

// Patch is a 2-D patch of an array as the bridge sees it: Rows × Cols
// elements from the corner Lo on, along the array's dimensions RD (rows)
// and CD (columns), RD < CD, every other dimension fixed at Lo's.
type Patch[T any] struct {
	X          Array[T]
	Lo         []int
	RD, CD     int
	Rows, Cols int
}

// Leading is the leading rows × cols patch of the 2-D array x.
func Leading[T any](x Array[T], rows, cols int) Patch[T] {
	return Patch[T]{X: x, Lo: []int{0, 0}, RD: 0, CD: 1, Rows: rows, Cols: cols}
}

// Column turns a row along an inner dimension into a column: its rows then
// run along that dimension, and its one column along the next.
func (p Patch[T]) Column() Patch[T] {
	p.RD, p.CD = p.CD, p.CD+1
	p.Rows, p.Cols = p.Cols, 1
	return p
}

// Sub returns the bounds of the patch's rows r0..r0+h-1 and columns
// c0..c0+w-1 in its array, and the leading dimensions of a buffer holding
// them row-major with ld elements from row to row.
func (p Patch[T]) Sub(r0, c0, h, w, ld int) (lo, hi, lds []int) {
	lo, hi = slices.Clone(p.Lo), slices.Clone(p.Lo)
	lo[p.RD], hi[p.RD] = lo[p.RD]+r0, lo[p.RD]+r0+h-1
	lo[p.CD], hi[p.CD] = lo[p.CD]+c0, lo[p.CD]+c0+w-1
	lds = make([]int, len(lo)-1)
	for d := range lds {
		lds[d] = hi[d+1] - lo[d+1] + 1
	}
	lds[p.CD-1] = ld
	return lo, hi, lds
}
