package ga_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// profiledRun is a program whose profile is known exactly: process p puts
// r+1 patches of 8 int64s into process r's block, for every r, gets 2
// patches of 4 from the next process's block, takes p+1 tasks from a
// counter on process 0 (ReadInc), and calls Sync and Gop once each. It
// returns the counter's final value on every process.
func profiledRun(t *testing.T) int64 {
	me, np := ga.Nodeid(), ga.Nnodes()
	a, err := ga.Create[int64]("profiled", []int{np * 100}, nil)
	must(t, err)
	defer destroy(t, a)
	c, err := ga.Create[int64]("counter", []int{1}, nil)
	must(t, err)
	defer destroy(t, c)
	must(t, c.Zero())
	buf := make([]int64, 8)
	for r := range np {
		lo, _, ok := a.Distribution(r)
		if !ok {
			fatalf(t, "process %d owns no block of %d elements on %d processes", r, np*100, np)
		}
		for k := range r + 1 {
			at := lo[0] + 8*k
			must(t, a.Put([]int{at}, []int{at + 7}, buf, nil))
		}
	}
	next, _, _ := a.Distribution((me + 1) % np)
	for range 2 {
		must(t, a.Get(next, []int{next[0] + 3}, buf[:4], nil))
	}
	for range me + 1 {
		_, err := c.ReadInc([]int{0}, 1)
		must(t, err)
	}
	must(t, ga.Sync())
	x := []int64{1}
	must(t, ga.Gop(x, ga.OpSum))
	var got [1]int64
	must(t, c.Get([]int{0}, []int{0}, got[:], nil))
	return got[0]
}

// checkProfile checks, on process 0, what profiledRun recorded.
func checkProfile(t *testing.T, p *ga.Profile, np int, nodeOf func(r int) int) {
	if p == nil {
		t.Errorf("process 0 has no profile")
		return
	}
	if len(p.Procs) != np || len(p.Nodes) != np {
		t.Errorf("profile of %d processes on %d nodes entries, want %d", len(p.Procs), len(p.Nodes), np)
		return
	}
	m := p.Traffic()
	for i := range np {
		if n := p.Nodes[i]; n != nodeOf(i) {
			t.Errorf("process %d on node %d, want %d", i, n, nodeOf(i))
		}
		for j := range np {
			want := int64((j + 1) * 8 * 8)
			if j == (i+1)%np {
				want += 2 * 4 * 8
			}
			// The final Get of the counter moves 8 bytes from process 0.
			if j == 0 {
				want += 8 + 8*int64(i+1) // and each ReadInc 8
			}
			if m[i][j] != want {
				t.Errorf("traffic[%d][%d] = %d bytes, want %d", i, j, m[i][j], want)
			}
		}
		put := opOf(p.Procs[i], "Put")
		for j := range np {
			if put == nil || put.Calls[j] != int64(j+1) {
				t.Errorf("process %d's Puts to %d: %+v, want %d calls", i, j, put, j+1)
			}
		}
		for _, name := range []string{"Sync", "Gop"} {
			o := opOf(p.Procs[i], name)
			if o == nil || o.Class != ga.ClassCollective || o.Calls[0] != 1 || sum64(o.Hist) != 1 {
				t.Errorf("process %d's %s: %+v, want one collective call in the histogram", i, name, o)
			}
		}
	}
	tasks := p.Tasks()
	want := make([]int64, np)
	for i := range want {
		want[i] = int64(i + 1)
	}
	if !slices.Equal(tasks, want) {
		t.Errorf("tasks per process %v, want %v", tasks, want)
	}
}

func opOf(pp ga.ProcessProfile, name string) *ga.OpProfile {
	for i := range pp.Ops {
		if pp.Ops[i].Op == name {
			return &pp.Ops[i]
		}
	}
	return nil
}

func sum64(v []int64) int64 {
	var s int64
	for _, x := range v {
		s += x
	}
	return s
}

