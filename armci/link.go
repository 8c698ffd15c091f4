package armci

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/goga-hpc/goga/cgo"
	"github.com/goga-hpc/goga/internal/agreement"
	"github.com/goga-hpc/goga/mpi"
)

// Links carry the agreements' records across nodes over TCP connections
// of their own, one to each process an exchange pairs this one with
// (agreement.Partners), instead of MPI messages. A waiting process reads its
// socket without blocking, a system call a poll; Open MPI's progress
// engine polls its sockets through its event loop and matches the message
// after: across the two simulated nodes (1 + 1 ranks bound, loopback TCP),
// a barrier of frames on such a socket took 5.2-5.3 µs against
// MPI_Barrier's 8.0, and a round trip 7.8 µs against 11.0 (C, medians of 9
// chunks of 2000). The same sockets with a blocking poll before each
// receive took 64 µs: the waiting thread spins, as the MPI exchange's does,
// and comes back to Go to serve requests or yield (exchange).
//
// The processes agree at start whether every one has its links
// (openLinks); any failure, or GOGA_ARMCI_LINKS=0 on any process, leaves
// all on MPI's messages. Where the network does one-sided operations in
// hardware (RemoteRMA), agreements are MPI collectives and no link is made.
type links struct {
	ranks []int   // the partners, as agreement.Partners lists them
	peers []*link // by place in ranks; nil until linked
}

// newLinks is the links of a process whose exchange partners are ranks,
// none made yet: two entries per partner, log2 P of them, not per process.
func newLinks(ranks []int) *links {
	return &links{ranks: ranks, peers: make([]*link, len(ranks))}
}

// to is the link to rank p, or nil where there is none.
func (l *links) to(p int) *link {
	for i, r := range l.ranks {
		if r == p {
			return l.peers[i]
		}
	}
	return nil
}

// link is the connection to one partner: its descriptor, and its receive
// buffer, which may hold the start of the partner's next frame.
type link struct {
	fd  int
	rx  cgo.LinkRx
	buf [cgo.LinkBuf]byte
}

// linkMagic opens a dialling process's hello, before its rank.
const linkMagic = 0x676f6761 // "goga"

// linkTimeout bounds each step of making the links at start, and the
// accepting of all of a process's links.
const linkTimeout = 10 * time.Second

// A link's hello. The listening process sends a fresh random nonce as it
// accepts; the dialling one answers with its magic, its rank, a nonce of
// its own and an HMAC under the job's secret (job.secret) of both nonces and
// both ranks, and the listening one proves the secret back the same way
// (the ack). A hello sent before, on another connection, is answered to
// another nonce and fails.
const (
	nonceLen = 16
	helloLen = 8 + nonceLen + sha256.Size
)

// maxHandshakes bounds the connections whose hellos a listener waits for at
// once: more are dropped at once.
const maxHandshakes = 64

// debug is the trace of this process's network paths: connections and
// datagrams that failed their checks (SetDebug).
var debug struct {
	on atomic.Bool
	mu sync.Mutex
	w  io.Writer // nil: os.Stderr
}

// SetDebug turns on or off the trace of this process's network paths: a
// line for the connections its link listener dropped at start, and for the
// datagrams its doorbell dropped (at start, at the first one after, and in
// all when the runtime ends).
func SetDebug(on bool) { debug.on.Store(on) }

// SetDebugOutput sends this process's trace lines to w; nil means
// os.Stderr, the default.
func SetDebugOutput(w io.Writer) {
	debug.mu.Lock()
	debug.w = w
	debug.mu.Unlock()
}

// tracef writes a line of the trace of process rank, when it is on.
func tracef(rank int, format string, a ...any) {
	if !debug.on.Load() {
		return
	}
	debug.mu.Lock()
	defer debug.mu.Unlock()
	w := debug.w
	if w == nil {
		w = os.Stderr
	}
	fmt.Fprintf(w, "armci: process %d: "+format+"\n", append([]any{rank}, a...)...)
}

// count is n things, as a trace says it.
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// listening, where set (tests), learns the address of each link listener
// and doorbell socket as soon as it listens.
var listening func(network string, addr net.Addr)

// openLinks connects this process to its exchange partners in c, or leaves
// every process without links (nil): it is collective, and c's processes
// are j's. The higher rank of
// each pair dials the lower's listener, which accepts while it dials; only
// a process that some partner dials listens, and only on the address the
// others are told (job.here).
func openLinks(c *mpi.Comm, j *job) (*links, error) {
	n, me := c.Size(), c.Rank()
	key, here := j.secret("link"), j.here
	partners := agreement.Partners(n, me)
	var higher, lower []int
	for _, p := range partners {
		if p > me {
			higher = append(higher, p)
		} else {
			lower = append(lower, p)
		}
	}
	off := os.Getenv("GOGA_ARMCI_LINKS") == "0"
	var ln *net.TCPListener
	port := 0
	if !off && here != nil && len(higher) > 0 {
		if l, err := net.ListenTCP("tcp4", &net.TCPAddr{IP: here}); err == nil {
			ln, port = l, l.Addr().(*net.TCPAddr).Port
			if listening != nil {
				listening("tcp4", l.Addr())
			}
		}
	}
	ips, ports, err := peerAddrs(c, here, port)
	if err != nil {
		if ln != nil {
			ln.Close()
		}
		return nil, err
	}
	l := newLinks(partners)
	var fail error
	switch {
	case off:
		fail = errors.New("GOGA_ARMCI_LINKS=0")
	case len(higher) > 0 && ln == nil:
		fail = errors.New("no listener")
	default:
		fail = l.connect(ln, key, me, higher, lower, ips, ports)
	}
	mineOK, agreed := []int{1}, []int{0}
	if fail != nil {
		mineOK[0] = 0
	}
	if err := mpi.Allreduce(c, mineOK, agreed, mpi.Min); err != nil || agreed[0] == 0 {
		l.close()
		return nil, err
	}
	return l, nil
}

