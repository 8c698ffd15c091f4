// Package mpitest runs Go tests on several MPI ranks from a plain `go test`.
//
// A test that needs ranks calls Run. In the ordinary `go test` process (the
// parent) Run relaunches the test binary under mpirun once per rank count (1, 2,
// 3 and 4 unless Ranks says otherwise), with -test.run narrowed to the calling
// test, and fails if any rank fails, if fewer ranks than launched report
// success, or if the job outlives its timeout (it is then killed). The job's
// output, tagged by rank, is shown on failure. In the relaunched processes (the
// children) Run simply calls the test body on every rank.
//
// A package that uses Run needs a TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(mpitest.Main(m)) }
//
// Main initializes MPI in the children and finalizes it after the tests. A rank
// whose test body fails aborts the job (MPI_Abort) so that the other ranks do not
// wait for it in a collective call.
//
// # Failing a multi-rank test
//
// Inside a body run by Run (and the helpers it calls) there is one way to fail
// fatally: Fatalf, or Must for an unexpected error. Both report the failure and
// abort the job at once, with the rank and the message on stderr. Packages
// whose tests call them on every other line bind them to short names (must,
// fatalf); those are the same functions. t.Fatal, t.Fatalf and t.FailNow are
// not used there: they unwind only this rank's goroutine, running its deferred
// calls and letting the enclosing body go on, while the other ranks wait in
// collective calls until Run's watcher notices the failure and aborts.
// t.Error and t.Errorf remain the way to report a failure after which the
// ranks stay in step; the job still fails (and is aborted) when one is called.
//
// # Simulated nodes
//
// Jobs can run on nodes simulated on this machine: scripts/node-agent, the
// remote shell mpirun is given, starts each node's ranks in a UTS
// namespace named after the node (NodeB, NodeC, NodeD, which /etc/hosts
// resolves to 127.0.0.2-4), so that Open MPI, armci and ga see separate
// hosts: shared memory inside a node, TCP between them. make test has two
// passes on them, chosen by GOGA_MPITEST_NODES:
//
//   - 2, the two-node pass: every test that runs over TCP or asks for
//     AcrossNodes runs on TwoNodes, at its rank counts from 2 up (halves
//     on this host and NodeB), and the rest skip;
//   - 4, the four-node pass: every test that asks for ManyNodes runs at
//     8 ranks on four nodes, placed unevenly and evenly (Placement 3+2+2+1
//     and 2+2+2+2; GOGA_MPITEST_PLACEMENTS, such as "4x4", sets others),
//     or at the placements its ManyNodes names, and the rest skip. These
//     tests check what many nodes change: mirrored arrays (a copy per
//     node), groups that span and split nodes, the cluster queries against
//     the placement, one operation over shared memory and the network,
//     atomicity with exact totals, ghosts, the solvers, and the demo and
//     examples that use them.
//
// A rank learns its job's placement from Placed.
package mpitest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/goga-hpc/goga/mpi"
)

const (
	envChild   = "GOGA_MPITEST_CHILD"
	envTimeout = "GOGA_MPITEST_TIMEOUT"
	envRanks   = "GOGA_MPITEST_RANKS"
	envMpirun  = "GOGA_MPIRUN"
	envPassDir = "GOGA_MPITEST_PASSDIR"
	envNodes   = "GOGA_MPITEST_NODES"
	// envPlacement tells the ranks of a job on simulated nodes its
	// Placement (Placed); envPlacements sets the many-node pass's.
	envPlacement  = "GOGA_MPITEST_PLACEMENT"
	envPlacements = "GOGA_MPITEST_PLACEMENTS"
)

// Transport selects how ranks reach each other.
type Transport int

