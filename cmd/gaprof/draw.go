package main

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/brewer"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/goga-hpc/goga/ga"
)

// traffic is the traffic matrix as the heat map reads it: column j is the
// target process, row i the process that moved the bytes, drawn from the
// top; the colour is log10 of the bytes (none: the background).
type traffic struct{ bytes [][]int64 }

func (t traffic) Dims() (c, r int) { return len(t.bytes), len(t.bytes) }
func (t traffic) X(c int) float64  { return float64(c) }
func (t traffic) Y(r int) float64  { return float64(len(t.bytes) - 1 - r) }
func (t traffic) Z(c, r int) float64 {
	if b := t.bytes[r][c]; b > 0 {
		return math.Log10(float64(b))
	}
	return math.NaN()
}

// light is the heat map's palette: ColorBrewer's YlOrRd without its three
// darkest colours, so that the numbers written on the cells stay legible.
type light struct{}

func (light) Colors() []color.Color {
	p, err := brewer.GetPalette(brewer.TypeSequential, "YlOrRd", 9)
	if err != nil {
		panic(err) // a palette of the library's own
	}
	return p.Colors()[:6]
}

// trafficPlot is the heat map of p's traffic matrix, with each cell's bytes
// written in it (up to 16 processes) and lines between nodes.
func trafficPlot(p *ga.Profile) (*plot.Plot, traffic) {
	t := traffic{bytes: p.Traffic()}
	n := len(t.bytes)
	pl := plot.New()
	pl.Title.Text = "bytes moved by one-sided operations"
	pl.X.Label.Text = "to or from the blocks of process"
	pl.Y.Label.Text = "by process"
	hm := plotter.NewHeatMap(t, light{})
	hm.NaN = color.White
	pl.Add(hm)
	if n <= 16 {
		var xys plotter.XYs
		var labels []string
		for i, row := range t.bytes {
			for j, b := range row {
				xys = append(xys, plotter.XY{X: float64(j), Y: t.Y(i)})
				labels = append(labels, sizeText(b))
			}
		}
		if l, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels}); err == nil {
			for i := range l.TextStyle {
				l.TextStyle[i].XAlign, l.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
			}
			pl.Add(l)
		}
	}
	for i := 1; i < n; i++ {
		if p.Nodes[i] != p.Nodes[i-1] {
			at := float64(i) - 0.5
			pl.Add(boundary(at, -0.5, at, float64(n)-0.5), boundary(-0.5, float64(n-i)-0.5, float64(n)-0.5, float64(n-i)-0.5))
		}
	}
	pl.X.Tick.Marker = rankTicks(n, func(r int) float64 { return float64(r) })
	pl.Y.Tick.Marker = rankTicks(n, t.Y)
	pl.X.Min, pl.X.Max, pl.Y.Min, pl.Y.Max = -0.5, float64(n)-0.5, -0.5, float64(n)-0.5
	return pl, t
}

// boundary is a node boundary's line.
func boundary(x0, y0, x1, y1 float64) plot.Plotter {
	l, _ := plotter.NewLine(plotter.XYs{{X: x0, Y: y0}, {X: x1, Y: y1}})
	l.Width = vg.Points(2)
	l.Color = color.RGBA{R: 0x1f, G: 0x5f, B: 0xa8, A: 0xff}
	l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	return l
}

// rankTicks labels processes 0..n-1 at at(r), at most about 16 labels.
func rankTicks(n int, at func(r int) float64) plot.Ticker {
	step := max(1, (n+15)/16)
	return plot.TickerFunc(func(_, _ float64) []plot.Tick {
		var ts []plot.Tick
		for r := 0; r < n; r += step {
			ts = append(ts, plot.Tick{Value: at(r), Label: strconv.Itoa(r)})
		}
		return ts
	})
}

// sizeText writes a byte count short: 0, 512, 3.1K, 2.0M, 1.2G.
func sizeText(b int64) string {
	switch {
	case b < 1024:
		return strconv.FormatInt(b, 10)
	case b < 1<<20:
		return fmt.Sprintf("%.1fK", float64(b)/(1<<10))
	case b < 1<<30:
		return fmt.Sprintf("%.1fM", float64(b)/(1<<20))
	default:
		return fmt.Sprintf("%.1fG", float64(b)/(1<<30))
	}
}

// timeClasses are the stacked bars' parts, bottom up, with their colours.
var timeClasses = []struct {
	name string
	col  color.Color
	of   func(ga.Times) int64
}{
	{"computing", color.RGBA{R: 0x9e, G: 0xc9, B: 0x7f, A: 0xff}, func(t ga.Times) int64 { return t.Computing }},
	{"one-sided", color.RGBA{R: 0x1f, G: 0x5f, B: 0xa8, A: 0xff}, func(t ga.Times) int64 { return t.OneSided }},
	{"collectives", color.RGBA{R: 0xe6, G: 0x9f, B: 0x00, A: 0xff}, func(t ga.Times) int64 { return t.Collective }},
	{"waiting", color.RGBA{R: 0xc0, G: 0x39, B: 0x2b, A: 0xff}, func(t ga.Times) int64 { return t.Waiting }},
}

