package main

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

func TestMain(m *testing.M) { os.Exit(mpitest.Main(m)) }

// What GA's conjugate_gradient (global/examples/conjugate_gradient at
// dd4034712e5ecc88d08a8c0d4ef56a45230660e4) prints on the 10 × 10 grid's
// Laplacian with b = 1, written to its binary input form (a, row pointers,
// columns, b; 1-based) and run as `ga_cg.x 100 460 lap10.dat` on 1
// process, built with mpicc/mpifort against Debian's GA 5.8.2. As shipped
// (with only ga_vecptr allocated, without which it crashes) it prints
// delta0 167.5, 165, 162.5 and 162.5 on 1 to 4 processes, where r₀ᵀM⁻¹r₀
// is 170, and NaN from its 11th iteration, so it was run with these fixes:
//   - a process's last row is the one before the next process's first
//     (na−1 for the last process) and the loops of computeloops.F and
//     matvecmul.c run to it inclusive (read_input.c's ends were exclusive
//     but for the last process's, and the loops stopped one row before
//     each end, so row na−1 was never computed);
//   - ROW holds na+1 pointers and each process gets its rows' pointers and
//     the one after them with NGA_Get (it read its last row's end past
//     its own part of ROW);
//   - d is put into its global array and synced at the top of each
//     iteration, before the NGA_Get of the whole of d (the Get overwrote
//     the updated d with the first one);
//   - ga_vecptr is malloc'ed (its GA_Malloc_local is commented out), x is
//     put into its global array before the final check, f_matvecmul's row
//     sum starts at 0, and its write(6,*) lines are gone;
//   - the commented-out per-iteration printf is back, with %.15e and ‖r‖.
//
// The corrected original prints the same per-iteration values on 2, 3 and
// 4 processes to 14 digits or more; it and this port also agree on the 100 × 100 grid
// (134 iterations, error 6.8336308e-05 on 4 processes).
var (
	wantDelta0 = 1.700000000000000e+02
	// Per iteration: beta, delta = rᵀM⁻¹r, ‖r‖.
	wantIters = [][3]float64{
		{2.777777777777775e+00, 4.722222222222217e+02, 1.374368541872554e+01},
		{9.926470588235303e-01, 4.687499999999999e+02, 1.369306393762915e+01},
		{2.606410853273853e-01, 1.221755087472119e+02, 6.990722673578515e+00},
		{2.579211916473090e-01, 3.151165280619711e+01, 3.550304370399648e+00},
		{2.917706252916668e-01, 9.194174643238036e+00, 1.917725177728867e+00},
		{3.738739434329714e-01, 3.437462330478837e+00, 1.172597515003138e+00},
		{4.981572902329033e-01, 1.712396919829018e+00, 8.276223582840225e-01},
		{1.430382232561835e-01, 2.449382129217040e-01, 3.130100400445354e-01},
		{6.673712254625466e-02, 1.634647153201638e-02, 8.086153976277320e-02},
		{1.808057099044517e-01, 2.955535389779131e-03, 3.438334125578333e-02},
		{1.829417844516921e-01, 5.406909182163217e-04, 1.470633765716430e-02},
		{8.236620209374233e-02, 4.453465744005666e-05, 4.220647222408272e-03},
		{1.651074879906763e-02, 7.353005418453040e-07, 5.423285136687188e-04},
	}
	// ‖b − A·x‖² at the end ("error is"): a difference of nearly equal
	// numbers, so it varies with the process count in its 11th digit.
	wantError = 2.941202167322353e-07
)

