package linalg

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"sync"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/mpi"
)

// Env is what the bridge keeps on one ga process group from one call to
// the next: the BLACS grids it has made, kept until the group ends as GA
// keeps its ScaLAPACK context (a grid is a communicator, whose making and
// first collectives cost milliseconds); the solvers' block size; DiagReuse's
// factorization; and the scratch the operands are copied into, one per
// operand: the factored matrix (or A of a product), the right-hand sides
// (or B), and C of a product. The scratch is used within collective calls
// only, which a group runs one at a time.
type Env struct {
	comm       *mpi.Comm
	rank, size int

	mu    sync.Mutex // guards what follows, up to the scratch
	block int
	// grids are made and freed collectively, by one goroutine at a time.
	grids map[gridKey]*blacs.Grid
	kept  keptFactor

	scratchA, scratchB, scratchC scratch
}

type gridKey struct {
	order      blacs.Order
	rows, cols int
}

// keptFactor is DiagReuse's factorization of S: a *peigs.Factor[T] and the
// number of the array S it factors.
type keptFactor struct {
	s int
	f any
}

// defaultSolverBlock is the block size of the copies the factorizations work
// on. Measured with gabench on 2 and 4 processes, 16 to 32 solve n = 1000 and
// 2000 fastest (n = 2000 on 2: 0.074 s at 32, 0.088 s at 64, where smaller
// panels shorten the one-process panel factorization that the others wait
// for); level-3 kernels want no less.
const defaultSolverBlock = 32

// NewEnv is the bridge's state for the group of processes of comm, in which
// this process has the given rank, of size.
func NewEnv(comm *mpi.Comm, rank, size int) *Env {
	return &Env{comm: comm, rank: rank, size: size, block: defaultSolverBlock, grids: map[gridKey]*blacs.Grid{}}
}

// Block is the block size of the block-cyclic copies the solvers work on.
func (e *Env) Block() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.block
}

// SetBlock sets Block (nb ≥ 1: the caller has checked).
func (e *Env) SetBlock(nb int) {
	e.mu.Lock()
	e.block = nb
	e.mu.Unlock()
}

// solverGrid returns the near-square BLACS grid of the group's processes,
// in column-major order: consecutive ranks, which mpirun places on one node,
// share a process column, where LU's pivot search and Cholesky's panel
// exchanges run once per matrix column. Across two simulated nodes (2 + 2
// ranks) the demo's regular-layout solve took 236-265 ms on a row-major
// grid, whose columns spanned the nodes, and 180-218 on this one.
func (e *Env) solverGrid() (*blacs.Grid, error) {
	n := e.size
	r := int(math.Sqrt(float64(n)))
	for n%r != 0 {
		r--
	}
	return e.grid(blacs.ColumnMajor, r, n/r)
}

// grid returns the rows × cols grid of the group's processes in the given
// order, made on first use. It is collective the first time.
func (e *Env) grid(order blacs.Order, rows, cols int) (*blacs.Grid, error) {
	key := gridKey{order, rows, cols}
	e.mu.Lock()
	bg, ok := e.grids[key]
	e.mu.Unlock()
	if ok {
		return bg, nil
	}
	bg, err := blacs.GridInit(e.comm, order, rows, cols)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	e.grids[key] = bg
	e.mu.Unlock()
	return bg, nil
}

// Exit frees the grids, the kept factorization and the scratch, when the
// group ends. It is collective.
func (e *Env) Exit() error {
	e.mu.Lock()
	keys := slices.SortedFunc(maps.Keys(e.grids), func(a, b gridKey) int {
		return cmp.Or(cmp.Compare(a.order, b.order), cmp.Compare(a.rows, b.rows), cmp.Compare(a.cols, b.cols))
	})
	e.mu.Unlock()
	// The same order on every process: exiting is collective.
	for _, k := range keys {
		e.mu.Lock()
		bg := e.grids[k]
		delete(e.grids, k)
		e.mu.Unlock()
		if err := bg.Exit(); err != nil {
			return err
		}
	}
	e.Forget()
	e.scratchA.free()
	e.scratchB.free()
	e.scratchC.free()
	return nil
}

// Forget drops DiagReuse's kept factorization.
func (e *Env) Forget() {
	e.mu.Lock()
	e.kept = keptFactor{}
	e.mu.Unlock()
}