// connect dials this process's lower partners while it accepts the higher
// ones on ln (nil where there are none), and closes ln.
func (l *links) connect(ln *net.TCPListener, key []byte, me int, higher, lower []int, ips []net.IP, ports []int) error {
	accepted := make(chan error, 1)
	if ln != nil {
		go func() {
			bad, strangers, err := l.accept(ln, key, me, higher)
			if bad+strangers > 0 {
				tracef(me, "links dropped %s at start (%d without a valid hello, %d from ranks not its partners)",
					count(bad+strangers, "connection"), bad, strangers)
			}
			accepted <- err
		}()
	} else {
		accepted <- nil
	}
	var err error
	for _, p := range lower {
		if ips[p] == nil || ports[p] == 0 {
			err = fmt.Errorf("rank %d has no address", p)
			break
		}
		if err = l.dial(key, me, p, &net.TCPAddr{IP: ips[p], Port: ports[p]}); err != nil {
			break
		}
	}
	return errors.Join(err, <-accepted)
}

// dial connects to partner p's listener at addr and proves the secret to
// it, and it to this process, with the hello.
func (l *links) dial(key []byte, me, p int, addr *net.TCPAddr) error {
	c, err := net.DialTimeout("tcp4", addr.String(), linkTimeout)
	if err != nil {
		return err
	}
	conn := c.(*net.TCPConn)
	_ = conn.SetDeadline(time.Now().Add(linkTimeout))
	var theirs [nonceLen]byte
	hello := make([]byte, helloLen)
	binary.LittleEndian.PutUint32(hello, linkMagic)
	binary.LittleEndian.PutUint32(hello[4:], uint32(me))
	mine := hello[8 : 8+nonceLen]
	rand.Read(mine)
	var ack [sha256.Size]byte
	if _, err = io.ReadFull(conn, theirs[:]); err == nil {
		copy(hello[8+nonceLen:], linkMAC(key, "hello", theirs[:], mine, me, p))
		if _, err = conn.Write(hello); err == nil {
			_, err = io.ReadFull(conn, ack[:])
		}
	}
	if err == nil && !hmac.Equal(ack[:], linkMAC(key, "ack", theirs[:], mine, p, me)) {
		err = fmt.Errorf("rank %d's listener at %v does not know the job's secret", p, addr)
	}
	if err != nil {
		conn.Close()
		return err
	}
	_ = conn.SetDeadline(time.Time{})
	return l.keep(p, conn)
}

// linkMAC is the HMAC under key of a hello ("hello") or ack ("ack") from
// rank from to rank to, under the listener's and the dialler's nonces.
func linkMAC(key []byte, what string, listener, dialler []byte, from, to int) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(what))
	m.Write(listener)
	m.Write(dialler)
	var ranks [8]byte
	binary.LittleEndian.PutUint32(ranks[:], uint32(from))
	binary.LittleEndian.PutUint32(ranks[4:], uint32(to))
	m.Write(ranks[:])
	return m.Sum(nil)
}

// handshake is the outcome of one accepted connection's hello: the rank it
// proved (conn then still open), or an error (a failure of ln's accept
// where conn is nil).
type handshake struct {
	p    int
	conn *net.TCPConn
	err  error
}