// TestCG solves the 10 × 10 grid; run fails unless the residual keeps
// within CG's bound and the answer solves the system, and the printed
// values must be the corrected original's.
func TestCG(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		*side, *iters, *tol, *every = 10, 0, 1e-4, 1
		var out bytes.Buffer
		mpitest.Must(t, run(&out))
		if mpi.World().Rank() != 0 {
			return
		}
		near := func(what string, got, want, rel float64) {
			if math.Abs(got-want) > rel*math.Abs(want) {
				t.Errorf("%s: got %.15e, want %.15e (the original's)", what, got, want)
			}
		}
		var iter [][3]float64
		for _, line := range strings.Split(out.String(), "\n") {
			f := strings.Fields(line)
			switch {
			case len(f) >= 3 && f[0] == "delta0":
				near("delta0", num(t, f[2]), wantDelta0, 1e-14)
			case len(f) >= 3 && f[0] == "error":
				near("error", num(t, f[2]), wantError, 1e-9)
			case len(f) == 4 && f[0] == strconv.Itoa(len(iter)+1):
				iter = append(iter, [3]float64{num(t, f[1]), num(t, f[2]), num(t, f[3])})
			}
		}
		if len(iter) != len(wantIters) {
			t.Errorf("%d iterations, want %d (the original's):\n%s", len(iter), len(wantIters), out.String())
			return
		}
		for k, w := range wantIters {
			for c, name := range []string{"beta", "delta", "||r||"} {
				near("iteration "+strconv.Itoa(k+1)+" "+name, iter[k][c], w[c], 1e-11)
			}
		}
	}, mpitest.AcrossNodes())
}

// TestCGPlot draws the 10 × 10 grid's residual curve and checks on
// process 0 that the file is a PNG of the picture's size and that the curve
// is the run's printed ‖r‖ over ‖r₀‖, with the bound run checks beside it.
func TestCGPlot(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "cg.png")
		*side, *iters, *tol, *every, *plotFile = 10, 0, 1e-4, 1, file
		defer func() { *plotFile = "" }()
		var out bytes.Buffer
		mpitest.Must(t, run(&out))
		if mpi.World().Rank() != 0 {
			return
		}
		f, err := os.Open(file)
		if err != nil {
			t.Errorf("-plot wrote nothing: %v", err)
			return
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			return
		}
		if b := img.Bounds(); b.Dx() != 576 || b.Dy() != 384 {
			t.Errorf("picture is %d × %d pixels, want 576 × 384 (6 × 4 in at 96 dpi)", b.Dx(), b.Dy())
		}

		var r0 float64
		rs := []float64{1}
		for _, line := range strings.Split(out.String(), "\n") {
			f := strings.Fields(line)
			switch {
			case len(f) == 5 && f[0] == "delta0" && f[3] == "||r0||":
				r0 = num(t, f[4])
			case len(f) == 4 && f[0] == strconv.Itoa(len(rs)):
				rs = append(rs, num(t, f[3])/r0)
			}
		}
		if !(r0 > 0) {
			t.Errorf("no ||r0|| printed:\n%s", out.String())
			return
		}
		if len(rs) != len(wantIters)+1 || len(curve.resid) != len(rs) || len(curve.bound) != len(rs) {
			t.Errorf("plotted %d residuals and %d bounds; the run printed %d iterations and the original does %d",
				len(curve.resid), len(curve.bound), len(rs)-1, len(wantIters))
			return
		}
		kappa := laplacianCond(10)
		rho := (math.Sqrt(kappa) - 1) / (math.Sqrt(kappa) + 1)
		for k := range rs {
			if !(math.Abs(curve.resid[k]-rs[k]) <= 1e-14*rs[k]) {
				t.Errorf("plotted ||r_%d||/||r_0|| = %.15e; the run printed %.15e", k, curve.resid[k], rs[k])
			}
			if want := 2 * math.Sqrt(kappa) * math.Pow(rho, float64(k)); !(math.Abs(curve.bound[k]-want) <= 1e-14*want) {
				t.Errorf("plotted bound at k = %d is %.15e, want 2√κ·ρ^k = %.15e", k, curve.bound[k], want)
			}
			if !(curve.resid[k] <= curve.bound[k]) {
				t.Errorf("k = %d: plotted residual %.6e above its bound %.6e", k, curve.resid[k], curve.bound[k])
			}
		}
	})
}

func num(t *testing.T, s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Errorf("%q: %v", s, err)
	}
	return v
}
