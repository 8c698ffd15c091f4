package mpi

import (
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goga-hpc/goga/cgo"
)

// Implementation names the MPI library goga is built against: "Open MPI",
// or "MPICH" with the build tag mpich.
const Implementation = cgo.Implementation

// ThreadLevel is an MPI thread-support level.
type ThreadLevel int

// Thread-support levels, lowest first.
const (
	ThreadSingle     ThreadLevel = cgo.ThreadSingle
	ThreadFunneled   ThreadLevel = cgo.ThreadFunneled
	ThreadSerialized ThreadLevel = cgo.ThreadSerial
	ThreadMultiple   ThreadLevel = cgo.ThreadMultiple
)

func (l ThreadLevel) String() string {
	switch l {
	case ThreadSingle:
		return "MPI_THREAD_SINGLE"
	case ThreadFunneled:
		return "MPI_THREAD_FUNNELED"
	case ThreadSerialized:
		return "MPI_THREAD_SERIALIZED"
	case ThreadMultiple:
		return "MPI_THREAD_MULTIPLE"
	}
	return "MPI_THREAD_?"
}

// Library state, read on every call: 0 before Init, 1 running, 2 finalized.
const (
	stateNone int32 = iota
	stateRunning
	stateDone
)

var (
	state    atomic.Int32
	initMu   sync.Mutex
	adopted  bool
	provided ThreadLevel
)

// Init initializes MPI with MPI_THREAD_MULTIPLE requested and returns the level
// the library provides. If MPI is already initialized (by C code in the same
// binary, or another binding), Init adopts it: it reads the level provided and
// leaves finalizing to the owner. Init installs MPI_ERRORS_RETURN on
// MPI_COMM_WORLD and MPI_COMM_SELF so that failures come back as errors.
// Calling Init again is harmless.
func Init() (ThreadLevel, error) { return InitThread(ThreadMultiple) }

// InitThread is Init with another requested thread level.
func InitThread(required ThreadLevel) (ThreadLevel, error) {
	initMu.Lock()
	defer initMu.Unlock()
	switch {
	case state.Load() == stateRunning:
		return provided, nil
	case cgo.Finalized():
		return 0, stateErr("Init", "MPI", ErrFinalized)
	case cgo.Initialized():
		adopted = true
		provided = ThreadLevel(cgo.QueryThread())
	default:
		prepareEnv()
		p, rc := cgo.InitThread(int(required))
		if err := check("Init", rc); err != nil {
			return 0, err
		}
		provided = ThreadLevel(p)
		defer func() {
			if state.Load() == stateRunning {
				tagStderr(world.rank, world.size)
			}
		}()
	}
	if err := check("Init", cgo.CommErrorsReturn(cgo.CommWorld)); err != nil {
		return 0, err
	}
	if err := check("Init", cgo.CommErrorsReturn(cgo.CommSelf)); err != nil {
		return 0, err
	}
	world.rank, world.size, _ = cgo.CommRankSize(cgo.CommWorld)
	self.rank, self.size = 0, 1
	state.Store(stateRunning)
	return provided, nil
}

// prepareEnv keeps UCX (which Open MPI uses for osc ucx and pml ucx) from
// installing its own handlers for SIGSEGV, SIGBUS, SIGILL and SIGFPE: they would
// take the signals the Go runtime turns into panics, so a nil dereference would
// kill the process instead of panicking. A user's UCX_ERROR_SIGNALS is kept.
// Open MPI's own handlers need nothing: it installs none where the Go runtime
// already has one. See the package documentation.
func prepareEnv() {
	if _, ok := os.LookupEnv("UCX_ERROR_SIGNALS"); !ok {
		os.Setenv("UCX_ERROR_SIGNALS", "")
	}
	// When every rank runs on one node, Open MPI 4.1 serves MPI_Win_allocate
	// with osc/rdma over btl/vader, whose MPI_Compare_and_swap segfaults
	// (open-mpi/ompi#7967, #11349). Unless the user chose the osc components,
	// leave rdma out there: osc/sm then serves every window, as it already
	// serves MPI_Win_allocate_shared.
	if _, ok := os.LookupEnv("OMPI_MCA_osc"); !ok {
		size, local := os.Getenv("OMPI_COMM_WORLD_SIZE"), os.Getenv("OMPI_COMM_WORLD_LOCAL_SIZE")
		if size != "" && size == local {
			os.Setenv("OMPI_MCA_osc", "^rdma")
		}
	}
}

// Initialized reports whether MPI has been initialized, by goga or anyone else.
func Initialized() bool { return cgo.Initialized() }

// Finalized reports whether MPI has been finalized.
func Finalized() bool { return cgo.Finalized() }

// Adopted reports whether Init found MPI already initialized; goga then never
// finalizes it.
func Adopted() bool {
	initMu.Lock()
	defer initMu.Unlock()
	return adopted
}

// Provided returns the thread level that Init obtained.
func Provided() ThreadLevel {
	initMu.Lock()
	defer initMu.Unlock()
	return provided
}

// Finalize ends goga's use of MPI. It calls MPI_Finalize only if goga's Init
// started MPI; an adopted MPI stays running for its owner. Every goga call after
// Finalize returns ErrFinalized. Calling it twice is harmless.
func Finalize() error {
	initMu.Lock()
	defer initMu.Unlock()
	if state.Load() != stateRunning {
		return nil
	}
	state.Store(stateDone)
	if adopted {
		return nil
	}
	return check("Finalize", cgo.Finalize())
}

// Abort ends every process of the job with the given exit code (MPI_Abort on
// MPI_COMM_WORLD). If MPI is not running it exits this process.
func Abort(code int) {
	if state.Load() == stateRunning {
		abort(cgo.CommWorld, code)
	}
	os.Exit(code)
}

// launcherGrace is how long an abort waits before MPI_Abort, so that the
// launcher forwards what the process wrote last (usually why it aborts).
// MPICH's launcher drops it otherwise: a line written just before
// MPI_Abort was missing from about half of the jobs measured here.
const launcherGrace = 100 * time.Millisecond

func abort(c cgo.Comm, code int) int {
	os.Stdout.Sync()
	os.Stderr.Sync()
	time.Sleep(launcherGrace)
	return cgo.Abort(c, code)
}

// Wtime is MPI_Wtime: seconds since an arbitrary time in the past.
func Wtime() float64 { return cgo.Wtime() }

// Wtick is MPI_Wtick: the resolution of Wtime in seconds.
func Wtick() float64 { return cgo.Wtick() }

// ProcessorName is MPI_Get_processor_name: the name of the node this rank runs on.
func ProcessorName() (string, error) {
	if err := running("ProcessorName"); err != nil {
		return "", err
	}
	name, rc := cgo.ProcessorName()
	return name, check("ProcessorName", rc)
}

// running returns an error unless MPI is initialized and not finalized.
func running(op string) error {
	switch state.Load() {
	case stateRunning:
		return nil
	case stateNone:
		return stateErr(op, "MPI", ErrNotInitialized)
	}
	return stateErr(op, "MPI", ErrFinalized)
}