const (
	// SharedMemory is Open MPI's default on one node.
	SharedMemory Transport = iota
	// TCP forces the network path: two-sided traffic over btl tcp and one-sided
	// traffic over osc ucx with UCX_TLS=tcp. (btl self,tcp alone leaves RMA on
	// shared memory: Open MPI's one-sided components do not use the btls.)
	TCP
	// TwoNodes places the ranks on two nodes simulated on this machine: the
	// first half (rounded down) on this host, the rest on NodeB, reached
	// through scripts/node-agent, which runs them in a UTS namespace named
	// after it. Two-sided traffic goes over shared memory inside a node and
	// TCP between them; one-sided traffic over osc sm for shared-memory
	// windows among a node's ranks and osc ucx for the rest (UCX_TLS=tcp:
	// with "self" added, as first tried, passive-target RMA on a rank itself
	// hung), so that armci maps its node's parts and reaches the other node
	// as a cluster job does.
	// When GOGA_MPITEST_NODES is 2 (make test's two-node pass), Run runs
	// every test that runs over TCP (or asks for AcrossNodes) on it alone,
	// on 2 to 4 ranks, and skips the rest; see TwoNodesUsable. Placement
	// places jobs on more nodes the same way. The job
	// yields the cores when idle (mpi_yield_when_idle): each simulated
	// node's slots are not this machine's cores, so Open MPI does not see
	// that it oversubscribes them, and busy-polling ranks starved each
	// other (ga's TestElemOps on 2 + 2 ranks took 295 s instead of 24).
	TwoNodes
)

// NodeB is the host name of the second simulated node; /etc/hosts must
// resolve it to a loopback address (scripts/install-deps.sh adds
// "127.0.0.2 nodeb" when it is root and the alias is missing).
const NodeB = "nodeb"

func (tr Transport) String() string {
	switch tr {
	case TCP:
		return "tcp"
	case TwoNodes:
		return "2nodes"
	}
	return "shm"
}

// Args returns the mpirun arguments that select the transport for a job of
// np ranks.
func (tr Transport) Args(np int) []string {
	switch tr {
	case TCP:
		return []string{"--mca", "pml", "ob1", "--mca", "btl", "self,tcp", "--mca", "osc", "ucx", "-x", "UCX_TLS=tcp"}
	case TwoNodes:
		return twoNodes(np).Args()
	}
	return nil
}

// TwoNodesBound returns TwoNodes' arguments for np ranks placed on the same
// nodes, but each bound to a core of its own (rank r to core r modulo this
// machine's), as mpirun binds on real nodes: it writes the rankfile that
// says so to rankfile. The benchmarks use it; the tests keep TwoNodes'
// --bind-to none, which ranks outnumbering the cores need. Nor does MPI
// yield the core when idle here, as Open MPI does not by default where
// each rank has a core; how armci's server polls depends on it (armci's
// amServer.yielding).
func TwoNodesBound(np int, rankfile string) ([]string, error) {
	var b strings.Builder
	for r := range np {
		host := "localhost"
		if r >= np/2 {
			host = NodeB
		}
		fmt.Fprintf(&b, "rank %d=%s slot=%d\n", r, host, r%runtime.NumCPU())
	}
	if err := os.WriteFile(rankfile, []byte(b.String()), 0o644); err != nil {
		return nil, err
	}
	return append(nodesCommon(), "--rankfile", rankfile), nil
}

// TwoNodesUsable reports why jobs cannot run on two simulated nodes here,
// or "" if they can: the node agent must create UTS namespaces (root, or
// a kernel that lets users) and NodeB must resolve.
func TwoNodesUsable() string { return twoNodes(2).Usable() }

// OverNetwork reports whether this process is a rank of a job whose RMA goes
// over the network component: the "--mca osc ucx" of TCP's Args (and "osc
// sm,ucx" of TwoNodes's) reaches every rank as OMPI_MCA_osc. Tests use it to
// leave out what the network path does not have, such as shared-memory
// windows over the whole world, and to do fewer repetitions of what is slow
// there.
func OverNetwork() bool { return slices.Contains(oscComponents(), "ucx") }

// SharedWindows reports whether MPI makes shared-memory windows among the
// ranks of a node in this job: everywhere but where osc ucx is the only
// one-sided component (TCP's Args; TwoNodes's keeps osc sm beside it).
func SharedWindows() bool {
	c := oscComponents()
	return c == nil || slices.Contains(c, "sm")
}

// oscComponents returns the one-sided components this job selects, or nil
// where it takes Open MPI's default (no OMPI_MCA_osc, or a list of exclusions
// such as Debian's "^ucx,pt2pt", which mpirun passes on from its
// configuration file).
func oscComponents() []string {
	osc := os.Getenv("OMPI_MCA_osc")
	if osc == "" || strings.HasPrefix(osc, "^") {
		return nil
	}
	return strings.Split(osc, ",")
}

