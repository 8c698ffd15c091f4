package ga_test

import (
	"math"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

func TestReadMatrixMarket(t *testing.T) {
	r, c, d, err := ga.ReadMatrixMarket(strings.NewReader("%%MatrixMarket matrix array real symmetric\n% lower triangle, by columns\n3 3\n1\n2\n3\n4\n5\n6\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1, 2, 3, 2, 4, 5, 3, 5, 6}
	if r != 3 || c != 3 || len(d) != 9 {
		t.Fatalf("shape %d×%d, %d values", r, c, len(d))
	}
	for i := range want {
		if d[i] != want[i] {
			t.Fatalf("entry %d = %v, want %v (all %v)", i, d[i], want[i], d)
		}
	}
	for _, bad := range []string{
		"", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n",
		"%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n",
		"%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n",
	} {
		if _, _, _, err := ga.ReadMatrixMarket(strings.NewReader(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

// TestSolveMatrixMarket solves the systems of testdata/*.mtx, whose solutions
// are known: A·ones = 10·ones for nonsym6, and the SPD tridiagonal spd5.
func TestSolveMatrixMarket(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		mpitest.Must(t, ga.Init())
		defer endGA(t)
		a, err := ga.LoadMatrixMarket("nonsym6", "../testdata/nonsym6.mtx")
		mpitest.Must(t, err)
		b, err := ga.Create[float64]("b", []int{6, 1}, nil)
		mpitest.Must(t, err)
		mpitest.Must(t, b.Fill(10))
		mpitest.Must(t, ga.Solve(a, b))
		x := make([]float64, 6)
		mpitest.Must(t, b.Get([]int{0, 0}, []int{5, 0}, x, nil))
		for i, v := range x {
			if math.Abs(v-1) > 1e-13 {
				fatalf(t, "nonsym6: x[%d] = %v, want 1", i, v)
			}
		}
		s, err := ga.LoadMatrixMarket("spd5", "../testdata/spd5.mtx")
		mpitest.Must(t, err)
		// A·(1,2,3,4,5) = (2, 4, 6, 8, 16) for the (4, -1) tridiagonal.
		b5, err := ga.Create[float64]("b5", []int{5, 1}, nil)
		mpitest.Must(t, err)
		if ga.Nodeid() == 0 {
			mpitest.Must(t, b5.Put([]int{0, 0}, []int{4, 0}, []float64{2, 4, 6, 8, 16}, nil))
		}
		mpitest.Must(t, ga.Sync())
		mpitest.Must(t, ga.LltSolve(s, b5))
		x5 := make([]float64, 5)
		mpitest.Must(t, b5.Get([]int{0, 0}, []int{4, 0}, x5, nil))
		for i, v := range x5 {
			if math.Abs(v-float64(i+1)) > 1e-13 {
				fatalf(t, "spd5: x[%d] = %v, want %d", i, v, i+1)
			}
		}
		if _, err := ga.LoadMatrixMarket("missing", "../testdata/no-such.mtx"); err == nil {
			fatalf(t, "loading a missing file succeeded")
		}
	})
}
