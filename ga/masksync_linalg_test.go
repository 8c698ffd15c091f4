package ga_test

import (
	"math"
	"testing"
	"time"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestMaskSyncLinalg: Gemm and the solvers honour MaskSync and use it up,
// as GA's matmul does. With both synchronizations masked they still give
// the right answer, and the collective call after them synchronizes again:
// rank 0's Fill does not return before rank 1 has entered its own.
func TestMaskSyncLinalg(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		mpitest.Must(t, ga.Init())
		defer endGA(t)
		const n = 6
		a, err := ga.Create[float64]("A", []int{n, n}, nil)
		mpitest.Must(t, err)
		defer destroy(t, a)
		b, err := ga.Create[float64]("B", []int{n, n}, nil)
		mpitest.Must(t, err)
		defer destroy(t, b)
		c, err := ga.Create[float64]("C", []int{n, n}, nil)
		mpitest.Must(t, err)
		defer destroy(t, c)
		d, err := ga.Create[float64]("D", []int{n, n}, nil)
		mpitest.Must(t, err)
		defer destroy(t, d)
		// A = 2I + ones (SPD), B = ones: A·B = (n+2)·ones.
		av, bv := make([]float64, n*n), make([]float64, n*n)
		for i := range n {
			for j := range n {
				av[i*n+j], bv[i*n+j] = 1, 1
				if i == j {
					av[i*n+j] = 3
				}
			}
		}
		if ga.Nodeid() == 0 {
			mpitest.Must(t, a.Put([]int{0, 0}, []int{n - 1, n - 1}, av, nil))
			mpitest.Must(t, b.Put([]int{0, 0}, []int{n - 1, n - 1}, bv, nil))
		}
		mpitest.Must(t, ga.Sync())

		ga.MaskSync(false, false)
		mpitest.Must(t, ga.Gemm(ga.NoTrans, ga.NoTrans, n, n, n, 1.0, a, b, 0.0, c))
		syncsAgain(t, d)
		for i, v := range getAll(t, c) {
			if v != n+2 {
				mpitest.Fatalf(t, "masked Gemm: C[%d] = %v, want %v", i, v, n+2)
			}
		}

		// A·X = B with X = B/(n+2) (every column of B is A's row sum).
		ga.MaskSync(false, false)
		mpitest.Must(t, ga.LltSolve(a, b))
		syncsAgain(t, d)
		for i, v := range getAll(t, b) {
			if math.Abs(v-1.0/(n+2)) > 1e-14 {
				mpitest.Fatalf(t, "masked LltSolve: X[%d] = %v, want %v", i, v, 1.0/(n+2))
			}
		}
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

// syncsAgain checks that the mask is used up: a Fill on every rank
// synchronizes at its start, so rank 0 cannot get past its Fill (and send)
// before rank 1 has entered its own, which it does only after looking for
// rank 0's message for a while.
func syncsAgain(t *testing.T, x *ga.Array[float64]) {
	t.Helper()
	if ga.Nnodes() < 2 {
		mpitest.Must(t, x.Fill(0))
		mpitest.Must(t, ga.Sync())
		return
	}
	c := ga.Comm()
	switch ga.Nodeid() {
	case 0:
		mpitest.Must(t, x.Fill(0))
		mpitest.Must(t, mpi.Send(c, []int{1}, 1, 9))
	case 1:
		// Probe for a while (a first message between two processes may
		// need the receiver's progress to arrive).
		for start := time.Now(); time.Since(start) < 300*time.Millisecond; time.Sleep(time.Millisecond) {
			ok, _, err := mpi.Iprobe[int](c, 0, 9)
			mpitest.Must(t, err)
			if ok {
				mpitest.Fatalf(t, "rank 0 left a Fill before rank 1 entered it: the mask outlived the call it was set for")
			}
		}
		mpitest.Must(t, x.Fill(0))
		_, err := mpi.Recv(c, []int{0}, 0, 9)
		mpitest.Must(t, err)
	default:
		mpitest.Must(t, x.Fill(0))
	}
	mpitest.Must(t, ga.Sync())
}
