package armci_test

import (
	"bytes"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestListenInterface: across the two simulated nodes, the links and
// doorbells listen on the interface MPI's TCP traffic uses where the job
// names it: mpitest's launch says btl_tcp_if_include=lo, so every process
// listens at lo's 127.0.0.1 (not at its host name's address, 127.0.0.2 on
// nodeb); GOGA_ARMCI_INTERFACE overrides it with an interface or a subnet;
// one that this machine does not have leaves the job without links and
// doorbells on every process, its debug trace says why, and the results
// stay exact.
func TestListenInterface(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		other := otherInterface()
		for _, c := range []struct {
			name, spec string
			want       net.IP // nil: no listener
		}{
			{"MPIsInterface", "", net.IPv4(127, 0, 0, 1)},
			{"Named", other.name, other.addr},
			{"Subnet", other.addr.String() + "/32", other.addr},
			{"Nowhere", "nosuchif0", nil},
		} {
			t.Run(c.name, func(t *testing.T) {
				if c.spec != "" {
					t.Setenv("GOGA_ARMCI_INTERFACE", c.spec)
				}
				testListenInterface(t, c.spec, c.want)
			})
		}
	}, mpitest.Transports(mpitest.TwoNodes), mpitest.Ranks(2, 4), mpitest.AcrossNodes(), mpitest.Timeout(120*time.Second))
}

func testListenInterface(t *testing.T, spec string, want net.IP) {
	w := mpi.World()
	var trace bytes.Buffer
	armci.SetDebugOutput(&trace)
	armci.SetDebug(true)
	defer armci.SetDebug(false)
	defer armci.SetDebugOutput(nil)
	var at []net.IP
	restore := armci.OnListen(func(_ string, addr net.Addr) {
		ip, _ := addrIP(addr)
		at = append(at, ip)
	})
	rt, err := armci.Init(w, armci.WithRemote(armci.RemoteAM), armci.WithExchanges())
	restore()
	must(t, err)
	for _, ip := range at {
		if want == nil || !ip.Equal(want) {
			t.Errorf("rank %d: a socket listens at %v, want %v", w.Rank(), ip, want)
		}
	}
	// Every process has a doorbell and rank 0 a link listener where they
	// listen at all.
	if got, wantLinks := armci.Linked(rt), want != nil; got != wantLinks || rt.Doorbells() != wantLinks {
		t.Errorf("rank %d: links %v, doorbells %v, want %v", w.Rank(), got, rt.Doorbells(), wantLinks)
	}
	if want != nil && len(at) == 0 {
		t.Errorf("rank %d: no socket listens", w.Rank())
	}
	testAllMaxReduce(t, rt)
	testAgreementBurst(t, rt)
	pausedGet(t, rt, rt.Doorbells())
	must(t, rt.Finalize())
	if say := "GOGA_ARMCI_INTERFACE=" + spec + ": no IPv4 address"; want == nil && !strings.Contains(trace.String(), say) {
		t.Errorf("rank %d: the trace does not say %q:\n%s", w.Rank(), say, trace.String())
	}
}

// otherInterface is an interface of this machine's other than the
// loopback, with its first IPv4 address; the loopback where there is none.
func otherInterface() (o struct {
	name string
	addr net.IP
}) {
	o.name, o.addr = "lo", net.IPv4(127, 0, 0, 1).To4()
	ifs, _ := net.Interfaces()
	for _, i := range ifs {
		if i.Flags&net.FlagUp == 0 || i.Flags&net.FlagLoopback != 0 {
			continue
		}
		as, _ := i.Addrs()
		for _, a := range as {
			if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil {
				o.name, o.addr = i.Name, n.IP.To4()
				return o
			}
		}
	}
	return o
}
