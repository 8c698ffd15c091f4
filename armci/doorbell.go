package armci

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/goga-hpc/goga/cgo"
	"github.com/goga-hpc/goga/mpi"
)

// A doorbell wakes a sleeping active-message server. MPI has no call that
// waits for a message without spinning, so a server with nothing to do
// sleeps between polls, for longer the longer it has been idle; a request
// to a process whose server slept had waited for the end of that sleep:
// across the two simulated nodes, the first 8-byte get from a process that
// had sat in a barrier for 0.01-0.3 s took 0.2-4.5 ms, against a round trip
// of 18 µs. Each process also keeps a UDP socket; a process that sends a
// request to another after a pause (ringAfter since its previous one there)
// also sends it one datagram, which the other's server, parked on the
// socket, wakes to. Its sleeps can then be long, and it polls less when
// idle.
//
// Every process must be able to ring every other, or no server could sleep
// long: the processes agree at start whether all have a socket and every
// ring of a test round reached its target (openDoorbells).
// GOGA_ARMCI_DOORBELL=0 on any process turns them off for all, and so do
// more than maxDoorbells processes. Without doorbells the servers poll as
// before, at most amSleep apart.

// ringAfter is the pause after which a request rings its target's doorbell.
// A server parks on its doorbell only once its sleeps reach amParkFrom, an
// eighth of its idle time, that is after 8·amParkFrom without a request;
// before, it sleeps at most amParkFrom at a time. A request less than
// ringAfter after this process's previous one to the same server finds it
// awake or in a short sleep (the previous one woke it, by induction), so a
// stream of requests rings once.
const ringAfter = 4 * amParkFrom

// amSleepRung is the longest sleep of a server that doorbells wake: a
// safety poll, for a datagram lost on the network.
const amSleepRung = 50 * time.Millisecond

// wakeSlice is the time slice of a thread parked on a doorbell: the
// shortest that Linux takes.
const wakeSlice = 100 * time.Microsecond

// maxDoorbells is the most processes a runtime gives doorbells: each checks
// at start that a datagram from every other one reaches it, P² datagrams
// in all, and keeps four entries per process (peers, last, count, heard).
var maxDoorbells = 512

// A ring is a datagram of ringLen bytes: the sender's rank, a count of the
// sender's rings to this target, and the first ringMACLen bytes of an HMAC
// under the job's secret (job.secret) of those and the target's rank. A server
// takes a ring only if its HMAC holds and its count is above the last it
// took from that sender: any other datagram is dropped and counted, and
// wakes no server (a forged datagram costs it one HMAC); a ring sent
// before is dropped as stale.
const (
	ringMACLen = 16
	ringLen    = 12 + ringMACLen
)

type doorbell struct {
	rank  int
	conn  *net.UDPConn
	peers []*net.UDPAddr // by rank
	// last is when this process last sent a request to each rank (Unix
	// ns), to decide whether to ring.
	last []atomic.Int64
	// count is how many rings this process has sent each rank.
	count []atomic.Uint64
	// heard is the count of the last ring taken from each rank (read and
	// written by this process's server only, and by check before it starts).
	heard []uint64
	// macs holds HMAC states under the job's secret (*ringMAC).
	macs sync.Pool
	// rung counts the rings this server woke to (tests).
	rung atomic.Int64
	// dropped counts the datagrams that were not rings, and atStart those
	// of them dropped before the runtime started (-1 while it starts);
	// stale counts the rings dropped as sent before.
	dropped atomic.Int64
	atStart int64
	stale   int64
}

func newDoorbell(rank, n int, key []byte) *doorbell {
	d := &doorbell{rank: rank, peers: make([]*net.UDPAddr, n), last: make([]atomic.Int64, n),
		count: make([]atomic.Uint64, n), heard: make([]uint64, n), atStart: -1}
	d.macs.New = func() any { return &ringMAC{h: hmac.New(sha256.New, key)} }
	return d
}

// ipOf is the IPv4 address of a, as newJob exchanges them.
func ipOf(a int64) net.IP { return binary.BigEndian.AppendUint32(nil, uint32(a)) }

// peerAddrs tells every process of c the address and port of every other's
// socket (nil and 0 where it has none): it is collective.
func peerAddrs(c *mpi.Comm, here net.IP, port int) ([]net.IP, []int, error) {
	n := c.Size()
	mine := []int64{0, int64(port)}
	if here != nil && port != 0 {
		mine[0] = int64(binary.BigEndian.Uint32(here.To4()))
	}
	all := make([]int64, 2*n)
	if err := mpi.Allgather(c, mine, all); err != nil {
		return nil, nil, err
	}
	ips, ports := make([]net.IP, n), make([]int, n)
	for r := range n {
		if all[2*r+1] != 0 {
			ips[r], ports[r] = ipOf(all[2*r]), int(all[2*r+1])
		}
	}
	return ips, ports, nil
}

