package dra_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/dra"
	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestConfig: CreateConfig's and SetDefaultConfig's I/O processes are the
// ones that move bands (the debug trace says which, and the rows they
// move cover the array once), and the data round-trips exactly; several
// files are refused on every process, naming the Config; Config{} is one
// I/O process per node.
func TestConfig(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		dir := start(t, dra.Limits{})
		defer stop(t)
		me, n := ga.Nodeid(), ga.Nnodes()
		dims := []int{24, 10}
		g, err := ga.Create[float32]("g", dims, nil)
		must(t, err)
		fill(t, g, val[float32])
		var trace bytes.Buffer
		dra.SetDebugOutput(&trace)
		dra.SetDebug(true)
		defer dra.SetDebug(false)
		defer dra.SetDebugOutput(nil)
		defer dra.ResetDefaultConfig()
		for _, c := range []struct {
			cfg     *dra.Config // nil: SetDefaultConfig(Config{})
			workers []int       // the I/O processes
		}{
			{&dra.Config{IOProcs: 1}, []int{0}},
			{&dra.Config{Files: 1, IOProcs: 2}, spread(n, 2)},
			{&dra.Config{IOProcs: 99}, spread(n, n)},
			{&dra.Config{Files: 1}, []int{0}},
			{nil, spread(n, ga.ClusterNnodes())},
		} {
			trace.Reset()
			file := filepath.Join(dir, fmt.Sprintf("cfg%d.dra", len(c.workers)))
			var d *dra.Array[float32]
			if c.cfg != nil {
				d, err = dra.CreateConfig[float32](dims, "cfg", file, dra.ModeWrite, nil, *c.cfg)
			} else {
				must(t, dra.SetDefaultConfig(dra.Config{}))
				d, err = dra.Create[float32](dims, "cfg", file, dra.ModeWrite, nil)
			}
			must(t, err)
			var internals bytes.Buffer
			must(t, d.FprintInternals(&internals))
			if want := fmt.Sprintf("I/O processes %d of %d", len(c.workers), n); !strings.Contains(internals.String(), want) {
				t.Errorf("%+v: internals do not say %q:\n%s", c.cfg, want, internals.String())
			}
			w, err := dra.Write(g, d)
			must(t, err)
			must(t, w.Wait())
			must(t, d.Close())
			moves := strings.Contains(trace.String(), "rows ")
			if want := slices.Contains(c.workers, me); moves != want {
				t.Errorf("%+v: rank %d moved a band: %v, want %v; trace:\n%s", c.cfg, me, moves, want, trace.String())
			}
			h, err := ga.Create[float32]("h", dims, nil)
			must(t, err)
			d, err = dra.Open[float32](file, dra.ModeRead)
			must(t, err)
			r, err := dra.Read(h, d)
			must(t, err)
			must(t, r.Wait())
			must(t, d.Close())
			if got, want := whole(t, h), whole(t, g); !slices.Equal(got, want) {
				t.Errorf("%+v: read back differs", c.cfg)
			}
			must(t, h.Destroy())
			dra.ResetDefaultConfig()
		}
		_, err = dra.CreateConfig[float32](dims, "two", filepath.Join(dir, "two.dra"), dra.ModeWrite, nil, dra.Config{Files: 2})
		if err == nil || !strings.Contains(err.Error(), "Files: 2") {
			t.Errorf("CreateConfig with Files 2: %v", err)
		}
		if err := dra.SetDefaultConfig(dra.Config{Files: 3}); err == nil {
			t.Errorf("SetDefaultConfig with Files 3: no error")
		}
		must(t, g.Destroy())
	})
}

// spread is the ranks of k I/O processes among n: ⌊i·n/k⌋.
func spread(n, k int) []int {
	k = min(max(k, 1), n)
	r := make([]int, k)
	for i := range r {
		r[i] = i * n / k
	}
	return r
}
