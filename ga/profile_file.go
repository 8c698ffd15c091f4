package ga

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/goga-hpc/goga/mpi"
)

// ProfileFormat is the Format of the profile files this package writes.
const ProfileFormat = "goga-profile/1"

// ProfileFile is the name of the file Terminate writes in the profile's
// directory.
const ProfileFile = "goga-profile.json"

// Profile is a run's profile, every process's, as StopProfile gathers it
// and the file holds it (JSON; docs/PROFILE.md).
type Profile struct {
	Format string `json:"format"` // ProfileFormat
	// Nodes is each process's node (ClusterProcNodeid), by world rank.
	Nodes []int `json:"nodes"`
	// Buckets is the length of every Hist.
	Buckets int              `json:"buckets"`
	Procs   []ProcessProfile `json:"procs"` // by world rank
}

// ProcessProfile is one process's part of a Profile.
type ProcessProfile struct {
	Rank   int   `json:"rank"`
	WallNs int64 `json:"wall_ns"` // from the profile's start to its stop
	// Ops are the operations the process made, one entry per kind it used.
	Ops []OpProfile `json:"ops"`
}

// OpProfile is one kind of operation on one process.
type OpProfile struct {
	// Op is the operation's name: a one-sided kind (Put, Get, Acc, ReadInc,
	// Scatter, Gather, ScatterAcc), or a collective call's name as the
	// SetDebug trace writes it (Sync, Gop, Brdcst, Zero, ...), or Lock.
	Op    string `json:"op"`
	Class string `json:"class"` // ClassOneSided, ClassCollective or ClassWaiting
	// Calls, Bytes and Ns are per target process (world rank) for a
	// one-sided kind, one entry (this process) otherwise. A one-sided call
	// counts once per process whose blocks it touches. Ns is the time in the
	// calls: of one-sided calls under 4 KiB that take under a microsecond,
	// one in 16 is timed and the rest estimated from those.
	Calls []int64 `json:"calls"`
	Bytes []int64 `json:"bytes,omitempty"`
	Ns    []int64 `json:"ns"`
	// Hist counts the calls by time: Hist[b] those of [2^(b-1), 2^b) ns (for
	// one-sided kinds, the timed calls scaled to all of them).
	Hist []int64 `json:"hist"`
}

// oneSidedNames are the one-sided kinds' names, by opKind.
var oneSidedNames = [opKinds]string{"Put", "Get", "Acc", "ReadInc", "Scatter", "Gather", "ScatterAcc"}

// StopProfile stops the profile and gathers every process's into one
// (collective over every GA process). It returns the profile on process 0,
// nil elsewhere; with a directory given to StartProfile (or GOGA_PROFILE),
// process 0 also writes it there as ProfileFile. Terminate calls it when
// the profile is on.
func StopProfile() (*Profile, error) {
	const op = "StopProfile"
	g, err := worldGroup(op)
	if err != nil {
		return nil, err
	}
	p := prof.Swap(nil)
	var local error
	if p == nil {
		local = errorf(op, "", "the profile is not on")
	}
	if err := agree(g, false, op, "", local, newArgs(op)); err != nil {
		return nil, err
	}
	mine, err := json.Marshal(p.process(g.rank))
	if err != nil {
		return nil, err
	}
	parts, err := gatherBytes(g.comm(), mine)
	if err != nil {
		return nil, err
	}
	var all *Profile
	if g.rank == 0 {
		all, local = assemble(parts, nodes().node)
		if local == nil && p.dir != "" {
			local = writeProfile(p.dir, all)
		}
	}
	if err := agree(g, false, op, "", local, nil); err != nil {
		return nil, err
	}
	return all, nil
}

