// Package ctest is C code that uses MPI on its own, compiled into Go test
// binaries: it stands for the C code a goga user already has. Tests use it to
// check that goga and C share communicators and an MPI that either side
// initialized, and benchmarks use it to time the same MPI calls made from C.
//
// Like a user's own C code, it takes its MPI flags from pkg-config itself (Go
// cannot share cgo flags between packages); goga's library code keeps its C in
// package cgo.
package ctest

/*
#include <mpi.h>
#include <stdint.h>

static int c_init_thread(int *provided) {
	return MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, provided);
}
static int c_finalize(void) { return MPI_Finalize(); }
static int c_finalized(void) { int f = 0; MPI_Finalized(&f); return f; }
static int c_initialized(void) { int f = 0; MPI_Initialized(&f); return f; }

// c_allreduce_sum is what a C library handed a goga communicator would do.
static int c_allreduce_sum(uintptr_t comm, long long v, long long *out) {
	return MPI_Allreduce(&v, out, 1, MPI_LONG_LONG, MPI_SUM, (MPI_Comm)comm);
}
static int c_comm_rank(uintptr_t comm, int *rank) { return MPI_Comm_rank((MPI_Comm)comm, rank); }

// c_split makes a communicator in C for Go to adopt.
static int c_split(uintptr_t comm, int color, uintptr_t *out) {
	MPI_Comm n;
	int rc = MPI_Comm_split((MPI_Comm)comm, color, 0, &n);
	*out = (uintptr_t)n;
	return rc;
}
static int c_free(uintptr_t comm) { MPI_Comm c = (MPI_Comm)comm; return MPI_Comm_free(&c); }

static void c_noop(void) {}

static double c_bench_allreduce(uintptr_t comm, int n) {
	double t, in = 1, out;
	MPI_Barrier((MPI_Comm)comm);
	t = MPI_Wtime();
	for (int i = 0; i < n; i++) MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, (MPI_Comm)comm);
	return MPI_Wtime() - t;
}

static double c_bench_put_flush(uintptr_t win, int target, int n) {
	double t, v = 1;
	t = MPI_Wtime();
	for (int i = 0; i < n; i++) {
		MPI_Put(&v, 1, MPI_DOUBLE, target, 0, 1, MPI_DOUBLE, (MPI_Win)win);
		MPI_Win_flush(target, (MPI_Win)win);
	}
	return MPI_Wtime() - t;
}
*/
import "C"

import "fmt"

func check(op string, rc C.int) error {
	if rc != 0 {
		return fmt.Errorf("ctest: %s failed with MPI error %d", op, int(rc))
	}
	return nil
}

// InitThread initializes MPI from C, asking for MPI_THREAD_MULTIPLE.
func InitThread() (provided int, err error) {
	var p C.int
	err = check("MPI_Init_thread", C.c_init_thread(&p))
	return int(p), err
}

// Finalize finalizes MPI from C.
func Finalize() error { return check("MPI_Finalize", C.c_finalize()) }

// Finalized reports MPI_Finalized as C sees it.
func Finalized() bool { return C.c_finalized() != 0 }

// Initialized reports MPI_Initialized as C sees it.
func Initialized() bool { return C.c_initialized() != 0 }

// AllreduceSum sums v over the communicator whose C handle is comm.
func AllreduceSum(comm uintptr, v int64) (int64, error) {
	var out C.longlong
	err := check("MPI_Allreduce", C.c_allreduce_sum(C.uintptr_t(comm), C.longlong(v), &out))
	return int64(out), err
}

// CommRank is MPI_Comm_rank from C.
func CommRank(comm uintptr) (int, error) {
	var r C.int
	err := check("MPI_Comm_rank", C.c_comm_rank(C.uintptr_t(comm), &r))
	return int(r), err
}

// Split is MPI_Comm_split from C, with key 0.
func Split(comm uintptr, color int) (uintptr, error) {
	var out C.uintptr_t
	err := check("MPI_Comm_split", C.c_split(C.uintptr_t(comm), C.int(color), &out))
	return uintptr(out), err
}

// Free is MPI_Comm_free from C.
func Free(comm uintptr) error { return check("MPI_Comm_free", C.c_free(C.uintptr_t(comm))) }

// Noop is an empty C function: calling it costs one cgo crossing.
func Noop() { C.c_noop() }

// BenchAllreduce runs n 8-byte MPI_Allreduce calls in C and returns the seconds taken.
func BenchAllreduce(comm uintptr, n int) float64 {
	return float64(C.c_bench_allreduce(C.uintptr_t(comm), C.int(n)))
}

// BenchPutFlush runs n 8-byte MPI_Put + MPI_Win_flush pairs in C on the window
// whose C handle is win, inside an epoch the caller opened, and returns the
// seconds taken.
func BenchPutFlush(win uintptr, target, n int) float64 {
	return float64(C.c_bench_put_flush(C.uintptr_t(win), C.int(target), C.int(n)))
}
