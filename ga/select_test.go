package ga_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestSelectElem checks SelectElem against a sequential model on random
// data full of ties in every element type, in five layouts and three shapes,
// plus ramps, a constant array, NaN and refused calls, on 1-4 processes over
// shared memory and TCP.
func TestSelectElem(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		mpitest.Must(t, ga.Init())
		defer endGA(t)
		eachType(t, selects[int32], selects[int64], selects[float32], selects[float64], selects[complex64], selects[complex128])
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

// selectModel is SelectElem's answer for x of dims: the first element in C
// order that no other ranks strictly above (below), NaN never chosen over
// a number.
func selectModel[T ga.Elem](x []T, dims []int, op ga.Op) (T, []int) {
	k := 0
	for i, v := range x {
		c := cmpModel(v, x[k])
		if x[k] != x[k] && v == v || v == v && (op == ga.OpMax && c > 0 || op == ga.OpMin && c < 0) {
			k = i
		}
	}
	sub := make([]int, len(dims))
	for d, l := len(dims)-1, k; d >= 0; d-- {
		sub[d], l = l%dims[d], l/dims[d]
	}
	return x[k], sub
}

// wantSelect checks both of SelectElem's answers on m.
func wantSelect[T ga.Elem](t *testing.T, what string, m made[T]) {
	t.Helper()
	for _, op := range []ga.Op{ga.OpMin, ga.OpMax} {
		v, sub, err := m.a.SelectElem(op)
		mpitest.Must(t, err)
		wv, wsub := selectModel(m.model, m.a.Dims(), op)
		if (v != wv && (v == v || wv == wv)) || !slices.Equal(sub, wsub) {
			t.Errorf("%s: %s %v: SelectElem(%q) = %v at %v, want %v at %v", what, m.a.Name(), m.a.Dims(), op, v, sub, wv, wsub)
		}
	}
	m.check(t, what+": SelectElem's array")
}

func selects[T ga.Elem](t *testing.T) {
	rng := rand.New(rand.NewPCG(31, uint64(len(typeName[T]()))))
	for _, dims := range [][]int{{9, 11}, {23}, {3, 4, 5}} {
		for _, kind := range layouts {
			m := newKind[T](t, kind, dims, rng)
			// Values in [-20, 20]: many ties, of magnitude too.
			wantSelect(t, "random", m)

			// Ramps: the extremes at the two ends, in both directions.
			for k := range m.model {
				m.model[k] = mk[T](k-7, 2*k)
			}
			m.rewrite(t)
			wantSelect(t, "a ramp", m)
			slices.Reverse(m.model)
			m.rewrite(t)
			wantSelect(t, "a falling ramp", m)

			// One value everywhere: the first element.
			for k := range m.model {
				m.model[k] = mk[T](4, -3)
			}
			m.rewrite(t)
			v, sub, err := m.a.SelectElem(ga.OpMax)
			mpitest.Must(t, err)
			if v != mk[T](4, -3) || slices.ContainsFunc(sub, func(i int) bool { return i != 0 }) {
				t.Errorf("%s %v constant: SelectElem(max) = %v at %v, want %v at the origin", kind, dims, v, sub, mk[T](4, -3))
			}
			mpitest.Must(t, m.a.Destroy())
		}
	}

	// Ties of magnitude only: 5, -5, 3+4i, ... compare alike.
	m := newKind[T](t, "cyclic", []int{4, 6}, rng)
	defer destroy(t, m.a)
	for k := range m.model {
		m.model[k] = mk[T](1, 1)
	}
	m.model[7], m.model[9], m.model[20] = mk[T](-5, 0), mk[T](3, 4), mk[T](5, 0)
	m.rewrite(t)
	wantSelect(t, "ties of magnitude", m)

	if typeName[T]() == "float32" || typeName[T]() == "float64" {
		var nan T
		switch p := any(&nan).(type) {
		case *float32:
			*p = float32(math.NaN())
		case *float64:
			*p = math.NaN()
		}
		m.model[0], m.model[11] = nan, nan
		m.rewrite(t)
		wantSelect(t, "NaN first", m)
		for k := range m.model {
			m.model[k] = nan
		}
		m.rewrite(t)
		v, sub, err := m.a.SelectElem(ga.OpMin)
		mpitest.Must(t, err)
		if v == v || !slices.Equal(sub, []int{0, 0}) {
			t.Errorf("all NaN: SelectElem(min) = %v at %v, want NaN at [0 0]", v, sub)
		}
	}

	for _, op := range []ga.Op{"mean", "MAX", "minimum", ""} {
		_, _, err := m.a.SelectElem(op)
		wantErr(t, fmt.Sprintf("SelectElem(%q)", op), err, "SelectElem", "cyclic", nil, fmt.Sprintf("%q", op))
	}
	var nilArray *ga.Array[T]
	_, _, err := nilArray.SelectElem(ga.OpMin)
	wantErr(t, "SelectElem of a nil array", err, "SelectElem", "", ga.ErrNil)
}
