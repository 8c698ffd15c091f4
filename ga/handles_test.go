package ga_test

import (
	"math"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestHandles: a live array passes CheckHandle and Valid; a nil one, a
// destroyed one and one from before Terminate fail them with an error
// instead of GA's abort. Process grids, MA, Fortran and memory devices are
// answered as they are here.
func TestHandles(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		n := ga.Nnodes()
		a, err := ga.Create[float64]("live", []int{8, 5}, nil)
		must(t, err)
		if !a.Valid() {
			t.Errorf("a live array is not Valid")
		}
		must(t, a.CheckHandle("before the loop"))
		var none *ga.Array[float64]
		if none.Valid() {
			t.Errorf("a nil array is Valid")
		}
		wantErr(t, "nil", none.CheckHandle("step 3"), "CheckHandle", "", ga.ErrNil, "step 3")
		if a.UsesProcGrid() || none.UsesProcGrid() {
			t.Errorf("UsesProcGrid of a regular and a nil array: %v, %v", a.UsesProcGrid(), none.UsesProcGrid())
		}
		g, err := ga.New[int32](6, 6).Name("grid").BlockCyclicGrid([]int{2, 2}, []int{n, 1}).Allocate()
		must(t, err)
		c, err := ga.New[int32](6, 6).Name("cyclic").BlockCyclic(2, 2).Allocate()
		must(t, err)
		if !g.UsesProcGrid() || c.UsesProcGrid() {
			t.Errorf("UsesProcGrid: BlockCyclicGrid %v, BlockCyclic %v; want true, false", g.UsesProcGrid(), c.UsesProcGrid())
		}
		must(t, c.Destroy())
		must(t, g.Destroy())
		if c.Valid() {
			t.Errorf("a destroyed array is Valid")
		}
		wantErr(t, "destroyed", c.CheckHandle("after Destroy"), "CheckHandle", "cyclic", ga.ErrDestroyed, "after Destroy")
		if ga.UsesMA() || ga.UsesFAPI() {
			t.Errorf("UsesMA %v, UsesFAPI %v; want false", ga.UsesMA(), ga.UsesFAPI())
		}
		ga.RegisterStackMemory(func(n int) []byte { return make([]byte, n) }, func([]byte) {})

		// Host memory is the only device; another is refused on every
		// process, and nothing is made.
		h, err := ga.New[float64](4).Name("host").SetMemoryDev("host").Allocate()
		must(t, err)
		must(t, h.Fill(2))
		v := make([]float64, 4)
		must(t, h.Get([]int{0}, []int{3}, v, nil))
		if v[3] != 2 {
			t.Errorf("host-memory array holds %v", v)
		}
		must(t, h.Destroy())
		before := ga.InquireMemory()
		gpu, err := ga.New[float64](4).Name("gpu").SetMemoryDev("cuda:0").Allocate()
		wantErr(t, "device", err, "Allocate", "gpu", nil, `"cuda:0"`, "host")
		if gpu != nil || ga.InquireMemory() != before {
			t.Errorf("a refused device made an array (%v) or took memory (%d bytes, %d before)", gpu, ga.InquireMemory(), before)
		}
		must(t, ga.Terminate())
		if a.Valid() {
			t.Errorf("an array from before Terminate is Valid")
		}
		wantErr(t, "terminated", a.CheckHandle("after Terminate"), "CheckHandle", "live", ga.ErrDestroyed, "after Terminate")
	})
}

