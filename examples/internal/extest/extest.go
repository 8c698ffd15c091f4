// Package extest tests an example program by running its job on 1, 2, 3
// and 4 ranks (internal/mpitest) and checking what it reports.
package extest

import (
	"bytes"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// Run runs the program's run on every rank once per setting (a function
// that sets its flags; none means its defaults). The test fails unless run
// returns nil on every rank, which an example does only when its answer is
// right, and process 0 prints want. make test's two-node pass runs it again
// with the ranks on two simulated nodes (mpitest.AcrossNodes).
func Run(t *testing.T, run func(io.Writer) error, want string, settings ...func()) {
	runJobs(t, run, want, settings, mpitest.AcrossNodes())
}

// RunManyNodes is Run for an example that make test's four-node pass runs
// on 8 ranks over four simulated nodes too (mpitest.ManyNodes).
func RunManyNodes(t *testing.T, run func(io.Writer) error, want string, settings ...func()) {
	runJobs(t, run, want, settings, mpitest.AcrossNodes(), mpitest.ManyNodes())
}

func runJobs(t *testing.T, run func(io.Writer) error, want string, settings []func(), opts ...mpitest.Option) {
	t.Helper()
	if len(settings) == 0 {
		settings = []func(){func() {}}
	}
	mpitest.Run(t, func(t *testing.T) {
		for _, set := range settings {
			set()
			var out bytes.Buffer
			mpitest.Must(t, run(&out))
			if mpi.World().Rank() == 0 && !strings.Contains(out.String(), want) {
				t.Errorf("no %q in what process 0 printed:\n%s", want, out.String())
			}
		}
	}, opts...)
}

// MeanDeviation returns the mean of x and its sample standard deviation,
// for comparing a run's averages with the spread of an original's over
// several seeds.
func MeanDeviation(x []float64) (mean, dev float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		dev += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(dev / float64(len(x)-1))
}
