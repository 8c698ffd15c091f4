// Command cinterop processes the same global array from Go and from C in
// one binary: C code compiled in by cgo works on goga's own communicator
// (ga.Comm().Handle()) and on a process's block in place, as a C library a
// Go program links would.
//
//	go build -o bin/cinterop ./examples/cinterop
//	./mpirun.sh -np 4 bin/cinterop -n 1000
//
// Go fills x with 1, 2, …, n and takes Σ x² with ga.Dot; C scales each
// process's block by 2 and takes Σ x² with MPI_Allreduce; Go takes it again.
// The program checks that C and Go agree with each other and with the
// closed form 4·n(n+1)(2n+1)/6 (exact in float64 for these n), and exits
// non-zero if not.
//
// A program's own C needs its MPI flags: cgo takes them per package, so
// this one names its MPI in flags_ompi.go and flags_mpich.go (build tag
// mpich), as goga's cgo package does.
package main

/*
#include <mpi.h>
#include <stdint.h>

// scale_sumsq scales n doubles in place by alpha and returns, in *sumsq,
// the sum of their squares over every process of comm; *rank is this
// process's rank in comm. It returns an MPI error code.
static int scale_sumsq(uintptr_t comm, double *x, long n, double alpha, double *sumsq, int *rank) {
	MPI_Comm c = (MPI_Comm)comm;
	int rc = MPI_Comm_rank(c, rank);
	if (rc != MPI_SUCCESS) return rc;
	double mine = 0;
	for (long i = 0; i < n; i++) {
		x[i] *= alpha;
		mine += x[i] * x[i];
	}
	return MPI_Allreduce(&mine, sumsq, 1, MPI_DOUBLE, MPI_SUM, c);
}
*/
import "C"

import (
	"flag"
	"fmt"
	"io"
	"os"
	"unsafe"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/program"
)

var n = flag.Int("n", 1000, "elements of the array (at most 100000, for exact sums)")

func main() {
	flag.Parse()
	program.Main("cinterop", 1, func() error { return run(os.Stdout) })
}

func run(out io.Writer) error {
	if err := ga.Init(); err != nil {
		return err
	}
	defer ga.Terminate()
	size := *n
	if size < 1 || size > 100000 {
		return fmt.Errorf("-n %d: want 1 to 100000", size)
	}
	x, err := ga.Create[float64]("x", []int{size}, nil)
	if err != nil {
		return err
	}
	defer x.Destroy()

	// Go: each process fills its block in place.
	data, lo, hi, _, ok, err := x.AccessLocal()
	if err != nil {
		return err
	}
	if ok {
		for i := lo[0]; i <= hi[0]; i++ {
			data[i-lo[0]] = float64(i + 1)
		}
	}
	if err := ga.Sync(); err != nil {
		return err
	}
	fromGo, err := ga.Dot(x, x)
	if err != nil {
		return err
	}

	// C: the same block, in place, and GA's communicator. The block is C
	// memory (an MPI window), so C may hold the pointer for the call.
	var sumsq C.double
	var rank C.int
	var ptr *C.double
	count := 0
	if ok {
		ptr, count = (*C.double)(unsafe.Pointer(unsafe.SliceData(data))), hi[0]-lo[0]+1
	}
	if rc := C.scale_sumsq(C.uintptr_t(ga.Comm().Handle()), ptr, C.long(count), 2, &sumsq, &rank); rc != C.MPI_SUCCESS {
		return fmt.Errorf("C: MPI error %d", int(rc))
	}
	if int(rank) != ga.Nodeid() {
		return fmt.Errorf("C sees rank %d in GA's communicator, GA says %d", int(rank), ga.Nodeid())
	}
	// C wrote the blocks behind GA's back: a sync before Go reads them.
	if err := ga.Sync(); err != nil {
		return err
	}
	afterC, err := ga.Dot(x, x)
	if err != nil {
		return err
	}

	m := float64(size)
	want := m * (m + 1) * (2*m + 1) / 6
	if ga.Nodeid() == 0 {
		fmt.Fprintf(out, "%d elements on %d processes\n", size, ga.Nnodes())
		fmt.Fprintf(out, "Go: Σ x² = %.0f\n", fromGo)
		fmt.Fprintf(out, "C, after scaling by 2 in place: Σ x² = %.0f\n", float64(sumsq))
		fmt.Fprintf(out, "Go, reading what C wrote: Σ x² = %.0f\n", afterC)
	}
	if fromGo != want || float64(sumsq) != 4*want || afterC != 4*want {
		return fmt.Errorf("Go %v, C %v, Go after C %v; want %v, %v, %v", fromGo, float64(sumsq), afterC, want, 4*want, 4*want)
	}
	return nil
}
