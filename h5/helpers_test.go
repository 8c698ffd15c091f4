package h5_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/h5"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

var (
	must   = mpitest.Must
	fatalf = mpitest.Fatalf
)

// start starts GA for a test and returns a directory every rank sees.
func start(t *testing.T) string {
	t.Helper()
	must(t, ga.Init())
	return mpitest.TempDir(t, mpi.World())
}

func stop(t *testing.T) { mpitest.Cleanup(t, ga.Terminate) }

// val is a distinct value for element i of any element type; testdata's
// h5py scripts compute the same.
func val[T ga.Elem](i int) T {
	var z T
	switch p := any(&z).(type) {
	case *int32:
		*p = int32(i + 1)
	case *int64:
		*p = int64(i+1) << 33
	case *float32:
		*p = float32(i) + 0.5
	case *float64:
		*p = float64(i) + 0.25
	case *complex64:
		*p = complex(float32(i), -float32(i)-1)
	case *complex128:
		*p = complex(float64(i)+0.5, -float64(i))
	}
	return z
}

func product(v []int) int {
	n := 1
	for _, e := range v {
		n *= e
	}
	return n
}

func last(dims []int) []int {
	hi := make([]int, len(dims))
	for k, n := range dims {
		hi[k] = n - 1
	}
	return hi
}

// newArray makes a global array of dims holding val(i) at linear index i.
func newArray[T ga.Elem](t *testing.T, name string, dims []int) *ga.Array[T] {
	t.Helper()
	g, err := ga.Create[T](name, dims, nil)
	must(t, err)
	if ga.Nodeid() == 0 {
		buf := make([]T, product(dims))
		for i := range buf {
			buf[i] = val[T](i)
		}
		must(t, g.Put(make([]int, len(dims)), last(dims), buf, nil))
	}
	must(t, ga.Sync())
	return g
}

// whole reads all of g on every process.
func whole[T ga.Elem](t *testing.T, g *ga.Array[T]) []T {
	t.Helper()
	dims := g.Dims()
	buf := make([]T, product(dims))
	must(t, g.Get(make([]int, len(dims)), last(dims), buf, nil))
	return buf
}

// wantVal checks that got holds val(i) at every i.
func wantVal[T ga.Elem](t *testing.T, what string, got []T) {
	t.Helper()
	for i, v := range got {
		if v != val[T](i) {
			t.Errorf("%s: element %d is %v, want %v", what, i, v, val[T](i))
			return
		}
	}
}

// wantErr checks that every process got an *h5.Error wrapping sentinel
// (or, where another process failed, ErrPeer) that mentions each of values.
func wantErr(t *testing.T, what string, err error, sentinel error, values ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error", what)
		return
	}
	var e *h5.Error
	if !errors.As(err, &e) {
		t.Errorf("%s: error %v (%T), want *h5.Error", what, err, err)
	}
	if sentinel != nil && !errors.Is(err, sentinel) {
		t.Errorf("%s: error %q does not wrap %v", what, err, sentinel)
	}
	for _, v := range values {
		if !strings.Contains(err.Error(), v) {
			t.Errorf("%s: error %q does not mention %q", what, err, v)
		}
	}
}

// absent checks that nothing is under name, nor a partial file.
func absent(t *testing.T, what, name string) {
	t.Helper()
	for _, n := range []string{name, name + ".partial"} {
		if _, err := os.Stat(n); !os.IsNotExist(err) {
			t.Errorf("%s: %s exists (%v)", what, n, err)
		}
	}
}

// onRoot runs f on process 0; its error stops every process.
func onRoot(t *testing.T, f func() error) {
	t.Helper()
	var err error
	if ga.Nodeid() == 0 {
		err = f()
	}
	failed := []int{0}
	if err != nil {
		failed[0] = 1
		t.Error(err)
	}
	must(t, mpi.Bcast(mpi.World(), failed, 0))
	if failed[0] != 0 {
		fatalf(t, "process 0 failed")
	}
}

const pythonEnv = "GOGA_H5_PYTHON"

// python is a Python 3 that imports h5py and numpy (python3 on the PATH,
// else Debian's /usr/bin/python3, where install-deps.sh puts h5py); the
// test is skipped, saying so, where there is none. The parent finds it and
// tells the ranks through the environment.
func python(t *testing.T) string {
	t.Helper()
	if p := os.Getenv(pythonEnv); p != "" {
		return p
	}
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import h5py, numpy").Run() == nil {
			os.Setenv(pythonEnv, p)
			return p
		}
	}
	t.Skip("no Python 3 here imports h5py and numpy (scripts/install-deps.sh installs python3-h5py): the tests against h5py are skipped")
	return ""
}

// runPython runs testdata's script with args (the last one JSON of spec)
// on process 0; a failure, with Python's output, stops every process.
func runPython(t *testing.T, py, script string, spec any, args ...string) {
	t.Helper()
	onRoot(t, func() error {
		js, err := json.Marshal(spec)
		if err != nil {
			return err
		}
		cmd := exec.Command(py, append(append([]string{filepath.Join("testdata", script)}, args...), string(js))...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return errors.New(script + ": " + err.Error() + "\n" + out.String())
		}
		return nil
	})
}
