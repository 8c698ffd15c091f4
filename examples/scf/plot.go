package main

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/goga-hpc/goga/examples/internal/explot"
	"github.com/goga-hpc/goga/ga"
)

// The picture's size and, for PNG, resolution.
const (
	plotWidth  = 16 * vg.Centimeter
	plotHeight = 14 * vg.Centimeter
	plotDPI    = 96
)

// series is what the picture shows: per iteration, from the first, the
// total energy and deltad, as the run printed them.
type series struct {
	energy, deltad []float64
}

// plotted is the series of the last picture drawn, for the test to compare
// with what the run printed.
var plotted series

// savePlot draws s in two panels, the energy above and log10 deltad with
// the threshold below, into the file name.
func savePlot(name string, s series, tol float64) error {
	energy, err := panel(s.energy, func(v float64) float64 { return v }, color.RGBA{R: 0x1f, G: 0x5f, B: 0xa8, A: 0xff})
	if err != nil {
		return err
	}
	energy.Title.Text = "SCF energy per iteration"
	energy.Y.Label.Text = "total energy (hartree)"
	energy.Y.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick {
		ts := plot.DefaultTicks{}.Ticks(lo, hi)
		for i := range ts {
			if ts[i].Label != "" {
				ts[i].Label = fmt.Sprintf("%.2f", ts[i].Value)
			}
		}
		return ts
	})

	delta, err := panel(s.deltad, math.Log10, color.RGBA{R: 0xc0, G: 0x39, B: 0x2b, A: 0xff})
	if err != nil {
		return err
	}
	delta.X.Label.Text = "iteration"
	delta.Y.Label.Text = "log10 deltad"
	threshold := plotter.NewFunction(func(float64) float64 { return math.Log10(tol) })
	threshold.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	threshold.Color = color.Gray{Y: 0x60}
	delta.Add(threshold)
	delta.Legend.Add(fmt.Sprintf("threshold %g", tol), threshold)
	delta.Legend.Top = true
	delta.Y.Min = min(delta.Y.Min, math.Log10(tol))

	err = explot.Save(name, plotWidth, plotHeight, plotDPI, func(dc draw.Canvas) {
		m := vg.Points(8)
		dc = draw.Crop(dc, m, -m, m, -m)
		tiles := draw.Tiles{Rows: 2, Cols: 1, PadY: vg.Points(12)}
		plots := [][]*plot.Plot{{energy}, {delta}}
		for i, row := range plot.Align(plots, tiles, dc) {
			plots[i][0].Draw(row[0])
		}
	})
	if err == nil {
		plotted = s
	}
	return err
}

// panel is a plot of f(v) for each value v against its iteration,
// numbered from 1, as a line with points.
func panel(vs []float64, f func(float64) float64, col color.Color) (*plot.Plot, error) {
	xys := make(plotter.XYs, len(vs))
	for i, v := range vs {
		xys[i] = plotter.XY{X: float64(i + 1), Y: f(v)}
	}
	line, points, err := plotter.NewLinePoints(xys)
	if err != nil {
		return nil, err
	}
	line.Color = col
	line.Width = vg.Points(1.2)
	points.Color = col
	points.Shape = draw.CircleGlyph{}
	points.Radius = vg.Points(2.5)
	p := plot.New()
	p.Add(plotter.NewGrid(), line, points)
	p.X.Min, p.X.Max = 0.5, float64(len(vs))+0.5
	p.X.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick {
		var ts []plot.Tick
		step := max(1, len(vs)/12)
		for i := 1; i <= len(vs); i += step {
			ts = append(ts, plot.Tick{Value: float64(i), Label: fmt.Sprint(i)})
		}
		return ts
	})
	return p, nil
}

// drawOn0 saves the picture on process 0; every process returns its error.
func drawOn0(name string, s series) error {
	var err error
	failed := []int64{0}
	if ga.Nodeid() == 0 {
		if err = savePlot(name, s, *tol); err != nil {
			failed[0] = 1
		}
	}
	if berr := ga.Brdcst(failed, 0); berr != nil {
		return berr
	}
	if failed[0] != 0 && err == nil {
		err = fmt.Errorf("-plot %q: drawing failed on process 0", name)
	}
	return err
}
