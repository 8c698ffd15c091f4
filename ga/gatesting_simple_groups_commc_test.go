package ga_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// TestGATestingSimpleGroupsCommc ports global/testing/simple_groups_commc.c
// of GlobalArrays/ga (commit dd40347): every process makes one process
// group per node, of the node's processes (ClusterProcid), in node order;
// then, node by node, the processes of that node make its group their
// default, create a 4 × 4 float64 array on it, print its distribution, and
// MPI_Allreduce(MAX) their ranks in the group over the default group's
// communicator (GA_MPI_Comm_pgroup_default), which must give the node's
// process count less one; then they make the world group the default again.
// The ranks in the group must be the node's processes in order, and the
// printed distribution must list the group's processes, which the original
// only shows.
//
// Debian's GA C counts each process as a node of its own; goga finds the
// machine's one node. The test runs on that, and on simulated nodes: one
// per process (GA C's view) at np 2 and 3, and nodes of two at np 3 and 4.
func TestGATestingSimpleGroupsCommc(t *testing.T) {
	onNodes(t, simpleGroupsCommc, mpitest.Transports(mpitest.SharedMemory))
}

// simpleGroupsCommc is the body of simple_groups_commc.c.
func simpleGroupsCommc(t *testing.T) {
	const n = 4
	me := ga.Nodeid()
	inode := ga.ClusterNodeid()
	nnodes := ga.ClusterNnodes()
	total := 0
	for i := range nnodes {
		total += ga.ClusterNprocs(i)
	}
	if total != ga.Nnodes() || ga.ClusterProcNodeid(me) != inode {
		fatalf(t, "%d nodes of %d processes in all, process %d on node %d (ClusterProcNodeid %d); want %d processes", nnodes, total, me, inode, ga.ClusterProcNodeid(me), ga.Nnodes())
	}
	must(t, ga.Sync())

	groups := make([]*ga.Pgroup, nnodes)
	for i := range nnodes {
		procs := make([]int, ga.ClusterNprocs(i))
		for j := range procs {
			procs[j] = ga.ClusterProcid(i, j)
		}
		p, err := ga.PgroupCreate(procs)
		must(t, err)
		groups[i] = p
	}
	must(t, ga.Sync())

	for i := range nnodes {
		if i == inode {
			must(t, groups[i].SetDefault())
			a, err := ga.Create[float64]("a", []int{n, n}, nil)
			must(t, err)
			if id, want := ga.Nodeid(), placeOnNode(t, i, me); id != want {
				t.Errorf("process %d on node %d: Nodeid() in the node's group = %d, want %d", me, i, id, want)
			}
			var out bytes.Buffer
			must(t, a.FprintDistribution(&out))
			if ga.Nodeid() == 0 {
				for r := range ga.ClusterNprocs(i) {
					if !strings.Contains(out.String(), fmt.Sprintf("process %d:", r)) {
						t.Errorf("node %d: PrintDistribution wrote\n%s\nwithout process %d of %d", i, out.String(), r, ga.ClusterNprocs(i))
					}
				}
			}
			comm := ga.PgroupGetDefault().Comm()
			if comm == nil {
				t.Errorf("process %d: the communicator of the default group is nil", me)
			} else {
				rbuf := []int{0}
				must(t, mpi.Allreduce(comm, []int{ga.Nodeid()}, rbuf, mpi.Max))
				if rbuf[0]+1 != ga.ClusterNprocs(i) {
					t.Errorf("process %d: MPI_Allreduce over node %d's group: max nodeid %d, want %d", me, i, rbuf[0], ga.ClusterNprocs(i)-1)
				}
			}
			must(t, a.Destroy())
			must(t, ga.PgroupGetWorld().SetDefault())
		}
		must(t, ga.Sync())
	}
	if ga.Nodeid() != me {
		t.Errorf("after the groups, Nodeid() = %d, want %d", ga.Nodeid(), me)
	}
	for _, p := range groups {
		must(t, p.Destroy())
	}
}

// placeOnNode is the place of world rank me among node i's processes.
func placeOnNode(t *testing.T, i, me int) int {
	for j := range ga.ClusterNprocs(i) {
		if ga.ClusterProcid(i, j) == me {
			return j
		}
	}
	fatalf(t, "process %d is not on node %d", me, i)
	return -1
}
