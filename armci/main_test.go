package armci_test

import (
	"errors"
	"os"
	"strings"
	"testing"
	"unsafe"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

func TestMain(m *testing.M) { os.Exit(mpitest.Main(m)) }

// bothTransports runs a test over shared memory and over TCP (osc ucx).
var bothTransports = mpitest.Transports(mpitest.SharedMemory, mpitest.TCP)

// mode is one of the runtime's data paths.
type mode struct {
	name   string
	shm    bool
	remote armci.Remote // how parts on other nodes are reached (RemoteAuto: the default)
}

// modes returns the paths to test in this job: shared memory (plain copies) and
// MPI RMA (WithoutSharedMemory); over the network only the latter, and on two
// nodes both ways of reaching the other node: active messages and MPI RMA.
func modes() []mode {
	switch {
	case mpitest.OnTwoNodes():
		// Active messages beside the node's shared memory, as a cluster job
		// runs; MPI RMA alone (Open MPI's osc ucx on a window over a node's
		// shared memory hung TestAtomicity at 3 and 4 ranks).
		return []mode{{"am", mpitest.SharedWindows(), armci.RemoteAM}, {"rma", false, armci.RemoteRMA}}
	case mpitest.OverNetwork() || os.Getenv("GOGA_ARMCI_SHM") == "0":
		return []mode{{"mpi", false, armci.RemoteAuto}}
	}
	return []mode{{"shm", true, armci.RemoteAuto}, {"mpi", false, armci.RemoteAuto}}
}

func (m mode) init(t *testing.T) *armci.Runtime {
	t.Helper()
	var opts []armci.Option
	if !m.shm {
		opts = append(opts, armci.WithoutSharedMemory())
	}
	if m.remote != armci.RemoteAuto {
		opts = append(opts, armci.WithRemote(m.remote))
	}
	rt, err := armci.Init(mpi.World(), opts...)
	must(t, err)
	if want := m.remote; !rt.SingleNode() && want != armci.RemoteAuto && rt.Remote() != want {
		fatalf(t, "runtime Remote() = %v, want %v", rt.Remote(), want)
	}
	if rt.SharedMemory() != m.shm {
		fatalf(t, "runtime SharedMemory() = %v, want %v", rt.SharedMemory(), m.shm)
	}
	if rt.Rank() != mpi.World().Rank() || rt.Size() != mpi.World().Size() {
		fatalf(t, "runtime rank %d of %d, world %d of %d", rt.Rank(), rt.Size(), mpi.World().Rank(), mpi.World().Size())
	}
	return rt
}

// eachMode runs f as one subtest per data path, each on a fresh runtime that
// is finalized afterwards.
func eachMode(t *testing.T, f func(t *testing.T, rt *armci.Runtime)) {
	t.Helper()
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) {
			rt := m.init(t)
			f(t, rt)
			must(t, rt.Finalize())
		})
	}
}

// freeLater frees c once the test function and what eachMode does after it
// (Finalize, which frees group segments still on c) are done. Call it last in
// the test function: it keeps mpitest.Cleanup's rule, since a body that
// panicked never registers it, and it does nothing once the test has failed.
func freeLater(t *testing.T, c *mpi.Comm) {
	t.Cleanup(func() {
		if !t.Failed() {
			_ = c.Free()
		}
	})
}

// malloc allocates a segment and checks that it takes the runtime's path:
// every part mapped only where shared memory is used and all ranks share a node.
func malloc(t *testing.T, rt *armci.Runtime, size int) *armci.Segment {
	t.Helper()
	s, err := rt.Malloc(size)
	must(t, err)
	if want := rt.SharedMemory() && rt.SingleNode(); s.SharedMemory() != want {
		fatalf(t, "segment SharedMemory() = %v, want %v: runtime SharedMemory() = %v, SingleNode() = %v", s.SharedMemory(), want, rt.SharedMemory(), rt.SingleNode())
	}
	if got := len(s.Local()); got != size {
		fatalf(t, "Local() has %d bytes, want %d", got, size)
	}
	return s
}

// ---- failures ----

// must and fatalf abort the whole job on failures the ranks cannot survive in
// step (see mpitest.Must).
var (
	must   = mpitest.Must
	fatalf = mpitest.Fatalf
)

