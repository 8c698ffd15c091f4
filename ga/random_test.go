package ga_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestRandomize checks Randomize in every element type and five layouts:
// every element written, in [0, val) (part by part for complex), spread
// over the range, different from element to element and from seed to seed,
// the same array for a seed whatever the layout; and refused calls, on 1-4
// processes over shared memory and TCP.
func TestRandomize(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		mpitest.Must(t, ga.Init())
		defer endGA(t)
		eachType(t, randomizes[int32], randomizes[int64], randomizes[float32], randomizes[float64], randomizes[complex64], randomizes[complex128])
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

// inRange reports whether x is in [0, v) for v > 0, (v, 0] for v < 0, or is
// 0 for v = 0.
func inRange(x, v float64) bool {
	switch {
	case v > 0:
		return 0 <= x && x < v
	case v < 0:
		return v < x && x <= 0
	}
	return x == 0
}

func randomizes[T ga.Elem](t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 1))
	for _, val := range []T{mk[T](1000, -7), mk[T](-50, 3), 0} {
		v := complexOf(val)
		for _, dims := range [][]int{{9, 11}, {3, 4, 5}} {
			var first []T // the regular layout's array
			for _, kind := range layouts {
				m := newKind[T](t, kind, dims, rng)
				mpitest.Must(t, m.a.Fill(sentinel[T]()))
				mpitest.Must(t, m.a.Randomize(val, 42))
				got := getAll(t, m.a)
				distinct := map[T]bool{}
				var mean float64
				for k, x := range got {
					c := complexOf(x)
					if !inRange(real(c), real(v)) || !inRange(imag(c), imag(v)) {
						t.Errorf("%s %v Randomize(%v): element %d = %v is out of range", kind, dims, val, k, x)
						break
					}
					distinct[x] = true
					if real(v) != 0 {
						mean += real(c) / real(v) / float64(len(got))
					}
				}
				// Integers drawn from |val| values repeat more.
				if val != 0 && (len(distinct) < min(len(got)*8/10, int(math.Abs(real(v)))/2) || mean < 0.35 || mean > 0.65) {
					t.Errorf("%s %v Randomize(%v): %d distinct values of %d, mean %v of val: not spread over the range", kind, dims, val, len(distinct), len(got), mean)
				}
				if first == nil {
					first = got
				} else {
					sameElems(t, kind+": Randomize's values against the regular layout's", got, first)
				}

				mpitest.Must(t, m.a.Randomize(val, 43))
				other, same := getAll(t, m.a), 0
				for k := range other {
					if other[k] == got[k] {
						same++
					}
				}
				if val != 0 && same > len(got)/10 {
					t.Errorf("%s %v Randomize(%v): seeds 42 and 43 agree on %d elements of %d", kind, dims, val, same, len(got))
				}
				mpitest.Must(t, m.a.Destroy())
			}
		}
	}

	m := newKind[T](t, "cyclic", []int{5, 7}, rng)
	defer destroy(t, m.a)
	if ga.Nnodes() > 1 {
		err := m.a.Randomize(mk[T](9, 9), uint64(ga.Nodeid()))
		if !errors.Is(err, ga.ErrMismatch) {
			mpitest.Fatalf(t, "Randomize with a seed per process: %v, want an error wrapping ErrMismatch", err)
		}
		m.check(t, "Randomize refused")
	}
	var nilArray *ga.Array[T]
	wantErr(t, "Randomize of a nil array", nilArray.Randomize(mk[T](1, 1), 1), "Randomize", "", ga.ErrNil)
}
