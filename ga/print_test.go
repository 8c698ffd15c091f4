package ga_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestPrintPatch checks FprintPatch's exact text, pretty and not, in four
// element types and one to three dimensions, written by process 0 alone;
// refused calls and a failing writer, an error on every process; and
// Fsummarize's exact text, plain and verbose; on 1-4 processes.
func TestPrintPatch(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		mpitest.Must(t, ga.Init())
		defer endGA(t)
		wantSummary(t, false, "  No active global arrays\n")
		rng := rand.New(rand.NewPCG(41, 1))

		small := newKind[int32](t, "regular", []int{3, 4}, rng)
		defer destroy(t, small.a)
		small.model = pattern(small.a.Dims(), func(l int) int32 { return int32(10*l - 7) })
		small.rewrite(t)
		wantPrint(t, small.a, []int{0, 1}, []int{2, 3}, true, `global array: regular[0:2,1:3]

              1        2        3
       -------- -------- --------
   0          3       13       23
   1         43       53       63
   2         83       93      103
`)
		wantPrint(t, small.a, []int{0, 1}, []int{2, 3}, false, `global array: regular[0:2,1:3]
regular(0,1) = 3
regular(0,2) = 13
regular(0,3) = 23
regular(1,1) = 43
regular(1,2) = 53
regular(1,3) = 63
regular(2,1) = 83
regular(2,2) = 93
regular(2,3) = 103
`)

		wide := newKind[int64](t, "cyclic", []int{2, 10}, rng)
		defer destroy(t, wide.a)
		wide.model = pattern(wide.a.Dims(), func(l int) int64 { return int64(l*l - 50) })
		wide.rewrite(t)
		wantPrint(t, wide.a, []int{0, 0}, []int{1, 9}, true, `global array: cyclic[0:1,0:9]

              0        1        2        3        4        5        6        7
       -------- -------- -------- -------- -------- -------- -------- --------
   0        -50      -49      -46      -41      -34      -25      -14       -1
   1         50       71       94      119      146      175      206      239

              8        9
       -------- --------
   0         14       31
   1        274      311
`)

		cube := newKind[float64](t, "grid", []int{2, 3, 4}, rng)
		defer destroy(t, cube.a)
		cube.model = pattern(cube.a.Dims(), func(l int) float64 { return float64(l) / 4 })
		cube.rewrite(t)
		wantPrint(t, cube.a, []int{0, 1, 1}, []int{1, 2, 3}, true, `global array: grid[0:1,1:2,1:3]

-- patch: grid[0,1:2,1:3]

                 1           2           3
       ----------- ----------- -----------
   1       1.25000     1.50000     1.75000
   2       2.25000     2.50000     2.75000

-- patch: grid[1,1:2,1:3]

                 1           2           3
       ----------- ----------- -----------
   1       4.25000     4.50000     4.75000
   2       5.25000     5.50000     5.75000
`)

		vec := newKind[float32](t, "irregular", []int{4}, rng)
		defer destroy(t, vec.a)
		vec.model = []float32{-1.5, 2e5, 0.125, 3}
		vec.rewrite(t)
		wantPrint(t, vec.a, []int{1}, []int{3}, true, `global array: irregular[1:3]

   1   2.00000e+05
   2       0.12500
   3       3.00000
`)
		wantPrint(t, vec.a, []int{1}, []int{3}, false, `global array: irregular[1:3]
irregular(1) = 2.00000e+05
irregular(2) = 0.12500
irregular(3) = 3.00000
`)

		z := newKind[complex128](t, "rows", []int{2, 2}, rng)
		defer destroy(t, z.a)
		z.model = []complex128{1, 2 - 1i, 3 - 2i, 123456.25 - 0.25i}
		z.rewrite(t)
		wantPrint(t, z.a, []int{0, 0}, []int{1, 1}, true, `global array: rows[0:1,0:1]

                             0                       1
       ----------------------- -----------------------
   0           1.00000,0.00000        2.00000,-1.00000
   1          3.00000,-2.00000    1.23456e+05,-0.25000
`)
		wantPrint(t, z.a, []int{0, 0}, []int{1, 1}, false, `global array: rows[0:1,0:1]
rows(0,0) = (1.00000,0.00000)
rows(0,1) = (2.00000,-1.00000)
rows(1,0) = (3.00000,-2.00000)
rows(1,1) = (1.23456e+05,-0.25000)
`)

		// Refused on every process, with nothing written.
		var buf bytes.Buffer
		err := small.a.FprintPatch(&buf, []int{0, 0}, []int{3, 3}, true)
		wantErr(t, "PrintPatch outside the array", err, "PrintPatch", "regular", nil, "[3 3]")
		err = cube.a.FprintPatch(&buf, []int{0, 0}, []int{1, 1}, false)
		wantErr(t, "PrintPatch with two indices of three", err, "PrintPatch", "grid", nil)
		var nilArray *ga.Array[int32]
		wantErr(t, "PrintPatch of a nil array", nilArray.FprintPatch(&buf, []int{0}, []int{0}, true), "PrintPatch", "", ga.ErrNil)
		if buf.Len() != 0 {
			t.Errorf("refused PrintPatch calls wrote %q", buf.String())
		}
		// A writer that fails on process 0: an error on every process.
		err = small.a.FprintPatch(failWriter{}, []int{0, 0}, []int{2, 3}, true)
		if ga.Nodeid() == 0 && !errors.Is(err, errDiskFull) || ga.Nodeid() != 0 && !errors.Is(err, ga.ErrPeer) {
			t.Errorf("PrintPatch to a failing writer: %v", err)
		}

		wantSummary(t, false, "  array 1 => int32 regular(3,4)\n"+
			"  array 2 => int64 cyclic(2,10)\n"+
			"  array 3 => float64 grid(2,3,4)\n"+
			"  array 4 => float32 irregular(4)\n"+
			"  array 5 => complex128 rows(2,2)\n")
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

// TestSummarize checks Fsummarize's verbose text, every block and its
// owner, on an irregular and a block-cyclic array; only the last process
// calls it, as it is local; on 1-4 processes.
func TestSummarize(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		mpitest.Must(t, ga.Init())
		defer endGA(t)
		np := ga.Nnodes()
		starts, blocks := [][]int{{0}, {0}}, "    [0:2,0:3] -> process 0\n"
		if np > 1 {
			starts, blocks = [][]int{{0, 2}, {0}}, "    [0:1,0:3] -> process 0\n    [2:2,0:3] -> process 1\n"
		}
		irr, err := ga.CreateIrreg[float64]("irr", []int{3, 4}, starts)
		mpitest.Must(t, err)
		defer destroy(t, irr)
		bc, err := ga.New[int32](5).Name("bc").BlockCyclic(2).Allocate()
		mpitest.Must(t, err)
		defer destroy(t, bc)
		if ga.Nodeid() == np-1 {
			wantSummary(t, true, "  array 1 => float64 irr(3,4)\n"+blocks+
				"  array 2 => int32 bc(5)\n"+
				fmt.Sprintf("    [0:1] -> process 0\n    [2:3] -> process %d\n    [4:4] -> process %d\n", 1%np, 2%np))
		}
		mpitest.Must(t, ga.Sync())
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

var errDiskFull = errors.New("disk full")

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errDiskFull }

// wantPrint checks FprintPatch's text: want from process 0, nothing from
// the others.
func wantPrint[T ga.Elem](t *testing.T, a *ga.Array[T], lo, hi []int, pretty bool, want string) {
	t.Helper()
	var buf bytes.Buffer
	mpitest.Must(t, a.FprintPatch(&buf, lo, hi, pretty))
	if ga.Nodeid() != 0 {
		want = ""
	}
	if got := buf.String(); got != want {
		t.Errorf("FprintPatch(%v, %v, %v) of %s wrote\n%s\nwant\n%s", lo, hi, pretty, a.Name(), got, want)
	}
}

// wantSummary checks Fsummarize's text after its heading, on every process.
func wantSummary(t *testing.T, verbose bool, body string) {
	t.Helper()
	var buf bytes.Buffer
	mpitest.Must(t, ga.Fsummarize(&buf, verbose))
	want := "Summary of allocated global arrays\n-----------------------------------\n" + body
	if got := buf.String(); got != want {
		t.Errorf("Fsummarize(%v) wrote\n%s\nwant\n%s", verbose, got, want)
	}
}
