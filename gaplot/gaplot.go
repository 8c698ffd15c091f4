// Package gaplot draws how a global array is distributed: which process owns
// which block (a colour per process, each block labelled with its owner), the
// halo of ghost cells around each block shaded, and a patch highlighted, as an
// SVG or PNG picture made with gonum.org/v1/plot.
//
// It draws 1-D and 2-D arrays, and 2-D slices of higher ones (Options.Rows,
// Cols and At), in any distribution: GA's default, irregular, block-cyclic.
// It asks the array itself where its blocks lie (LocateRegion), so the
// picture shows the distribution ga really uses; all of it is local
// queries, made by whichever process draws.
//
//	a, _ := ga.New[float64](100, 80).Name("A").Ghosts(2, 2).Allocate()
//	if ga.Nodeid() == 0 {
//		err := gaplot.Save(a, gaplot.Options{PatchLo: []int{10, 10}, PatchHi: []int{59, 29}}, "a.svg", "a.png")
//	}
//
// Rows run down the picture and columns across, as a matrix is written;
// element (i, j) is the unit square whose top-left corner is (j, i). The
// axes' ticks mark where blocks start.
package gaplot

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
	"gonum.org/v1/plot/palette/brewer"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/goga-hpc/goga/ga"
)

// Array is what a picture needs of a global array: every *ga.Array[T] has it.
type Array interface {
	Name() string
	Dims() []int
	GhostWidths() []int
	LocateRegion(lo, hi []int) ([]ga.Region, error)
}

var _ Array = (*ga.Array[float64])(nil)

// Options say which plane of the array to draw and what to mark on it. The
// zero value draws a 1-D or 2-D array whole, or the plane of the last two
// dimensions at index 0 of the others.
type Options struct {
	// Title is the picture's title; empty means the array's name and shape.
	Title string
	// Rows and Cols are the dimensions drawn down and across, for an
	// array of more than two; both zero means the last two.
	Rows, Cols int
	// At gives the index along every other dimension (entries for Rows
	// and Cols are ignored); nil means 0.
	At []int
	// PatchLo and PatchHi, if set, are the corners of a patch to outline,
	// in the array's indices.
	PatchLo, PatchHi []int
}

// Block is the part of one block in the plane drawn: Lo and Hi are its
// first and last row and column there (a 1-D array has row 0 only).
type Block struct {
	Rank, Index int
	Lo, Hi      [2]int
}

// plane is what a picture shows: the array's blocks in one plane, their
// ghost widths along its rows and columns, and the patch in it, if any.
type plane struct {
	rows, cols int // extents
	blocks     []Block
	ghosts     [2]int
	patch      *Block // Rank and Index unused
	title      string
	rowName    string
	colName    string
}

// Blocks returns the blocks of a that meet the plane o selects, in block
// order, each with its owner: what Plot draws.
func Blocks(a Array, o Options) ([]Block, error) {
	p, err := planeOf(a, o)
	return p.blocks, err
}

// planeOf is the plane of a that o selects, as Plot draws it.
func planeOf(a Array, o Options) (plane, error) {
	dims := a.Dims()
	// down and across are the dimensions shown; down is -1 for a 1-D array.
	down, across, err := shownDims(a.Name(), dims, o)
	if err != nil {
		return plane{}, err
	}
	lo, hi := make([]int, len(dims)), make([]int, len(dims))
	for d := range dims {
		switch {
		case d == down || d == across:
			hi[d] = dims[d] - 1
		case o.At != nil:
			lo[d], hi[d] = o.At[d], o.At[d]
		}
	}
	regions, err := a.LocateRegion(lo, hi)
	if err != nil {
		return plane{}, err
	}
	// pick returns the plane's row and column of an array index.
	pick := func(sub []int) [2]int {
		if down < 0 {
			return [2]int{0, sub[across]}
		}
		return [2]int{sub[down], sub[across]}
	}
	p := plane{rows: 1, cols: dims[across], colName: fmt.Sprintf("dimension %d", across)}
	if down >= 0 {
		p.rows, p.rowName = dims[down], fmt.Sprintf("dimension %d", down)
	}
	for _, r := range regions {
		p.blocks = append(p.blocks, Block{Rank: r.Rank, Index: r.Block, Lo: pick(r.Lo), Hi: pick(r.Hi)})
	}
	if w := a.GhostWidths(); w != nil {
		p.ghosts[1] = w[across]
		if down >= 0 {
			p.ghosts[0] = w[down]
		}
	}
	if p.patch, err = patchIn(o, lo, hi, pick); err != nil {
		return plane{}, err
	}
	p.title = planeTitle(a.Name(), o.Title, dims, lo, down, across)
	return p, nil
}

