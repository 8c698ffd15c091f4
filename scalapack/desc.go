package scalapack

import (
	"fmt"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/internal/layout"
)

// Error is an argument that ScaLAPACK would reject, refused before the call.
type Error struct {
	Op, Arg, Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("scalapack: %s: %s: %s", e.Op, e.Arg, e.Msg) }

func errf(op, arg, format string, a ...any) error {
	return &Error{Op: op, Arg: arg, Msg: fmt.Sprintf(format, a...)}
}

// Desc is the descriptor of a dense block-cyclic matrix (ScaLAPACK's DTYPE 1):
// an M × N matrix cut into MB × NB blocks, dealt cyclically over the grid's
// rows and columns starting at process (RSrc, CSrc); each process stores its
// blocks column-major with leading dimension LLD.
type Desc struct {
	Ctxt       int
	M, N       int
	MB, NB     int
	RSrc, CSrc int
	LLD        int
}

// NewDesc checks the arguments as DESCINIT does and returns the descriptor;
// lld below the local row count is refused.
func NewDesc(g *blacs.Grid, m, n, mb, nb, rsrc, csrc, lld int) (Desc, error) {
	const op = "NewDesc"
	if g == nil || !g.In() {
		return Desc{}, errf(op, "grid", "this process is not in the grid")
	}
	rows, cols, myrow, _ := g.Info()
	switch {
	case m < 0:
		return Desc{}, errf(op, "m", "%d is negative", m)
	case n < 0:
		return Desc{}, errf(op, "n", "%d is negative", n)
	case mb < 1:
		return Desc{}, errf(op, "mb", "%d is less than 1", mb)
	case nb < 1:
		return Desc{}, errf(op, "nb", "%d is less than 1", nb)
	case rsrc < 0 || rsrc >= rows:
		return Desc{}, errf(op, "rsrc", "%d is outside the grid's %d rows", rsrc, rows)
	case csrc < 0 || csrc >= cols:
		return Desc{}, errf(op, "csrc", "%d is outside the grid's %d columns", csrc, cols)
	}
	if need := max(1, Numroc(m, mb, myrow, rsrc, rows)); lld < need {
		return Desc{}, errf(op, "lld", "%d is less than the %d local rows", lld, need)
	}
	return Desc{Ctxt: g.Context(), M: m, N: n, MB: mb, NB: nb, RSrc: rsrc, CSrc: csrc, LLD: lld}, nil
}

// Array returns the descriptor as ScaLAPACK's nine integers.
func (d Desc) Array() [9]int {
	return [9]int{1, d.Ctxt, d.M, d.N, d.MB, d.NB, d.RSrc, d.CSrc, d.LLD}
}

// Numroc returns how many of n rows (or columns), in blocks of nb dealt
// cyclically over nprocs processes from isrc on, process iproc holds
// (ScaLAPACK's NUMROC).
func Numroc(n, nb, iproc, isrc, nprocs int) int { return layout.Numroc(n, nb, iproc, isrc, nprocs) }

// GlobalToProc returns the process that holds global index i (0-based) of a
// dimension in blocks of nb over nprocs processes from isrc (INDXG2P).
func GlobalToProc(i, nb, isrc, nprocs int) int { return (isrc + i/nb) % nprocs }

// GlobalToLocal returns the local index (0-based) of global index i on the
// process that holds it (INDXG2L).
func GlobalToLocal(i, nb, nprocs int) int { return i/(nb*nprocs)*nb + i%nb }

// LocalToGlobal returns the global index (0-based) of local index l on
// process iproc (INDXL2G).
func LocalToGlobal(l, nb, iproc, isrc, nprocs int) int {
	return (l/nb*nprocs+(nprocs+iproc-isrc)%nprocs)*nb + l%nb
}
