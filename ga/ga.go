package ga

import (
	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/ga/internal/kernels"
	"github.com/goga-hpc/goga/internal/holds"
	"github.com/goga-hpc/goga/mpi"
)

// Init starts GA on every process of MPI_COMM_WORLD (GA_Initialize). It
// initializes MPI if nothing has, and then Terminate finalizes it; an MPI that
// the program started stays its own. Options (Unchecked) apply until
// Terminate.
func Init(opts ...Option) error { return InitLimited(-1, opts...) }

// InitLimited is Init with a per-process limit, in bytes, on global array data
// (GA_Initialize_ltd); a negative limit means none.
func InitLimited(limit int, opts ...Option) error {
	owns := !mpi.Initialized()
	if _, err := mpi.Init(); err != nil {
		return err
	}
	if err := initComm("Init", mpi.World(), limit, opts); err != nil {
		return err
	}
	proc.mu.Lock()
	proc.ownsMPI = owns
	proc.mu.Unlock()
	return nil
}

// InitComm starts GA on the processes of c only (as GA 5.9's
// GA_Initialize_comm); MPI must be initialized. GA ranks are then ranks in c,
// and the other processes are free to do other MPI work.
func InitComm(c *mpi.Comm, opts ...Option) error {
	if !mpi.Initialized() {
		return stateErr("InitComm", "", ErrNotInitialized)
	}
	return initComm("InitComm", c, -1, opts)
}

func initComm(op string, c *mpi.Comm, limit int, opts []Option) error {
	proc.mu.Lock()
	defer proc.mu.Unlock()
	if proc.world != nil {
		return errorf(op, "", "GA is already initialized; Terminate first")
	}
	if c == nil {
		return stateErr(op, "", ErrNil)
	}
	rt, err := armci.Init(c)
	if err != nil {
		return err
	}
	check, err := agreeSettings(op, rt.Comm(), opts)
	if err != nil {
		rt.Finalize()
		return err
	}
	cl, err := learnCluster(rt.Comm())
	if err != nil {
		rt.Finalize()
		return err
	}
	world := make([]int, rt.Size())
	for r := range world {
		world[r] = r
	}
	w := newGroup(rt, world)
	mirror, err := newMirror(w, cl)
	if err != nil {
		rt.Finalize()
		return err
	}
	proc.world, proc.def, proc.mirror, proc.cluster = w, w, mirror, cl
	proc.groups = []*group{w}
	if mirror.node != w {
		proc.groups = append(proc.groups, mirror.node)
	}
	proc.limit = limit
	proc.used, proc.maxUsed = 0, 0
	unchecked.Store(check.unchecked)
	if check.profile != "" {
		prof.Store(newProfile(check.profile, rt.Size()))
	}
	kernels.SetStreamAbove(armci.LastLevelCache(), len(cl.procs[cl.node[cl.me]]))
	return nil
}

// Terminate destroys every array still allocated and every processor group,
// ends GA, and finalizes MPI if Init started it (GA_Terminate). It is
// collective over the world group, whatever the default group is. While work
// in the background uses an array (a dra transfer, until its Wait), it is
// refused. With the profile on, it first stops it and writes it (see
// StopProfile).
func Terminate() error {
	proc.mu.Lock()
	g, groups := proc.world, proc.groups
	proc.mu.Unlock()
	if g == nil {
		return stateErr("Terminate", "", ErrNotInitialized)
	}
	// Work in the background on an array (a dra transfer) is collective,
	// so every process has it and refuses alike.
	if why := holds.Any(); why != "" {
		return errorf("Terminate", "", "an array is in use by %s until its Wait", why)
	}
	if prof.Load() != nil {
		if _, err := StopProfile(); err != nil {
			return err
		}
	}
	// The newest group first: every process ends the groups it is in in one
	// order, and a group made inside another ends before it.
	for i := len(groups) - 1; i > 0; i-- {
		if err := groups[i].finish(); err != nil {
			return err
		}
	}
	if err := g.end(); err != nil {
		return err
	}
	if peers := proc.mirror.peers; peers != nil {
		if err := peers.Free(); err != nil {
			return err
		}
	}
	if err := g.rt.Finalize(); err != nil {
		return err
	}
	proc.mu.Lock()
	proc.world, proc.def, proc.groups, proc.mirror = nil, nil, nil, nil
	owns := proc.ownsMPI
	proc.ownsMPI = false
	proc.mu.Unlock()
	if owns {
		return mpi.Finalize()
	}
	return nil
}

// Initialized reports whether GA is running.
func Initialized() bool {
	_, err := current("Initialized")
	return err == nil
}

// Comm returns the communicator of the default group (GA_MPI_Comm), for MPI
// code that works on the same processes; nil before Init.
func Comm() *mpi.Comm {
	g, err := current("Comm")
	if err != nil {
		return nil
	}
	return g.comm()
}

// Nodeid returns this process's rank in the default group (GA_Nodeid), or -1
// before Init.
func Nodeid() int {
	g, err := current("Nodeid")
	if err != nil {
		return -1
	}
	return g.rank
}

// Nnodes returns the number of processes in the default group (GA_Nnodes),
// or 0 before Init.
func Nnodes() int {
	g, err := current("Nnodes")
	if err != nil {
		return 0
	}
	return g.size()
}

// SetMemoryLimit sets this process's limit, in bytes, on global array data
// (GA_Set_memory_limit); a negative limit removes it.
func SetMemoryLimit(limit int) {
	proc.mu.Lock()
	proc.limit = limit
	proc.mu.Unlock()
}

// MemoryLimited reports whether a memory limit is set (GA_Memory_limited).
func MemoryLimited() bool {
	proc.mu.Lock()
	defer proc.mu.Unlock()
	return proc.limit >= 0
}

// InquireMemory returns the bytes of global array data on this process
// (GA_Inquire_memory).
func InquireMemory() int {
	proc.mu.Lock()
	defer proc.mu.Unlock()
	return proc.used
}

// MemoryAvail returns the bytes this process may still allocate for arrays
// under its limit, or -1 when there is no limit (GA_Memory_avail).
func MemoryAvail() int {
	proc.mu.Lock()
	defer proc.mu.Unlock()
	if proc.limit < 0 {
		return -1
	}
	return max(proc.limit-proc.used, 0)
}