// shownDims returns the dimensions of dims that o shows down and across (down
// -1 for a 1-D array), and checks them and o.At against dims.
func shownDims(name string, dims []int, o Options) (down, across int, err error) {
	nd := len(dims)
	if nd == 0 {
		return 0, 0, fmt.Errorf("gaplot: array %q has no dimensions", name)
	}
	down, across = o.Rows, o.Cols
	switch {
	case nd == 1:
		down, across = -1, 0
	case down == 0 && across == 0:
		down, across = nd-2, nd-1
	}
	if nd > 1 && (down < 0 || down >= nd || across < 0 || across >= nd || down == across) {
		return 0, 0, fmt.Errorf("gaplot: rows %d and columns %d: want two different dimensions of %d", down, across, nd)
	}
	if o.At != nil && len(o.At) != nd {
		return 0, 0, fmt.Errorf("gaplot: At has %d indices; the array has %d dimensions", len(o.At), nd)
	}
	return down, across, nil
}

// patchIn is o's patch in the plane [lo, hi] (pick maps an array index to
// the plane's row and column), or nil where o sets none or the plane does
// not cut it.
func patchIn(o Options, lo, hi []int, pick func(sub []int) [2]int) (*Block, error) {
	if o.PatchLo == nil && o.PatchHi == nil {
		return nil, nil
	}
	nd := len(lo)
	if len(o.PatchLo) != nd || len(o.PatchHi) != nd {
		return nil, fmt.Errorf("gaplot: patch lo %v hi %v: want %d indices each", o.PatchLo, o.PatchHi, nd)
	}
	for d := range lo {
		if o.PatchLo[d] > hi[d] || o.PatchHi[d] < lo[d] {
			return nil, nil
		}
	}
	return &Block{Lo: pick(o.PatchLo), Hi: pick(o.PatchHi)}, nil
}

// planeTitle is title, or the array's name and shape; for an array of more
// than two dimensions, followed by the plane's place in it.
func planeTitle(name, title string, dims, lo []int, down, across int) string {
	if title == "" {
		title = fmt.Sprintf("%s: %s", name, shape(dims))
	}
	if len(dims) > 2 {
		at := make([]string, len(dims))
		for d := range dims {
			at[d] = strconv.Itoa(lo[d])
			if d == down || d == across {
				at[d] = ":"
			}
		}
		title += fmt.Sprintf("; plane [%s]", strings.Join(at, ", "))
	}
	return title
}

func shape(dims []int) string {
	s := make([]string, len(dims))
	for d, n := range dims {
		s[d] = strconv.Itoa(n)
	}
	return strings.Join(s, " × ")
}

// Colour returns process rank's colour: ColorBrewer's Set3, light enough
// for black labels, and past its twelve, hues a golden angle apart.
func Colour(rank int) color.Color {
	if rank < len(set3) {
		return set3[rank]
	}
	h := math.Mod(float64(rank)*0.618033988749895, 1)
	return hsv(h, 0.35, 0.95)
}

var set3 = func() []color.Color {
	p, err := brewer.GetPalette(brewer.TypeQualitative, "Set3", 12)
	if err != nil {
		panic(err) // a palette of the library's own
	}
	return p.Colors()
}()

// hsv is the RGB colour of hue h, saturation s and value v, all in [0, 1].
func hsv(h, s, v float64) color.Color {
	i := math.Floor(h * 6)
	f := h*6 - i
	p, q, t := v*(1-s), v*(1-f*s), v*(1-(1-f)*s)
	var r, g, b float64
	switch int(i) % 6 {
	case 0:
		r, g, b = v, t, p
	case 1:
		r, g, b = q, v, p
	case 2:
		r, g, b = p, v, t
	case 3:
		r, g, b = p, q, v
	case 4:
		r, g, b = t, p, v
	default:
		r, g, b = v, p, q
	}
	return color.RGBA{uint8(r*255 + 0.5), uint8(g*255 + 0.5), uint8(b*255 + 0.5), 255}
}

