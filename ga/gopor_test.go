package ga_test

import (
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGopOr checks Gop's "or", the bitwise or of GA_Igop, on the integer
// types against a model, and that every process refuses it, with x
// unchanged, on the others; and that an unknown operation is refused; on 1-4
// processes.
func TestGopOr(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		mpitest.Must(t, ga.Init())
		defer endGA(t)
		eachType(t, gopOr[int32], gopOr[int64], gopOr[float32], gopOr[float64], gopOr[complex64], gopOr[complex128])
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

func gopOr[T ga.Elem](t *testing.T) {
	me, n := ga.Nodeid(), ga.Nnodes()
	x := func(r, i int) int {
		return []int{1 << r, -(1 << (r + 3)), 0x5a << r, 0, 1<<(20+r) | r}[i]
	}
	mine := make([]T, 5)
	for i := range mine {
		mine[i] = mk[T](x(me, i), 0)
	}
	keep := slices.Clone(mine)
	wantErr(t, "Gop xor", ga.Gop(mine, "xor"), "Gop", "", nil, `"xor"`)
	sameElems(t, "x after a refused Gop", mine, keep)
	if typeName[T]() != "int32" && typeName[T]() != "int64" {
		wantErr(t, "Gop or on "+typeName[T](), ga.Gop(mine, ga.OpOr), "Gop", "", nil, `"or"`, typeName[T]())
		sameElems(t, "x after a refused Gop", mine, keep)
		return
	}
	mpitest.Must(t, ga.Gop(mine, ga.OpOr))
	want := make([]T, len(mine))
	for i := range want {
		w := 0
		for r := range n {
			w |= x(r, i)
		}
		want[i] = mk[T](w, 0)
	}
	sameElems(t, "Gop or", mine, want)
}
