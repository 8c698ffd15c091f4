package ga_test

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestUnchecked: started Unchecked (by the option, or by GOGA_UNCHECKED=1),
// Brdcst, Gop with every operation and Sync, on the world and on a
// processor group, give the values they give checked; a process's own
// mistake is still its error; other collective calls still agree.
func TestUnchecked(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		for _, c := range []struct {
			name string
			init func() error
		}{
			{"Option", func() error { return ga.Init(ga.Unchecked()) }},
			{"Environment", func() error {
				os.Setenv("GOGA_UNCHECKED", "1")
				defer os.Unsetenv("GOGA_UNCHECKED")
				return ga.Init()
			}},
		} {
			t.Run(c.name, func(t *testing.T) {
				must(t, c.init())
				defer endGA(t)
				if !ga.IsUnchecked() {
					fatalf(t, "not unchecked")
				}
				testUncheckedCalls(t, ga.PgroupGetWorld())
				if n := ga.Nnodes(); n > 1 {
					evens := make([]int, 0, n)
					for r := 0; r < n; r += 2 {
						evens = append(evens, r)
					}
					p, err := ga.PgroupCreate(evens)
					must(t, err)
					if ga.Nodeid()%2 == 0 {
						testUncheckedCalls(t, p)
					}
					must(t, ga.Sync())
					must(t, p.Destroy())
				}
				// The agreement of every other collective call stays.
				dims := []int{8}
				if ga.Nodeid() == 0 {
					dims = []int{9}
				}
				_, err := ga.Create[float64]("a", dims, nil)
				if ga.Nnodes() > 1 && !errors.Is(err, ga.ErrMismatch) {
					t.Errorf("Create with different dims: %v, want ErrMismatch", err)
				}
			})
		}
		if mpi.World().Size() > 1 {
			// Unchecked on rank 0 only: an error on every process, and GA
			// does not start.
			var opts []ga.Option
			if mpi.World().Rank() == 0 {
				opts = append(opts, ga.Unchecked())
			}
			if err := ga.Init(opts...); err == nil || !strings.Contains(err.Error(), "some processes only") {
				t.Errorf("Init, Unchecked on rank 0 only: %v", err)
			}
			if ga.Initialized() {
				fatalf(t, "GA started after a refused Init")
			}
		}
		must(t, ga.Init())
		if ga.IsUnchecked() {
			t.Errorf("Init after an unchecked run: still unchecked")
		}
		must(t, ga.Terminate())
	})
}

// testUncheckedCalls runs Brdcst, Gop and Sync on p's processes, which
// this process is one of, and checks their values.
func testUncheckedCalls(t *testing.T, p *ga.Pgroup) {
	me, n := p.Nodeid(), p.Nnodes()
	b := []float64{float64(me), 0.5}
	must(t, ga.PgroupBrdcst(p, b, n-1))
	if b[0] != float64(n-1) || b[1] != 0.5 {
		t.Errorf("Brdcst from %d: %v", n-1, b)
	}
	sign := 1.0
	if me%2 == 1 {
		sign = -1
	}
	v := sign * float64(me+1) // +1, -2, +3, -4, ...
	want := map[ga.Op]float64{ga.OpSum: 0, ga.OpProd: 1, ga.OpMax: math.Inf(-1), ga.OpMin: math.Inf(1),
		ga.OpAbsMax: 0, ga.OpAbsMin: math.Inf(1)}
	for r := range n {
		w := 1.0
		if r%2 == 1 {
			w = -1
		}
		w *= float64(r + 1)
		want[ga.OpSum] += w
		want[ga.OpProd] *= w
		want[ga.OpMax] = max(want[ga.OpMax], w)
		want[ga.OpMin] = min(want[ga.OpMin], w)
		want[ga.OpAbsMax] = max(want[ga.OpAbsMax], math.Abs(w))
		want[ga.OpAbsMin] = min(want[ga.OpAbsMin], math.Abs(w))
	}
	// In one order on every process: unchecked, different operations
	// would meet in one MPI_Allreduce.
	for _, op := range []ga.Op{ga.OpSum, ga.OpProd, ga.OpMax, ga.OpMin, ga.OpAbsMax, ga.OpAbsMin} {
		w := want[op]
		x := []float64{v}
		must(t, ga.PgroupGop(p, x, op))
		if x[0] != w {
			t.Errorf("Gop %v over %d processes: %v, want %v", op, n, x[0], w)
		}
	}
	bits := []int64{1 << me}
	must(t, ga.PgroupGop(p, bits, ga.OpOr))
	if bits[0] != 1<<n-1 {
		t.Errorf("Gop OpOr: %b, want %b", bits[0], int64(1<<n-1))
	}
	z := []complex128{complex(float64(me), 1)}
	must(t, ga.PgroupGop(p, z, ga.OpSum))
	if want := complex(float64(n*(n-1)/2), float64(n)); z[0] != want {
		t.Errorf("Gop complex sum: %v, want %v", z[0], want)
	}
	// A process's own mistake is its error, before any MPI call: every
	// process makes it here, so none waits.
	if err := ga.PgroupBrdcst(p, b, n); err == nil {
		t.Errorf("Brdcst from root %d of %d: no error", n, n)
	}
	if err := ga.PgroupGop(p, []float64{1}, ga.OpOr); err == nil {
		t.Errorf("Gop OpOr of float64: no error")
	}
	// Sync completes every process's puts.
	a, err := ga.CreateConfig[int64]("synced", []int{n}, nil, p)
	must(t, err)
	at := []int{(me + 1) % n}
	must(t, a.Put(at, at, []int64{int64(me + 100)}, nil))
	must(t, p.Sync())
	got := []int64{0}
	mine := []int{me}
	must(t, a.Get(mine, mine, got, nil))
	if want := int64((me+n-1)%n + 100); got[0] != want {
		t.Errorf("after Sync, element %d = %d, want %d", me, got[0], want)
	}
	must(t, a.Destroy())
}
