package armci_test

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestNetworkIntruders: a stranger on the machine that reaches the sockets
// of the links and doorbells as soon as they listen at start (it learns
// their addresses from armci.OnListen) connects first and claims to be each
// rank above the listener's with the links' former plain hello, sends
// garbage or nothing, or floods the doorbell with forged rings, at start or
// while the servers sleep. Across the two simulated nodes, on 2 and 4
// ranks, the links still form with the real partners, the doorbells still
// ring, agreements and a get give exact results, no forged ring wakes a
// server, and each process's debug trace counts exactly the connections
// and datagrams it dropped at start, and reports those of the flood after.
// The sockets listen only on the address the peers were told: a connection
// or datagram to another address of the machine is refused.
func TestNetworkIntruders(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		for _, c := range []struct {
			name string
			f    func(t *testing.T, in *intrusion, network string, addr net.Addr)
		}{
			{"Listen", otherAddresses}, {"Hellos", plainHellos},
			{"NonPartners", nonPartnerHellos}, {"Garbage", garbage},
			{"Rings", forgedRings}, {"RingFlood", nil},
		} {
			t.Run(c.name, func(t *testing.T) { testIntrusion(t, c.f) })
		}
	}, mpitest.Transports(mpitest.TwoNodes), mpitest.Ranks(2, 4), mpitest.AcrossNodes(), mpitest.Timeout(300*time.Second))
}

// intrusion is what the stranger did to this process's sockets: the
// connections it keeps open until the runtime has started, and how many
// connections and datagrams the process must have dropped.
type intrusion struct {
	me, n     int
	conns     []net.Conn
	dropConns int
	dropRings int
	bell      *net.UDPAddr
}

// testIntrusion starts a runtime across the nodes, with links, while f
// intrudes on each of this process's sockets as it starts to listen, then
// checks that the links and doorbells work and what the trace says. With f
// nil, the stranger floods the doorbells while every process sits idle.
func testIntrusion(t *testing.T, f func(t *testing.T, in *intrusion, network string, addr net.Addr)) {
	w := mpi.World()
	in := &intrusion{me: w.Rank(), n: w.Size()}
	var trace bytes.Buffer
	armci.SetDebugOutput(&trace)
	armci.SetDebug(true)
	defer armci.SetDebug(false)
	defer armci.SetDebugOutput(nil)
	restore := armci.OnListen(func(network string, addr net.Addr) {
		if network == "udp4" {
			in.bell = addr.(*net.UDPAddr)
		}
		if f != nil {
			f(t, in, network, addr)
		}
	})
	rt, err := armci.Init(w, armci.WithRemote(armci.RemoteAM), armci.WithExchanges())
	restore()
	for _, c := range in.conns {
		c.Close()
	}
	must(t, err)
	if rt.SingleNode() {
		fatalf(t, "%d ranks on two nodes: SingleNode", rt.Size())
	}
	if !armci.Linked(rt) {
		t.Errorf("rank %d: no links", rt.Rank())
	}
	if !rt.Doorbells() || in.bell == nil {
		t.Errorf("rank %d: no doorbells", rt.Rank())
	}
	testAllMaxReduce(t, rt)
	testBarrierMax(t, rt)
	testAgreementBurst(t, rt)
	if f == nil && rt.Doorbells() {
		in.dropRings = idleFlood(t, rt, in.bell)
	}
	pausedGet(t, rt, rt.Doorbells())
	must(t, rt.Finalize())
	got := trace.String()
	if want := fmt.Sprintf("links dropped %d connection", in.dropConns); in.dropConns > 0 && !strings.Contains(got, want) {
		t.Errorf("rank %d: the trace does not say %q:\n%s", in.me, want, got)
	}
	if in.dropConns == 0 && strings.Contains(got, "links dropped") {
		t.Errorf("rank %d: no stranger connected, but the trace says:\n%s", in.me, got)
	}
	switch {
	case f == nil && in.dropRings > 0:
		// Some of the flood may be lost in the socket's buffer, or still
		// wait in it at the end; the total is traced at Finalize.
		if !strings.Contains(got, "doorbell dropped") {
			t.Errorf("rank %d: %d forged rings sent, and the trace says none was dropped:\n%s", in.me, in.dropRings, got)
		}
	case in.dropRings > 0:
		if want := fmt.Sprintf("doorbell dropped %d datagrams at start", in.dropRings); !strings.Contains(got, want) {
			t.Errorf("rank %d: the trace does not say %q:\n%s", in.me, want, got)
		}
	case strings.Contains(got, "doorbell dropped"):
		t.Errorf("rank %d: no stranger rang, but the trace says:\n%s", in.me, got)
	}
}

// target is where the stranger reaches addr: at the loopback where the
// socket listens on every address.
func target(addr net.Addr) (net.IP, int) {
	ip, port := addrIP(addr)
	if ip.IsUnspecified() {
		return net.IPv4(127, 0, 0, 1), port
	}
	return ip, port
}

// addrIP is the address and port of a TCP or UDP socket.
func addrIP(addr net.Addr) (net.IP, int) {
	switch a := addr.(type) {
	case *net.TCPAddr:
		return a.IP, a.Port
	case *net.UDPAddr:
		return a.IP, a.Port
	}
	panic(fmt.Sprintf("a socket of address %v", addr))
}

// connect opens the stranger's connection to the link listener at addr.
func (in *intrusion) connect(t *testing.T, addr net.Addr) net.Conn {
	ip, port := target(addr)
	c, err := net.DialTimeout("tcp4", (&net.TCPAddr{IP: ip, Port: port}).String(), 5*time.Second)
	must(t, err)
	in.conns = append(in.conns, c)
	in.dropConns++
	return c
}