// OnTwoNodes reports whether this process is a rank of a job launched on
// simulated nodes, the two of TwoNodes or those of a Placement: their
// remote-shell agent reaches every rank as OMPI_MCA_plm_rsh_agent. (A job
// of one rank sits on one node all the same.) Placed says which nodes.
func OnTwoNodes() bool { return os.Getenv("OMPI_MCA_plm_rsh_agent") != "" }

type config struct {
	ranks       []int
	transports  []Transport
	timeout     time.Duration
	acrossNodes bool
	manyNodes   bool
	manyPlaces  []Placement
	mpichSkip   string // why the test does not run under MPICH
}

// Option changes how Run launches a test.
type Option func(*config)

// Ranks sets the rank counts to run with (default 1, 2, 3, 4, or the
// comma-separated list in GOGA_MPITEST_RANKS).
func Ranks(n ...int) Option { return func(c *config) { c.ranks = n } }

// Transports sets the transports to run over (default SharedMemory).
func Transports(tr ...Transport) Option { return func(c *config) { c.transports = tr } }

// AcrossNodes puts a test that does not run over TCP (one of two-sided MPI
// only, say) in the two-node pass too; a test that runs over TCP is in it
// already.
func AcrossNodes() Option { return func(c *config) { c.acrossNodes = true } }

// ManyNodes puts a test in the many-node pass (GOGA_MPITEST_NODES=4 in
// make test): a test that checks what more than two nodes change, and
// whose body works at the pass's placements (8 ranks by default), or at
// places, for a test that needs a rank count of its own.
func ManyNodes(places ...Placement) Option {
	return func(c *config) { c.manyNodes, c.manyPlaces = true, places }
}

// Timeout sets how long one launch may take before it is killed (default 120 s,
// or GOGA_MPITEST_TIMEOUT as a Go duration).
func Timeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// SkipUnderMPICH skips t, saying why, when goga is built against MPICH: for
// the parts of a body run by Run that go through the calls MPICHRMABug
// breaks.
func SkipUnderMPICH(t testing.TB, why string) {
	t.Helper()
	if MPICH() {
		t.Skipf("under MPICH: %s", why)
	}
}

// NotUnderMPICH skips the test, saying why, when goga is built against
// MPICH (see MPICHRMABug).
func NotUnderMPICH(why string) Option { return func(c *config) { c.mpichSkip = why } }

// Child reports whether this process is a rank launched by Run.
func Child() bool { return os.Getenv(envChild) == "1" }

// Main runs a package's tests. In a child it initializes MPI before and
// finalizes it after; it returns the exit code for os.Exit.
func Main(m *testing.M) int {
	if !Child() {
		// Examples and benchmarks run here, in the parent, as a one-rank MPI
		// job (a singleton) that they start themselves; end it cleanly.
		code := m.Run()
		if mpi.Initialized() && !mpi.Finalized() {
			mpi.Finalize()
		}
		return code
	}
	if _, err := mpi.Init(); err != nil {
		fmt.Fprintln(os.Stderr, "mpitest: MPI init failed:", err)
		return 1
	}
	dumpOnQuit()
	code := m.Run()
	if code != 0 {
		abortJob(code)
	}
	if err := mpi.Finalize(); err != nil {
		fmt.Fprintln(os.Stderr, "mpitest: MPI finalize failed:", err)
		return 1
	}
	return 0
}

