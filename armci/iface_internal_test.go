package armci

import (
	"net"
	"testing"
)

// TestInterfaceAddr: the address a btl_tcp_if_include-style list picks
// among a host's interfaces.
func TestInterfaceAddr(t *testing.T) {
	ifs := []hostInterface{
		{"lo", []net.IP{net.IPv4(127, 0, 0, 1).To4()}},
		{"eth0", []net.IP{net.IPv4(192, 0, 2, 2).To4(), net.IPv4(198, 51, 100, 7).To4()}},
		{"ib0", nil},
		{"eth1", []net.IP{net.IPv4(10, 1, 2, 3).To4()}},
	}
	for _, c := range []struct {
		spec string
		want net.IP
	}{
		{"lo", net.IPv4(127, 0, 0, 1)},
		{"eth0", net.IPv4(192, 0, 2, 2)},
		{"eth1", net.IPv4(10, 1, 2, 3)},
		{"ib0,eth1", net.IPv4(10, 1, 2, 3)},
		{" eth1 , eth0", net.IPv4(10, 1, 2, 3)},
		{"198.51.100.0/24", net.IPv4(198, 51, 100, 7)},
		{"10.0.0.0/8,lo", net.IPv4(10, 1, 2, 3)},
		{"172.16.0.0/12,eth0", net.IPv4(192, 0, 2, 2)},
		{"eth", nil},
		{"ib0", nil},
		{"172.16.0.0/12", nil},
		{"", nil},
	} {
		got := interfaceAddr(c.spec, ifs)
		if c.want == nil && got != nil || c.want != nil && !c.want.Equal(got) {
			t.Errorf("interfaceAddr(%q) = %v, want %v", c.spec, got, c.want)
		}
	}
}
