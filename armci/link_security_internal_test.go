package armci

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// TestLinkHello: a listener of rank 0 waiting for its partner, rank 1, of
// 3 ranks drops a replay of the hello rank 1 sent on another connection (to
// another nonce), drops a hello that proves rank 2 under the job's secret
// (not a partner), and then links to rank 1; a dialler does not link to a
// listener that answers without the secret. The trace counts the drops.
func TestLinkHello(t *testing.T) {
	key := make([]byte, keyLen)
	rand.Read(key)
	var trace bytes.Buffer
	SetDebugOutput(&trace)
	SetDebug(true)
	defer SetDebug(false)
	defer SetDebugOutput(nil)

	// A hello of rank 1's, as it went to a listener (fake: it keeps the
	// bytes and answers nothing).
	fake := listen(t)
	captured := make(chan []byte, 1)
	go func() {
		c, err := fake.Accept()
		if err != nil {
			captured <- nil
			return
		}
		defer c.Close()
		nonce := make([]byte, nonceLen)
		rand.Read(nonce)
		c.Write(nonce)
		hello := make([]byte, helloLen)
		io.ReadFull(c, hello)
		captured <- hello
	}()
	dialer := newLinks([]int{0})
	if err := dialer.dial(key, 1, 0, fake.Addr().(*net.TCPAddr)); err == nil {
		t.Error("dial: linked to a listener that sent no ack")
	}
	fake.Close()
	replay := <-captured
	if len(replay) != helloLen {
		t.Fatalf("no hello captured")
	}

	ln := listen(t)
	l := newLinks([]int{1, 2})
	defer l.close()
	defer dialer.close()
	addr := ln.Addr().(*net.TCPAddr)
	c1 := stranger(t, addr, func(nonce []byte) []byte { return replay })
	defer c1.Close()
	c2 := stranger(t, addr, func(nonce []byte) []byte {
		hello := make([]byte, helloLen)
		binary.LittleEndian.PutUint32(hello, linkMagic)
		binary.LittleEndian.PutUint32(hello[4:], 2)
		rand.Read(hello[8 : 8+nonceLen])
		copy(hello[8+nonceLen:], linkMAC(key, "hello", nonce, hello[8:8+nonceLen], 2, 0))
		return hello
	})
	defer c2.Close()
	done := make(chan error, 1)
	go func() { done <- l.connect(ln, key, 0, []int{1}, nil, nil, nil) }()
	time.Sleep(200 * time.Millisecond) // the strangers come first
	if err := dialer.dial(key, 1, 0, addr); err != nil {
		t.Errorf("dial of the partner: %v", err)
	}
	if err := <-done; err != nil {
		t.Errorf("accept: %v", err)
	}
	if l.to(1) == nil || l.to(2) != nil || dialer.to(0) == nil {
		t.Errorf("links: listener's %v to %v, dialler's %v to %v; want the listener's to rank 1 and the dialler's to rank 0 only", l.peers, l.ranks, dialer.peers, dialer.ranks)
	}
	if want := "armci: process 0: links dropped 2 connections at start (1 without a valid hello, 1 from ranks not its partners)\n"; trace.String() != want {
		t.Errorf("trace %q, want %q", trace.String(), want)
	}

	// A listener without the secret: the dialler drops its ack.
	fake = listen(t)
	defer fake.Close()
	go func() {
		c, err := fake.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		b := make([]byte, helloLen)
		c.Write(b[:nonceLen])
		io.ReadFull(c, b)
		c.Write(b[8+nonceLen:])
	}()
	other := newLinks([]int{0})
	err := other.dial(key, 1, 0, fake.Addr().(*net.TCPAddr))
	if err == nil || !strings.Contains(err.Error(), "secret") || other.to(0) != nil {
		t.Errorf("dial of a listener without the secret: %v, want an error that names the secret", err)
	}
}

// listen opens a TCP listener on the loopback.
func listen(t *testing.T) *net.TCPListener {
	t.Helper()
	ln, err := net.ListenTCP("tcp4", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Skip("no TCP listener on the loopback:", err)
	}
	return ln
}

// stranger connects to addr and, once the listener's nonce comes, sends
// the hello that hello makes of it.
func stranger(t *testing.T, addr *net.TCPAddr, hello func(nonce []byte) []byte) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp4", addr.String())
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		nonce := make([]byte, nonceLen)
		if _, err := io.ReadFull(c, nonce); err == nil {
			c.Write(hello(nonce))
		}
	}()
	return c
}

// TestRingAuth: a server takes a ring from a process that holds the job's
// secret, and drops as not rings a datagram of the right length under
// another key, one meant for another target, and one of another length;
// a ring it took before (replayed), or older than it, is stale.
func TestRingAuth(t *testing.T) {
	key := make([]byte, keyLen)
	rand.Read(key)
	sender, server := newDoorbell(1, 3, key), newDoorbell(0, 3, key)
	server.atStart = 0
	ring := func(d *doorbell, to int) []byte {
		b := make([]byte, ringLen)
		binary.LittleEndian.PutUint32(b, uint32(d.rank))
		binary.LittleEndian.PutUint64(b[4:], d.count[to].Add(1))
		d.sign(b, to, b[12:])
		return b
	}
	first, second := ring(sender, 0), ring(sender, 0)
	forger := newDoorbell(1, 3, make([]byte, keyLen))
	forger.count[0].Store(99)
	for _, c := range []struct {
		what string
		b    []byte
		take bool
	}{
		{"the second ring", second, true},
		{"the first ring, after the second", first, false},
		{"the second ring again", second, false},
		{"a ring under another key", ring(forger, 0), false},
		{"a ring to rank 2", ring(sender, 2), false},
		{"a ring cut short", ring(sender, 0)[:ringLen-1], false},
		{"a third ring", ring(sender, 0), true},
	} {
		if got := server.take(c.b); got != c.take {
			t.Errorf("take(%s) = %v, want %v", c.what, got, c.take)
		}
	}
	if server.dropped.Load() != 3 || server.stale != 2 {
		t.Errorf("dropped %d, stale %d; want 3 and 2", server.dropped.Load(), server.stale)
	}
}

// BenchmarkRingAuth: what a ring's HMAC costs, the sender's signature and
// the server's check together.
func BenchmarkRingAuth(b *testing.B) {
	key := make([]byte, keyLen)
	sender, server := newDoorbell(1, 2, key), newDoorbell(0, 2, key)
	var r [ringLen]byte
	binary.LittleEndian.PutUint32(r[:], 1)
	for b.Loop() {
		binary.LittleEndian.PutUint64(r[4:], sender.count[0].Add(1))
		sender.sign(r[:], 0, r[12:])
		if !server.take(r[:]) {
			b.Fatal("a ring was not taken")
		}
	}
}