// openDoorbells gives every process of c a doorbell, or none to any: it is
// collective, and c's processes are j's. Every process rings every other
// once, and all keep doorbells only if every ring arrived. Over more than
// maxDoorbells processes, which every process knows alike, it returns at
// once: no socket, table or collective.
func openDoorbells(c *mpi.Comm, j *job) (*doorbell, error) {
	n, me := c.Size(), c.Rank()
	if n > maxDoorbells {
		return nil, nil
	}
	here := j.here
	d := newDoorbell(me, n, j.secret("doorbell"))
	port := 0
	if os.Getenv("GOGA_ARMCI_DOORBELL") != "0" && here != nil {
		if conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: here}); err == nil {
			d.conn = conn
			_ = conn.SetReadBuffer(1 << 20) // the rings at start
			port = conn.LocalAddr().(*net.UDPAddr).Port
			if listening != nil {
				listening("udp4", conn.LocalAddr())
			}
		}
	}
	ips, ports, err := peerAddrs(c, here, port)
	if err != nil {
		d.close()
		return nil, err
	}
	ok := d.conn != nil
	for r := 0; r < n && ok; r++ {
		ok = ports[r] != 0 && ips[r] != nil
		if ok {
			d.peers[r] = &net.UDPAddr{IP: ips[r], Port: ports[r]}
		}
	}
	if ok {
		ok = d.check(c, me) == nil
	} else if err := c.Barrier(); err != nil { // check's barrier
		d.close()
		return nil, err
	}
	if d.atStart = d.dropped.Load(); d.atStart > 0 {
		tracef(me, "doorbell dropped %s at start (not rings)", count(int(d.atStart), "datagram"))
	}
	agreed, mineOK := []int{0}, []int{0}
	if ok {
		mineOK[0] = 1
	}
	if err := mpi.Allreduce(c, mineOK, agreed, mpi.Min); err != nil || agreed[0] == 0 {
		d.close()
		return nil, err
	}
	return d, nil
}

