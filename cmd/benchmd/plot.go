package main

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// A figure is one operation at one size: its name without the unit and its
// speedup. A time and a rate measured together (put_contig_us and
// put_contig_MBps) have the same speedup, so the first stands for both.
type figure struct {
	name    string
	size    float64
	label   string // the size as compare.sh wrote it
	speedup float64
}

func figures(rows []row) []figure {
	var out []figure
	seen := map[string]bool{}
	for _, r := range rows {
		name := r.metric
		if i := strings.LastIndex(name, "_"); i > 0 {
			name = name[:i] // the unit
		}
		if seen[name+" "+r.size] {
			continue
		}
		seen[name+" "+r.size] = true
		size, _ := strconv.ParseFloat(r.size, 64)
		s, _ := strconv.ParseFloat(r.speedup, 64) // parseCompare checked it
		out = append(out, figure{name, size, r.size, s})
	}
	return out
}

// Colours of the bars: goga faster, goga slower.
var (
	faster = color.NRGBA{27, 158, 119, 255}
	slower = color.NRGBA{217, 95, 2, 255}
)

// writePlot draws the speedups of rows against ref, titled with the date,
// into file (.png or .svg): operations measured at many sizes (the
// transfers) as lines over the size, the others as bars from 1.
func writePlot(file string, rows []row, ref, date string) error {
	figs := figures(rows)
	bySize := map[string][]figure{}
	var names []string
	for _, f := range figs {
		if bySize[f.name] == nil {
			names = append(names, f.name)
		}
		bySize[f.name] = append(bySize[f.name], f)
	}
	var lines, bars []string
	for _, n := range names {
		if len(bySize[n]) >= 3 {
			lines = append(lines, n)
		} else {
			bars = append(bars, n)
		}
	}
	// span is the range of the speedups of the named operations, and 1.
	span := func(names []string) (lo, hi float64) {
		lo, hi = 1, 1
		for _, n := range names {
			for _, f := range bySize[n] {
				lo, hi = min(lo, f.speedup), max(hi, f.speedup)
			}
		}
		return lo, hi
	}

	plot.DefaultFont.Variant = "Sans" // a command's own choice: it draws nothing else
	left := plot.New()
	left.Title.Text = "transfers, by size"
	left.X.Label.Text = "bytes"
	left.Y.Label.Text = "goga speedup over " + ref
	left.X.Scale, left.Y.Scale = plot.LogScale{}, plot.LogScale{}
	left.X.Tick.Marker = plot.TickerFunc(bytesTicks)
	left.Y.Tick.Marker = plot.TickerFunc(speedupTicks)
	lo, hi := span(lines)
	left.Y.Min, left.Y.Max = lo/1.2, hi*1.2
	left.Legend.Top = true // the curves end low, at large sizes
	var lineArgs []any
	for _, n := range lines {
		var xy plotter.XYs
		for _, f := range bySize[n] {
			xy = append(xy, plotter.XY{X: f.size, Y: f.speedup})
		}
		lineArgs = append(lineArgs, n, xy)
	}
	if err := plotutil.AddLinePoints(left, lineArgs...); err != nil {
		return err
	}
	if len(lines) > 0 {
		left.Add(parity(left))
	}

	right := plot.New()
	right.Title.Text = "operations"
	right.X.Label.Text = "goga speedup over " + ref + " (log scale)"
	right.X.Scale = plot.LogScale{}
	right.X.Tick.Marker = plot.TickerFunc(speedupTicks)
	lo, hi = span(bars)
	right.X.Min, right.X.Max = lo/1.5, hi*2.2 // room for the values
	var b speedupBars
	for _, n := range bars {
		for _, f := range bySize[n] {
			b = append(b, f)
		}
	}
	slices.Reverse(b) // nominal axes count from the bottom; read from the top
	labels := make([]string, len(b))
	for i, f := range b {
		labels[i] = fmt.Sprintf("%s (%s)", f.name, f.label)
	}
	right.Add(b)
	right.NominalY(labels...)
	// Room for 8 bars at least, so that a few are not drawn as slabs.
	right.Y.Min, right.Y.Max = -0.6, float64(max(len(b), 8))-0.4

	const w, h = 30 * vg.Centimeter, 16 * vg.Centimeter
	canvas, err := newCanvas(file, w, h)
	if err != nil {
		return err
	}
	dc := draw.New(canvas)
	title := draw.TextStyle{Color: color.Black, Font: left.Title.TextStyle.Font, Handler: left.Title.TextStyle.Handler, XAlign: draw.XCenter, YAlign: draw.YTop}
	title.Font.Size = vg.Points(14)
	dc.FillText(title, vg.Point{X: w / 2, Y: h - vg.Points(6)},
		fmt.Sprintf("goga against %s, measured %s: speedup above 1 is goga faster", ref, date))
	body := draw.Crop(dc, vg.Points(6), -vg.Points(6), vg.Points(4), -vg.Points(28))
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Centimeter}
	plots := [][]*plot.Plot{{left, right}}
	if len(lines) == 0 {
		plots, tiles.Cols = [][]*plot.Plot{{right}}, 1
	} else if len(bars) == 0 {
		plots, tiles.Cols = [][]*plot.Plot{{left}}, 1
	}
	for i, cv := range plot.Align(plots, tiles, body)[0] {
		plots[0][i].Draw(cv)
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := canvas.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// plotDPI is the resolution of a PNG plot.
const plotDPI = 110

// newCanvas is a canvas of w × h for file's format.
func newCanvas(file string, w, h vg.Length) (interface {
	vg.CanvasSizer
	WriteTo(w io.Writer) (int64, error)
}, error) {
	switch filepath.Ext(file) {
	case ".png":
		return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(plotDPI))}, nil
	case ".svg":
		return vgsvg.New(w, h), nil
	}
	return nil, fmt.Errorf("-plot %s: want a .png or .svg file", file)
}