// timePlot is a bar per process of its wall time in seconds, stacked by
// class (timeClasses' order); it returns the seconds of each class.
func timePlot(p *ga.Profile) (*plot.Plot, []plotter.Values) {
	ts := p.Times()
	pl := plot.New()
	pl.Title.Text = "time per process"
	pl.X.Label.Text = "process"
	pl.Y.Label.Text = "seconds"
	pl.Legend.Top, pl.Legend.Left = true, true
	pl.Legend.YOffs = vg.Points(-4)
	vals := make([]plotter.Values, len(timeClasses))
	var below *plotter.BarChart
	for k, c := range timeClasses {
		vals[k] = make(plotter.Values, len(ts))
		for i, t := range ts {
			vals[k][i] = float64(c.of(t)) / 1e9
		}
		b, err := plotter.NewBarChart(vals[k], vg.Points(max(4, 200/float64(max(len(ts), 1)))))
		if err != nil {
			continue // no processes
		}
		b.Color, b.LineStyle.Width = c.col, 0
		if below != nil {
			b.StackOn(below)
		}
		below = b
		pl.Add(b)
		pl.Legend.Add(c.name, b)
	}
	pl.X.Tick.Marker = rankTicks(len(ts), func(r int) float64 { return float64(r) })
	pl.Y.Max *= 1.35 // room for the legend above the bars
	return pl, vals
}

// callsPlot is, per operation kind, the number of calls by call time (the
// profile's histogram: a point per power of two of ns), the waiting kinds
// (agreements, Lock) together as "waiting"; it returns the points per
// series.
func callsPlot(p *ga.Profile) (*plot.Plot, map[string]plotter.XYs, error) {
	pl := plot.New()
	pl.Title.Text = "call times per operation"
	pl.X.Label.Text = "time in the call"
	pl.Y.Label.Text = "calls (log scale)"
	pl.Y.Scale = plot.LogScale{}
	pl.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	pl.X.Tick.Marker = plot.TickerFunc(timeTicks)
	pl.Legend.Top = true
	hists := map[string][]int64{}
	var order []string
	for _, op := range p.OpNames() {
		name := op
		if p.Class(op) == ga.ClassWaiting {
			name = ga.ClassWaiting
		}
		h := hists[name]
		if h == nil {
			h = make([]int64, p.Buckets)
			order = append(order, name)
		}
		for b, n := range p.CallTimes(op) {
			h[b] += n
		}
		hists[name] = h
	}
	pts := map[string]plotter.XYs{}
	var args []any
	for _, name := range order {
		var xy plotter.XYs
		for b, n := range hists[name] {
			if n > 0 {
				xy = append(xy, plotter.XY{X: float64(b), Y: float64(n)})
			}
		}
		if len(xy) > 0 {
			pts[name] = xy
			args = append(args, name, xy)
		}
	}
	if len(args) > 0 {
		if err := plotutil.AddLinePoints(pl, args...); err != nil {
			return nil, nil, err
		}
		pl.Y.Max *= 8 // room for the legend
	}
	return pl, pts, nil
}

// timeTicks labels the buckets (log2 ns) at each power of ten of seconds'
// usual units.
func timeTicks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for _, u := range []struct {
		ns    float64
		label string
	}{{1, "1ns"}, {1e1, "10ns"}, {1e2, "100ns"}, {1e3, "1µs"}, {1e4, "10µs"}, {1e5, "100µs"}, {1e6, "1ms"}, {1e7, "10ms"}, {1e8, "100ms"}, {1e9, "1s"}, {1e10, "10s"}} {
		// Bucket b holds [2^(b-1), 2^b): a time t is at log2(t)+1.
		if x := math.Log2(u.ns) + 1; x >= lo && x <= hi {
			ts = append(ts, plot.Tick{Value: x, Label: u.label})
		}
	}
	return ts
}

// tasksPlot is a bar per process of the tasks it took (ReadInc calls).
func tasksPlot(p *ga.Profile) (*plot.Plot, plotter.Values) {
	tasks := p.Tasks()
	v := make(plotter.Values, len(tasks))
	for i, n := range tasks {
		v[i] = float64(n)
	}
	pl := plot.New()
	pl.Title.Text = "tasks per process (ReadInc)"
	pl.X.Label.Text = "process"
	pl.Y.Label.Text = "tasks"
	if b, err := plotter.NewBarChart(v, vg.Points(max(4, 200/float64(max(len(v), 1))))); err == nil {
		b.Color, b.LineStyle.Width = timeClasses[1].col, 0
		pl.Add(b)
	}
	pl.X.Tick.Marker = rankTicks(len(v), func(r int) float64 { return float64(r) })
	pl.Y.Max *= 1.1
	pl.Y.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick {
		ts := plot.DefaultTicks{}.Ticks(lo, hi)
		for i := range ts {
			if ts[i].Label != "" {
				ts[i].Label = strconv.FormatFloat(ts[i].Value, 'f', -1, 64)
			}
		}
		return ts
	})
	return pl, v
}

func sumValues(v plotter.Values) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s
}
