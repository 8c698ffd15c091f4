package ga_test

import (
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