// TestDeallocate: Deallocate frees an array's memory and keeps it for
// Allocate; in between it is refused, and a refusal on one process is an
// error on every process with nothing changed.
func TestDeallocate(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		a, err := ga.Create[int64]("d", []int{7, 5}, nil)
		must(t, err)
		defer destroy(t, a)
		must(t, a.Fill(3))
		full := ga.InquireMemory()
		// One process passes nil: every process gets an error.
		x := a
		if ga.Nodeid() == 0 {
			x = nil
		}
		if err := x.Deallocate(); err == nil || !a.Valid() || ga.InquireMemory() != full {
			t.Errorf("Deallocate with nil on process 0: %v; array valid %v, memory %d of %d", err, a.Valid(), ga.InquireMemory(), full)
		}
		must(t, a.Deallocate())
		if a.Valid() || ga.InquireMemory() >= full {
			t.Errorf("after Deallocate: valid %v, memory %d (was %d)", a.Valid(), ga.InquireMemory(), full)
		}
		v := make([]int64, 35)
		wantErr(t, "Get after Deallocate", a.Get([]int{0, 0}, []int{6, 4}, v, nil), "Get", "d", ga.ErrDestroyed, "Deallocate")
		wantErr(t, "Deallocate twice", a.Deallocate(), "Deallocate", "d", ga.ErrDestroyed)
		must(t, a.Allocate())
		if !a.Valid() || ga.InquireMemory() != full {
			t.Errorf("after Allocate: valid %v, memory %d, want %d", a.Valid(), ga.InquireMemory(), full)
		}
		wantErr(t, "Allocate twice", a.Allocate(), "Allocate", "d", nil, "has its memory")
		must(t, a.Fill(4))
		must(t, a.Get([]int{0, 0}, []int{6, 4}, v, nil))
		for i, e := range v {
			if e != 4 {
				t.Fatalf("element %d = %d after Allocate and Fill(4)", i, e)
			}
		}
		// Left deallocated, an array is still destroyed by Terminate.
		b, err := ga.Create[float32]("left", []int{9}, nil)
		must(t, err)
		must(t, b.Deallocate())
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

// TestOverlay: an overlay sees its parent's bytes through its own type;
// one that needs more memory than the parent has is refused everywhere;
// after the parent's Destroy it is refused.
func TestOverlay(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		p, err := ga.Create[float64]("parent", []int{8, 6}, nil)
		must(t, err)
		must(t, p.Fill(1.5))
		used := ga.InquireMemory()
		c, err := ga.Overlay(ga.New[int64](8, 6).Name("child"), p)
		must(t, err)
		if ga.InquireMemory() != used {
			t.Errorf("an overlay took memory: %d bytes, %d before", ga.InquireMemory(), used)
		}
		bits := make([]int64, 48)
		must(t, c.Get([]int{0, 0}, []int{7, 5}, bits, nil))
		for i, b := range bits {
			if uint64(b) != math.Float64bits(1.5) {
				t.Fatalf("child element %d = %#x, want the bits of 1.5", i, b)
			}
		}
		must(t, ga.Sync())
		if ga.Nodeid() == ga.Nnodes()-1 {
			must(t, c.Put([]int{3, 2}, []int{3, 2}, []int64{int64(math.Float64bits(-2.25))}, nil))
		}
		must(t, ga.Sync())
		one := make([]float64, 1)
		must(t, p.Get([]int{3, 2}, []int{3, 2}, one, nil))
		if one[0] != -2.25 {
			t.Errorf("parent at (3,2) = %v after the child's put, want -2.25", one[0])
		}
		big, err := ga.Overlay(ga.New[complex128](8, 6).Name("big"), p)
		wantErr(t, "too big", err, "Overlay", "big", nil, "needs")
		if big != nil {
			t.Errorf("a refused overlay was made")
		}
		wantErr(t, "Deallocate an overlay", c.Deallocate(), "Deallocate", "child", nil, "overlay")
		must(t, c.Destroy())
		must(t, p.Get([]int{3, 2}, []int{3, 2}, one, nil))
		if one[0] != -2.25 || !p.Valid() {
			t.Errorf("after the child's Destroy the parent holds %v (valid %v)", one[0], p.Valid())
		}
		c2, err := ga.Overlay(ga.New[float64](8, 6).Name("again"), p)
		must(t, err)
		must(t, p.Destroy())
		wantErr(t, "orphan", c2.Get([]int{0, 0}, []int{0, 0}, one, nil), "Get", "again", ga.ErrDestroyed, "parent")
		must(t, c2.Destroy())
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP))
}

// TestReadOnly: a read_only array refuses the calls that write it, on every
// process, and changes nothing; it is read, and copied from, as before.
func TestReadOnly(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		a, err := ga.Create[float64]("ro", []int{6, 6}, nil)
		must(t, err)
		defer destroy(t, a)
		b, err := a.Duplicate("copy")
		must(t, err)
		defer destroy(t, b)
		must(t, a.Fill(2))
		wantErr(t, "unknown property", a.SetProperty("write_cache"), "SetProperty", "ro", nil, `"write_cache"`)
		wantErr(t, "unset without a property", a.UnsetProperty(), "UnsetProperty", "ro", nil, "no property")
		must(t, a.SetProperty("read_only"))
		wantErr(t, "set twice", a.SetProperty("read_only"), "SetProperty", "ro", nil, "already")
		ones := []float64{1, 1, 1, 1}
		lo, hi := []int{1, 1}, []int{2, 2}
		wantErr(t, "Put", a.Put(lo, hi, ones, nil), "Put", "ro", nil, "read_only")
		wantErr(t, "Acc", a.Acc(lo, hi, ones, nil, 1), "Acc", "ro", nil, "read_only")
		wantErr(t, "Scatter", a.Scatter(ones[:1], [][]int{{0, 0}}), "Scatter", "ro", nil, "read_only")
		wantErr(t, "Zero", a.Zero(), "Zero", "ro", nil, "read_only")
		wantErr(t, "ScalePatch", a.ScalePatch(lo, hi, 3), "ScalePatch", "ro", nil, "read_only")
		must(t, ga.Copy(a, b))
		for _, x := range []*ga.Array[float64]{a, b} {
			v := make([]float64, 36)
			must(t, x.Get([]int{0, 0}, []int{5, 5}, v, nil))
			for i, e := range v {
				if e != 2 {
					t.Fatalf("%s element %d = %v, want 2: a refused write changed it", x.Name(), i, e)
				}
			}
		}
		must(t, a.UnsetProperty())
		must(t, a.Zero())
		must(t, a.Put(lo, hi, ones, nil))
	})
}