// Run runs body on every rank of a job for each configured rank count and
// transport. body may use mpi.World(); it runs on all ranks in the same order.
func Run(t *testing.T, body func(t *testing.T), opts ...Option) {
	t.Helper()
	if Child() {
		runChild(t, body)
		return
	}
	cfg := config{ranks: defaultRanks(), transports: []Transport{SharedMemory}, timeout: defaultTimeout()}
	for _, o := range opts {
		o(&cfg)
	}
	if n, _ := strconv.Atoi(os.Getenv(envNodes)); n > 2 {
		runManyNodes(t, n, cfg)
		return
	}
	if os.Getenv(envNodes) == "2" {
		// The two-node pass: every test that runs over the network, and
		// nothing else, on two nodes.
		if !slices.Contains(cfg.transports, TCP) && !cfg.acrossNodes {
			t.Skipf("%s=2: this test does not run over the network", envNodes)
		}
		if why := TwoNodesUsable(); why != "" {
			t.Skipf("two simulated nodes: %s", why)
		}
		cfg.transports = []Transport{TwoNodes}
		cfg.ranks = slices.DeleteFunc(slices.Clone(cfg.ranks), func(n int) bool { return n < 2 })
	}
	if MPICH() && cfg.mpichSkip != "" {
		t.Skipf("under MPICH: %s", cfg.mpichSkip)
	}
	for _, tr := range cfg.transports {
		for _, np := range cfg.ranks {
			name := fmt.Sprintf("np=%d", np)
			if tr != SharedMemory {
				name += "/" + tr.String()
			}
			t.Run(name, func(t *testing.T) {
				if MPICH() && tr != SharedMemory {
					t.Skipf("under MPICH: the %v transport is made of Open MPI's components (btl tcp, osc ucx); MPICH runs on one node's shared memory only", tr)
				}
				launch(t, LaunchSpec{Ranks: np, Transport: tr, Timeout: cfg.timeout})
			})
		}
	}
}

// runManyNodes is Run in the many-node pass: a test that asks for it
// (ManyNodes) runs at each of its placements or the pass's on n simulated nodes,
// its timeout grown in proportion to the ranks beyond 4 (they share this
// machine's cores); the rest skip.
func runManyNodes(t *testing.T, n int, cfg config) {
	t.Helper()
	if !cfg.manyNodes {
		t.Skipf("%s=%d: this test is not in the many-node pass", envNodes, n)
	}
	if MPICH() {
		t.Skipf("under MPICH: simulated nodes are made of Open MPI's components (btl tcp, osc ucx); MPICH runs on one node's shared memory only")
	}
	places := cfg.manyPlaces
	if len(places) == 0 {
		var err error
		if places, err = manyNodesPlacements(n); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range places {
		t.Run(fmt.Sprintf("np=%d/%v", p.Ranks(), p), func(t *testing.T) {
			if why := p.Usable(); why != "" {
				t.Skipf("simulated nodes %v: %s", p, why)
			}
			timeout := cfg.timeout
			if np := p.Ranks(); np > 4 {
				timeout = timeout * time.Duration(np) / 4
			}
			launch(t, LaunchSpec{Ranks: p.Ranks(), Placement: p, Timeout: timeout})
		})
	}
}

// MPICH reports whether goga was built against MPICH (the build tag
// mpich) rather than Open MPI.
func MPICH() bool { return mpi.Implementation == "MPICH" }

// MPICHRMABug names the bug of Debian's MPICH 4.0.2 that makes MPI RMA
// return wrong results, from plain C too (a regression of MPICH 4.0,
// pmodels/mpich#6110): tests whose results go through MPI's one-sided
// calls skip under MPICH with NotUnderMPICH(MPICHRMABug).
const MPICHRMABug = "MPI RMA returns wrong results in Debian's MPICH 4.0.2 (pmodels/mpich#6110)"

func runChild(t *testing.T, body func(t *testing.T)) {
	w := mpi.World()
	// A failed subtest lets the body go on to collectives that the other ranks
	// may not reach: abort the job as soon as any failure shows.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if t.Failed() {
					abort(t, w)
				}
			}
		}
	}()
	body(t)
	if t.Failed() {
		abort(t, w)
	}
	fmt.Printf("mpitest: rank %d of %d passed %s\n", w.Rank(), w.Size(), t.Name())
	if dir := os.Getenv(envPassDir); dir != "" {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("rank%d", w.Rank())), []byte(t.Name()), 0o644)
	}
}

func abort(t *testing.T, w *mpi.Comm) {
	fmt.Fprintf(os.Stderr, "mpitest: rank %d of %d failed %s; aborting the job\n", w.Rank(), w.Size(), t.Name())
	abortJob(1)
}

// aborting makes abortJob call MPI_Abort once per process.
var aborting sync.Once