// otherAddresses: the sockets listen on one address, not unspecified; a
// connection to the port at any other of the machine's addresses is
// refused, and so is a datagram (Linux answers it with ICMP port
// unreachable, which a connected UDP socket reads as ECONNREFUSED).
func otherAddresses(t *testing.T, in *intrusion, network string, addr net.Addr) {
	ip, port := target(addr)
	if bound, _ := addrIP(addr); bound.IsUnspecified() {
		t.Errorf("rank %d: the %s socket listens on every address (%v)", in.me, network, addr)
	}
	others := []net.IP{net.IPv4(127, 0, 0, 1)}
	if as, err := net.InterfaceAddrs(); err == nil {
		for _, a := range as {
			if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil {
				others = append(others, n.IP.To4())
			}
		}
	}
	for _, o := range others {
		if o.Equal(ip) {
			continue
		}
		if network == "tcp4" {
			c, err := net.DialTimeout("tcp4", (&net.TCPAddr{IP: o, Port: port}).String(), time.Second)
			if err == nil {
				c.Close()
				t.Errorf("rank %d: the link listener at %v took a connection at %v", in.me, addr, o)
			}
			continue
		}
		c, err := net.DialUDP("udp4", nil, &net.UDPAddr{IP: o, Port: port})
		must(t, err)
		_, err = c.Write([]byte{0})
		if err == nil {
			_ = c.SetReadDeadline(time.Now().Add(time.Second))
			_, err = c.Read(make([]byte, 8))
		}
		c.Close()
		if !errors.Is(err, syscall.ECONNREFUSED) {
			t.Errorf("rank %d: a datagram to the doorbell's port at %v: %v, want connection refused", in.me, o, err)
		}
	}
}

// plainHellos: the stranger connects first once for each rank above this
// one, non-partners first, each time sending the links' former hello (a
// magic number and the rank), a replay of what that rank would have sent.
func plainHellos(t *testing.T, in *intrusion, network string, addr net.Addr) {
	hellos(t, in, network, addr, true)
}

// nonPartnerHellos: as plainHellos, for the ranks above this one that are
// not its exchange partners only (on 4 ranks, 3 at rank 0 and 2 at rank 1).
func nonPartnerHellos(t *testing.T, in *intrusion, network string, addr net.Addr) {
	hellos(t, in, network, addr, false)
}

func hellos(t *testing.T, in *intrusion, network string, addr net.Addr, partnersToo bool) {
	if network != "tcp4" {
		return
	}
	partners := armci.ExchangePartners(in.n, in.me)
	var claims []int
	for r := in.me + 1; r < in.n; r++ {
		if !slices.Contains(partners, r) {
			claims = append(claims, r)
		}
	}
	for _, p := range partners {
		if p > in.me && partnersToo {
			claims = append(claims, p)
		}
	}
	for _, r := range claims {
		var hello [8]byte
		binary.LittleEndian.PutUint32(hello[:], 0x676f6761)
		binary.LittleEndian.PutUint32(hello[4:], uint32(r))
		_, err := in.connect(t, addr).Write(hello[:])
		must(t, err)
	}
}

// garbage: the stranger connects first and sends random bytes, then
// connects again and sends nothing.
func garbage(t *testing.T, in *intrusion, network string, addr net.Addr) {
	if network != "tcp4" {
		return
	}
	junk := make([]byte, 100)
	rand.Read(junk)
	_, err := in.connect(t, addr).Write(junk)
	must(t, err)
	in.connect(t, addr)
}

// forgedRings: the stranger floods the doorbell at start with datagrams of
// the doorbells' former shapes (one zero byte; a rank in 4 bytes, every
// rank's) and of random bytes, some as long as a ring.
func forgedRings(t *testing.T, in *intrusion, network string, addr net.Addr) {
	if network != "udp4" {
		return
	}
	ip, port := target(addr)
	c, err := net.DialUDP("udp4", nil, &net.UDPAddr{IP: ip, Port: port})
	must(t, err)
	defer c.Close()
	for i := range 300 {
		var b []byte
		switch i % 3 {
		case 0:
			b = []byte{0}
		case 1:
			b = binary.LittleEndian.AppendUint32(nil, uint32(i%in.n))
		default:
			b = make([]byte, 20+i%16)
			rand.Read(b)
		}
		if _, err := c.Write(b); err != nil {
			fatalf(t, "rank %d: forged ring %d: %v", in.me, i, err)
		}
		in.dropRings++
	}
}

// idleFlood floods this process's own doorbell with forged rings from a
// stranger while every process sits idle (no request flows), and checks that
// none woke its server; it returns how many it sent.
func idleFlood(t *testing.T, rt *armci.Runtime, bell *net.UDPAddr) int {
	ip, port := target(bell)
	c, err := net.DialUDP("udp4", nil, &net.UDPAddr{IP: ip, Port: port})
	must(t, err)
	defer c.Close()
	must(t, rt.Barrier())
	// Every server parks on its doorbell after 1.6 ms idle.
	time.Sleep(20 * time.Millisecond)
	before := armci.Rung(rt)
	sent := 0
	b := make([]byte, 28)
	for i := range 3000 {
		rand.Read(b)
		b[0] = byte(i % rt.Size())
		b[1], b[2], b[3] = 0, 0, 0
		if _, err := c.Write(b[:1+i%28]); err == nil {
			sent++
		}
		if i%100 == 99 {
			time.Sleep(2 * time.Millisecond)
		}
	}
	time.Sleep(20 * time.Millisecond)
	if n := armci.Rung(rt) - before; n != 0 {
		t.Errorf("rank %d: %d forged rings woke the server %d times", rt.Rank(), sent, n)
	}
	must(t, rt.Barrier())
	return sent
}
