package ga

import (
	"math/bits"
	"sync"
	"sync/atomic"
	_ "unsafe" // go:linkname

	"github.com/goga-hpc/goga/internal/percpu"
)

// The profile of a run (docs/PROFILE.md). Started by GOGA_PROFILE=dir at
// Init or by StartProfile, it counts on every process, per one-sided
// operation kind and per target process, the calls, the bytes and the time
// in them, in per-P counters beside the Stats ones (added to in the same
// pin of the goroutine, percpu.PinBoth); and per collective call, by the name the trace
// gives it, the calls and the time, split into the collectives themselves
// (Sync, Gop, Brdcst) and the waiting (the agreements of every other
// collective call, mutexes). Off, the one-sided paths pay one branch on a
// nil pointer.

// nanotime is the runtime's monotonic clock: a third of time.Now's cost,
// and no wall clock read.
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64

// histBuckets is the length of a call-time histogram: bucket b counts the
// calls of [2^(b-1), 2^b) ns (b = 0: under a nanosecond), the last one
// every longer call.
const histBuckets = 40

// Sampling of the time of small calls: the clock costs tens of ns, a small
// Put on a mapped block about as much. A call of a kind to a target is
// timed when it moves sampleBytes or more, when it is the first of
// samplePeriod such calls on this P, or when the last call timed took
// slowNs or more; the time of all is then estimated from the timed ones.
// Calls and bytes are counted exactly.
const (
	sampleBytes  = 4096
	samplePeriod = 64
	slowNs       = 1000
)

// The classes of time, as the profile file names them.
const (
	ClassOneSided   = "one-sided"
	ClassCollective = "collective"
	ClassWaiting    = "waiting"
)

// profile is what a process records while the profile is on.
type profile struct {
	dir       string
	start     int64 // nanotime at StartProfile
	np        int   // world processes: the targets
	histStart int   // where the histograms begin in ops
	// ops: per one-sided kind and world target, calls, bytes, and the ns
	// and the number of the timed calls (see at); then a histogram of the
	// timed calls per kind.
	ops *percpu.Counters
	// outer counts the collective calls in progress that time themselves
	// whole (Sync, Gop, Brdcst), whose agreements are not also waiting.
	outer atomic.Int32
	mu    sync.Mutex
	colls map[string]*collTime // by call name, under mu
	order []string             // colls' names in first-call order
}

// collTime is one collective call's or wait's record.
type collTime struct {
	class     string
	calls, ns int64
	hist      [histBuckets]int64
}

// prof is the running profile, nil when off.
var prof atomic.Pointer[profile]

func newProfile(dir string, np int) *profile {
	p := &profile{dir: dir, np: np, colls: map[string]*collTime{}}
	p.histStart = int(opKinds) * np * perTarget
	p.ops = percpu.New(p.histStart + int(opKinds)*histBuckets)
	p.start = nanotime()
	return p
}

// The counters of a kind's calls to a target, from at on.
const (
	callsAt = iota
	bytesAt
	timedNsAt
	timedAt
	lastSlowAt // 1 when the last call timed took slowNs or more
	perTarget
)

// at is the index of kind k's counters for world rank w.
func (p *profile) at(k opKind, w int) int { return (int(k)*p.np + w) * perTarget }

// bucket is the histogram bucket of a time of d ns.
func bucket(d int64) int { return min(bits.Len64(uint64(max(d, 0))), histBuckets-1) }

// stamp is when a timed one-sided operation began; zero when it is not
// timed.
type stamp int64

// profTally is tally when the profile is on: the stats' counts and the
// profile's in one pin of the goroutine. An operation on rank's block (a
// call's piece on each owner counts once per owner) counts its calls and
// bytes in the profile, and is timed (see the sampling) or not.
func (g *group) profTally(p *profile, rank int, k opKind, calls, bytes int) stamp {
	i, to := g.counters(rank, k)
	j := p.at(k, g.pg.members[rank])
	timed := true
	if s, q := percpu.PinBoth(g.stats.ops, p.ops); s != nil {
		s[i] += int64(calls)
		s[to] += int64(bytes)
		q[j+callsAt]++
		q[j+bytesAt] += int64(bytes)
		timed = bytes >= sampleBytes || q[j+callsAt]%samplePeriod == 1 || q[j+lastSlowAt] != 0
		percpu.Unpin()
	} else {
		percpu.Unpin()
		g.spill(i, to, calls, bytes)
		p.ops.Spill(j+callsAt, 1)
		p.ops.Spill(j+bytesAt, int64(bytes))
	}
	g.noteTarget(rank)
	if !timed {
		return 0
	}
	return stamp(nanotime())
}

// took ends a one-sided operation that tally stamped.
func (g *group) took(st stamp, rank int, k opKind) {
	if st != 0 {
		g.profTook(st, rank, k)
	}
}

func (g *group) profTook(st stamp, rank int, k opKind) {
	d := nanotime() - int64(st)
	p := prof.Load()
	if p == nil {
		return // stopped meanwhile
	}
	j := p.at(k, g.pg.members[rank])
	h := p.histStart + int(k)*histBuckets + bucket(d)
	if s := p.ops.Pin(); s != nil {
		s[j+timedNsAt] += d
		s[j+timedAt]++
		s[j+lastSlowAt] = int64(d / slowNs) // nonzero when slow
		s[h]++
		percpu.Unpin()
		return
	}
	percpu.Unpin()
	p.ops.Spill(j+timedNsAt, d)
	p.ops.Spill(j+timedAt, 1)
	p.ops.Spill(h, 1)
}

// enter starts timing a collective call that times itself whole; leave
// ends it. Both are for a profile p that is on.
func (p *profile) enter() int64 {
	p.outer.Add(1)
	return nanotime()
}

func (p *profile) leave(t0 int64, name string) {
	p.record(name, ClassCollective, nanotime()-t0)
	p.outer.Add(-1)
}

// waitStart returns when a wait begins, or 0 when the profile is off or the
// wait is part of a collective call timed whole.
func waitStart() int64 {
	if p := prof.Load(); p != nil && p.outer.Load() == 0 {
		return nanotime()
	}
	return 0
}

// waited records a wait that waitStart began.
func waited(t0 int64, name string) {
	if t0 == 0 {
		return
	}
	if p := prof.Load(); p != nil {
		p.record(name, ClassWaiting, nanotime()-t0)
	}
}

func (p *profile) record(name, class string, d int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.colls[name]
	if c == nil {
		c = &collTime{class: class}
		p.colls[name] = c
		p.order = append(p.order, name)
	}
	c.calls++
	c.ns += d
	c.hist[bucket(d)]++
}

// StartProfile starts this run's profile on every process (collective over
// every GA process): from now to StopProfile, or to Terminate, which stops
// it and writes it to dir (see StopProfile). GOGA_PROFILE=dir in the
// environment starts it at Init. Operations issued by other goroutines
// while StartProfile runs may be left out of it.
func StartProfile(dir string) error {
	const op = "StartProfile"
	g, err := worldGroup(op)
	if err != nil {
		return err
	}
	var local error
	if prof.Load() != nil {
		local = errorf(op, "", "the profile is already on")
	}
	if err := agree(g, false, op, "", local, newArgs(op).str("dir", dir)); err != nil {
		return err
	}
	prof.Store(newProfile(dir, g.size()))
	return nil
}
