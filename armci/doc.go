// Package armci is goga's one-sided runtime, in the manner of ARMCI: memory
// that a group of processes allocates together, and put, get, accumulate and
// read-modify-write operations that any process issues on any other's memory
// without the other taking part. Global arrays move all their data through it.
//
//	rt, err := armci.Init(mpi.World())              // collective
//	seg, err := rt.Malloc(1 << 20)                   // collective: 1 MiB on every rank
//	err = armci.Put(seg, peer, 0, []float64{1, 2})   // into peer's part at byte 0
//	err = armci.Acc(seg, peer, 0, []float64{1, 1}, 2.0)
//	err = rt.Barrier()                               // every operation complete everywhere
//	v, err := armci.FetchAdd[int64](seg, 0, 64, 1)   // a ticket from rank 0's counter
//
// # Addressing
//
// A Segment has a part on every rank of its communicator, of each rank's own
// size (zero allowed). Operations name a segment, a rank and a byte offset into
// that rank's part; where ARMCI takes a remote pointer, goga takes (segment,
// rank, offset), so every operation is checked against the part's size before
// anything moves. Local buffers are Go slices.
//
// # Operations and their completion
//
//   - Put, Get, Acc: contiguous. PutS, GetS, AccS: strided (Strided, up to
//     seven levels, ARMCI_PutS semantics). PutV, GetV, AccV: lists of
//     equal-sized pieces (IOVec).
//   - Blocking puts and accumulates return when the local buffer may be reused;
//     gets return with the data. Fence(rank) waits until this process's
//     operations are complete at rank, AllFence at every rank, Barrier is
//     AllFence plus a barrier.
//   - NbPut, NbGet, NbAcc and their strided and vector forms return a Handle;
//     Wait or Test completes it, WaitAll completes everything in flight. The Go
//     buffers of operations in flight are pinned.
//   - Acc adds scale·src, atomically per element with respect to every other
//     accumulate, for int32, int64, float32, float64, complex64 and complex128.
//   - FetchAdd, Swap and CompareSwap on int32 and int64 are atomic with respect
//     to each other (not to puts or accumulates on the same element, as in ARMCI).
//   - Mutexes: CreateMutexes, Lock, Unlock, DestroyMutexes; Release is
//     AllFence then Unlock, for less where it can. Waiters queue and are
//     served in turn. A process holds a mutex as a whole: its goroutines
//     queue for it like for a sync.Mutex, and any of them may unlock it.
//     Where the other nodes are reached by active messages, the host's
//     server keeps each mutex's holder and waiters (first come, first
//     served; a lock is one round trip, an unlock one message); elsewhere
//     they live in an RMA window, with ARMCI-MPI's algorithm (waiters served
//     in rank order after the holder).
//   - Direct (DirectTo) is a part this process maps, resolved once, for a
//     caller that keeps its own bounds: its Put, Get, Acc and DirectFetchAdd
//     skip the segment's checks and transport dispatch (ga's single-block
//     transfers use it). It must not outlive the segment.
//   - BarrierMax is Barrier that also reduces a few integers by maximum on the
//     way (AllMax: without the fence). Layers above agree through it: a
//     collective call tells every process whether any refused its arguments,
//     and compares a hash of them, for the cost of the barrier it makes anyway.
//     AllMaxReduce and AllMaxBrdcst also reduce or broadcast a few bytes
//     (GatherCap on one node, RecordCap across nodes) in the same
//     collective, as ARMCI's armci_msg_gop and armci_msg_bcast serve GA: on
//     one node the shared-memory barrier's slots, across nodes one
//     MPI_Allreduce of goga's agreement record (internal/agreement) with
//     a user-defined operator,
//     or, where MPI does not yield when idle and active messages reach the
//     other nodes, the same record exchanged point to point by recursive
//     doubling while the waiting thread serves its peers' requests
//     (exchange.go), over TCP connections of the runtime's own between
//     the pairs that exchange (link.go; GOGA_ARMCI_LINKS=0 on any process
//     sends them as MPI messages instead). ga's small Gop and Brdcst are
//     that one collective.
//
// # Memory and its limits
//
// Malloc agrees before any window exists: a negative size, or a segment that
// cannot exist on this machine (a part larger than memory and swap, or
// shared-memory parts larger together than the file system backing them
// holds) is an error on every rank, wrapping ErrNoRoom, where MPI would fail
// on one rank and leave the others waiting. Free gives the memory back but
// keeps the window, its part's pages inaccessible, until Finalize (at most
// 64 windows or 1 TiB per communicator; past that the oldest is freed), so
// that a slice of Local kept past Free faults at once instead of writing
// into whatever MPI or the Go runtime would map at those addresses next.
// A segment in one node's shared memory with the part sizes of a window
// retired at least 32 Frees before on its communicator revives that window
// instead of allocating one: a Create and Destroy of a 100 × 100 array
// takes 89 µs on 2 ranks instead of 206, against GA C's 116.
//
// # How data moves
//
// Each process reaches each part of a segment through a transport, chosen
// per rank when the segment is allocated:
//
//   - mapped: the part lies in a shared-memory window of this process's node
//     and is mapped here. A put or get is a memory copy, with no MPI call and
//     no cgo crossing for small sizes.
//   - over MPI: the part is reached through the segment's MPI-3 window, held
//     in one lock_all epoch. Puts and gets are MPI_Put and MPI_Get completed
//     with MPI_Win_flush_local (for the non-blocking forms, at the handle's
//     Wait, which one flush serves for every handle issued before it: Open
//     MPI 4.1's MPI_Rget and MPI_Rput get their requests through an extra
//     atomic operation); strided patches are nested hvector datatypes moved in one call;
//     a fence is MPI_Win_flush. MPI counts are C ints, so a transfer of more
//     than 1 GiB goes as one call per GiB (a strided patch split into runs of
//     whole rows). The goroutines of a process take turns at each target (one
//     operation and its completion at a time): threads competing inside MPI
//     for one target were a hundred times slower over TCP than one thread
//     alone.
//
// Where every rank shares a node (and shared memory is used), every part is
// mapped. Where the ranks span nodes, the parts of each node's ranks are one
// shared-memory window there, mapped by those ranks, and the parts on other
// nodes are reached one of two ways (Remote), chosen at Init and the same on
// every rank:
//
//   - active messages (RemoteAM): every process runs a server goroutine on a
//     private communicator; a put, get, accumulate or read-modify-write on
//     a part this process does not map is a two-sided request to the part's
//     owner, whose server applies it to its own memory and answers gets,
//     read-modify-writes and fences. Payloads above 16 KiB follow the request
//     as a message of their own, received in place for a contiguous put and
//     sent from the part for a contiguous get; strided and vector patches
//     travel packed. This is the path of GA's ComEx MPI progress ports, for
//     networks whose MPI RMA needs the target's help anyway.
//   - MPI RMA (RemoteRMA): an RMA window over the same memory
//     (MPI_Win_create) reaches the other parts, as in the MPI path above.
//
// RemoteAuto, the default, takes RMA where the machine has RDMA devices (an
// entry in /sys/class/infiniband), whose RMA the network does in hardware,
// and active messages otherwise; GOGA_ARMCI_REMOTE=am or rma overrides it,
// WithRemote overrides both, and the ranks agree (RMA if any asks for it).
// Runtime.Remote says what was chosen. Within one segment and within one
// operation that spans both, peers on this node are copies and the rest
// go the remote way. With WithoutSharedMemory, GOGA_ARMCI_SHM=0, or an MPI
// that makes no shared-memory windows (Open MPI's osc ucx), no part is mapped
// but this process's own, and the others go the remote way (all over MPI RMA
// where the ranks share one node).
//
// Accumulate and read-modify-write must stay atomic against each other
// whoever issues them, so a segment uses one mechanism for them on every
// target. Where every part is mapped, or the other nodes are reached by
// active messages, that is the processor: a lock word in front of the
// target's part and its atomic instructions, taken by the issuing process
// where it maps the part and by the owner's server elsewhere. Otherwise it
// is MPI_Accumulate, MPI_Fetch_and_op and MPI_Compare_and_swap on the
// window, mapped targets included (an MPI accumulate from another node is
// atomic only against other MPI accumulates).
//
// Transports that need the target's help to complete RMA (Open MPI's osc ucx
// over TCP) would stall while the target computes, so where any part, or the
// mutexes, are reached over MPI RMA off a single node's shared memory, the
// runtime runs a goroutine that enters MPI every 200 µs. The active-message
// server polls MPI: without pause for 200 µs after its last request, then
// sleeping between polls a growing share of its idle time, up to 5 ms
// (parked in Go's scheduler from 200 µs on), so that an idle server does
// not take a core from the computation beside it. Its idle time counts from
// the end of a request's handling: counted from its arrival, a put or get
// of 8 MiB (2 ms) left the server as if idle for 2 ms when it ended, and it
// slept before looking for the next request, which waited (put and get to
// a sleeping program ran at half the two-sided rate).
//
// Where every process's host name resolves from every other (a process's
// own always does) to one address that is its host's (see Security of the
// network paths below), each also keeps a UDP socket, its doorbell
// (doorbell.go): a request sent after a pause rings the target's, and its
// server, parked on it, wakes at once, so its sleeps go up to 50 ms
// (Runtime.Doorbells; GOGA_ARMCI_DOORBELL=0 on any process turns them off
// for all). A woken server takes every ring waiting (doorbell.go's drain):
// a ring left behind would wake it again later, for a spell of polling
// without a yield beside the program (after a burst of transfers, each of
// whose requests rings, every 1.75 ms; armcibench's barrier took 14.9 µs
// against 10.3). Across the two simulated nodes, with doorbells the first
// 8-byte get from a process that had sat in a barrier for 1-300 ms takes
// 110-430 µs, against 200-4600 without, and an idle process uses 0.65% of
// a core, against 2.9-3.3%. The thread parked on the doorbell asks for
// short time slices meanwhile, so that it takes the core from a computing
// thread as it wakes (Linux 6.12 and later), and a rung server polls
// without yielding until it finds the request: a get from a process
// computing outside MPI takes 170-177 µs (medians of 15; 1.9-4.2 ms
// without the short slices; GA C's, which waits for the target to enter
// MPI, about 15 ms). Single first gets in other loops still take 4-5 ms
// now and then, and why is not known.
//
// After a request the server polls on without yielding for 60 µs, unless
// MPI itself yields when idle (Open MPI's mpi_yield_when_idle, which it
// sets where it oversubscribes the cores) or a thread of this process
// waits for answers and serves meanwhile: a yield beside a thread that
// computes, or that spins in a blocking MPI call, loses the core until the
// scheduler's next tick (4 ms on the machine measured), and requests that
// follow one another to a computing process would be served that far
// apart instead of a round trip apart (with mpi_yield_when_idle, each
// empty poll yields inside MPI, and they are 4 ms apart). For the same
// reason, where MPI does not yield, the server's own transfers
// (amServer.await) nap between polls instead of yielding: yielding, a put,
// get or accumulate of 256 KiB across the nodes took one tick, 3.4 ms,
// against 320-403 µs napping. While the server or the progress goroutine
// runs, GOMAXPROCS is at least 2, even in a process bound to one core
// (procs.go): with one P, the program's goroutine inside a blocking MPI
// call would keep the server from running until Go's monitor took the P
// back (update_ghosts across the nodes took 477-1494 µs so, 94 µs with two
// Ps, GA C's 132).
//
// Where MPI does not yield, the agreements across nodes (Barrier,
// BarrierMax, ga.Sync) do not block inside MPI at all: their records go
// point to point, and the waiting thread serves requests between its tests
// (exchange.go), so that no thread spins in MPI beside the server. An
// exchange round is one crossing into C, and sends only the record's words
// that carry something (none for a plain barrier). The records travel over
// links, TCP connections made at start between the processes that
// exchange, which the waiting thread reads without blocking (link.go):
// across the two simulated nodes, a barrier took 7.3 µs against 11.0 over
// MPI messages and MPI_Barrier's 10.6 (medians of 9 chunks of 1000, one
// run), and an MPI_Barrier from C 10.3; in armcibench against ARMCI-MPI's
// barrier, 8.0 µs against 10.4-10.5, and gabench's Gop of one float64
// 7.7-8.5 µs against GA C's 10.5-10.8.
//
// # Security of the network paths
//
// Across nodes the runtime opens sockets of its own beside MPI's: each
// process's doorbell (UDP) and, at Init where agreements go point to
// point, its link listener (TCP). They are guarded against a stranger who
// can reach them (another user of a node, another host of the network)
// but cannot read the job's MPI traffic:
//
//   - They listen only on the address the other processes are told, not on
//     every interface: this host's address on the interface MPI's TCP
//     traffic uses where the job names one, as Open MPI's
//     btl_tcp_if_include does (an interface name or an IPv4 subnet, from
//     GOGA_ARMCI_INTERFACE, else from mpirun --mca btl_tcp_if_include);
//     else the one its host's name resolves to from the other hosts (from
//     its own, in a job on one host). Where the other hosts do not agree on
//     it, or it is not this host's, or the named interface has no IPv4
//     address here, the job runs without links or doorbells (MPI messages,
//     servers that poll).
//   - At Init, rank 0 draws a random 32-byte secret and broadcasts it over
//     MPI. A link's hello proves it: the listener sends a fresh nonce, the
//     dialler answers with its rank, a nonce and an HMAC-SHA256 of both
//     nonces and both ranks, and the listener proves it back; a hello
//     replayed from another connection fails. A listener takes only the
//     exchange partners that dial it; any other connection (garbage,
//     silence, a replay, a rank that is not its partner) is dropped and
//     counted, and takes no partner's place. Only a process that a partner
//     dials listens, and only until its partners have come (10 s at most).
//   - A doorbell's ring carries its sender's rank, a count and 16 bytes of
//     an HMAC of those and the target's rank. A server wakes only to a ring
//     whose HMAC holds and whose count is above the last it took from that
//     sender; any other datagram is dropped and counted, and costs it one
//     HMAC instead of a spell of polling (BenchmarkRingAuth: 0.4-0.55 µs
//     for a ring's signature and check together).
//   - SetDebug(true) traces the drops: the connections when the links are
//     made, the datagrams at Init, the first one after, and their total
//     when the runtime ends.
//
// Not protected:
//
//   - MPI's own traffic (its TCP connections, its shared memory, the
//     launcher's) is the MPI library's to secure. The secret travels in
//     it: whoever reads it can forge hellos and rings.
//   - After the hello, a link's records travel in clear and unsigned: an
//     attacker on the path who can inject into its TCP connection can
//     change an agreement.
//   - Floods: one that fills a doorbell's socket buffer loses rings (the
//     server then wakes at its 50 ms safety poll), one at Init can fail
//     the doorbells' check (no doorbells), and a stranger who keeps 64
//     connections open to a listener fails the links (MPI messages, agreed
//     on every process). Results stay exact; only speed suffers: under
//     10,000 forged datagrams a second at the doorbells, armcibench across
//     two simulated nodes ran at 0.84 of its speed under the same flood
//     sent elsewhere (make bench-flood; BENCHMARKS.md).
//
// # Seam: transports
//
// The choice lives in one place: Segment.to holds one transport per rank
// (transport.go: mapped, overMPI; am_client.go: viaAM), and put, get and
// their strided, vector and non-blocking forms call it instead of asking
// what kind of segment they are on. Segment.at holds, per rank, the
// atomics that accumulate and read-modify-write go through, chosen with
// the segment so that they stay atomic against each other (the processor's
// and the owners' servers', or MPI's on every target). A new way to reach
// peers is a type that implements transport and atomics and a case where a
// segment is allocated (Runtime.malloc) that picks it for the ranks it
// serves. Put, Get, Acc and FetchAdd to a part this process maps with the
// processor's atomics copy or add inline, through Segment.near, a field set
// with the transports, instead of an interface call.
//
// # Costs at scale
//
// What a process keeps and does grows with P, the processes of the runtime,
// n, those of its node, N, the nodes, and k, its exchange partners
// (agreement.Partners: ⌊log2 P⌋, one more on some ranks where P is not a
// power of two, one alone on others; 17 at most for P = 100,000). Tables
// kept in each process, in bytes (TestCostsAtScale checks every entry):
//
//	                            per process of the runtime   other
//	Runtime, one node           8P (a lock per target)       barrier in the node's shared memory, once per node:
//	                                                         64·2⌈log2 P⌉·P + 1088·2P
//	Runtime, across nodes       28P (locks; requests sent    links 2080k (a TCP link per partner); the node's
//	  (active messages)           and fenced per target,     ranks 8n; the targets written since
//	                              whether it is written)     their last fence, 8 each
//	  doorbells (P ≤ 512)       88P (an address, the last
//	                              request, rings each way)
//	Runtime, across nodes (RMA) 8P                           8n
//	Segment                     48P (sizes, transport,       mapped parts: 48 each, and 64 more for a peer's
//	                              atomics, mapped part)        (8 more per 4 MiB of it beyond the first)
//	  parts by active messages  32 per part not mapped
//	  parts over MPI RMA        16 per part, 16P more        16 per mapped part whose atomics are MPI's
//	                              (operations issued and
//	                              flushed)
//	  MallocGroup's segments    8P (runtime rank to group
//	                              rank)
//
// At P = 100,000 with 64 processes a node, a runtime across nodes keeps
// 2.8 MB and a segment 8 MB in each process: a program of 100 arrays holds
// 0.8 GB a process in these tables. GA C's own per-array table is 8P (a
// pointer per process), and ARMCI-MPI's 16P.
//
// Sockets of the runtime's own, in each process: none on one node; across
// nodes with active messages and exchanges, k TCP links (the listener
// closes once they are made) and, for P ≤ 512, one UDP doorbell. Besides
// the user's communicator, the runtime duplicates it twice (its own, the
// active-message server's), keeps its node's split where it spans nodes,
// duplicates that once per segment, and runs the progress probe on a
// duplicate of MPI_COMM_SELF; each segment is one or two windows (a node's
// shared memory, an RMA window over all). What MPI keeps per communicator
// and per window, and the connections it opens, are MPI's own and are not
// counted here.
//
// Start-up work, beside the communicators' and windows' creation:
//
//   - Init: an Allreduce of a few words to learn whether the ranks share a
//     node, one to choose the remote path, and an MPI_Win_allocate_shared
//     on each node to check that MPI makes them. Across nodes with active
//     messages: the job's identity (job.go), an Allgather of 304 bytes per
//     process (host name, address, secret) and an Allreduce of two words per
//     host; for the doorbells (P ≤ 512; beyond, no socket, table or
//     collective), an Allgather of 16 bytes per process, P - 1 datagrams
//     from each process (P² in all), a barrier and an Allreduce; for the
//     links, an Allgather of 16 bytes per process, k connections, and an
//     Allreduce.
//   - Malloc: an Allgather of 8 bytes per process (the parts' sizes), an
//     Allreduce of three words, the windows, and across nodes with active
//     messages an Allgather of 16 bytes per process (each part's id at its
//     owner's server). Free: a barrier.
//
// O(P) per process, O(P²) in the job, and where it hurts at 100,000 ranks:
// the identity's Allgather (30 MB received by each process, 3 TB in all;
// gathering host names once per node, among the nodes' first processes,
// would make it 304N), the links' Allgather of addresses (each process
// needs its k partners' only: a message from each would do), Malloc's two
// Allgathers (2.4 MB to each process per Malloc; ARMCI-MPI's gathers as
// much), and every Segment's per-target tables (a transport computed from
// the target, the node's parts in a table of n, would make them O(n)). The
// doorbells' check is P² but bounded by maxDoorbells. AllFence across
// nodes visits only the targets written since their last fence, kept in a
// list as they are first written (TestCostsAtScale checks it).
//
// Messages. An agreement (Barrier, BarrierMax, AllMax, ga's collectives)
// on one node is a dissemination barrier in shared memory, ⌈log2 P⌉ rounds
// of one cache line written by each process and no message. Across nodes
// where agreements exchange records point to point (exchange.go), it is
// recursive doubling: ⌊log2 P⌋ rounds of one record each way between
// partners, and where P is not a power of two a record into the doubling
// and one back for each of the P - 2^⌊log2 P⌋ folded ranks; a record is
// 0 bytes for a plain barrier, 40 for an agreement's maxima, up to 296 with
// a reduction's or broadcast's bytes. Elsewhere across nodes it is one
// MPI_Allreduce of the record, whose rounds are MPI's. A refusal adds one
// MPI_Bcast of 1 KiB. A one-sided operation on a mapped part sends no
// message; through an owner's server, a put or accumulate is one message
// (two above 16 KiB: the request, then the payload), a get, or a
// read-modify-write, a request and its reply, and a fence a request and its
// reply to each target written since the last; a request after 800 µs
// without one to the same target also rings its doorbell (one datagram).
// Over MPI RMA each piece is one MPI_Put, MPI_Get or MPI_Accumulate and a
// flush, MPI's messages.
//
// # Performance
//
// BENCHMARKS.md, at the root of the repository, compares this package with
// ARMCI-MPI on one node and across two simulated nodes, says how each
// table is measured and what limits it, and keeps what was tried; `make
// bench-armci` measures one node again and rewrites its table.
//
// On one node every contiguous and 2-D put, get and accumulate runs at
// 1.01x of ARMCI-MPI or more: a mapped part is a memory copy with no MPI
// call, and small operations no cgo crossing. Accumulates of float32 and
// float64 run AVX2 loops in Go's assembler (acc_amd64.s): the C kernel's
// loop cost a cgo crossing, a third of a 4 KiB accumulate (57 ns against
// 81 in one process). Copies from 64 KiB on are glibc's memcpy, as
// ARMCI-MPI's are, so those rows sit near 1.0x: in one process an AVX2
// copy loop and rep movsq moved 256 KiB no faster (4.6-4.8 µs all), and
// Go's copy lost from 1 MiB on (2 MiB in 75-86 µs against 42-45). From
// half the last-level cache on, copies stream (copy.go).
//
// Linux enters a page of a peer's part into this process's page tables at
// the first touch: 64 KiB at a time for a read, one 4 KiB page for a write.
// A write of 64 KiB or more into a peer's part therefore reads a word of
// each 64 KiB window of it that this process has not read before
// (pages.go), and MapIn does so for a whole part: a first 8 MiB put into a
// fresh part takes 0.7-1.1 ms instead of 3.6-4.4.
//
// Every part starts on a page (partIn): Open MPI's TCP receives of 8 MiB
// into memory 80 bytes into a page (where a part would start after the
// lock's cache line and the allocator's 16-byte header) ran at 3.4-3.8
// GB/s, where page-aligned memory, of the window or of the Go heap, took
// 4.6-5.7 in the same runs; 0x10, 0x60, 0x70 and 0x80 bytes past a page
// were fast too. Page-aligned parts and the server's idle time counted
// from the end of each request took put and get of 8 MiB across the nodes
// from 0.6-0.8 to 0.9-1.1 of two-sided MPI's rate.
//
// Across nodes, `make bench-2node` runs cmd/armcibench and cmd/gabench on
// two nodes simulated on one machine (1 + 1 ranks, loopback TCP between
// them, Open MPI 4.1.4 with osc sm,ucx and UCX_TLS=tcp, each rank bound to
// a core of its own as on real nodes, MPI not yielding when idle as Open
// MPI's default is where ranks do not outnumber cores), alternating with
// ARMCI-MPI's and GA C's benchmarks under the same flags, and prints what
// two-sided MPI does between the same two ranks: the limits below. Medians
// of 3 runs with active messages and the agreements over links, on a
// 2-core AMD EPYC virtual machine (round trip 16.5 µs, two-sided 3281 and
// 2983 MB/s at 2 and 8 MiB). On these simulated nodes the round trip, the
// two-sided rate, the large transfers and the barrier move by a quarter
// from run to run, for goga and the C libraries alike, so each figure is
// compared with the limit of its own run:
//
//	                               goga     ARMCI-MPI   limit (same run)       target
//	put 8 B                        2.57 µs  39.8 µs     round trip 16.5 µs     within 2x: met
//	get 8 B                       21.5 µs   54.0 µs     round trip 16.5 µs     within 2x: met (1.30x)
//	acc 8 B                        5.20 µs  94.6 µs     round trip 16.5 µs     within 2x: met
//	fetch-and-add (2 ranks)        0.090    0.024 Mop/s 1/(2 round trips) 0.030 met
//	put 8 MiB                     3104       808 MB/s   two-sided 2983 MB/s    0.8x: 1.04x, met
//	get 8 MiB                     2913       794 MB/s   two-sided 2983 MB/s    0.8x: 0.98x, met
//	put 2 MiB                     3450      1178 MB/s   two-sided 3281 MB/s    0.8x: 1.05x, met
//	get 2 MiB                     3390       819 MB/s   two-sided 3281 MB/s    0.8x: 1.03x, met
//	acc 8 MiB                     2317       345 MB/s   two-sided 2983 MB/s    (adds too: 0.78x)
//	put, get, acc at every size    1.5-18x faster than ARMCI-MPI
//	put/get/acc 2-D, 128 B-8 MiB  7.3-152x faster than ARMCI-MPI
//	barrier                        7.87 µs  10.56 µs                           met: 1.34x
//
// Through ga in the same runs (gabench against GA C, which did not finish
// in 150 s: what it did not print counts as beaten): every put, get and
// acc 1.25x or more, read_inc 3.63x, sync 1.09x, LuSolve 21-22x, dgemm
// 2.7-8.9x, update_ghosts 1.20x, add 2.27x, ddot 1.85x, elem_multiply
// 2.26x; extras: dgop 1.37x, create_destroy 1.61x, lock_unlock 2.84x;
// below 1.0: get_after_wait 0.83x (level in runs alternated by hand: 63-78
// µs against GA C's 74-102), and brdcst 0.75x (7.87 µs against 5.89: GA
// C's broadcast returns once sent, ours hears first whether any process
// refused, an exchange that costs a barrier, 6.3 µs even from C over the
// same links). cmd/demo on 2 + 2 ranks: 0.280 s regular, 0.293 s
// block-cyclic.
//
// Over MPI RMA instead of active messages (osc ucx over TCP on the same
// simulated nodes), an 8-byte put took 104 µs, a get 183 µs, an accumulate
// 505 µs and a fetch-and-add 113 µs: RMA there needs the target's help,
// which only the 200 µs progress goroutine gives.
//
// GA's mutexes across the nodes (gabench -extra against
// scripts/gaextrabench.c over GA C, 3 alternating runs): ga.Lock and
// ga.Unlock of a mutex on the other node 34.2 µs against 96.9 (2.83x), a
// counter updated under it by both ranks (lock, get, put, unlock) 100 µs
// an update against 380 (3.80x); with Release, whose fence skips the host
// (ga.Unlock's), 67.7 against 352.8 (5.21x), lock and unlock 36.5 against
// 98.2. Kept in an RMA window over osc ucx instead, they took 1015-1294
// and 3480-4240 µs (0.09x and 0.10x GA C's): each lock and unlock an
// exclusive epoch served by the host's progress goroutine. On 2 + 2 ranks:
// 49-55 µs against 146-150, and 333-411 against 1170-1210. An idle process
// with mutexes uses 0.65% of a core with doorbells, 2.8-3.0% with the
// server's polls alone, and used 5.1-5.3% with the RMA window's progress
// goroutine (GA C's none). On one node (2 ranks, shared memory, the RMA
// window of osc sm): 1.92 µs against 7.20, and 4.23 against 8.87.
//
// What limits the agreements across nodes: in loops of 2000 barriers
// alternating between programs, bound, C's MPI_Barrier took 8.7-9.7 or
// 10.7-11.4 µs by run (the machine's speed moved both programs alike),
// Go's 0.3-0.5 µs more in the same run (the cgo crossing and the runtime's
// threads on the one core; MPI_THREAD_MULTIPLE alone cost C nothing
// measurable), and armci's Barrier after a burst of fetch-and-adds 0.3 µs
// more again (the server's polls as it backs off). ga.Sync in loops of
// 2000 in one program, against MPI_Barrier, a 3-word MPI_Allreduce and a
// dissemination of Sendrecvs: 9.7-9.9 µs against 9.3-10.8, 9.6-10.9 and
// 9.5-9.6 (medians of 7): the agreement costs nothing measurable there.
// After a burst of 20 000 ReadInc, as in gabench, chunks of 200 syncs
// took 11.3-12.4 µs a sync for the first and 9.7-10.4 after; after the
// burst and 50 ms asleep, 12.8-21.7 for the first and 11-14 for the
// second. C's MPI_Barrier shows no such step after a pause (8.3-9.6 µs),
// nor does Go's without armci (8.8-11.0); with armci's runtime it does
// (12.8-16.6 first, 11.1-11.7 second). Logged with timestamps, the server
// woke every 5.1-5.2 ms, and each idle poll (MPI_Iprobe) took 12-48 µs,
// with the program asleep or not (from a C thread: 7.5 µs every 5 ms with
// the main thread asleep, 21 with it in barriers, 1.3 in a tight loop);
// chunks of 200 barriers in which it polled once took about 0.4 µs a
// barrier longer, but the slow chunks after a pause held no poll at all.
// What slows the first milliseconds after a burst or a quiet spell is not
// known.
//
// Tried, and not kept:
//
//   - A server blocked in MPI_Probe: it took a core for good.
//   - A server locked to its thread that reschedules itself: each
//     reschedule a hand-over between threads (the ghost update at 199-350
//     µs).
//   - A server that always spins: the ghost update went from 300-360 to
//     214 µs, the element-wise multiply lost 14%.
//   - Shorter sleeps when idle: no gain.
//   - Blocking sends and receives in the server: 4 ms stalls (see
//     amServer.send).
//   - With MPI yielding when idle, armci's collectives across nodes as
//     MPI_Ibarrier and MPI_Iallreduce tested while serving requests
//     (ga.Sync 12-13.5 µs against 6.2-6.5 blocking), or as a dissemination
//     exchange of point-to-point messages tested while serving (7.5 µs).
//     Where MPI does not yield, the exchange is kept (exchange.go).
//   - Every idle sleep parked in Go's scheduler: the barrier after a burst
//     of requests better in one program, worse in armcibench.
//   - The server's hot time at 0, 20 µs and 2 ms, and its sleeps as a
//     quarter or the whole of the idle time: neither removed the unbound
//     barrier's bimodality, and no hot time made it worse.
//   - A dissemination barrier with the server sleeping 20 µs at a time
//     while a thread waited and served in its place: 8-byte gets took
//     40-58 µs instead of 19-26, fetch-and-add ran at half its rate, and
//     without the sleeps the barrier was no faster than MPI_Barrier.
//   - With doorbells, a server polling while its process sits in armci's
//     blocking collective (rung awake as it enters): loops of ga.Sync after
//     a burst of ReadInc took 18-23 µs against 13-18, and a get from a
//     process waiting in ga.Sync 134-171 µs against 180-257, the two
//     threads sharing the process's one core.
//   - A server that does not poll while this process is in armci's
//     blocking collective (for 50 µs from its start, sleeping as its idle
//     time says instead): the first chunk of syncs after a burst took
//     11.6-13.9 µs a sync against 11.7-12.4, later ones 9.8-10.5 against
//     9.5-11.5: no change.
package armci