// abortJob ends the job. Several goroutines of a rank may decide to at
// once (the watcher in runChild, the body's end, Fatalf), and MPI does not
// promise to survive two threads in MPI_Abort together (a launcher job
// that failed that way hung once under load), so only the first calls it
// and the others wait for the end it brings. Should that end not come
// (a launcher job whose last rank failed outlived its minute once, in a
// loaded CI run), the process exits after abortGrace: the launcher ends a
// job one of whose processes exits without MPI_Finalize.
func abortJob(code int) {
	aborting.Do(func() {
		time.AfterFunc(abortGrace, func() { os.Exit(code) })
		mpi.Abort(code)
	})
	select {}
}

// abortGrace is how long MPI_Abort has to end the job.
const abortGrace = 15 * time.Second

func defaultRanks() []int {
	if s := os.Getenv(envRanks); s != "" {
		var out []int
		for _, f := range strings.Split(s, ",") {
			if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil && n > 0 {
				out = append(out, n)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return []int{1, 2, 3, 4}
}

func defaultTimeout() time.Duration {
	if d, err := time.ParseDuration(os.Getenv(envTimeout)); err == nil && d > 0 {
		return d
	}
	return 120 * time.Second
}

// Mpirun returns the command that launches jobs: $GOGA_MPIRUN, else the
// repository's mpirun.sh.
func Mpirun() (string, error) {
	if s := os.Getenv(envMpirun); s != "" {
		return s, nil
	}
	return repoFile("mpirun.sh")
}

// repoFile returns the path of the repository's file name, found above the
// working directory (a test's package directory).
func repoFile(name string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				return p, nil
			}
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("mpitest: %s not found above the package directory", name)
		}
		dir = up
	}
}

// runPattern is a -test.run pattern that selects exactly the test t.
func runPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// launch runs the test whose subtest t is as the job s, and fails t unless
// every rank passes it.
func launch(t *testing.T, s LaunchSpec) {
	np := s.Ranks
	parent := t.Name()[:strings.LastIndex(t.Name(), "/np=")]
	// Each rank that passes leaves a file: counting files, not lines of the
	// job's output, which mpirun may forward in pieces.
	passDir := t.TempDir()
	s.Args = []string{"-test.run", runPattern(parent), "-test.v", "-test.count=1"}
	s.Env = []string{envPassDir + "=" + passDir}
	res, err := Launch(s)
	if err != nil {
		t.Fatalf("%v\n%s", err, res.Output)
	}
	passed := 0
	for r := range np {
		if b, err := os.ReadFile(filepath.Join(passDir, fmt.Sprintf("rank%d", r))); err == nil && string(b) == parent {
			passed++
		}
	}
	if passed != np {
		t.Fatalf("%d of %d ranks reported passing %s\n%s", passed, np, parent, res.Output)
	}
	if testing.Verbose() {
		t.Logf("%d ranks passed in %v", np, res.Elapsed.Round(time.Millisecond))
	}
}

// LaunchSpec describes a job: the test binary (or Program) on Ranks ranks.
type LaunchSpec struct {
	Ranks     int
	Transport Transport
	// Placement, when set, places the ranks on simulated nodes instead of
	// Transport; Ranks may be left 0, or must be its rank count.
	Placement Placement
	Timeout   time.Duration
	Program   string   // default: this test binary
	Args      []string // arguments for each rank
	Env       []string // extra environment, NAME=value
}

// Result is what a finished job printed and how long it took.
type Result struct {
	Output  string
	Elapsed time.Duration
}

