package main

import (
	"encoding/json"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/ga"
)

// sample is a profile of 3 processes on nodes [0 0 1]: process i put
// 100·(i+1)·(j+1) bytes in (i+j+1) calls to each process j, took i+2 tasks
// (ReadInc to process 0, 8 bytes each), and synced once; its wall time is
// 10 s, of which 1 s one-sided, 2 s Sync and i s waiting in Zero's
// agreement.
func sample() *ga.Profile {
	const n = 3
	p := &ga.Profile{Format: ga.ProfileFormat, Nodes: []int{0, 0, 1}, Buckets: 40}
	for i := range n {
		put := ga.OpProfile{Op: "Put", Class: ga.ClassOneSided, Calls: make([]int64, n), Bytes: make([]int64, n), Ns: make([]int64, n), Hist: make([]int64, 40)}
		for j := range n {
			put.Calls[j] = int64(i + j + 1)
			put.Bytes[j] = int64(100 * (i + 1) * (j + 1))
			put.Ns[j] = []int64{5e8, 3e8, 2e8}[j]
			put.Hist[10+j] = put.Calls[j]
		}
		ri := ga.OpProfile{Op: "ReadInc", Class: ga.ClassOneSided, Calls: make([]int64, n), Bytes: make([]int64, n), Ns: make([]int64, n), Hist: make([]int64, 40)}
		ri.Calls[0], ri.Bytes[0], ri.Hist[12] = int64(i+2), int64(8*(i+2)), int64(i+2)
		sync := ga.OpProfile{Op: "Sync", Class: ga.ClassCollective, Calls: []int64{1}, Ns: []int64{2e9}, Hist: make([]int64, 40)}
		sync.Hist[31] = 1
		zero := ga.OpProfile{Op: "Zero", Class: ga.ClassWaiting, Calls: []int64{1}, Ns: []int64{int64(i) * 1e9}, Hist: make([]int64, 40)}
		zero.Hist[30] = 1
		p.Procs = append(p.Procs, ga.ProcessProfile{Rank: i, WallNs: 10e9, Ops: []ga.OpProfile{put, ri, sync, zero}})
	}
	return p
}

func writeSample(t *testing.T) string {
	b, err := json.Marshal(sample())
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), ga.ProfileFile)
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestPlotted: what each picture plots is what the profile holds.
func TestPlotted(t *testing.T) {
	p, err := ga.ReadProfile(writeSample(t))
	if err != nil {
		t.Fatal(err)
	}
	_, tr := trafficPlot(p)
	for i := range 3 {
		for j := range 3 {
			want := int64(100*(i+1)*(j+1)) + map[bool]int64{true: int64(8 * (i + 2))}[j == 0]
			if got := tr.bytes[i][j]; got != want {
				t.Errorf("traffic[%d][%d] = %d, want %d", i, j, got, want)
			}
			if z := tr.Z(j, i); math.Abs(z-math.Log10(float64(want))) > 1e-12 {
				t.Errorf("heat map cell (%d, %d) = %g, want log10 %d", j, i, z, want)
			}
		}
	}
	_, vals := timePlot(p)
	for i := range 3 {
		want := []float64{10 - 1 - 2 - float64(i), 1, 2, float64(i)}
		for k := range timeClasses {
			if math.Abs(vals[k][i]-want[k]) > 1e-9 {
				t.Errorf("process %d's %s: %g s, want %g", i, timeClasses[k].name, vals[k][i], want[k])
			}
		}
	}
	_, pts, err := callsPlot(p)
	if err != nil {
		t.Fatal(err)
	}
	// Put: buckets 10, 11, 12 with 1+2+3, 2+3+4, 3+4+5 calls; ReadInc:
	// bucket 12 with 2+3+4.
	for op, want := range map[string][][2]float64{"Put": {{10, 6}, {11, 9}, {12, 12}}, "ReadInc": {{12, 9}}, "Sync": {{31, 3}}, ga.ClassWaiting: {{30, 3}}} {
		got := pts[op]
		if len(got) != len(want) {
			t.Errorf("%s: %d points %v, want %v", op, len(got), got, want)
			continue
		}
		for k, w := range want {
			if got[k].X != w[0] || got[k].Y != w[1] {
				t.Errorf("%s point %d = %v, want %v", op, k, got[k], w)
			}
		}
	}
	_, tasks := tasksPlot(p)
	for i, want := range []float64{2, 3, 4} {
		if tasks[i] != want {
			t.Errorf("process %d took %g tasks, want %g", i, tasks[i], want)
		}
	}
}

// TestFiles: gaprof writes every picture, PNG or SVG, and one of all.
func TestFiles(t *testing.T) {
	name := writeSample(t)
	out := filepath.Join(t.TempDir(), "x")
	if err := run([]string{"-o", out, name}); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"traffic", "time", "calls", "tasks"} {
		f, err := os.Open(out + "-" + k + ".png")
		if err != nil {
			t.Error(err)
			continue
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", k, err)
			continue
		}
		if w := img.Bounds().Dx(); w != int(panelWidth.Dots(dpi)) {
			t.Errorf("%s: %d pixels wide, want %d", k, w, int(panelWidth.Dots(dpi)))
		}
	}
	if err := run([]string{"-o", out, "-format", "svg", name}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(out + "-traffic.svg"); err != nil || !strings.Contains(string(b), "<svg") {
		t.Errorf("traffic.svg: %v, no <svg> in %d bytes", err, len(b))
	}
	all := out + "-all.png"
	if err := run([]string{"-all", all, name}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(all); err != nil {
		t.Error(err)
	}
	if err := run([]string{"-format", "gif", name}); err == nil || !strings.Contains(err.Error(), "gif") {
		t.Errorf("-format gif: error %v, want one naming gif", err)
	}
}
