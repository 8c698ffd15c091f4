// Command scaleplot draws how goga's collectives grow with the number of
// processes, as scripts/bench-scale.sh measured them (make bench-scale
// writes bin/bench-scale.tsv): on the left, the time of each of Brdcst,
// Gop, Sync, Create and Destroy, and the demo against the number of
// processes, with the MPI calls they wrap beside them (dashed), both axes
// on a log scale; on the right, each collective's time over its MPI call's,
// which must not grow with the number of processes.
//
//	go run ./internal/bench/scaleplot -plot docs/bench-scale.png bin/bench-scale.tsv
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// pairs are the collectives drawn, each with the MPI call it wraps ("" for
// none), under the names gabench prints.
var pairs = []struct{ ga, mpi, label string }{
	{"brdcst_8_us", "mpi_bcast_8_limit_us", "Brdcst / MPI_Bcast"},
	{"gop_d_sum_us", "mpi_allreduce_8_limit_us", "Gop / MPI_Allreduce"},
	{"sync_us", "mpi_barrier_limit_us", "Sync / MPI_Barrier"},
	{"create_destroy_us", "", "Create+Destroy"},
	{"demo_s", "", "demo (s)"},
}

func main() {
	out := flag.String("plot", "docs/bench-scale.png", "the PNG to write")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: scaleplot [-plot FILE] bin/bench-scale.tsv")
		os.Exit(2)
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "scaleplot:", err)
		os.Exit(1)
	}
	defer f.Close()
	t, err := read(f)
	if err == nil {
		err = draw2(t, *out)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "scaleplot:", err)
		os.Exit(1)
	}
}

// table is the medians by metric and number of processes.
type table map[string]map[int]float64

// read parses bench-scale.sh's lines: np placement metric median unit.
func read(r io.Reader) (table, error) {
	t := table{}
	s := bufio.NewScanner(r)
	for n := 1; s.Scan(); n++ {
		line := strings.TrimSpace(s.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			return nil, fmt.Errorf("line %d: %d fields, want 5 (np placement metric median unit)", n, len(f))
		}
		np, err := strconv.Atoi(f[0])
		if err != nil {
			return nil, fmt.Errorf("line %d: np %q", n, f[0])
		}
		v, err := strconv.ParseFloat(f[3], 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: median %q", n, f[3])
		}
		if t[f[2]] == nil {
			t[f[2]] = map[int]float64{}
		}
		t[f[2]][np] = v
	}
	return t, s.Err()
}

// series returns metric's points in order of np.
func (t table) series(metric string) plotter.XYs {
	var nps []int
	for np := range t[metric] {
		nps = append(nps, np)
	}
	sort.Ints(nps)
	xy := make(plotter.XYs, len(nps))
	for i, np := range nps {
		xy[i] = plotter.XY{X: float64(np), Y: t[metric][np]}
	}
	return xy
}

// ratios returns ga's time over mpi's at each np both have.
func (t table) ratios(ga, mpi string) plotter.XYs {
	var xy plotter.XYs
	for _, p := range t.series(ga) {
		if m, ok := t[mpi][int(p.X)]; ok && m > 0 {
			xy = append(xy, plotter.XY{X: p.X, Y: p.Y / m})
		}
	}
	return xy
}

// plots makes the two plots, times and ratios to MPI, and returns the
// labels of the series each holds.
func plots(t table) (times, ratios *plot.Plot, timed, compared []string, err error) {
	times, ratios = plot.New(), plot.New()
	times.Title.Text = "time per call against processes"
	times.X.Label.Text, times.Y.Label.Text = "processes", "µs (demo: s)"
	ratios.Title.Text = "goga's call over the MPI call it wraps"
	ratios.X.Label.Text, ratios.Y.Label.Text = "processes", "ratio"
	for _, p := range []*plot.Plot{times, ratios} {
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{}
	}
	times.Y.Scale, times.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{}
	for i, pr := range pairs {
		s := t.series(pr.ga)
		if len(s) == 0 {
			continue
		}
		l, pts, err := plotter.NewLinePoints(s)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		l.Color, pts.Color = plotutil.Color(i), plotutil.Color(i)
		times.Add(l, pts)
		times.Legend.Add(pr.label, l)
		timed = append(timed, pr.label)
		if pr.mpi == "" {
			continue
		}
		m, err := plotter.NewLine(t.series(pr.mpi))
		if err != nil {
			return nil, nil, nil, nil, err
		}
		m.Color, m.Dashes = plotutil.Color(i), []vg.Length{vg.Points(4), vg.Points(3)}
		times.Add(m)
		r, rp, err := plotter.NewLinePoints(t.ratios(pr.ga, pr.mpi))
		if err != nil {
			return nil, nil, nil, nil, err
		}
		r.Color, rp.Color = plotutil.Color(i), plotutil.Color(i)
		ratios.Add(r, rp)
		ratios.Legend.Add(pr.label, r)
		compared = append(compared, pr.label)
	}
	times.Legend.Top, times.Legend.Left = true, true
	ratios.Legend.Top = true
	return times, ratios, timed, compared, nil
}

// draw2 writes the two plots side by side into file.
func draw2(t table, file string) error {
	times, ratios, _, _, err := plots(t)
	if err != nil {
		return err
	}
	const w, h = 10 * vg.Inch, 4 * vg.Inch
	img := vgimg.New(w, h)
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Millimeter * 4}
	times.Draw(tiles.At(dc, 0, 0))
	ratios.Draw(tiles.At(dc, 1, 0))
	out, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(out); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
