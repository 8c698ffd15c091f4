package ga_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

const staleEnv = "GOGA_STALE_FIXTURE"

// TestStaleFixture writes through an AccessLocal slice after Destroy, when
// TestStaleAccess launches it with the path in $GOGA_STALE_FIXTURE.
func TestStaleFixture(t *testing.T) {
	path := os.Getenv(staleEnv)
	if !mpitest.Child() || path == "" {
		t.Skip("run by TestStaleAccess")
	}
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		a, err := ga.Create[float64]("stale", []int{512, 512}, nil)
		must(t, err)
		data, _, _, _, ok, err := a.AccessLocal()
		must(t, err)
		must(t, a.Destroy())
		// The next array would be mapped where a was.
		b, err := ga.Create[float64]("next", []int{512, 512}, nil)
		must(t, err)
		must(t, b.Zero())
		if ok {
			data[len(data)/2] = 1 // must fault, not land in b
		}
		mine, _, _, _, _, err := b.AccessLocal()
		must(t, err)
		for i, v := range mine {
			if v != 0 {
				fatalf(t, "a write through a destroyed array's slice landed in the next array at %d", i)
			}
		}
		fatalf(t, "a write through a destroyed array's slice did not fault")
	})
}

// TestStaleAccess checks the rule for memory handed out in place after
// Destroy: a stale write faults at once, on the shared-memory and the RMA
// path, with Go's fault report naming the line, and never changes another
// array.
func TestStaleAccess(t *testing.T) {
	if mpitest.Child() {
		t.Skip("parent only")
	}
	for _, env := range [][]string{{"GOGA_ARMCI_SHM=1"}, {"GOGA_ARMCI_SHM=0"}} {
		t.Run(env[0], func(t *testing.T) {
			res, err := mpitest.Launch(mpitest.LaunchSpec{
				Ranks:   2,
				Timeout: time.Minute,
				Args:    []string{"-test.run", "^TestStaleFixture$", "-test.v"},
				Env:     append(env, staleEnv+"=1"),
			})
			if err == nil {
				t.Fatalf("the job succeeded; want a fault\n%s", res.Output)
			}
			for _, want := range []string{"unexpected fault address", "stale_test.go:34"} {
				if !strings.Contains(res.Output, want) {
					t.Fatalf("output lacks %q\n%s", want, res.Output)
				}
			}
			if strings.Contains(res.Output, "landed in the next array") || strings.Contains(res.Output, "did not fault") {
				t.Fatalf("the stale write did not fault\n%s", res.Output)
			}
		})
	}
}
