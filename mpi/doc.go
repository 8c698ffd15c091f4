// Package mpi is an idiomatic Go binding of MPI: communicators and groups,
// point-to-point messages, collectives, and MPI-3 one-sided (RMA) windows, with
// one generic API over Go's numeric types and errors instead of aborts.
//
// A program is built with `go build` and started with mpirun (or the
// repository's mpirun.sh):
//
//	func main() {
//		if _, err := mpi.Init(); err != nil {
//			log.Fatal(err)
//		}
//		defer mpi.Finalize()
//		w := mpi.World()
//		sum := []float64{0}
//		if err := mpi.Allreduce(w, []float64{float64(w.Rank())}, sum, mpi.Sum); err != nil {
//			log.Fatal(err)
//		}
//		fmt.Println(w.Rank(), "of", w.Size(), "sum", sum[0])
//	}
//
//	$ ./mpirun.sh -np 4 ./prog
//
// # Types
//
// Message calls are generic functions over Elem: int8 … int64, int, uint8 …
// uint64, uint, float32, float64, complex64 and complex128 (and named types
// over them). The count is the slice's length; the MPI datatype follows from
// the element type (int is MPI_INT64_T, complex128 is MPI_C_DOUBLE_COMPLEX).
// Empty slices are fine. A nil send slice in a reduction or gather means MPI_IN_PLACE.
// Because Go methods cannot have type parameters, typed calls are functions
// that take the communicator first (mpi.Send(c, buf, dest, tag)); calls with no
// buffer are methods (c.Barrier(), c.Split(color, key)).
//
// # Operators
//
// Reductions take a predefined operator (Sum, Max, Bor, ...) or one that
// NewOp makes of a Go function (MPI_Op_create), which MPI calls from inside
// Reduce, Allreduce, Scan, Exscan and ReduceScatter. A non-commutative one is
// applied in rank order, so every rank gets the same bits:
//
//	concat, _ := mpi.NewOp(func(in, inout []int64) { ... }, false)
//	defer concat.Free()
//	err := mpi.Allreduce(c, nil, x, concat)
//
// # Errors
//
// Communicators and windows use MPI_ERRORS_RETURN, so an MPI failure comes back
// as an *Error carrying MPI's code and message. Misuse is refused before any MPI
// call with an *ArgError that names the argument: a buffer shorter than the data,
// a rank or root out of range, a negative tag, an operator MPI does not define
// for the type, a target range past the end of a window, a freed or nil handle
// (errors.Is(err, ErrFreed), ErrNil), or MPI not running (ErrNotInitialized,
// ErrFinalized). Collective calls check what all ranks share (root, operator,
// type) first, so a mistake there fails on every rank alike. A mistake that only
// one rank makes in a collective (say, a short receive buffer at the root) is
// refused on that rank, and the other ranks then wait in the collective: MPI
// has no way to cancel them.
//
// # Starting and stopping
//
// Init asks for MPI_THREAD_MULTIPLE and reports the level provided. If MPI is
// already initialized (by C code linked into the program, or another binding),
// Init adopts it and Finalize leaves it running for its owner. Every call
// after Finalize returns ErrFinalized rather than crashing.
//
// # Interoperating with C
//
// Comm.Handle returns the C MPI_Comm as a uintptr for C code in the same
// binary ((MPI_Comm)h in C), and CommFromHandle wraps one coming back.
// Check turns the return code of an MPI call made in that C code into an
// *Error, and reschedules the goroutine now and then as this package's own
// calls do: a goroutine looping over MPI calls in C needs it (pace.go).
// Comm.Fortran and CommFromFortran convert Fortran handles (MPI_Comm_c2f and
// MPI_Comm_f2c), as BLACS and ScaLAPACK take them.
//
// # One-sided communication
//
// Window memory is always C memory (WinAllocate, WinAllocateShared, or WinCreate
// on AllocMem), seen from Go as a slice through Local and SharedQuery; Go memory
// never backs a window, because the garbage collector could move it. Each Win
// knows every rank's size, so Put, Get and Accumulate check their target range
// locally. Put, Get and Accumulate complete only at a flush or unlock: until
// then the caller must not change a Put's buffer or read a Get's, and the
// window keeps those buffers reachable (a temporary slice is not collected
// before the flush). Their buffers are never left on a goroutine stack, which can
// move. Non-blocking calls (Isend, Irecv, Rput, Rget, Raccumulate, Iallreduce) pin their Go
// buffer until Wait or Test reports completion. IsendTyped and IrecvTyped move
// the elements a derived datatype (TypeStrided, TypeSubarray, ...) selects, so
// a strided patch goes over two-sided MPI without being packed by hand.
//
// # Files
//
// MPI-IO (file.go): FileOpen opens a file collectively, SetView gives it a
// view of elements of T through a filetype (TypeSubarray for a block of an
// array stored in C order), and WriteAtAll/ReadAtAll and their non-blocking
// forms IwriteAtAll/IreadAtAll (MPI 3.1, returning a Request) move a rank's
// part collectively; WriteAt/ReadAt move data by one rank alone. Files return
// errors; the Class of an *Error tells a missing file (ErrClassNoSuchFile)
// from a full disk (ErrClassNoSpace) or a refused access. Hints travel in an
// Info (NewInfo).
//
// # The Go runtime and MPI (measured with Open MPI 4.1.4 and Go 1.26)
//
//   - Signals. The Go runtime needs SIGSEGV, SIGBUS, SIGFPE and SIGILL to turn
//     faults into panics. Open MPI's own handlers (opal_signal) do not replace
//     handlers that are already installed, and the Go runtime installs its own
//     before main, so they never interfere. UCX, which Open MPI loads for
//     osc ucx and pml ucx, does replace them: with it, a nil dereference killed
//     the process instead of panicking. Init therefore sets UCX_ERROR_SIGNALS
//     to the empty list unless the user set it. (An MPI that C code started
//     before Init keeps whatever its environment said.)
//   - Panics. A nil dereference after Init is an ordinary, recoverable panic.
//     An unrecovered panic exits its rank with status 2, and mpirun then ends
//     the whole job (about 1.5 s here); no rank hangs. In a job of several
//     ranks that Init started, every line a rank writes to standard error
//     (the runtime's panic report included) is prefixed "[rank N] " by a
//     small sed process that reads a pipe in place of descriptor 2, so the
//     report of a crashed rank gets through whole; GOGA_TAG_STDERR=0 turns
//     it off.
//   - Threads. Init requests MPI_THREAD_MULTIPLE, which Open MPI provides, so
//     any goroutine, on any OS thread, may make MPI calls; no LockOSThread is
//     needed. A goroutine blocked in an MPI call holds its OS thread but not a
//     Go P, so other goroutines keep running. A goroutine that makes MPI calls
//     back to back is rescheduled (runtime.Gosched) every 2 ms by the calls
//     themselves: otherwise, once it has run 10 ms, Go's sysmon takes its P
//     at every tick that finds it inside MPI (pace.go has the figures).
//   - GOMAXPROCS. mpirun binds each rank to one core when the ranks do not
//     outnumber the cores, and the Go runtime then sets GOMAXPROCS to 1; with
//     --oversubscribe (or --bind-to none) a rank sees every core. Both work;
//     one rank per core with GOMAXPROCS 1 is the usual HPC setting.
//
// # For users of gompi
//
// github.com/sbromberger/gompi cannot be obtained here and may not be
// redistributed modified. Its calls map onto this package as follows.
//
//	gompi                                 goga mpi
//	Start(threaded)                       Init() / InitThread(level)
//	Stop()                                Finalize()
//	IsOn()                                Initialized() && !Finalized()
//	WorldRank(), WorldSize()              World().Rank(), World().Size()
//	WorldTime()                           Wtime()
//	NewCommunicator(nil)                  World()
//	NewCommunicator(ranks)                g, _ := World().Group(); sub, _ := g.Incl(ranks...); World().Create(sub)
//	c.Rank(), c.Size()                    c.Rank(), c.Size()
//	c.Abort(code)                         c.Abort(code) / Abort(code)
//	c.Barrier()                           c.Barrier()
//	c.BcastFloat64s(x, root) (and every   Bcast(c, x, root)
//	  Bytes, Int32s, Int64s, Uint32s,
//	  Uint64s, Float32s, Complex128s)
//	c.ReduceFloat64s(dest, orig, op, root) Reduce(c, orig, dest, op, root)
//	c.AllreduceFloat64s(dest, orig, op, _) Allreduce(c, orig, dest, op)
//	c.SendInt64s(vals, to, tag)           Send(c, vals, to, tag)
//	c.RecvInt64s(n, from, tag)            buf := make([]int64, n); Recv(c, buf, from, tag)
//	c.RecvPreallocInt64s(buf, from, tag)  Recv(c, buf, from, tag)
//	c.SendInt64(v, to, tag)               Send(c, []int64{v}, to, tag)
//	c.RecvInt64(from, tag)                v := []int64{0}; Recv(c, v, from, tag)
//	c.SendString(s, to, tag)              Send(c, []byte(s), to, tag)
//	c.RecvString(from, tag)               st, _ := Probe[byte](c, from, tag); b := make([]byte, st.Count); Recv(c, b, from, tag)
//	c.Probe(from, tag) *Status            Probe[T](c, from, tag) (Status, error)
//	c.Iprobe(from, tag)                   Iprobe[T](c, from, tag)
//	st.GetCount(type), GetSource, GetTag  st.Count, st.Source, st.Tag
//	OpSum, OpMin, OpMax, OpProd, OpLand,  Sum, Min, Max, Prod, Land, Lor, Lxor,
//	  OpLor, OpLxor, OpBand, OpBor, OpBxor  Band, Bor, Bxor
//	(no user-defined operators)           NewOp(f, commute), op.Free()
//	c.Mprobe / MrecvBytes                 Probe then Recv (no matched-probe API yet)
//	AnySource, AnyTag                     AnySource, AnyTag
//
// gompi returns no errors from most calls and exits on failure; here every call
// returns an error.
package mpi
