package ga_test

import (
	"math/rand/v2"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestReshaped: Copy, Add and Dot take arrays of one element count whatever
// their shapes and distributions, as GA does, pairing elements in C order;
// checked against a model in every type, with the output one of the
// operands, on 1-4 processes over shared memory and TCP.
func TestReshaped(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		eachType(t, reshaped[int32], reshaped[int64], reshaped[float32], reshaped[float64], reshaped[complex64], reshaped[complex128])
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

func reshaped[T ga.Elem](t *testing.T) {
	rng := rand.New(rand.NewPCG(31, uint64(len(typeName[T]()))))
	a := newLayout[T](t, "regular", []int{6, 7}, rng)
	defer destroy(t, a.a)
	b := newLayout[T](t, "cyclic", []int{7, 6}, rng)
	defer destroy(t, b.a)
	c := newLayout[T](t, "grid", []int{2, 3, 7}, rng)
	defer destroy(t, c.a)
	alpha, beta := mk[T](3, -1), mk[T](-2, 2)

	// Element i of each array, in C order, pairs with element i of the others.
	must(t, ga.Add(alpha, a.a, beta, b.a, c.a))
	for i := range c.model {
		c.model[i] = alpha*a.model[i] + beta*b.model[i]
	}
	c.check(t, "Add of 6x7 and 7x6 into 2x3x7")
	must(t, ga.Add(alpha, c.a, beta, b.a, b.a))
	for i := range b.model {
		b.model[i] = alpha*c.model[i] + beta*b.model[i]
	}
	b.check(t, "Add into one of its operands of another shape")

	got, err := ga.Dot(a.a, c.a)
	must(t, err)
	var want T
	for i := range a.model {
		want += a.model[i] * c.model[i]
	}
	if got != want {
		t.Errorf("Dot of 6x7 and 2x3x7 = %v, want %v", got, want)
	}

	must(t, ga.Copy(b.a, a.a))
	copy(a.model, b.model)
	a.check(t, "Copy of 7x6 into 6x7")
}