// Plot returns the picture of a's distribution as a gonum plot, to be
// saved at Size's size (or another, the same shape).
func Plot(a Array, o Options) (*plot.Plot, error) {
	p, err := planeOf(a, o)
	if err != nil {
		return nil, err
	}
	pl := plot.New()
	for _, sty := range []*draw.TextStyle{&pl.Title.TextStyle, &pl.X.Label.TextStyle, &pl.Y.Label.TextStyle, &pl.X.Tick.Label, &pl.Y.Tick.Label} {
		sty.Font.Variant = "Sans"
	}
	pl.Title.Text = p.title
	pl.Title.TextStyle.Font.Size = vg.Points(13)
	pl.X.Label.Text = p.colName + " (columns)"
	pl.X.Min, pl.X.Max = 0, float64(p.cols)
	pl.X.Padding = 0
	pl.X.Tick.Marker = p.ticks(1)
	pl.Y.Min, pl.Y.Max = 0, float64(p.rows)
	pl.Y.Padding = 0
	if p.rowName != "" {
		pl.Y.Label.Text = p.rowName + " (rows)"
		pl.Y.Tick.Marker = p.ticks(0)
		pl.Y.Scale = plot.InvertedScale{Normalizer: plot.LinearScale{}} // row 0 at the top
	} else {
		pl.HideY()
	}
	pl.Add(p)
	return pl, nil
}

// ticks marks where blocks start along the plane's dimension d (0 rows, 1
// columns), and its end; too many to read, and it leaves labels to gonum.
func (p plane) ticks(d int) plot.Ticker {
	ext := p.cols
	if d == 0 {
		ext = p.rows
	}
	var at []int
	for _, b := range p.blocks {
		at = append(at, b.Lo[d])
	}
	at = append(at, ext)
	slices.Sort(at)
	at = slices.Compact(at)
	if len(at) > 17 {
		return plot.DefaultTicks{}
	}
	return plot.TickerFunc(func(_, _ float64) []plot.Tick {
		t := make([]plot.Tick, len(at))
		for i, v := range at {
			t[i] = plot.Tick{Value: float64(v), Label: strconv.Itoa(v)}
		}
		return t
	})
}

var (
	ghostFill   = color.NRGBA{128, 128, 128, 80} // translucent: the owner's colour shows through
	ghostEdge   = color.RGBA{60, 60, 60, 255}
	patchColour = color.RGBA{200, 0, 0, 255}
)

// Plot draws the plane (plot.Plotter): blocks, then halos over them, then
// the patch, then the labels, so that nothing covers a label.
func (p plane) Plot(c draw.Canvas, pl *plot.Plot) {
	tx, ty := pl.Transforms(&c)
	// rect is the corners of rows r0..r1 and columns c0..c1, inclusive,
	// clipped to the plane.
	rect := func(r0, c0, r1, c1 int) []vg.Point {
		x0, x1 := tx(float64(max(c0, 0))), tx(float64(min(c1+1, p.cols)))
		y0, y1 := ty(float64(max(r0, 0))), ty(float64(min(r1+1, p.rows)))
		return []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}}
	}
	edge := draw.LineStyle{Color: color.Black, Width: vg.Points(1)}
	for _, b := range p.blocks {
		r := rect(b.Lo[0], b.Lo[1], b.Hi[0], b.Hi[1])
		c.FillPolygon(Colour(b.Rank), r)
		c.StrokeLines(edge, r)
	}
	if g := p.ghosts; g != [2]int{} {
		dashed := draw.LineStyle{Color: ghostEdge, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}}
		for _, b := range p.blocks {
			lo, hi := [2]int{b.Lo[0] - g[0], b.Lo[1] - g[1]}, [2]int{b.Hi[0] + g[0], b.Hi[1] + g[1]}
			// The halo is the band between the block and lo..hi: four strips.
			for _, s := range [][4]int{
				{lo[0], lo[1], b.Lo[0] - 1, hi[1]},
				{b.Hi[0] + 1, lo[1], hi[0], hi[1]},
				{b.Lo[0], lo[1], b.Hi[0], b.Lo[1] - 1},
				{b.Lo[0], b.Hi[1] + 1, b.Hi[0], hi[1]},
			} {
				if s[0] <= s[2] && s[1] <= s[3] && s[0] < p.rows && s[2] >= 0 && s[1] < p.cols && s[3] >= 0 {
					c.FillPolygon(ghostFill, rect(s[0], s[1], s[2], s[3]))
				}
			}
			c.StrokeLines(dashed, rect(lo[0], lo[1], hi[0], hi[1]))
		}
	}
	patchLabel := func() {}
	if q := p.patch; q != nil {
		r := rect(q.Lo[0], q.Lo[1], q.Hi[0], q.Hi[1])
		c.StrokeLines(draw.LineStyle{Color: patchColour, Width: vg.Points(2.5)}, r)
		sty := label(pl, 9, patchColour)
		sty.XAlign, sty.YAlign = draw.XLeft, draw.YTop
		patchLabel = func() {
			backed(c, sty, vg.Point{X: r[0].X + vg.Points(3), Y: max(r[0].Y, r[2].Y) - vg.Points(3)}, "patch")
		}
	}
	for _, b := range p.blocks {
		r := rect(b.Lo[0], b.Lo[1], b.Hi[0], b.Hi[1])
		w, h := r[1].X-r[0].X, vg.Length(math.Abs(float64(r[2].Y-r[0].Y)))
		text := "P" + strconv.Itoa(b.Rank)
		// As large as fits, up to 12 points; none below 5, which no one reads.
		size := min(12, float64(h)*0.6, float64(w)/(0.62*float64(len(text))+0.3))
		if size < 5 {
			continue
		}
		sty := label(pl, size, color.Black)
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
		backed(c, sty, vg.Point{X: (r[0].X + r[1].X) / 2, Y: (r[0].Y + r[2].Y) / 2}, text)
	}
	patchLabel()
}

