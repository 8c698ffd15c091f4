package main

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/goga-hpc/goga/examples/internal/explot"
	"github.com/goga-hpc/goga/ga"
)

// The picture's size and resolution: the cavity square, its colour bar
// to the right.
const (
	plotW, plotH = 17 * vg.Centimeter, 14 * vg.Centimeter
	barW         = 2.6 * vg.Centimeter
	plotDPI      = 110
	// arrowsAcross is about how many velocity arrows a side gets.
	arrowsAcross = 16
)

// drawn is what the last picture showed, for the test: the fields it was
// drawn from (cell (i, j)'s components at (i·n + j)·nField), the arrows
// and the colour range.
var drawn struct {
	n      int
	fld    []float64
	arrows []arrow
	lo, hi float64
}

// arrow is a velocity drawn at cell (i, j).
type arrow struct {
	i, j   int
	ux, uy float64
}

// vortGrid is the vorticity on the cavity's points, for plotter.HeatMap:
// column c is x index i, row r is y index j.
type vortGrid struct {
	n   int
	dx  float64
	fld []float64
}

func (g vortGrid) Dims() (int, int)       { return g.n, g.n }
func (g vortGrid) Z(c, r int) float64     { return g.fld[(c*g.n+r)*nField+fVort] }
func (g vortGrid) X(c int) float64        { return float64(c) * g.dx }
func (g vortGrid) Y(r int) float64        { return float64(r) * g.dx }
func (g vortGrid) at(i, j, k int) float64 { return g.fld[(i*g.n+j)*nField+k] }

// arrows draws each velocity as an arrow from its cell, the longest
// spanning scale (in the cavity's units).
type arrows struct {
	dx, scale float64
	list      []arrow
}

func (a arrows) Plot(c draw.Canvas, pl *plot.Plot) {
	trX, trY := pl.Transforms(&c)
	sty := draw.LineStyle{Color: color.Black, Width: vg.Points(0.8)}
	head := vg.Points(3.5)
	for _, ar := range a.list {
		x, y := float64(ar.i)*a.dx, float64(ar.j)*a.dx
		from := vg.Point{X: trX(x), Y: trY(y)}
		to := vg.Point{X: trX(x + a.scale*ar.ux), Y: trY(y + a.scale*ar.uy)}
		d := to.Sub(from)
		l := vg.Length(math.Hypot(float64(d.X), float64(d.Y)))
		if l < vg.Points(0.5) {
			continue
		}
		c.StrokeLine2(sty, from.X, from.Y, to.X, to.Y)
		// The head: two strokes back from the tip, at ±25° to the shaft.
		u := d.Scale(1 / l)
		h := min(head, l/2)
		for _, s := range []float64{-1, 1} {
			sin, cos := math.Sincos(s * 25 * math.Pi / 180)
			back := vg.Point{X: -u.X*vg.Length(cos) + u.Y*vg.Length(sin), Y: -u.Y*vg.Length(cos) - u.X*vg.Length(sin)}
			tip := to.Add(back.Scale(h))
			c.StrokeLine2(sty, to.X, to.Y, tip.X, tip.Y)
		}
	}
}

// plotFlow gathers the final fields to this process with Get and draws
// the vorticity as a heat map, velocity arrows on a coarse subgrid over
// it, to path (PNG or SVG by its extension). The colour scale is
// symmetric about 0 and clipped (colourLimit).
func plotFlow(path string, flda *ga.Array[float64], p *params, steps int) error {
	size := p.n
	fld := make([]float64, size*size*nField)
	if err := flda.Get([]int{0, 0, 0}, []int{size - 1, size - 1, nField - 1}, fld, []int{size, nField}); err != nil {
		return err
	}
	g := vortGrid{n: size, dx: p.dx, fld: fld}

	// Arrows every stride cells, starting half a stride in.
	stride := max(1, (size+arrowsAcross-1)/arrowsAcross)
	var list []arrow
	top := 0.0
	for i := stride / 2; i < size; i += stride {
		for j := stride / 2; j < size; j += stride {
			ar := arrow{i, j, g.at(i, j, fUx), g.at(i, j, fUy)}
			list = append(list, ar)
			top = max(top, math.Hypot(ar.ux, ar.uy))
		}
	}
	scale := 0.0
	if top > 0 {
		scale = 0.9 * float64(stride) * p.dx / top
	}

	lim := colourLimit(g)
	cm := moreland.SmoothBlueRed()
	cm.SetMin(-lim)
	cm.SetMax(lim)
	hm := plotter.NewHeatMap(g, cm.Palette(255))
	hm.Min, hm.Max = -lim, lim
	hm.Rasterized = true // no seams between the cells
	hm.Underflow, hm.Overflow = cm.Palette(255).Colors()[0], cm.Palette(255).Colors()[254]

	pl := plot.New()
	pl.Title.Text = fmt.Sprintf("Lid-driven cavity, %d × %d points, after %d steps: vorticity and velocity", size, size, steps)
	pl.X.Label.Text = "x (the lid moves along +x)"
	pl.Y.Label.Text = "y (lid at top)"
	side := float64(size-1) * p.dx
	half := p.dx / 2
	pl.X.Min, pl.X.Max = -half, side+half
	pl.Y.Min, pl.Y.Max = -half, side+half
	pl.Add(hm, arrows{dx: p.dx, scale: scale, list: list})

	bar := plot.New()
	bar.HideX()
	bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	bar.Y.Min, bar.Y.Max = -lim, lim
	bar.Y.Label.Text = fmt.Sprintf("vorticity (clipped at ±%.3g)", lim)

	err := explot.Save(path, plotW, plotH, plotDPI, func(dc draw.Canvas) {
		m := vg.Points(8)
		pl.Draw(draw.Crop(dc, m, -barW, m, -m))
		// The bar's ends line up with the cavity's: below the main plot's
		// title, above its x axis.
		bar.Draw(draw.Crop(dc, plotW-barW+m, -m, 1.1*vg.Centimeter, -0.75*vg.Centimeter))
	})
	if err != nil {
		return err
	}
	drawn.n, drawn.fld, drawn.arrows, drawn.lo, drawn.hi = size, fld, list, -lim, lim
	return nil
}

// colourLimit is where the colour scale saturates: the 98th percentile of
// |ω|, so that the shear layer under the lid and the singularities where it
// meets the walls do not wash out the vortex.
func colourLimit(g vortGrid) float64 {
	a := make([]float64, 0, g.n*g.n)
	for i := 0; i < g.n; i++ {
		for j := 0; j < g.n; j++ {
			a = append(a, math.Abs(g.at(i, j, fVort)))
		}
	}
	slices.Sort(a)
	if lim := a[len(a)*98/100]; lim > 0 {
		return lim
	}
	return 1
}
