package ga_test

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestNorms checks Norm1 (the sum of |a|) and NormInfinity (the largest
// |a|) over all entries, as GA C computes them, against closed forms and a
// sequential model on random data in every element type and four layouts,
// on 1-4 processes.
func TestNorms(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		mpitest.Must(t, ga.Init())
		defer endGA(t)
		eachType(t, norms[int32], norms[int64], norms[float32], norms[float64], norms[complex64], norms[complex128])
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

// magModel is |x| in float64.
func magModel[T ga.Elem](x T) float64 { return cmplx.Abs(complexOf(x)) }

func norms[T ga.Elem](t *testing.T) {
	rng := rand.New(rand.NewPCG(19, uint64(len(typeName[T]()))))
	for _, kind := range kinds {
		for _, dims := range [][]int{{9, 11}, {23}} {
			m := newLayout[T](t, kind, dims, rng)
			// Closed forms: the entries ±k for k = 1..N (3k+4ki, of
			// magnitude 5k, when complex).
			n := len(m.model)
			scale := 1.0
			if isComplex[T]() {
				scale = 5
			}
			for k := range m.model {
				s := 1 - 2*(k%2)
				m.model[k] = mk[T](s*3*(k+1), s*4*(k+1))
				if !isComplex[T]() {
					m.model[k] = mk[T](s*(k+1), 0)
				}
			}
			m.rewrite(t)
			wantNorms(t, m, scale*float64(n*(n+1)/2), scale*float64(n))

			// Random entries.
			var sum, most float64
			for k := range m.model {
				m.model[k] = rnd[T](rng)
				sum += magModel(m.model[k])
				most = max(most, magModel(m.model[k]))
			}
			m.rewrite(t)
			wantNorms(t, m, sum, most)
			mpitest.Must(t, m.a.Destroy())
		}
	}
	var nilArray *ga.Array[T]
	_, err := nilArray.Norm1()
	wantErr(t, "Norm1 of a nil array", err, "Norm1", "", ga.ErrNil)
	_, err = nilArray.NormInfinity()
	wantErr(t, "NormInfinity of a nil array", err, "NormInfinity", "", ga.ErrNil)
}

// wantNorms checks m's norms: the sum to rounding, the maximum exactly.
func wantNorms[T ga.Elem](t *testing.T, m made[T], sum, most float64) {
	t.Helper()
	got, err := m.a.Norm1()
	mpitest.Must(t, err)
	if math.Abs(got-sum) > 1e-12*sum {
		t.Errorf("%s %v: Norm1 = %v, want %v", m.a.Name(), m.a.Dims(), got, sum)
	}
	got, err = m.a.NormInfinity()
	mpitest.Must(t, err)
	if got != most {
		t.Errorf("%s %v: NormInfinity = %v, want %v", m.a.Name(), m.a.Dims(), got, most)
	}
}