// backed writes text on a pale backing, so that lines under it (a halo's
// edge, the patch's outline) do not cross it.
func backed(c draw.Canvas, sty draw.TextStyle, at vg.Point, text string) {
	r := sty.Rectangle(text)
	pad := sty.Font.Size * 0.15
	r.Min, r.Max = r.Min.Add(at).Sub(vg.Point{X: pad, Y: pad}), r.Max.Add(at).Add(vg.Point{X: pad, Y: pad})
	c.FillPolygon(color.NRGBA{255, 255, 255, 190}, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}})
	c.FillText(sty, at, text)
}

// label is the plot's text style at size points in colour col.
func label(pl *plot.Plot, size float64, col color.Color) draw.TextStyle {
	sty := pl.Title.TextStyle
	sty.Font.Size = vg.Points(size)
	sty.Color = col
	return sty
}

// Size is the size to draw a at: about 16 cm across, the plane's shape
// kept within limits that keep labels readable, plus room for the title
// and axes.
func Size(a Array, o Options) (w, h vg.Length, err error) {
	p, err := planeOf(a, o)
	if err != nil {
		return 0, 0, err
	}
	const across, most, least = 14, 14, 3 // centimetres of the data area
	if p.rowName == "" {
		return (across + 2) * vg.Centimeter, 4 * vg.Centimeter, nil
	}
	aspect := float64(p.rows) / float64(p.cols)
	dw, dh := float64(across), across*aspect
	if dh > most {
		dw, dh = max(most/aspect, 8), most
	}
	dh = max(dh, least)
	return vg.Length(dw+2.5) * vg.Centimeter, vg.Length(dh+2.5) * vg.Centimeter, nil
}

// DPI is the resolution of PNG pictures.
const DPI = 144

// Write writes the picture of a in format "svg" or "png".
func Write(out io.Writer, a Array, o Options, format string) error {
	pl, err := Plot(a, o)
	if err != nil {
		return err
	}
	w, h, err := Size(a, o)
	if err != nil {
		return err
	}
	c, err := canvas(format, w, h, DPI)
	if err != nil {
		return err
	}
	pl.Draw(framed(c))
	_, err = c.WriteTo(out)
	return err
}

// canvas is a w × h canvas in format "svg" or "png" (at dpi).
func canvas(format string, w, h vg.Length, dpi int) (vg.CanvasWriterTo, error) {
	switch format {
	case "svg":
		return vgsvg.New(w, h), nil
	case "png":
		return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))}, nil
	}
	return nil, fmt.Errorf("gaplot: format %q; want svg or png", format)
}

// SaveDrawing makes a w × h canvas (at dpi, for PNG) in the format the
// extension of name asks for (.svg or .png), has paint draw on all of it,
// and writes it to the file name: for pictures other than an array's.
func SaveDrawing(name string, w, h vg.Length, dpi int, paint func(draw.Canvas)) error {
	c, err := canvas(strings.ToLower(strings.TrimPrefix(filepath.Ext(name), ".")), w, h, dpi)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	paint(draw.New(c))
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	_, err = c.WriteTo(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// framed is the canvas a picture is drawn on: c with a margin, so that the
// end ticks' labels are not cut off.
func framed(c vg.CanvasSizer) draw.Canvas {
	m := vg.Points(10)
	return draw.Crop(draw.New(c), m, -m, m/2, -m/2)
}

// Save writes the picture of a to each file, in the format its extension
// names (.svg or .png).
func Save(a Array, o Options, files ...string) error {
	for _, name := range files {
		f, err := os.Create(name)
		if err != nil {
			return err
		}
		err = Write(f, a, o, strings.TrimPrefix(filepath.Ext(name), "."))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}
