package ctest_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/goga-hpc/goga/internal/ctest"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestMain starts MPI from C in every rank, as a C program that links goga
// would, so that mpi.Init (inside mpitest.Main) must adopt it, and then checks
// that goga left it running for C to finalize.
func TestMain(m *testing.M) {
	if !mpitest.Child() {
		code := m.Run()
		if mpi.Initialized() && !mpi.Finalized() { // benchmarks started MPI
			mpi.Finalize()
		}
		os.Exit(code)
	}
	if _, err := ctest.InitThread(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := mpitest.Main(m)
	if ctest.Finalized() {
		fmt.Fprintln(os.Stderr, "goga finalized an MPI it did not start")
		os.Exit(1)
	}
	if err := ctest.Finalize(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(code)
}

func TestAdopt(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		if !mpi.Adopted() {
			mpitest.Fatalf(t, "mpi.Init did not adopt the MPI that C initialized")
		}
		if got := mpi.Provided(); got != mpi.ThreadMultiple {
			t.Errorf("Provided() = %v, want %v", got, mpi.ThreadMultiple)
		}
		// A second Init is harmless and reports the same level.
		if lvl, err := mpi.Init(); err != nil || lvl != mpi.ThreadMultiple {
			t.Errorf("second Init = %v, %v", lvl, err)
		}
	})
}

// TestSharedComm interleaves C and Go collectives on the same communicators.
func TestSharedComm(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		w := mpi.World()
		n, r := int64(w.Size()), int64(w.Rank())
		sub, err := w.Split(w.Rank()%2, -w.Rank())
		mpitest.Must(t, err)
		defer mpitest.Cleanup(t, sub.Free)
		for i := range int64(5) {
			// C on the world handle, then Go on the same communicator.
			got, err := ctest.AllreduceSum(w.Handle(), r+i)
			mpitest.Must(t, err)
			if want := n*(n-1)/2 + n*i; got != want {
				mpitest.Fatalf(t, "C Allreduce over World = %d, want %d", got, want)
			}
			g := []int64{0}
			mpitest.Must(t, mpi.Allreduce(w, []int64{r * i}, g, mpi.Sum))
			if want := i * n * (n - 1) / 2; g[0] != want {
				mpitest.Fatalf(t, "Go Allreduce = %d, want %d", g[0], want)
			}
			// C on a communicator that Go split, ranks as Go sees them.
			cr, err := ctest.CommRank(sub.Handle())
			if err != nil || cr != sub.Rank() {
				mpitest.Fatalf(t, "C sees rank %d (%v) in the split communicator, Go %d", cr, err, sub.Rank())
			}
			s, err := ctest.AllreduceSum(sub.Handle(), 1)
			if err != nil || s != int64(sub.Size()) {
				mpitest.Fatalf(t, "C Allreduce over the split = %d (%v), want %d", s, err, sub.Size())
			}
		}
	})
}

// TestCommFromC adopts a communicator that C created, and hands it back.
func TestCommFromC(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		w := mpi.World()
		h, err := ctest.Split(w.Handle(), w.Rank()%2)
		mpitest.Must(t, err)
		c, err := mpi.CommFromHandle(h)
		mpitest.Must(t, err)
		want := (w.Size() + 1 - w.Rank()%2) / 2
		if c.Size() != want || c.Rank() != w.Rank()/2 {
			mpitest.Fatalf(t, "adopted communicator: rank %d of %d, want %d of %d", c.Rank(), c.Size(), w.Rank()/2, want)
		}
		got := []int{0}
		mpitest.Must(t, mpi.Allreduce(c, []int{w.Rank()}, got, mpi.Max))
		if wantMax := w.Size() - 1 - (w.Size()-1-w.Rank()%2)%2; got[0] != wantMax {
			mpitest.Fatalf(t, "Max over the C communicator = %d, want %d", got[0], wantMax)
		}
		f, err := mpi.CommFromFortran(c.Fortran())
		mpitest.Must(t, err)
		if cmp, err := f.Compare(c); err != nil || cmp != mpi.Ident {
			mpitest.Fatalf(t, "Fortran round trip compares %v (%v), want Ident", cmp, err)
		}
		mpitest.Must(t, ctest.Free(h))
	})
}