// TestProfileCounts: the profile's counts of a known program are exact, on
// nodes of two processes; the counter's total is the tasks' sum.
func TestProfileCounts(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		nodeOf := func(r int) int { return r / 2 }
		defer ga.SimulateNodes(func(r, _ int) int { return nodeOf(r) })()
		must(t, ga.Init())
		defer endGA(t)
		must(t, ga.StartProfile(""))
		s0 := ga.ReadStats()
		total := profiledRun(t)
		s1 := ga.ReadStats()
		p, err := ga.StopProfile()
		must(t, err)
		np, me := ga.Nnodes(), ga.Nodeid()
		// PrintStats counts on while the profile counts beside it.
		if puts, want := s1.Put.Calls-s0.Put.Calls, np*(np+1)/2; puts != want {
			t.Errorf("process %d: stats count %d Puts, want %d", me, puts, want)
		}
		if incs := s1.ReadInc.Calls - s0.ReadInc.Calls; incs != me+1 {
			t.Errorf("process %d: stats count %d ReadIncs, want %d", me, incs, me+1)
		}
		if total != int64(np*(np+1)/2) {
			t.Errorf("counter %d, want %d", total, np*(np+1)/2)
		}
		if me != 0 {
			if p != nil {
				t.Errorf("process %d got a profile; only process 0 does", me)
			}
			return
		}
		checkProfile(t, p, np, nodeOf)
		if s := sum64(p.Tasks()); s != total {
			t.Errorf("tasks sum to %d, the counter is %d", s, total)
		}
	})
}

// TestProfileFile: with a directory, Terminate writes the profile there and
// ReadProfile reads back what StopProfile would return.
func TestProfileFile(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		id := []int64{int64(os.Getpid())}
		must(t, ga.Brdcst(id, 0))
		dir := filepath.Join(os.TempDir(), "goga-profile-test-"+strconv.FormatInt(id[0], 10))
		must(t, ga.StartProfile(dir))
		profiledRun(t)
		np, me := ga.Nnodes(), ga.Nodeid()
		must(t, ga.Terminate())
		if me != 0 {
			return
		}
		defer os.RemoveAll(dir)
		p, err := ga.ReadProfile(filepath.Join(dir, ga.ProfileFile))
		must(t, err)
		checkProfile(t, p, np, func(int) int { return 0 })
	})
}

// TestProfileOff: with the profile off nothing is recorded (a profile
// started afterwards holds no operation), and StopProfile is refused on
// every process.
func TestProfileOff(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		_, err := ga.StopProfile()
		wantErr(t, "StopProfile while off", err, "StopProfile", "", nil, "not on")
		profiledRun(t)
		must(t, ga.StartProfile(""))
		err = ga.StartProfile("")
		wantErr(t, "StartProfile twice", err, "StartProfile", "", nil, "already on")
		p, err := ga.StopProfile()
		must(t, err)
		if ga.Nodeid() != 0 {
			return
		}
		for _, pp := range p.Procs {
			for _, o := range pp.Ops {
				if o.Class == ga.ClassOneSided || o.Op == "Sync" || o.Op == "Gop" {
					t.Errorf("process %d recorded %s (%v calls) while the profile was off", pp.Rank, o.Op, o.Calls)
				}
			}
		}
	})
}

// TestProfileNames: the profile names collective calls as the SetDebug
// trace does: every call traced is in the profile under the trace's name,
// and every collective or waiting entry of the profile was traced.
func TestProfileNames(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		must(t, ga.StartProfile(""))
		var out bytes.Buffer
		ga.SetDebugOutput(&out)
		defer ga.SetDebugOutput(nil)
		ga.SetDebug(true)
		a, err := ga.Create[float64]("named", []int{8, 6}, nil)
		must(t, err)
		must(t, a.Fill(2))
		_, err = ga.Dot(a, a)
		must(t, err)
		must(t, ga.Sync())
		must(t, ga.Gop([]float64{1}, ga.OpMax))
		must(t, ga.Brdcst([]int32{3}, 0))
		must(t, a.Destroy())
		ga.SetDebug(false)
		p, err := ga.StopProfile()
		must(t, err)
		if ga.Nodeid() != 0 {
			return
		}
		traced := map[string]bool{}
		for line := range strings.Lines(out.String()) {
			if rest, ok := strings.CutPrefix(line, "ga: process 0: "); ok {
				traced[strings.Fields(rest)[0]] = true
			}
		}
		profiled := map[string]bool{}
		for _, o := range p.Procs[0].Ops {
			if o.Class != ga.ClassOneSided {
				profiled[o.Op] = true
			}
		}
		for _, name := range []string{"Create", "Fill", "Dot", "Sync", "Gop", "Brdcst", "Destroy"} {
			if !traced[name] || !profiled[name] {
				t.Errorf("%s: traced %v, profiled %v", name, traced[name], profiled[name])
			}
		}
		for name := range traced {
			if !profiled[name] {
				t.Errorf("traced %s is not in the profile %v", name, profiled)
			}
		}
		for name := range profiled {
			if !traced[name] {
				t.Errorf("profiled %s was not traced %v", name, traced)
			}
		}
	})
}
