package armci

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"math"
	"net"
	"os"

	"github.com/goga-hpc/goga/mpi"
)

// A job is the identity that this process's doorbells and links show the
// network, made once at Init (newJob): the job's secret, which rank 0
// draws at random and every process learns over MPI, and the address
// where the process listens. Rings and link hellos are HMACs under keys
// drawn from the secret, one for each use (secret), so that neither can
// stand for the other.
type job struct {
	key  []byte // keyLen bytes
	here net.IP // nil: this process cannot listen where the others reach it
}

// keyLen is the length of a job's secret and of each key drawn from it.
const keyLen = 32

// secret is the key of one use of the job's secret ("doorbell", "link"):
// the HMAC of the use's name under the secret.
func (j *job) secret(use string) []byte {
	m := hmac.New(sha256.New, j.key)
	m.Write([]byte(use))
	return m.Sum(nil)
}

// The exchange at start: a process's host's address as its host name
// resolves there (IPv4, 0 for none; exPinned set where the interface was
// named instead, interfaceSpec), the name itself, and the job's secret
// (rank 0's; zeros elsewhere).
const (
	exAddr = iota
	exLen
	exName
	exKey   = exName + 32 // a host name has at most 255 bytes
	exWords = exKey + keyLen/8

	exPinned = 1 << 32
)

// newJob makes the job's identity over c: it is collective, one Allgather
// of exWords words per process and one Allreduce of two words per host.
// Rank 0 publishes the secret with its host. here is the IPv4 address at
// which every other process of c reaches this one, where its links and
// doorbell listen (nil where it has none). Each process publishes its
// host's name and its address: that of the interface MPI's TCP traffic
// uses where the user named it (interfaceSpec), taken as it is by the
// others; else the address the name resolves to there, which the others
// take, or where it is a loopback one (as Debian's 127.0.1.1) and the host
// is another, resolve the name themselves, once per host. The processes
// on other hosts must all have found the same address for a host: the
// Allreduce leaves, for each host, the most and the least that the
// processes elsewhere found for it. With no other host, it is the address
// found on its own host, or the loopback. The processes on its own host
// are told it too (peerAddrs): one address serves all.
func newJob(c *mpi.Comm) (*job, error) {
	n, me := c.Size(), c.Rank()
	host, _ := os.Hostname()
	mine := make([]int64, exWords)
	if host != "" && len(host) <= 8*(exKey-exName) {
		if v, spec := interfaceSpec(); spec != "" {
			mine[exAddr] = exPinned
			if ip := interfaceAddr(spec, hostInterfaces()); ip != nil {
				mine[exAddr] |= int64(binary.BigEndian.Uint32(ip))
			} else {
				tracef(me, "%s=%s: no IPv4 address of this host is there; processes on other hosts cannot reach its links and doorbell", v, spec)
			}
		} else if ip := lookup(host); ip != nil {
			mine[exAddr] = int64(binary.BigEndian.Uint32(ip))
		}
		mine[exLen] = int64(len(host))
		copy(bytesOf(mine[exName:exKey]), host)
	}
	if me == 0 {
		rand.Read(bytesOf(mine[exKey:]))
	}
	all := make([]int64, n*exWords)
	if err := mpi.Allgather(c, mine, all); err != nil {
		return nil, err
	}
	hosts, found, own := hostsOf(all, me)
	// Each process's words for each host but its own: the address it
	// found there, and its negation; its own host's take no part.
	nh := len(found)
	v, heard := make([]int64, 2*nh), make([]int64, 2*nh)
	for h, a := range found {
		v[h], v[nh+h] = a, -a
	}
	v[own], v[nh+own] = math.MinInt64, math.MinInt64
	if err := mpi.Allreduce(c, v, heard, mpi.Max); err != nil {
		return nil, err
	}
	j := &job{key: bytes.Clone(bytesOf(all[exKey:exWords]))}
	if hosts[own] == "" {
		return j, nil
	}
	here := heard[own]
	switch {
	case here == math.MinInt64: // no other host
		here = found[own]
		if here == 0 {
			j.here = net.IPv4(127, 0, 0, 1).To4()
			return j, nil
		}
	case here == 0 || -heard[nh+own] != here:
		return j, nil
	}
	j.here = ipOf(here)
	return j, nil
}

// hostsOf reads the hosts of newJob's words all, in the order of their
// first process, with the address at which this process finds each (0 for
// none), and which is process me's: a table per host, not per process.
func hostsOf(all []int64, me int) (hosts []string, found []int64, own int) {
	index := map[string]int{}
	for r := range len(all) / exWords {
		w := all[r*exWords : (r+1)*exWords]
		name := bytesOf(w[exName:exKey])[:w[exLen]]
		h, seen := index[string(name)]
		if !seen {
			h = len(hosts)
			index[string(name)] = h
			hosts = append(hosts, string(name))
			found = append(found, hostAddr(string(name), w[exAddr]))
		}
		if r == me {
			own = h
		}
	}
	return hosts, found, own
}

// hostAddr is the address at which this process finds host name, whose
// first process published a (newJob): a pinned one as it is, else the one
// published unless that is none or a loopback one, else the name's here.
func hostAddr(name string, a int64) int64 {
	switch {
	case name == "":
		return 0
	case a&exPinned != 0:
		return a &^ exPinned
	case a != 0 && !ipOf(a).IsLoopback():
		return a
	}
	if ip := lookup(name); ip != nil {
		return int64(binary.BigEndian.Uint32(ip))
	}
	return 0
}
