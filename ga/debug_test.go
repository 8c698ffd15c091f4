package ga_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestDebug: with tracing on, every process writes each collective call
// and its arguments; off, nothing.
func TestDebug(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		var out bytes.Buffer
		ga.SetDebugOutput(&out)
		defer ga.SetDebugOutput(nil)
		if ga.Debug() {
			t.Errorf("tracing is on by default")
		}
		ga.SetDebug(true)
		if !ga.Debug() {
			t.Errorf("SetDebug(true) left tracing off")
		}
		a, err := ga.Create[float32]("traced", []int{6, 4}, []int{3, -1})
		must(t, err)
		must(t, a.Fill(1))
		ga.SetDebug(false)
		must(t, a.Zero())
		must(t, a.Destroy())
		text := out.String()
		for _, want := range []string{
			fmt.Sprintf("ga: process %d: Create", ga.Nodeid()) + " type=float32 dims=[6 4] chunk=[3 -1]",
			": Fill a=[",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("trace lacks %q:\n%s", want, text)
			}
		}
		for _, not := range []string{"Zero", "Destroy"} {
			if strings.Contains(text, not) {
				t.Errorf("trace has %s after SetDebug(false):\n%s", not, text)
			}
		}
	})
}
