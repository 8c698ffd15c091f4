package main

import (
	"flag"
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

var plotFile = flag.String("plot", "", "draw ‖r_k‖/‖r_0‖ and CG's bound against k into this file (.png or .svg)")

// Picture size; a PNG is drawn at plot's default 96 dpi, 576 × 384 pixels.
const plotW, plotH = 6 * vg.Inch, 4 * vg.Inch

// curve is what -plot draws, kept for the test to compare with what run
// printed: for k = 0, 1, …, the iterations done, ‖r_k‖/‖r_0‖ and the bound
// 2√κ·ρ^k that run checks it against.
var curve struct {
	resid, bound []float64
	kappa        float64
}

// drawCurve writes the residual curve and its bound on a log scale to file.
func drawCurve(file string, m, nproc int) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("CG on the %d × %d grid's Laplacian (κ = %.4g), %d processes", m, m, curve.kappa, nproc)
	p.X.Label.Text = "iteration k"
	p.Y.Label.Text = "‖r_k‖ / ‖r_0‖"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Legend.Left = true
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(12), vg.Points(12)
	p.Add(plotter.NewGrid())

	xy := func(v []float64) plotter.XYs {
		pts := make(plotter.XYs, len(v))
		for k := range v {
			pts[k] = plotter.XY{X: float64(k), Y: v[k]}
		}
		return pts
	}
	bound, err := plotter.NewLine(xy(curve.bound))
	if err != nil {
		return err
	}
	bound.Color = color.RGBA{R: 200, G: 60, B: 40, A: 255}
	bound.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
	bound.Width = vg.Points(1.5)
	resid, err := plotter.NewLine(xy(curve.resid))
	if err != nil {
		return err
	}
	resid.Color = color.RGBA{R: 30, G: 90, B: 180, A: 255}
	resid.Width = vg.Points(1.5)
	p.Add(bound, resid)
	p.Legend.Add("‖r_k‖ / ‖r_0‖", resid)
	p.Legend.Add("bound 2√κ·ρ^k, ρ = (√κ − 1)/(√κ + 1)", bound)
	return p.Save(plotW, plotH, file)
}
