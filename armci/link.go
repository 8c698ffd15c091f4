package armci

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"time"

	"github.com/goga-hpc/goga/cgo"
	"github.com/goga-hpc/goga/mpi"
)

// Links carry the agreements' records across nodes over TCP connections
// of their own, one to each process an exchange pairs this one with
// (exchangePartners), instead of MPI messages. A waiting process reads its
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
	peers []*link // by rank; nil where no exchange pairs us
}

// link is the connection to one partner: its descriptor, and its receive
// buffer, which may hold the start of the partner's next frame.
type link struct {
	fd  int
	rx  cgo.LinkRx
	buf [cgo.LinkBuf]byte
}

// linkMagic opens the first bytes a dialling process sends, before its rank.
const linkMagic = 0x676f6761 // "goga"

// linkTimeout bounds each step of making the links at start.
const linkTimeout = 10 * time.Second

// openLinks connects this process to its exchange partners in c, or leaves
// every process without links (nil): it is collective. The higher rank of
// each pair dials the lower's listener; a dial completes in the listener's
// backlog, so every process dials first and accepts after.
func openLinks(c *mpi.Comm) (*links, error) {
	n, me := c.Size(), c.Rank()
	var ln *net.TCPListener
	port := 0
	if os.Getenv("GOGA_ARMCI_LINKS") != "0" {
		if l, err := net.ListenTCP("tcp4", &net.TCPAddr{}); err == nil {
			ln, port = l, l.Addr().(*net.TCPAddr).Port
		}
	}
	ips, ports, err := peerAddrs(c, port)
	if err != nil {
		if ln != nil {
			ln.Close()
		}
		return nil, err
	}
	l := &links{peers: make([]*link, n)}
	var fail error
	if ln == nil {
		fail = errors.New("no listener")
	} else {
		fail = l.connect(ln, me, ips, ports)
		ln.Close()
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

// connect dials this process's lower partners, then accepts the higher
// ones, each of which names itself in its first bytes.
func (l *links) connect(ln *net.TCPListener, me int, ips []net.IP, ports []int) error {
	higher := 0
	for _, p := range exchangePartners(len(ips), me) {
		if p > me {
			higher++
			continue
		}
		if ips[p] == nil || ports[p] == 0 {
			return fmt.Errorf("rank %d has no address", p)
		}
		c, err := net.DialTimeout("tcp4", (&net.TCPAddr{IP: ips[p], Port: ports[p]}).String(), linkTimeout)
		if err != nil {
			return err
		}
		conn := c.(*net.TCPConn)
		var hello [8]byte
		binary.LittleEndian.PutUint32(hello[:], linkMagic)
		binary.LittleEndian.PutUint32(hello[4:], uint32(me))
		_ = conn.SetWriteDeadline(time.Now().Add(linkTimeout))
		if _, err := conn.Write(hello[:]); err != nil {
			conn.Close()
			return err
		}
		_ = conn.SetWriteDeadline(time.Time{})
		if err := l.keep(p, conn); err != nil {
			return err
		}
	}
	_ = ln.SetDeadline(time.Now().Add(linkTimeout))
	for ; higher > 0; higher-- {
		conn, err := ln.AcceptTCP()
		if err != nil {
			return err
		}
		var hello [8]byte
		_ = conn.SetReadDeadline(time.Now().Add(linkTimeout))
		if _, err := io.ReadFull(conn, hello[:]); err != nil {
			conn.Close()
			return err
		}
		p := int(binary.LittleEndian.Uint32(hello[4:]))
		if binary.LittleEndian.Uint32(hello[:]) != linkMagic || p <= me || p >= len(l.peers) || l.peers[p] != nil {
			conn.Close()
			return fmt.Errorf("an unexpected connection (%x)", hello)
		}
		_ = conn.SetReadDeadline(time.Time{})
		if err := l.keep(p, conn); err != nil {
			return err
		}
	}
	return nil
}

// keep makes conn the link to rank p, without delayed sends. C reads and
// writes it through a duplicate of its descriptor that Go does not know: on
// the original, registered with Go's poller, each frame that arrived woke
// the poller's thread, beside the one spinning for it on the same core.
func (l *links) keep(p int, conn *net.TCPConn) error {
	defer conn.Close()
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
		l.peers[p] = &link{fd: int(nfd)}
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
func (l *links) exchange(a *amServer, out []byte, recv *[recWords]int64, peer int) error {
	p := l.peers[peer]
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
	received(recv, p.buf[4:4+x.Count])
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
