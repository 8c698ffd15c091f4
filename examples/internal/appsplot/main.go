// Command appsplot draws the time to solution of the example applications
// against their GA originals, as scripts/bench-apps.sh measured it (make
// bench-apps writes bin/bench-apps.tsv): for each application a bar per
// layout (2 ranks on one node, 1 + 1 and 2 + 2 on two nodes) of the ratio
// of the original's total time to goga's, on a log scale, above 1 where goga
// is faster.
//
//	go run ./examples/internal/appsplot -plot docs/bench-apps.png bin/bench-apps.tsv
//
// make bench-apps runs it after the table.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/goga-hpc/goga/examples/internal/explot"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func main() {
	out := flag.String("plot", "docs/bench-apps.png", "the picture to write (.png or .svg)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: appsplot [-plot FILE] bin/bench-apps.tsv")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *out); err != nil {
		fmt.Fprintln(os.Stderr, "appsplot:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	t, err := parse(f)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	return drawRatios(t, out)
}

// layouts are bench-apps.sh's, in its order, with their legends.
var layouts = []struct{ key, name string }{
	{"2", "2 ranks, one node"},
	{"1+1", "1 + 1 ranks, two nodes"},
	{"2+2", "2 + 2 ranks, two nodes"},
}

// table is the ratios of total time (original/goga) by application and
// layout, the applications in the order the file lists them; a layout an
// application has no ratio for (a run failed or did not finish) is NaN.
type table struct {
	date  string
	apps  []string
	ratio map[string][]float64 // by app, indexed like layouts
}

// parse reads bench-apps.sh's output: a comment line with the date first,
// the header, then app, layout, metric, size, goga, original, unit, ratio.
func parse(r io.Reader) (*table, error) {
	t := &table{ratio: map[string][]float64{}}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "# ") {
			if f := strings.Fields(line); n == 1 && len(f) > 1 {
				t.date = f[1]
			}
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 8 || f[0] == "app" {
			continue
		}
		app, layout, metric := f[0], f[1], f[2]
		if _, ok := t.ratio[app]; !ok {
			t.apps = append(t.apps, app)
			t.ratio[app] = []float64{math.NaN(), math.NaN(), math.NaN()}
		}
		if metric != "total_s" {
			continue
		}
		v, err := strconv.ParseFloat(f[7], 64)
		if err != nil || !(v > 0) {
			return nil, fmt.Errorf("line %d: ratio %q is not a positive number", n, f[7])
		}
		for i, l := range layouts {
			if l.key == layout {
				t.ratio[app][i] = v
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(t.apps) == 0 {
		return nil, fmt.Errorf("no applications in it")
	}
	return t, nil
}

// The layouts' colours (colour-blind safe, ColorBrewer's Dark2).
var colours = []color.Color{
	color.NRGBA{27, 158, 119, 255},
	color.NRGBA{217, 95, 2, 255},
	color.NRGBA{117, 112, 179, 255},
}

// drawRatios draws t into file: the applications along x, a bar per layout from 1
// to its ratio on a log scale, its value above or below it.
func drawRatios(t *table, file string) error {
	plot.DefaultFont.Variant = "Sans"
	p := plot.New()
	p.Title.Text = "Time to solution: GA original / goga (above 1: goga faster)"
	if t.date != "" {
		p.Title.Text += ", measured " + t.date
	}
	p.Y.Label.Text = "original's total time / goga's (log scale)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.TickerFunc(ratioTicks)
	lo, hi := 1.0, 1.0
	for _, rs := range t.ratio {
		for _, v := range rs {
			if !math.IsNaN(v) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	p.Y.Min, p.Y.Max = lo/1.4, hi*1.4
	p.NominalX(t.apps...)
	p.X.Min, p.X.Max = -0.6, float64(len(t.apps))-0.4
	p.Add(bars{t})
	for i, l := range layouts {
		p.Legend.Add(l.name, swatch{colours[i]})
	}
	p.Legend.Top = true // top right: the two-node bars of the first applications rise highest, on the left

	return explot.Save(file, 24*vg.Centimeter, 12*vg.Centimeter, 110, p.Draw)
}

// ratioTicks marks powers of 2 and the halves between them.
func ratioTicks(lo, hi float64) []plot.Tick {
	var t []plot.Tick
	for e := math.Floor(2*math.Log2(lo)) / 2; math.Exp2(e) <= hi; e += 0.5 {
		v := math.Exp2(e)
		if v < lo {
			continue
		}
		if e == math.Floor(e) {
			t = append(t, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 3, 64) + "×"})
		} else {
			t = append(t, plot.Tick{Value: v})
		}
	}
	return t
}

// bars draws each application's ratios side by side around its x position,
// and the dashed line at 1.
type bars struct{ t *table }

func (b bars) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	c.StrokeLine2(draw.LineStyle{Color: color.Gray{Y: 90}, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}},
		c.Min.X, ty(1), c.Max.X, ty(1))
	sty := p.X.Tick.Label
	sty.XAlign = draw.XCenter
	const width = 0.26
	for i, app := range b.t.apps {
		for k, v := range b.t.ratio[app] {
			if math.IsNaN(v) {
				continue
			}
			x := float64(i) + (float64(k)-1)*width
			x0, x1 := tx(x-width/2*0.9), tx(x+width/2*0.9)
			y0, y1 := ty(1), ty(v)
			c.FillPolygon(colours[k], []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
			at := vg.Point{X: (x0 + x1) / 2, Y: y1 + vg.Points(2)}
			sty.YAlign = draw.YBottom
			if v < 1 {
				at.Y, sty.YAlign = y1-vg.Points(2), draw.YTop
			}
			c.FillText(sty, at, strconv.FormatFloat(v, 'f', 2, 64))
		}
	}
}

// swatch is a legend's filled square.
type swatch struct{ c color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(s.c, []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y}})
}
