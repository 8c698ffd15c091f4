package scalapack

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/goga-hpc/goga/blacs"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestInverseAndEigen checks Getri and Potri against A·A⁻¹ = I in every
// precision, and Syevd against a matrix with known eigenvalues.
func TestInverseAndEigen(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		g := worldGrid(t)
		defer mpitest.Cleanup(t, g.Exit)
		eachElem(t, "Inverse", func(t *testing.T) { testInverse[float32](t, g) }, func(t *testing.T) { testInverse[float64](t, g) },
			func(t *testing.T) { testInverse[complex64](t, g) }, func(t *testing.T) { testInverse[complex128](t, g) })
		const n, nb = 19, 4
		av := tridiag
		a, _ := NewMatrix[float64](g, n, n, nb, nb)
		// The tridiagonal (3, -1) matrix has eigenvalues 3 - 2cos(kπ/(n+1)).
		a.Fill(av)
		vals, z, err := Syevd(Lower, a, nil)
		mpitest.Must(t, err)
		want := make([]float64, n)
		for k := range n {
			want[k] = 3 - 2*math.Cos(float64(k+1)*math.Pi/float64(n+1))
		}
		slices.Sort(want)
		for k := range n {
			if math.Abs(vals[k]-want[k]) > 1e-12 {
				mpitest.Fatalf(t, "eigenvalue %d = %.15g, want %.15g", k, vals[k], want[k])
			}
		}
		zv, err := z.Gather()
		mpitest.Must(t, err)
		for k := range n { // A·z_k = λ_k z_k
			for i := range n {
				s := 0.0
				for j := range n {
					s += av(i, j) * zv[j+k*n]
				}
				if math.Abs(s-vals[k]*zv[i+k*n]) > 1e-12 {
					mpitest.Fatalf(t, "eigenvector %d: residual %g at row %d", k, s-vals[k]*zv[i+k*n], i)
				}
			}
		}
	}, mpitest.AcrossNodes())
}

// TestSygvx solves A·x = λ·B·x for the (3, -1) tridiagonal A and B = diag(d):
// with B = 2·I the eigenvalues are half of A's; and every pair satisfies
// A·z = λ·B·z with zᵀ·B·z = 1.
func TestSygvx(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		g := worldGrid(t)
		defer mpitest.Cleanup(t, g.Exit)
		const n, nb = 17, 4
		av := tridiag
		for _, d := range []func(i int) float64{
			func(int) float64 { return 2 },
			func(i int) float64 { return 1 + float64(i%3) },
		} {
			a, _ := NewMatrix[float64](g, n, n, nb, nb)
			b, _ := NewMatrix[float64](g, n, n, nb, nb)
			a.Fill(av)
			b.Fill(func(i, j int) float64 {
				if i == j {
					return d(i)
				}
				return 0
			})
			vals, z, err := Sygvx(1, Lower, a, b)
			mpitest.Must(t, err)
			zv, err := z.Gather()
			mpitest.Must(t, err)
			for k := range n {
				norm := 0.0
				for i := range n {
					s := 0.0
					for j := range n {
						s += av(i, j) * zv[j+k*n]
					}
					if r := s - vals[k]*d(i)*zv[i+k*n]; math.Abs(r) > 1e-12 {
						mpitest.Fatalf(t, "pair %d: residual %g at row %d", k, r, i)
					}
					norm += d(i) * zv[i+k*n] * zv[i+k*n]
				}
				if math.Abs(norm-1) > 1e-12 {
					mpitest.Fatalf(t, "pair %d: zᵀBz = %v", k, norm)
				}
				if k > 0 && vals[k] < vals[k-1] {
					mpitest.Fatalf(t, "eigenvalues not ascending: %v", vals)
				}
			}
			if d(0) == 2 && d(1) == 2 {
				for k := range n {
					want := (3 - 2*math.Cos(float64(k+1)*math.Pi/float64(n+1))) / 2
					if math.Abs(vals[k]-want) > 1e-12 {
						mpitest.Fatalf(t, "eigenvalue %d = %v, want %v", k, vals[k], want)
					}
				}
			}
		}
		// A B that is not positive definite is reported as such.
		a, _ := NewMatrix[float64](g, n, n, nb, nb)
		b, _ := NewMatrix[float64](g, n, n, nb, nb)
		a.Fill(av)
		b.Fill(diagonalWith(1, -1, 3))
		var npd *NotPositiveDefiniteError
		if _, _, err := Sygvx(1, Lower, a, b); !errors.As(err, &npd) {
			mpitest.Fatalf(t, "Sygvx with an indefinite B: %v", err)
		}
	}, mpitest.AcrossNodes())
}

// testInverse inverts a Hermitian positive definite matrix, the (3, -1)
// tridiagonal one, with imaginary parts ±1/4 beside the diagonal in the
// complex types, by Getrf and Getri and by Potrf and Potri.
func testInverse[T Elem](t *testing.T, g *blacs.Grid) {
	const n, nb = 19, 4
	av := func(i, j int) T {
		im := 0.0
		switch i - j {
		case 1:
			im = 0.25
		case -1:
			im = -0.25
		}
		return fromParts[T](tridiag(i, j), im)
	}
	identity := func(what string, inv []T) {
		t.Helper()
		for i := range n {
			for j := range n {
				var s T
				for k := range n {
					s += av(i, k) * inv[k+j*n]
				}
				if i == j {
					s -= 1
				}
				if abs(s) > 16*n*eps[T]()*8 {
					mpitest.Fatalf(t, "%s: (A·A⁻¹)[%d][%d] is off by %g", what, i, j, abs(s))
				}
			}
		}
	}
	a, err := NewMatrix[T](g, n, n, nb, nb)
	mpitest.Must(t, err)
	a.Fill(av)
	ipiv, err := Getrf(a)
	mpitest.Must(t, err)
	mpitest.Must(t, Getri(a, ipiv))
	inv, err := a.Gather()
	mpitest.Must(t, err)
	identity("Getri", inv)

	a.Fill(av)
	mpitest.Must(t, Potrf(Lower, a))
	mpitest.Must(t, Potri(Lower, a))
	low, err := a.Gather()
	mpitest.Must(t, err)
	for j := range n { // Potri fills one triangle: mirror it
		for i := range j {
			low[i+j*n] = conj(low[j+i*n])
		}
	}
	identity("Potri", low)
}