// process is this process's part: the time of calls that were not timed
// estimated from those that were, per kind and target, and the histogram
// scaled likewise per kind.
func (p *profile) process(rank int) ProcessProfile {
	pp := ProcessProfile{Rank: rank, WallNs: nanotime() - p.start}
	for k := range opKinds {
		o := OpProfile{Op: oneSidedNames[k], Class: ClassOneSided, Calls: make([]int64, p.np),
			Bytes: make([]int64, p.np), Ns: make([]int64, p.np), Hist: make([]int64, histBuckets)}
		var calls, timed int64
		for w := range p.np {
			j := p.at(k, w)
			c, n := p.ops.Read(j+callsAt), p.ops.Read(j+timedAt)
			o.Calls[w], o.Bytes[w] = c, p.ops.Read(j+bytesAt)
			if n > 0 {
				o.Ns[w] = int64(float64(p.ops.Read(j+timedNsAt)) * float64(c) / float64(n))
			}
			calls, timed = calls+c, timed+n
		}
		if calls == 0 {
			continue
		}
		for b := range o.Hist {
			if timed > 0 {
				o.Hist[b] = int64(math.Round(float64(p.ops.Read(p.histStart+int(k)*histBuckets+b)) * float64(calls) / float64(timed)))
			}
		}
		pp.Ops = append(pp.Ops, o)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, name := range p.order {
		c := p.colls[name]
		pp.Ops = append(pp.Ops, OpProfile{Op: name, Class: c.class, Calls: []int64{c.calls}, Ns: []int64{c.ns}, Hist: c.hist[:]})
	}
	return pp
}

// gatherBytes gathers every process's b at rank 0 of c, in rank order.
func gatherBytes(c *mpi.Comm, b []byte) ([][]byte, error) {
	n := c.Size()
	lens := make([]int64, n)
	if err := mpi.Gather(c, []int64{int64(len(b))}, lens, 0); err != nil {
		return nil, err
	}
	counts := make([]int, n)
	total := 0
	for r, l := range lens {
		counts[r] = int(l)
		total += int(l)
	}
	all := make([]byte, total)
	if err := mpi.Gatherv(c, b, all, counts, nil, 0); err != nil {
		return nil, err
	}
	if c.Rank() != 0 {
		return nil, nil
	}
	parts := make([][]byte, n)
	for r, at := range counts {
		parts[r], all = all[:at], all[at:]
	}
	return parts, nil
}

func assemble(parts [][]byte, node []int) (*Profile, error) {
	all := &Profile{Format: ProfileFormat, Nodes: append([]int(nil), node...), Buckets: histBuckets, Procs: make([]ProcessProfile, len(parts))}
	for r, b := range parts {
		if err := json.Unmarshal(b, &all.Procs[r]); err != nil {
			return nil, errorf("StopProfile", "", "process %d's profile: %v", r, err)
		}
	}
	return all, nil
}

func writeProfile(dir string, p *Profile) error {
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return errorf("StopProfile", "", "%v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, ProfileFile), b, 0o644); err != nil {
		return errorf("StopProfile", "", "%v", err)
	}
	return nil
}

// ReadProfile reads a profile file.
func ReadProfile(path string) (*Profile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var p Profile
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("ReadProfile %s: %w", path, err)
	}
	if p.Format != ProfileFormat {
		return nil, fmt.Errorf("ReadProfile %s: format %q, want %q", path, p.Format, ProfileFormat)
	}
	if len(p.Nodes) != len(p.Procs) {
		return nil, fmt.Errorf("ReadProfile %s: %d nodes for %d processes", path, len(p.Nodes), len(p.Procs))
	}
	return &p, nil
}

// Traffic returns the bytes of one-sided operations by process: [i][j] is
// what process i moved to or from process j's blocks.
func (p *Profile) Traffic() [][]int64 {
	m := make([][]int64, len(p.Procs))
	for i, pp := range p.Procs {
		m[i] = make([]int64, len(p.Procs))
		for _, o := range pp.Ops {
			if o.Class == ClassOneSided {
				for j := range min(len(o.Bytes), len(m[i])) {
					m[i][j] += o.Bytes[j]
				}
			}
		}
	}
	return m
}

// Tasks returns each process's ReadInc calls: the tasks it took from a
// task pool's counter.
func (p *Profile) Tasks() []int64 {
	t := make([]int64, len(p.Procs))
	for i, pp := range p.Procs {
		for _, o := range pp.Ops {
			if o.Op == "ReadInc" && o.Class == ClassOneSided {
				t[i] += sum(o.Calls)
			}
		}
	}
	return t
}

// Times is one process's wall time split by class, in ns.
type Times struct{ Computing, OneSided, Collective, Waiting int64 }

// Times returns each process's time split: the time in one-sided
// operations, in collectives, waiting, and the rest of its wall time
// (computing; never below zero, as goroutines' one-sided calls overlap).
func (p *Profile) Times() []Times {
	ts := make([]Times, len(p.Procs))
	for i, pp := range p.Procs {
		t := &ts[i]
		for _, o := range pp.Ops {
			switch o.Class {
			case ClassOneSided:
				t.OneSided += sum(o.Ns)
			case ClassCollective:
				t.Collective += sum(o.Ns)
			case ClassWaiting:
				t.Waiting += sum(o.Ns)
			}
		}
		t.Computing = max(0, pp.WallNs-t.OneSided-t.Collective-t.Waiting)
	}
	return ts
}

// CallTimes returns the histogram of op's call times over every process
// (see OpProfile.Hist), nil when no process made it.
func (p *Profile) CallTimes(op string) []int64 {
	var h []int64
	for _, pp := range p.Procs {
		for _, o := range pp.Ops {
			if o.Op != op {
				continue
			}
			if h == nil {
				h = make([]int64, p.Buckets)
			}
			for b := range min(len(h), len(o.Hist)) {
				h[b] += o.Hist[b]
			}
		}
	}
	return h
}

// OpNames returns the names of the operations the profile holds, in the
// order processes first list them.
func (p *Profile) OpNames() []string {
	seen := map[string]bool{}
	var names []string
	for _, pp := range p.Procs {
		for _, o := range pp.Ops {
			if !seen[o.Op] {
				seen[o.Op] = true
				names = append(names, o.Op)
			}
		}
	}
	return names
}

// Class returns the class of op's time (ClassOneSided, ClassCollective or
// ClassWaiting), "" when no process made op.
func (p *Profile) Class(op string) string {
	for _, pp := range p.Procs {
		for _, o := range pp.Ops {
			if o.Op == op {
				return o.Class
			}
		}
	}
	return ""
}

func sum(v []int64) int64 {
	var s int64
	for _, x := range v {
		s += x
	}
	return s
}
