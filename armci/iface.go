package armci

import (
	"net"
	"os"
	"strings"
)

// interfaceSpec names the network interfaces this process's links and
// doorbell may listen on, as Open MPI's btl_tcp_if_include does (interface
// names or IPv4 subnets, comma-separated): GOGA_ARMCI_INTERFACE, else
// Open MPI's own setting (mpirun --mca btl_tcp_if_include, which reaches
// the processes as OMPI_MCA_btl_tcp_if_include), so that the runtime's
// sockets are on the network MPI's TCP traffic uses. Empty: the address the
// host's name resolves to (newJob).
func interfaceSpec() (name, spec string) {
	for _, v := range []string{"GOGA_ARMCI_INTERFACE", "OMPI_MCA_btl_tcp_if_include"} {
		if s := strings.TrimSpace(os.Getenv(v)); s != "" {
			return v, s
		}
	}
	return "", ""
}

// hostInterface is one network interface of this host and its IPv4
// addresses.
type hostInterface struct {
	name  string
	addrs []net.IP
}

// hostInterfaces lists this host's interfaces that are up.
func hostInterfaces() []hostInterface {
	ifs, err := net.Interfaces()
	if err != nil {
		return nil
	}
	var hs []hostInterface
	for _, i := range ifs {
		if i.Flags&net.FlagUp == 0 {
			continue
		}
		as, err := i.Addrs()
		if err != nil {
			continue
		}
		h := hostInterface{name: i.Name}
		for _, a := range as {
			if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil {
				h.addrs = append(h.addrs, n.IP.To4())
			}
		}
		hs = append(hs, h)
	}
	return hs
}

// interfaceAddr returns the IPv4 address that spec (interfaceSpec's form)
// picks among ifs: for the first of its items that matches, the first
// address of the interface it names, or the first address in the subnet
// it gives. nil: none matches.
func interfaceAddr(spec string, ifs []hostInterface) net.IP {
	for item := range strings.SplitSeq(spec, ",") {
		item = strings.TrimSpace(item)
		_, subnet, err := net.ParseCIDR(item)
		for _, i := range ifs {
			for _, a := range i.addrs {
				if err == nil && subnet.Contains(a) || err != nil && i.name == item {
					return a
				}
			}
		}
	}
	return nil
}
