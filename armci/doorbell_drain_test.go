package armci

import (
	"net"
	"testing"
	"time"
)

// TestDoorbellDrain: a server that wakes to its doorbell takes every ring
// waiting with it, so the rings of requests it served while awake wake it
// once, not once per park after.
func TestDoorbellDrain(t *testing.T) {
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Skip("no UDP socket on the loopback:", err)
	}
	d := newDoorbell(0, 2, make([]byte, keyLen))
	d.conn, d.peers[0] = conn, conn.LocalAddr().(*net.UDPAddr)
	defer d.close()
	for range 5 {
		if err := d.ring(0); err != nil {
			t.Fatal(err)
		}
	}
	if !d.wait(time.Second) {
		t.Fatal("wait: no ring, though five were sent")
	}
	if d.wait(20 * time.Millisecond) {
		t.Error("wait woke again to a ring that the first wake had taken")
	}
	if n := d.rung.Load(); n != 1 {
		t.Errorf("rung %d times, want 1", n)
	}
	// A ring after the drain still wakes it.
	if err := d.ring(0); err != nil {
		t.Fatal(err)
	}
	if !d.wait(time.Second) {
		t.Error("wait: no wake for a ring after the drain")
	}
}