// accept takes the connections of this process's higher partners from ln,
// until each of them has its link or linkTimeout has passed, then closes
// ln. Each connection's hello is checked apart, so that a stranger who
// sends nothing holds up no other; a connection that fails its hello is
// dropped and counted (bad), and so is one that proves a rank which is not
// a partner waiting for its link (strangers: only a process of the job
// could, which none does).
func (l *links) accept(ln *net.TCPListener, key []byte, me int, want []int) (bad, strangers int, err error) {
	deadline := time.Now().Add(linkTimeout)
	_ = ln.SetDeadline(deadline)
	results := make(chan handshake)
	stop := make(chan struct{})
	var nbad, nstrangers atomic.Int64
	var pending sync.Map // *net.TCPConn -> nil, those whose hello is awaited
	var shakes, loop sync.WaitGroup
	var inFlight atomic.Int32
	loop.Go(func() {
		for {
			conn, err := ln.AcceptTCP()
			if err != nil {
				select {
				case results <- handshake{err: err}:
				case <-stop:
				}
				return
			}
			if inFlight.Add(1) > maxHandshakes {
				inFlight.Add(-1)
				nbad.Add(1)
				conn.Close()
				continue
			}
			pending.Store(conn, nil)
			shakes.Go(func() {
				defer inFlight.Add(-1)
				_ = conn.SetDeadline(deadline)
				p, err := answer(conn, key, me, want)
				pending.Delete(conn)
				if err != nil {
					if errors.Is(err, errStranger) {
						nstrangers.Add(1)
					} else {
						nbad.Add(1)
					}
					conn.Close()
					return
				}
				select {
				case results <- handshake{p: p, conn: conn}:
				case <-stop:
					nbad.Add(1)
					conn.Close()
				}
			})
		}
	})
	for left := len(want); left > 0 && err == nil; {
		h := <-results
		switch {
		case h.err != nil:
			err = h.err
		case l.to(h.p) != nil:
			nstrangers.Add(1)
			h.conn.Close()
		default:
			err = l.keep(h.p, h.conn)
			left--
		}
	}
	close(stop)
	ln.Close()
	loop.Wait()
	// Hellos still awaited fail at once.
	pending.Range(func(c, _ any) bool {
		_ = c.(*net.TCPConn).SetDeadline(time.Unix(1, 0))
		return true
	})
	shakes.Wait()
	return int(nbad.Load()), int(nstrangers.Load()), err
}

// errStranger is answer's error for a hello that proves a rank which is not
// one of the wanted partners.
var errStranger = errors.New("not a partner")

// answer checks the hello on a connection just accepted, by process me
// whose higher partners are want, and acks it: it returns the rank proved.
func answer(conn *net.TCPConn, key []byte, me int, want []int) (int, error) {
	var mine [nonceLen]byte
	rand.Read(mine[:])
	if _, err := conn.Write(mine[:]); err != nil {
		return 0, err
	}
	var hello [helloLen]byte
	if _, err := io.ReadFull(conn, hello[:]); err != nil {
		return 0, err
	}
	p := int(binary.LittleEndian.Uint32(hello[4:]))
	theirs := hello[8 : 8+nonceLen]
	if binary.LittleEndian.Uint32(hello[:]) != linkMagic ||
		!hmac.Equal(hello[8+nonceLen:], linkMAC(key, "hello", mine[:], theirs, p, me)) {
		return 0, errors.New("a hello without the secret")
	}
	if !slices.Contains(want, p) {
		return 0, errStranger
	}
	if _, err := conn.Write(linkMAC(key, "ack", mine[:], theirs, me, p)); err != nil {
		return 0, err
	}
	return p, nil
}

// keep makes conn the link to rank p, a partner, without delayed sends. C reads and
// writes it through a duplicate of its descriptor that Go does not know: on
// the original, registered with Go's poller, each frame that arrived woke
// the poller's thread, beside the one spinning for it on the same core.
func (l *links) keep(p int, conn *net.TCPConn) error {
	defer conn.Close()
	i := slices.Index(l.ranks, p)
	if i < 0 {
		return fmt.Errorf("armci: rank %d is not an exchange partner", p)
	}
	if err := conn.SetNoDelay(true); err != nil {
		return err
	}
	raw, err := conn.SyscallConn()
	if err != nil {
		return err
	}
	var dupErr error
	if err := raw.Control(func(fd uintptr) {
		nfd, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_DUPFD_CLOEXEC, 0)
		if errno != 0 {
			dupErr = errno
			return
		}
		l.peers[i] = &link{fd: int(nfd)}
	}); err != nil {
		return err
	}
	return dupErr
}

func (l *links) close() {
	for _, p := range l.peers {
		if p != nil {
			syscall.Close(p.fd)
		}
	}
}

// exchange is Runtime.exchange over the link to peer: send (if not nil) goes
// as one frame, and recv (if not nil) is filled from the peer's, serving
// requests aimed at this process while it waits.
func (l *links) exchange(a *amServer, out []byte, recv *agreement.Record, peer int) error {
	p := l.to(peer)
	if p == nil {
		return fmt.Errorf("armci: no link to rank %d", peer)
	}
	var buf []byte
	if recv != nil {
		buf = p.buf[:]
	}
	x := cgo.LinkExchange(p.fd, out, buf, &p.rx, a.commH, amTagRequest, exchangeSpins)
	err := linkErr(x, peer)
	if err == nil && !x.Done {
		err = a.serveWhile(func() (bool, error) {
			x = cgo.LinkWait(p.fd, buf, &p.rx, a.commH, amTagRequest, exchangeSpins)
			return x.Done, linkErr(x, peer)
		})
	}
	if err != nil || recv == nil {
		return err
	}
	agreement.Received(recv, p.buf[4:4+x.Count])
	return nil
}

// linkErr is the error of a link call, if it failed.
func linkErr(x cgo.Linked, peer int) error {
	if err := mpi.Check("exchange", x.RC); err != nil {
		return err
	}
	switch x.Err {
	case 0:
		return nil
	case -1:
		return fmt.Errorf("armci: rank %d closed its link", peer)
	}
	return fmt.Errorf("armci: the link to rank %d: %w", peer, syscall.Errno(x.Err))
}
