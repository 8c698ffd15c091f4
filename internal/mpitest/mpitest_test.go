package mpitest_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

func TestMain(m *testing.M) { os.Exit(mpitest.Main(m)) }

const fixtureEnv = "GOGA_MPITEST_FIXTURE"

// wantPlacementEnv is the placement the "placed" fixture must find itself
// launched with.
const wantPlacementEnv = "GOGA_MPITEST_WANT_PLACEMENT"

// pidDirEnv names the directory where the hanging fixture's ranks leave
// their process ids.
const pidDirEnv = "GOGA_MPITEST_PIDDIR"

// TestFixture misbehaves on purpose, in the way $GOGA_MPITEST_FIXTURE says,
// when TestLauncher launches it.
func TestFixture(t *testing.T) {
	mode := os.Getenv(fixtureEnv)
	if !mpitest.Child() || mode == "" {
		t.Skip("run by TestLauncher")
	}
	mpitest.Run(t, func(t *testing.T) {
		w := mpi.World()
		last := w.Size() - 1
		switch mode {
		case "fail":
			if w.Rank() == last {
				t.Error("the last rank fails on purpose")
			}
		case "hang":
			// Stuck ranks may not end when asked (a rank spinning in a
			// barrier with its signals blocked): only SIGKILL ends these.
			signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGPIPE)
			pid := strconv.Itoa(os.Getpid())
			os.WriteFile(filepath.Join(os.Getenv(pidDirEnv), pid), nil, 0o644)
			if w.Rank() == 0 {
				time.Sleep(time.Hour)
			}
		case "panic":
			if w.Rank() == last {
				panic("the last rank panics on purpose")
			}
		case "fatal":
			if w.Rank() == last {
				mpitest.Fatalf(t, "the last rank stops on purpose")
			}
		case "cleanup":
			// The others wait for a message that never comes: the deferred
			// Barrier must be left out, or the job hangs instead of ending.
			if w.Rank() == last {
				defer mpitest.Cleanup(t, w.Barrier)
				panic("the last rank panics with a collective clean-up deferred")
			}
			_, err := mpi.Recv(w, []int{0}, last, 99)
			mpitest.Must(t, err)
		case "nil":
			if w.Rank() == last {
				var p *[4]int
				p[1] = 1 // SIGSEGV in Go code, unrecovered
			}
		case "placed":
			// Each rank runs on its node of the placement the job was
			// launched with, and the job says which that is.
			p := mpitest.Placed()
			if p.String() != os.Getenv(wantPlacementEnv) {
				mpitest.Fatalf(t, "Placed() = %v, want %s", p, os.Getenv(wantPlacementEnv))
			}
			host, err := os.Hostname()
			mpitest.Must(t, err)
			// The rank's node, counting those that run no ranks: node 0
			// is this host, whatever its name, the others are named.
			slot, r := 0, w.Rank()
			for ; r >= p[slot]; slot++ {
				r -= p[slot]
			}
			named := []string{mpitest.NodeB, mpitest.NodeC, mpitest.NodeD}
			if slot == 0 && slices.Contains(named, host) || slot > 0 && host != named[slot-1] {
				t.Errorf("rank %d of placement %v runs on host %q, node %d's", w.Rank(), p, host, slot)
			}
		case "recover":
			// A nil dereference after MPI_Init must still be an ordinary,
			// recoverable Go panic: MPI's signal handlers must not take it.
			var got any
			func() {
				defer func() { got = recover() }()
				var p *[4]int
				p[2] = 1
			}()
			if got == nil || !strings.Contains(got.(error).Error(), "nil pointer") {
				mpitest.Fatalf(t, "recovered %v, want a nil pointer dereference", got)
			}
		}
		mpitest.Must(t, w.Barrier())
	})
}

func launch(t *testing.T, mode string, np int, timeout time.Duration, tr ...mpitest.Transport) (mpitest.Result, error) {
	spec := mpitest.LaunchSpec{
		Ranks:   np,
		Timeout: timeout,
		Args:    []string{"-test.run", "^TestFixture$", "-test.v"},
		Env:     []string{fixtureEnv + "=" + mode},
	}
	if len(tr) > 0 {
		spec.Transport = tr[0]
	}
	return mpitest.Launch(spec)
}

