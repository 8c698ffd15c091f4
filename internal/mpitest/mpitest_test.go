package mpitest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

func TestMain(m *testing.M) { os.Exit(mpitest.Main(m)) }

const fixtureEnv = "GOGA_MPITEST_FIXTURE"

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
				t.Fatalf("the job hung instead of ending: %v", err)
			}
			t.Logf("failed as it should in %v: %v", time.Since(start).Round(time.Millisecond), err)
		})
	}
	t.Run("hang", func(t *testing.T) {
		start := time.Now()
		res, err := launch(t, "hang", 2, 4*time.Second)
		if err == nil || !strings.Contains(err.Error(), "hung") {
			t.Fatalf("err = %v, want a hang report\n%s", err, res.Output)
		}
		if d := time.Since(start); d > 15*time.Second {
			t.Fatalf("killing the hung job took %v", d)
		}
	})
}