// Launch runs a job under mpirun, marked as a child of mpitest, and returns an
// error if it fails or times out.
func Launch(s LaunchSpec) (Result, error) {
	mpirun, err := Mpirun()
	if err != nil {
		return Result{}, err
	}
	prog := s.Program
	if prog == "" {
		if prog, err = os.Executable(); err != nil {
			return Result{}, err
		}
	}
	if s.Timeout == 0 {
		s.Timeout = defaultTimeout()
	}
	tag := "--tag-output"
	// GOTRACEBACK=all: a hung job's ranks print every goroutine (dumpRanks).
	env := append(os.Environ(), envChild+"=1", "GOTRACEBACK=all")
	if MPICH() {
		// Hydra's spelling, and its launcher rather than Open MPI's
		// mpirun, which mpirun.sh finds first where both are installed.
		tag = "-prepend-rank"
		if os.Getenv("MPIRUN") == "" {
			env = append(env, "MPIRUN=mpiexec.mpich")
		}
	}
	where, trArgs, placed, err := s.place()
	if err != nil {
		return Result{}, err
	}
	if placed != nil {
		env = append(env, envPlacement+"="+placed.String())
	}
	args := []string{"-np", strconv.Itoa(s.Ranks), tag}
	args = append(args, trArgs...)
	args = append(args, prog)
	args = append(args, s.Args...)
	ctx, cancel := context.WithTimeout(context.Background(), s.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, mpirun, args...)
	cmd.Env = append(env, s.Env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// If this process dies first (go test's own timeout ends it), the
	// launcher is killed too, and with it the ranks: Hydra's proxies and
	// Open MPI's mpirun kill their ranks when the launcher goes. Left
	// alone, it ran on with the job: an MPICH job of the armci tests left
	// three ranks spinning for an hour.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	// On timeout, have the ranks say where they stand, then end the whole
	// process group: mpirun and every rank it started.
	cmd.Cancel = func() error {
		dumpRanks(cmd.Process.Pid, prog)
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	if err = cmd.Start(); err != nil {
		return Result{}, err
	}
	stop := make(chan struct{})
	lingered := make(chan bool, 1)
	go func() { lingered <- watchLauncher(cmd.Process.Pid, prog, launcherGrace, stop) }()
	err = cmd.Wait()
	close(stop)
	res := Result{Output: out.String(), Elapsed: time.Since(start)}
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return res, fmt.Errorf("mpitest: job on %d ranks (%s) hung and was killed after %v", s.Ranks, where, s.Timeout)
	case <-lingered:
		return res, fmt.Errorf("mpitest: job on %d ranks (%s): the launcher was killed %v after its last rank had ended", s.Ranks, where, launcherGrace)
	case err != nil:
		return res, fmt.Errorf("mpitest: job on %d ranks (%s) failed: %v", s.Ranks, where, err)
	}
	return res, nil
}

// place returns where s's job runs (for messages), its transport's or
// placement's mpirun arguments, and its placement on simulated nodes (nil
// for none), filling in s.Ranks from the placement.
func (s *LaunchSpec) place() (where string, args []string, placed Placement, err error) {
	where, args, placed = s.Transport.String(), s.Transport.Args(s.Ranks), s.Placement
	switch {
	case placed != nil:
		if s.Ranks == 0 {
			s.Ranks = placed.Ranks()
		}
		if s.Ranks != placed.Ranks() {
			return "", nil, nil, fmt.Errorf("mpitest: a job of %d ranks placed %v, which has %d", s.Ranks, placed, placed.Ranks())
		}
		where, args = "nodes "+placed.String(), placed.Args()
	case s.Transport == TwoNodes:
		placed = twoNodes(s.Ranks)
	}
	return where, args, placed, nil
}

// Must stops the whole job when err is not nil. In a multi-rank test an
// unexpected error usually means the ranks no longer agree on which
// collective calls come next, so carrying on would only hang; aborting shows
// the message at once.
func Must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		Fatalf(t, "unexpected error: %v", err)
	}
}

// Fatalf reports a failure that the ranks cannot survive in step, and aborts
// the job.
func Fatalf(t testing.TB, format string, a ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, a...)
	t.Error(msg)
	fmt.Fprintf(os.Stderr, "rank %d: %s: FATAL: %s\n", mpi.World().Rank(), t.Name(), msg)
	abortJob(1)
}

// Cleanup calls the collective clean-up f (a Destroy, Free, Exit or
// Terminate) at the end of a test body, and reports its error with Must. It
// is meant to be deferred:
//
//	defer mpitest.Cleanup(t, a.Destroy)
//
// Every multi-rank test keeps this rule: deferred clean-up does not enter a
// collective call while the body panics (the panic goes on and ends the job)
// or after the test has failed (the job is being aborted), because the other
// ranks may never reach that call and the failure would become a hang.
// Cleanup checks both before it calls f; a deferred f() or a t.Cleanup would
// not (t.Cleanup runs before a panicking test is marked failed). Helpers in
// the test packages that end something collectively when deferred check the
// same two things.
func Cleanup(t testing.TB, f func() error) {
	if r := recover(); r != nil {
		panic(r)
	}
	if !t.Failed() {
		Must(t, f())
	}
}