func TestLauncher(t *testing.T) {
	if mpitest.Child() {
		t.Skip("parent only")
	}
	for _, tr := range []mpitest.Transport{mpitest.SharedMemory, mpitest.TCP} {
		// Over TCP, UCX is loaded: its signal handlers must not take Go's.
		t.Run("recover/"+tr.String(), func(t *testing.T) {
			if mpitest.MPICH() && tr != mpitest.SharedMemory {
				t.Skipf("under MPICH only shared memory runs")
			}
			dir := t.TempDir()
			t.Setenv("GOGA_MPITEST_PASSDIR", dir)
			res, err := launch(t, "recover", 2, time.Minute, tr)
			if err != nil {
				t.Fatalf("%v\n%s", err, res.Output)
			}
			for r := range 2 {
				if b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("rank%d", r))); err != nil || string(b) != "TestFixture" {
					t.Fatalf("rank %d did not report passing (%v)\n%s", r, err, res.Output)
				}
			}
		})
	}
	for _, c := range []struct{ mode, want string }{
		{"fail", "the last rank fails on purpose"},
		// The runtime's report names the rank (mpi tags standard error).
		{"panic", "[rank 2] panic: the last rank panics on purpose"},
		{"nil", "[rank 2] panic: runtime error: invalid memory address or nil pointer dereference"},
		{"fatal", "FATAL: the last rank stops on purpose"},
		{"cleanup", "[rank 2] panic: the last rank panics with a collective clean-up deferred"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			start := time.Now()
			res, err := launch(t, c.mode, 3, time.Minute)
			if err == nil {
				t.Fatalf("job succeeded; want a failure\n%s", res.Output)
			}
			if !strings.Contains(res.Output, c.want) {
				t.Fatalf("output lacks %q\n%s", c.want, res.Output)
			}
			if strings.Contains(err.Error(), "hung") {
				t.Fatalf("the job hung instead of ending: %v\n%s", err, res.Output)
			}
			t.Logf("failed as it should in %v: %v", time.Since(start).Round(time.Millisecond), err)
		})
	}
	t.Run("orphan", func(t *testing.T) {
		// The process that launched a job dies (go test's timeout ends it)
		// while the job hangs: the job must not outlive it.
		dir := t.TempDir()
		cmd := exec.Command(os.Args[0], "-test.run", "^TestOrphanParent$")
		cmd.Env = append(os.Environ(), orphanEnv+"=1", pidDirEnv+"="+dir)
		out, err := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != 3 {
			t.Fatalf("the launching process ended with %v (code %d), want code 3\n%s", err, code, out)
		}
		ranksGone(t, dir, string(out))
	})
	t.Run("hang", func(t *testing.T) {
		dir := t.TempDir()
		t.Setenv(pidDirEnv, dir)
		start := time.Now()
		// Long enough for both ranks to start and leave their ids first.
		res, err := launch(t, "hang", 2, 8*time.Second)
		if err == nil || !strings.Contains(err.Error(), "hung") {
			t.Fatalf("err = %v, want a hang report\n%s", err, res.Output)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Fatalf("killing the hung job took %v", d)
		}
		// Each rank said where it stood before it was killed: rank 0 in
		// its sleep, rank 1 in the barrier that waits for it.
		for _, want := range []string{"SIGQUIT", "time.Sleep", "mpi.(*Comm).Barrier"} {
			if !strings.Contains(res.Output, want) {
				t.Errorf("the hung job's output lacks %q\n%s", want, res.Output)
			}
		}
		ranksGone(t, dir, res.Output)
	})
}

// TestPlacement launches jobs on simulated nodes, evenly and unevenly
// placed, and checks that each rank runs on its node and knows the
// placement; TwoNodes' jobs say theirs too.
func TestPlacement(t *testing.T) {
	if mpitest.Child() {
		t.Skip("parent only")
	}
	for _, c := range []struct {
		spec mpitest.LaunchSpec
		want string
	}{
		{mpitest.LaunchSpec{Placement: mpitest.Placement{3, 2, 2, 1}}, "3+2+2+1"},
		{mpitest.LaunchSpec{Placement: mpitest.Placement{1, 0, 2}}, "1+0+2"},
		{mpitest.LaunchSpec{Ranks: 3, Transport: mpitest.TwoNodes}, "1+2"},
		{mpitest.LaunchSpec{Ranks: 1, Transport: mpitest.TwoNodes}, "0+1"},
	} {
		t.Run(c.want, func(t *testing.T) {
			if mpitest.MPICH() {
				t.Skip("under MPICH only shared memory runs")
			}
			p, err := mpitest.ParsePlacement(c.want)
			if err != nil {
				t.Fatal(err)
			}
			if why := p.Usable(); why != "" {
				t.Skip(why)
			}
			dir := t.TempDir()
			s := c.spec
			s.Timeout = 2 * time.Minute
			s.Args = []string{"-test.run", "^TestFixture$", "-test.v"}
			s.Env = []string{fixtureEnv + "=placed", wantPlacementEnv + "=" + c.want, "GOGA_MPITEST_PASSDIR=" + dir}
			res, err := mpitest.Launch(s)
			if err != nil {
				t.Fatalf("%v\n%s", err, res.Output)
			}
			for r := range p.Ranks() {
				if b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("rank%d", r))); err != nil || string(b) != "TestFixture" {
					t.Fatalf("rank %d did not report passing (%v)\n%s", r, err, res.Output)
				}
			}
		})
	}
	if _, err := mpitest.Launch(mpitest.LaunchSpec{Ranks: 4, Placement: mpitest.Placement{2, 1}}); err == nil || !strings.Contains(err.Error(), "placed 2+1, which has 3") {
		t.Errorf("a job of 4 ranks placed 2+1: err = %v", err)
	}
}