// parity is the dashed line at speedup 1 across a plot's x range.
func parity(p *plot.Plot) plot.Plotter {
	l, _ := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: 1}, {X: p.X.Max, Y: 1}})
	l.Color = color.Gray{Y: 90}
	l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	return l
}

// bytesTicks marks powers of 8 as sizes, and the largest.
func bytesTicks(lo, hi float64) []plot.Tick {
	var t []plot.Tick
	for v := 1.0; v <= hi*1.01; v *= 8 {
		if v >= lo/1.01 {
			t = append(t, plot.Tick{Value: v, Label: bytesLabel(v)})
		}
	}
	if len(t) > 0 && t[len(t)-1].Value < hi/1.01 {
		t = append(t, plot.Tick{Value: hi, Label: bytesLabel(hi)})
	}
	return t
}

func bytesLabel(v float64) string {
	for _, u := range []string{"B", "KiB", "MiB", "GiB"} {
		if v < 1024 {
			return strconv.FormatFloat(v, 'g', -1, 64) + " " + u
		}
		v /= 1024
	}
	return strconv.FormatFloat(v, 'g', -1, 64) + " TiB"
}

// speedupTicks marks powers of 2 (and halves) as factors.
func speedupTicks(lo, hi float64) []plot.Tick {
	var t []plot.Tick
	for e := math.Floor(math.Log2(lo)); math.Exp2(e) <= hi; e++ {
		v := math.Exp2(e)
		if v >= lo {
			t = append(t, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64) + "×"})
		}
	}
	return t
}

// speedupBars draws each figure as a bar from 1 to its speedup on the y
// position of its index, with the value written beyond the bar's end.
type speedupBars []figure

func (b speedupBars) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	sty := p.X.Tick.Label
	sty.YAlign = draw.YCenter
	c.StrokeLine2(draw.LineStyle{Color: color.Gray{Y: 90}, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}},
		tx(1), c.Min.Y, tx(1), c.Max.Y)
	for i, f := range b {
		y0, y1 := ty(float64(i)-0.35), ty(float64(i)+0.35)
		x0, x1 := tx(1), tx(f.speedup)
		col := faster
		if f.speedup < 1 {
			col = slower
		}
		c.FillPolygon(col, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
		at := vg.Point{X: max(x0, x1) + vg.Points(3), Y: (y0 + y1) / 2}
		sty.XAlign = draw.XLeft
		c.FillText(sty, at, strconv.FormatFloat(f.speedup, 'g', 3, 64)+"×")
	}
}
