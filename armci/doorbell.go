package armci

import (
	"context"
	"encoding/binary"
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
// at start that a datagram from every other one reaches it.
const maxDoorbells = 512

type doorbell struct {
	conn  *net.UDPConn
	peers []*net.UDPAddr // by rank
	// last is when this process last sent a request to each rank (Unix
	// ns), to decide whether to ring.
	last []atomic.Int64
	// rung counts the datagrams this server woke to (tests).
	rung atomic.Int64
}

// The exchange at start: a process's port, its host's address as its host
// name resolves there (IPv4, 0 for none), and the name itself.
const (
	exPort = iota
	exAddr
	exLen
	exName
	exWords = exName + 32 // a host name has at most 255 bytes
)

// peerAddrs gathers every process's port (0 for none) and the IPv4 address
// by which its host is reached from here (nil where none is known); it is
// collective over c. Each process publishes the address its host name
// resolves to on its own host; where that is a loopback address (as
// Debian's 127.0.1.1) and the host is another, the others resolve the name
// themselves.
func peerAddrs(c *mpi.Comm, port int) ([]net.IP, []int, error) {
	n := c.Size()
	host, _ := os.Hostname()
	mine := make([]int64, exWords)
	if port != 0 && host != "" && len(host) <= 8*(exWords-exName) {
		mine[exPort] = int64(port)
		if ip := lookup(host); ip != nil {
			mine[exAddr] = int64(binary.BigEndian.Uint32(ip))
		}
		mine[exLen] = int64(len(host))
		copy(bytesOf(mine[exName:]), host)
	}
	all := make([]int64, n*exWords)
	if err := mpi.Allgather(c, mine, all); err != nil {
		return nil, nil, err
	}
	ips, ports := make([]net.IP, n), make([]int, n)
	names := map[string]net.IP{host: net.IPv4(127, 0, 0, 1).To4()}
	for r := range n {
		w := all[r*exWords : (r+1)*exWords]
		if w[exPort] == 0 {
			continue
		}
		name := string(bytesOf(w[exName:])[:w[exLen]])
		ip, seen := names[name]
		if !seen {
			ip = binary.BigEndian.AppendUint32(nil, uint32(w[exAddr]))
			if w[exAddr] == 0 || net.IP(ip).IsLoopback() {
				ip = lookup(name)
			}
			names[name] = ip
		}
		ips[r], ports[r] = ip, int(w[exPort])
	}
	return ips, ports, nil
}

// openDoorbells gives every process of c a doorbell, or none to any: it is
// collective. Every process rings every other once, and all keep doorbells
// only if every ring arrived.
func openDoorbells(c *mpi.Comm) (*doorbell, error) {
	n, me := c.Size(), c.Rank()
	d := &doorbell{peers: make([]*net.UDPAddr, n), last: make([]atomic.Int64, n)}
	port := 0
	if os.Getenv("GOGA_ARMCI_DOORBELL") != "0" && n <= maxDoorbells {
		if conn, err := net.ListenUDP("udp4", &net.UDPAddr{}); err == nil {
			d.conn = conn
			_ = conn.SetReadBuffer(1 << 20) // the rings at start
			port = conn.LocalAddr().(*net.UDPAddr).Port
		}
	}
	ips, ports, err := peerAddrs(c, port)
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
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], uint32(me))
	for r, p := range d.peers {
		if r != me {
			if _, err := d.conn.WriteToUDP(b[:], p); err != nil {
				c.Barrier()
				return err
			}
		}
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	heard := make([]bool, len(d.peers))
	heard[me] = true
	missing := len(d.peers) - 1
	_ = d.conn.SetReadDeadline(time.Now().Add(time.Second))
	for missing > 0 {
		k, _, err := d.conn.ReadFromUDP(b[:])
		if err != nil {
			return err
		}
		if r := int(binary.LittleEndian.Uint32(b[:])); k == 4 && r < len(heard) && !heard[r] {
			heard[r] = true
			missing--
		}
	}
	return nil
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
	_, _ = d.conn.WriteToUDP([]byte{0}, d.peers[to])
}

// wait parks until a datagram arrives or for dur, and reports whether one
// came; it then takes every other one waiting too (drain), so that rings
// whose requests are served already do not wake the server again later.
//
// The thread that parks asks for short time slices meanwhile, and gets its
// own back after: it is most often the one that the datagram wakes, and a
// thread that wakes with a short slice takes the core from a computing
// thread at once (Linux 6.12 and later), where it would otherwise wait for
// the end of that thread's slice. Across the two simulated nodes, one core
// per process, a get from a process computing in Go took 177-774 µs
// instead of 1.9-4.2 ms (gabench -extra's get_from_busy_us, 3 runs each).
func (d *doorbell) wait(dur time.Duration) bool {
	var b [8]byte
	tid := syscall.Gettid()
	cgo.SchedSlice(tid, uint64(wakeSlice))
	_ = d.conn.SetReadDeadline(time.Now().Add(dur))
	_, _, err := d.conn.ReadFromUDP(b[:])
	cgo.SchedSlice(tid, 0)
	if err != nil {
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
	var b [8]byte
	_ = rc.Read(func(fd uintptr) bool {
		// The descriptor is non-blocking (Go's), so a read of an empty
		// socket fails at once; a plain read returns no sender address to
		// allocate.
		for {
			if _, err := syscall.Read(int(fd), b[:]); err != nil {
				return true
			}
		}
	})
}

func (d *doorbell) close() {
	if d != nil && d.conn != nil {
		d.conn.Close()
		d.conn = nil
	}
}