// check rings every other process's doorbell once and waits, after all have
// rung, until every other process's ring has arrived here (a second at
// most: they have all been sent).
func (d *doorbell) check(c *mpi.Comm, me int) error {
	for r := range d.peers {
		if r != me {
			if err := d.ring(r); err != nil {
				c.Barrier()
				return err
			}
		}
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	missing := len(d.peers) - 1
	_ = d.conn.SetReadDeadline(time.Now().Add(time.Second))
	var b [ringLen + 1]byte // a longer datagram is no ring
	for missing > 0 {
		k, err := d.conn.Read(b[:])
		if err != nil {
			return err
		}
		if d.take(b[:k]) {
			missing--
		}
	}
	return nil
}

// ring sends rank to a ring.
func (d *doorbell) ring(to int) error {
	var b [ringLen]byte
	binary.LittleEndian.PutUint32(b[:], uint32(d.rank))
	binary.LittleEndian.PutUint64(b[4:], d.count[to].Add(1))
	d.sign(b[:], to, b[12:])
	_, err := d.conn.WriteToUDP(b[:], d.peers[to])
	return err
}

// sign puts into mac the HMAC of the ring b (its first 12 bytes) to rank
// to, cut to mac's length.
func (d *doorbell) sign(b []byte, to int, mac []byte) {
	m := d.macs.Get().(*ringMAC)
	copy(m.in[:], b[:12])
	binary.LittleEndian.PutUint32(m.in[12:], uint32(to))
	m.h.Reset()
	m.h.Write(m.in[:])
	copy(mac, m.h.Sum(m.sum[:0]))
	d.macs.Put(m)
}

// ringMAC is an HMAC state with room for its input and sum, so that a ring
// allocates nothing.
type ringMAC struct {
	h   hash.Hash
	in  [16]byte
	sum [sha256.Size]byte
}

// take reports whether the datagram b is a ring that this process has not
// taken before, and counts it where it is not a ring.
func (d *doorbell) take(b []byte) bool {
	if len(b) == ringLen {
		from := int(binary.LittleEndian.Uint32(b))
		if from < len(d.heard) {
			var mac [ringMACLen]byte
			d.sign(b, d.rank, mac[:])
			if hmac.Equal(mac[:], b[12:]) {
				n := binary.LittleEndian.Uint64(b[4:])
				if n <= d.heard[from] {
					d.stale++
					return false
				}
				d.heard[from] = n
				return true
			}
		}
	}
	if d.dropped.Add(1) == d.atStart+1 && d.atStart >= 0 {
		tracef(d.rank, "doorbell dropped a datagram that was not a ring (the count comes at the end)")
	}
	return false
}

// lookups keeps lookup's answers: each runtime's doorbells and links look
// up every host of the job, and a resolver may take seconds.
var lookups sync.Map // host name -> net.IP (nil: none)

// lookup returns an IPv4 address of host, or nil.
func lookup(host string) net.IP {
	if ip, ok := lookups.Load(host); ok {
		return ip.(net.IP)
	}
	ip := resolve(host)
	lookups.Store(host, ip)
	return ip
}

// resolve asks the resolver for an IPv4 address of host.
func resolve(host string) net.IP {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil {
		return nil
	}
	for _, a := range addrs {
		if v4 := a.IP.To4(); v4 != nil {
			return v4
		}
	}
	return nil
}

// sent notes a request just sent to rank to, ringing its doorbell if the
// one before went ringAfter ago or more. A nil doorbell does nothing.
func (d *doorbell) sent(to int) {
	if d == nil {
		return
	}
	now := time.Now().UnixNano()
	if now-d.last[to].Swap(now) < int64(ringAfter) {
		return
	}
	_ = d.ring(to)
}

// wait parks until a ring arrives or for dur, and reports whether one came;
// it then takes every datagram waiting too (drain), so that rings whose
// requests are served already do not wake the server again later. Other
// datagrams that arrive meanwhile are dropped and counted (take), and it
// parks on.
//
// The thread that parks asks for short time slices meanwhile, and gets its
// own back after: it is most often the one that the datagram wakes, and a
// thread that wakes with a short slice takes the core from a computing
// thread at once (Linux 6.12 and later), where it would otherwise wait for
// the end of that thread's slice. Across the two simulated nodes, one core
// per process, a get from a process computing in Go took 177-774 µs
// instead of 1.9-4.2 ms (gabench -extra's get_from_busy_us, 3 runs each).
func (d *doorbell) wait(dur time.Duration) bool {
	var b [ringLen + 1]byte
	tid := syscall.Gettid()
	cgo.SchedSlice(tid, uint64(wakeSlice))
	_ = d.conn.SetReadDeadline(time.Now().Add(dur))
	rang := false
	for !rang {
		k, err := d.conn.Read(b[:])
		if err != nil {
			break
		}
		rang = d.take(b[:k])
	}
	cgo.SchedSlice(tid, 0)
	if !rang {
		return false
	}
	d.rung.Add(1)
	d.drain()
	return true
}

// drain takes every datagram waiting on the socket, without blocking. It
// reads the descriptor itself: Go's reads check their deadline before
// they look, so reads under a deadline already past, as it did before,
// took nothing. Every ring left behind then woke the server at one park
// after another, each time for a spell of polling without a yield beside
// the program's thread: across the two simulated nodes, the rings of
// armcibench's large transfers (each request of one rings: it comes
// more than ringAfter after the one before) woke it every 1.75 ms for
// 60-140 ms after, and the program's barriers took 13-17 µs there instead
// of 9.7-12.4.
func (d *doorbell) drain() {
	rc, err := d.conn.SyscallConn()
	if err != nil {
		return
	}
	_ = d.conn.SetReadDeadline(time.Time{})
	var b [ringLen + 1]byte
	_ = rc.Read(func(fd uintptr) bool {
		// The descriptor is non-blocking (Go's), so a read of an empty
		// socket fails at once; a plain read returns no sender address to
		// allocate.
		for {
			k, err := syscall.Read(int(fd), b[:])
			if err != nil {
				return true
			}
			d.take(b[:k])
		}
	})
}

// close closes the doorbell, and traces what it dropped after start.
func (d *doorbell) close() {
	if d == nil || d.conn == nil {
		return
	}
	if n := d.dropped.Load() - d.atStart; n > 0 && d.atStart >= 0 {
		tracef(d.rank, "doorbell dropped %s after start (not rings)", count(int(n), "datagram"))
	}
	if d.stale > 0 {
		tracef(d.rank, "doorbell dropped %s as stale", count(int(d.stale), "ring"))
	}
	d.conn.Close()
	d.conn = nil
}