// TestParsePlacement checks how placements are read, written and numbered.
func TestParsePlacement(t *testing.T) {
	for _, c := range []struct {
		in    string
		want  string
		nodes int
		node  []int // of each rank
	}{
		{"3+2+2+1", "3+2+2+1", 4, []int{0, 0, 0, 1, 1, 2, 2, 3}},
		{"4x2", "2+2+2+2", 4, []int{0, 0, 1, 1, 2, 2, 3, 3}},
		{"0+1+2", "0+1+2", 2, []int{0, 1, 1}},
		{"1", "1", 1, []int{0}},
	} {
		p, err := mpitest.ParsePlacement(c.in)
		if err != nil {
			t.Errorf("ParsePlacement(%q): %v", c.in, err)
			continue
		}
		if p.String() != c.want || p.Nodes() != c.nodes || p.Ranks() != len(c.node) {
			t.Errorf("ParsePlacement(%q) = %v: %d nodes, %d ranks; want %s, %d, %d", c.in, p, p.Nodes(), p.Ranks(), c.want, c.nodes, len(c.node))
		}
		for r, want := range c.node {
			if got := p.Node(r); got != want {
				t.Errorf("%v: Node(%d) = %d, want %d", p, r, got, want)
			}
		}
		if got := p.Node(len(c.node)); got != -1 {
			t.Errorf("%v: Node(%d) = %d, want -1", p, len(c.node), got)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"", `"" is not a rank count`},
		{"2+-1", `"-1" is not a rank count`},
		{"0+0", "no ranks"},
		{"1+1+1+1+1", "5 nodes; this machine simulates at most 4"},
		{"5x1", "5 nodes"},
		{"0x3", "NODESxRANKS"},
		{"2xa", "NODESxRANKS"},
	} {
		if _, err := mpitest.ParsePlacement(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParsePlacement(%q): err = %v, want one saying %q", c.in, err, c.want)
		}
	}
}

const orphanEnv = "GOGA_MPITEST_ORPHAN"

// TestOrphanParent launches the hanging fixture on 2 ranks and, once both
// have started, exits without ending the job, as go test's timeout would
// end it; TestLauncher/orphan runs it.
func TestOrphanParent(t *testing.T) {
	if os.Getenv(orphanEnv) == "" || mpitest.Child() {
		t.Skip("run by TestLauncher/orphan")
	}
	go launch(t, "hang", 2, time.Minute)
	for start := time.Now(); time.Since(start) < 30*time.Second; time.Sleep(10 * time.Millisecond) {
		if ents, _ := os.ReadDir(os.Getenv(pidDirEnv)); len(ents) == 2 {
			os.Exit(3)
		}
	}
	t.Fatal("the ranks did not start within 30 s")
}

// ranksGone checks that the 2 ranks that left their process ids in dir
// have ended (within 5 s), killing those that have not.
func ranksGone(t *testing.T, dir, output string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) != 2 {
		t.Fatalf("%d ranks left their process ids (%v); want 2\n%s", len(ents), err, output)
	}
	for _, e := range ents {
		pid, _ := strconv.Atoi(e.Name())
		for wait := time.Now(); alive(pid); time.Sleep(10 * time.Millisecond) {
			if time.Since(wait) > 5*time.Second {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("rank process %d outlived its job's launcher\n%s", pid, output)
			}
		}
	}
}

// alive reports whether process pid exists and has not yet exited (a zombie
// waiting for its parent counts as gone).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && b[i+2] != 'Z'
}
