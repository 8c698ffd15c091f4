package mpitest

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/goga-hpc/goga/mpi"
)

// dumpRanks asks every rank of a hung job for its goroutines' stacks before
// the job is killed: a hang is only worth its 300 s when its output says where
// each rank stood. It sends SIGQUIT to the processes that descend from the
// launcher and run prog, then gives the launcher a moment to forward what
// they printed. Test ranks print and carry on (dumpOnQuit); other Go
// programs print Go's own dump, of every goroutine under GOTRACEBACK=all,
// and exit. The launcher itself is not signalled: it would die before
// forwarding.
func dumpRanks(launcher int, prog string) {
	sent := 0
	for _, pid := range ranksOf(launcher, prog) {
		if syscall.Kill(pid, syscall.SIGQUIT) == nil {
			sent++
		}
	}
	if sent > 0 {
		time.Sleep(3 * time.Second)
	}
}

// launcherGrace is how long the launcher may outlive the last rank of its
// job before watchLauncher kills it.
const launcherGrace = 10 * time.Second

// watchLauncher kills the launcher's process group if the launcher outlives
// every rank of its job (the processes below it that run prog) by grace,
// and reports whether it did; it returns when stop closes.
// Twice in CI, under load, a 3-rank job whose last rank had called
// MPI_Abort ran into the test's one-minute limit without a rank left to
// print its stacks (dumpRanks found none): Open MPI's mpirun had stayed
// behind its ranks.
func watchLauncher(launcher int, prog string, grace time.Duration, stop <-chan struct{}) bool {
	tick := time.NewTicker(min(time.Second, grace/4))
	defer tick.Stop()
	seen := false
	var gone time.Time // when the last rank was first found gone
	for {
		select {
		case <-stop:
			return false
		case <-tick.C:
		}
		switch {
		case len(ranksOf(launcher, prog)) > 0:
			seen, gone = true, time.Time{}
		case !seen:
		case gone.IsZero():
			gone = time.Now()
		case time.Since(gone) >= grace:
			syscall.Kill(-launcher, syscall.SIGKILL)
			return true
		}
	}
}

// ranksOf lists the processes below the launcher that run prog and have not
// ended (a zombie has no executable to read).
func ranksOf(launcher int, prog string) []int {
	want, err := filepath.EvalSymlinks(prog)
	if err == nil {
		want, err = filepath.Abs(want)
	}
	if err != nil {
		return nil
	}
	var out []int
	for _, pid := range descendants(launcher) {
		if exe, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe"); err == nil && exe == want {
			out = append(out, pid)
		}
	}
	return out
}

// descendants lists the processes below pid, from /proc: the ranks of both
// simulated nodes hang below mpirun, through the remote-shell agent.
func descendants(pid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The command name, in parentheses, may hold spaces: the fields
		// after its closing parenthesis are state, then the parent's pid.
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) < 2 {
			continue
		}
		if ppid, err := strconv.Atoi(fields[1]); err == nil {
			children[ppid] = append(children[ppid], p)
		}
	}
	var out []int
	for queue := children[pid]; len(queue) > 0; queue = queue[1:] {
		out = append(out, queue[0])
		queue = append(queue, children[queue[0]]...)
	}
	return out
}

// dumpOnQuit makes this rank print every goroutine's stack on SIGQUIT and
// carry on. Had it exited, as Go's own dump does, MPICH's launcher would have
// killed the other ranks of the job before they had printed theirs.
func dumpOnQuit() {
	quit := make(chan os.Signal, 1)
	signal.Notify(quit, syscall.SIGQUIT)
	go func() {
		for range quit {
			buf := make([]byte, 8<<20)
			n := runtime.Stack(buf, true)
			fmt.Fprintf(os.Stderr, "mpitest: SIGQUIT: the goroutines of rank %d\n%s\n", mpi.World().Rank(), buf[:n])
		}
	}()
}
