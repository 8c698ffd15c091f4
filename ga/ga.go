package ga

import (
	"slices"
	"sync"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/mpi"
)

// The runtime: GA, like its C original, is one per process.
var st struct {
	mu      sync.Mutex
	rt      *armci.Runtime
	ownsMPI bool
	limit   int // bytes of array data allowed per process; < 0: no limit
	used    int // bytes of array data allocated on this process
	arrays  map[int]destroyer
	nextID  int
	fence   fenceState
	mask    maskState
	stats   Stats
	mutexes int // number of GA mutexes, or -1 for none
	cluster cluster
}

type destroyer interface{ Destroy() error }

// Init starts GA on every process of MPI_COMM_WORLD (GA_Initialize). It
// initializes MPI if nothing has, and then Terminate finalizes it; an MPI that
// the program started stays its own.
func Init() error { return InitLimited(-1) }

// InitLimited is Init with a per-process limit, in bytes, on global array data
// (GA_Initialize_ltd); a negative limit means none.
func InitLimited(limit int) error {
	owns := !mpi.Initialized()
	if _, err := mpi.Init(); err != nil {
		return err
	}
	if err := initComm("Init", mpi.World(), limit); err != nil {
		return err
	}
	st.ownsMPI = owns
	return nil
}

// InitComm starts GA on the processes of c only (as GA 5.9's
// GA_Initialize_comm); MPI must be initialized. GA ranks are then ranks in c,
// and the other processes are free to do other MPI work.
func InitComm(c *mpi.Comm) error {
	if !mpi.Initialized() {
		return stateErr("InitComm", "", ErrNotInitialized)
	}
	return initComm("InitComm", c, -1)
}

func initComm(op string, c *mpi.Comm, limit int) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.rt != nil {
		return errorf(op, "", "GA is already initialized; Terminate first")
	}
	if c == nil {
		return stateErr(op, "", ErrNil)
	}
	rt, err := armci.Init(c)
	if err != nil {
		return err
	}
	cl, err := learnCluster(rt.Comm())
	if err != nil {
		rt.Finalize()
		return err
	}
	st.rt = rt
	st.cluster = cl
	st.limit = limit
	st.used = 0
	st.arrays = map[int]destroyer{}
	st.nextID = 0 // array numbers agree between processes within one run of GA
	st.fence = fenceState{}
	st.mask = maskState{begin: true, end: true}
	st.stats = Stats{}
	st.mutexes = -1
	return nil
}

// Terminate destroys every array still allocated, ends GA, and finalizes MPI
// if Init started it (GA_Terminate). It is collective.
func Terminate() error {
	rt, err := runtime("Terminate")
	if err != nil {
		return err
	}
	st.mu.Lock()
	ids := make([]int, 0, len(st.arrays))
	for id := range st.arrays {
		ids = append(ids, id)
	}
	st.mu.Unlock()
	slices.Sort(ids) // the same order on every rank
	for _, id := range ids {
		st.mu.Lock()
		a := st.arrays[id]
		st.mu.Unlock()
		if err := a.Destroy(); err != nil {
			return err
		}
	}
	if err := exitGrids(); err != nil {
		return err
	}
	if err := rt.Finalize(); err != nil {
		return err
	}
	freeScratch()
	st.mu.Lock()
	st.rt = nil
	owns := st.ownsMPI
	st.ownsMPI = false
	st.mu.Unlock()
	if owns {
		return mpi.Finalize()
	}
	return nil
}

// Initialized reports whether GA is running.
func Initialized() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.rt != nil
}

func runtime(op string) (*armci.Runtime, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.rt == nil {
		return nil, stateErr(op, "", ErrNotInitialized)
	}
	return st.rt, nil
}

// Comm returns the communicator GA runs on (GA_MPI_Comm), for MPI code that
// works on the same processes; nil before Init.
func Comm() *mpi.Comm {
	rt, err := runtime("Comm")
	if err != nil {
		return nil
	}
	return rt.Comm()
}

// Nodeid returns this process's GA rank (GA_Nodeid), or -1 before Init.
func Nodeid() int {
	rt, err := runtime("Nodeid")
	if err != nil {
		return -1
	}
	return rt.Rank()
}

// Nnodes returns the number of GA processes (GA_Nnodes), or 0 before Init.
func Nnodes() int {
	rt, err := runtime("Nnodes")
	if err != nil {
		return 0
	}
	return rt.Size()
}

// SetMemoryLimit sets this process's limit, in bytes, on global array data
// (GA_Set_memory_limit); a negative limit removes it.
func SetMemoryLimit(limit int) {
	st.mu.Lock()
	st.limit = limit
	st.mu.Unlock()
}

// MemoryLimited reports whether a memory limit is set (GA_Memory_limited).
func MemoryLimited() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.limit >= 0
}

// InquireMemory returns the bytes of global array data on this process
// (GA_Inquire_memory).
func InquireMemory() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.used
}

// MemoryAvail returns the bytes this process may still allocate for arrays
// under its limit, or -1 when there is no limit (GA_Memory_avail).
func MemoryAvail() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.limit < 0 {
		return -1
	}
	return max(st.limit-st.used, 0)
}