// wantErr checks that err is an *armci.Error naming arg (and, if sentinel is
// not nil, wrapping it).
func wantErr(t *testing.T, what string, err error, arg string, sentinel error) {
	t.Helper()
	var e *armci.Error
	if !errors.As(err, &e) {
		t.Errorf("%s: got error %v (%T), want *armci.Error for %q", what, err, err, arg)
		return
	}
	if e.Arg != arg {
		t.Errorf("%s: error names %q (%v), want %q", what, e.Arg, err, arg)
	}
	if e.Op == "" || e.Msg == "" {
		t.Errorf("%s: error %#v lacks Op or Msg", what, e)
	}
	// Descriptions start with the call ("PutS: ...", "NbAcc on ..."): the
	// error must name that call, not one it delegates to.
	if op, _, ok := strings.Cut(what, ":"); ok && isCall(op) && e.Op != op {
		t.Errorf("%s: error names the call %q (%v), want %q", what, e.Op, err, op)
	} else if op, _, ok := strings.Cut(what, " "); ok && isCall(op) && e.Op != op {
		t.Errorf("%s: error names the call %q (%v), want %q", what, e.Op, err, op)
	}
	if sentinel != nil && !errors.Is(err, sentinel) {
		t.Errorf("%s: error %v does not wrap %v", what, err, sentinel)
	}
}

// isCall reports whether s is the name of one of the package's transfer calls.
func isCall(s string) bool {
	switch s {
	case "Put", "Get", "Acc", "PutS", "GetS", "AccS", "PutV", "GetV", "AccV",
		"NbPut", "NbGet", "NbAcc", "NbPutS", "NbGetS", "NbAccS", "NbPutV", "NbGetV", "NbAccV",
		"FetchAdd", "Swap", "CompareSwap", "LocalAs":
		return true
	}
	return false
}

// ---- bytes ----

// fillByte is the byte at offset i of rank's part before a test writes to it.
func fillByte(rank, i int) byte { return byte(i*7 + rank*61 + 3) }

// pattern returns rank's untouched part of n bytes.
func pattern(rank, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = fillByte(rank, i)
	}
	return b
}

// reset writes the fill pattern into this rank's part of s and waits until
// every rank has done so (and finished with whatever came before).
func reset(t *testing.T, rt *armci.Runtime, s *armci.Segment) {
	t.Helper()
	must(t, rt.Barrier())
	copy(s.Local(), pattern(s.Comm().Rank(), len(s.Local())))
	must(t, rt.Barrier())
}

// asBytes views a slice's memory as bytes.
func asBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}

// viewAs views bytes as a slice of T (whole elements only).
func viewAs[T any](b []byte) []T {
	var z T
	n := len(b) / int(unsafe.Sizeof(z))
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), n)
}

// sameBytes reports (up to a few) differences between got and want.
func sameBytes(t *testing.T, what string, got, want []byte) bool {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d bytes, want %d", what, len(got), len(want))
		return false
	}
	bad := 0
	for i := range got {
		if got[i] != want[i] {
			if bad < 5 {
				t.Errorf("%s: byte %d = %#02x, want %#02x", what, i, got[i], want[i])
			}
			bad++
		}
	}
	if bad > 5 {
		t.Errorf("%s: %d bytes differ in all", what, bad)
	}
	return bad == 0
}

// walk calls f(local, remote) for every contiguous block of a strided patch,
// with plain nested loops from the outermost level in (the reference the
// runtime's transfers are compared with).
func walk(count, lstride, rstride []int, f func(l, r int)) {
	var rec func(level, l, r int)
	rec = func(level, l, r int) {
		if level == 0 {
			f(l, r)
			return
		}
		for i := 0; i < count[level]; i++ {
			rec(level-1, l+i*lstride[level-1], r+i*rstride[level-1])
		}
	}
	rec(len(count)-1, 0, 0)
}

// spans returns the bytes a strided patch reaches on the local and remote side.
func spans(p armci.Strided) (local, remote int) {
	walk(p.Count, p.LocalStride, p.RemoteStride, func(l, r int) {
		local, remote = max(local, l+p.Count[0]), max(remote, r+p.Count[0])
	})
	return
}

// gatherInts returns every rank's xs, concatenated in rank order.
func gatherInts(t *testing.T, c *mpi.Comm, xs []int) []int {
	t.Helper()
	out := make([]int, len(xs)*c.Size())
	must(t, mpi.Allgather(c, xs, out))
	return out
}
