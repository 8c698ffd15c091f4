package mpitest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// NodeC and NodeD are the host names of the third and fourth simulated
// nodes, which /etc/hosts must resolve as it resolves NodeB
// (scripts/install-deps.sh adds "127.0.0.3 nodec" and "127.0.0.4 noded").
const (
	NodeC = "nodec"
	NodeD = "noded"
)

// nodeHosts are the simulated nodes a Placement fills, in order: this host
// first, then the nodes reached through scripts/node-agent.
var nodeHosts = []string{"localhost", NodeB, NodeC, NodeD}

// Placement places the ranks of a job on nodes simulated on this machine:
// p[k] ranks on node k, in rank order, node 0 being this host and nodes
// 1, 2, 3 NodeB, NodeC and NodeD. Placement{3, 2, 2, 1} runs ranks 0-2 here,
// 3-4 on NodeB, 5-6 on NodeC and 7 on NodeD. Its jobs are TwoNodes' jobs on
// more nodes: shared memory inside a node, TCP (btl tcp, osc ucx) between
// them, the cores yielded when idle and no binding.
type Placement []int

// ParsePlacement reads a placement written as counts joined by "+"
// ("3+2+2+1") or as NODESxRANKS for even ones ("4x4": 4 ranks on each of
// 4 nodes).
func ParsePlacement(s string) (Placement, error) {
	bad := func(why string) (Placement, error) {
		return nil, fmt.Errorf("mpitest: placement %q: %s (write it as 3+2+2+1 or 4x4)", s, why)
	}
	var p Placement
	if nodes, per, ok := strings.Cut(s, "x"); ok {
		n, err1 := strconv.Atoi(nodes)
		r, err2 := strconv.Atoi(per)
		if err1 != nil || err2 != nil || n < 1 || r < 1 {
			return bad("not NODESxRANKS with both at least 1")
		}
		for range n {
			p = append(p, r)
		}
	} else {
		for _, f := range strings.Split(s, "+") {
			r, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || r < 0 {
				return bad(fmt.Sprintf("%q is not a rank count", f))
			}
			p = append(p, r)
		}
	}
	if len(p) > len(nodeHosts) {
		return bad(fmt.Sprintf("%d nodes; this machine simulates at most %d (%s)", len(p), len(nodeHosts), strings.Join(nodeHosts, ", ")))
	}
	if p.Ranks() == 0 {
		return bad("no ranks")
	}
	return p, nil
}

// Ranks returns the job's rank count.
func (p Placement) Ranks() int {
	n := 0
	for _, r := range p {
		n += r
	}
	return n
}

// String writes p as ParsePlacement reads it: "3+2+2+1".
func (p Placement) String() string {
	s := make([]string, len(p))
	for k, r := range p {
		s[k] = strconv.Itoa(r)
	}
	return strings.Join(s, "+")
}

// Node returns the node of rank among the nodes that run ranks, numbered
// from 0 in the order of their first ranks (GA's ClusterNodeid), or -1
// when p has no such rank.
func (p Placement) Node(rank int) int {
	node := 0
	for _, r := range p {
		if r == 0 {
			continue
		}
		if rank < r {
			return node
		}
		rank -= r
		node++
	}
	return -1
}

// Nodes returns how many nodes run ranks.
func (p Placement) Nodes() int {
	n := 0
	for _, r := range p {
		if r > 0 {
			n++
		}
	}
	return n
}

// Args returns the mpirun arguments that place a job as p says.
func (p Placement) Args() []string {
	var hosts []string
	for k, r := range p {
		if r > 0 {
			hosts = append(hosts, fmt.Sprintf("%s:%d", nodeHosts[k], r))
		}
	}
	return append(nodesCommon(), "--mca", "mpi_yield_when_idle", "1", "--bind-to", "none", "--host", strings.Join(hosts, ","))
}

// Usable reports why jobs cannot be placed as p says here, or "" if they
// can: the node agent must create UTS namespaces (root, or a kernel that
// lets users) and each simulated node that runs ranks must resolve.
func (p Placement) Usable() string {
	agent, err := repoFile("scripts/node-agent")
	if err != nil {
		return err.Error()
	}
	if out, err := exec.Command("unshare", "--uts", "true").CombinedOutput(); err != nil {
		return fmt.Sprintf("this machine cannot make UTS namespaces (unshare --uts: %v %s), which %s needs", err, bytes.TrimSpace(out), agent)
	}
	for k, r := range p {
		if k == 0 || r == 0 {
			continue
		}
		if _, err := net.LookupHost(nodeHosts[k]); err != nil {
			return fmt.Sprintf("the host %s does not resolve: add \"127.0.0.%d %s\" to /etc/hosts (scripts/install-deps.sh does as root)", nodeHosts[k], k+1, nodeHosts[k])
		}
	}
	return ""
}

func nodesCommon() []string {
	agent, _ := repoFile("scripts/node-agent")
	return []string{"--mca", "plm_rsh_agent", agent,
		"--mca", "btl_tcp_if_include", "lo", "--mca", "oob_tcp_if_include", "lo",
		"--mca", "pml", "ob1", "--mca", "btl", "self,vader,tcp",
		"--mca", "osc", "sm,ucx", "-x", "UCX_TLS=tcp"}
}

// twoNodes is where TwoNodes places np ranks: the first half (rounded
// down) here, the rest on NodeB.
func twoNodes(np int) Placement { return Placement{np / 2, np - np/2} }

// Placed returns the placement of the job this process is a rank of, when
// Launch placed it on simulated nodes (TwoNodes, or a LaunchSpec's
// Placement), and nil otherwise.
func Placed() Placement {
	p, err := ParsePlacement(os.Getenv(envPlacement))
	if err != nil {
		return nil
	}
	return p
}

// manyNodesPlacements returns the placements of the many-node pass
// (GOGA_MPITEST_NODES=n, n > 2): GOGA_MPITEST_PLACEMENTS, placements
// separated by commas, else an uneven and an even one of 2n ranks:
// 3+2+...+2+1 and 2+2+...+2 (3+2+2+1 and 2+2+2+2 on four nodes).
func manyNodesPlacements(n int) ([]Placement, error) {
	if s := os.Getenv(envPlacements); s != "" {
		var out []Placement
		for _, f := range strings.Split(s, ",") {
			p, err := ParsePlacement(strings.TrimSpace(f))
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
		return out, nil
	}
	if n > len(nodeHosts) {
		return nil, fmt.Errorf("mpitest: %s=%d: this machine simulates at most %d nodes", envNodes, n, len(nodeHosts))
	}
	uneven, even := make(Placement, n), make(Placement, n)
	for k := range n {
		uneven[k], even[k] = 2, 2
	}
	uneven[0], uneven[n-1] = 3, 1
	return []Placement{uneven, even}, nil
}
