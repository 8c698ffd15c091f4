// Command gaprof draws pictures of a goga profile (the file that Terminate
// writes with GOGA_PROFILE=dir or after ga.StartProfile; docs/PROFILE.md),
// as PNG or SVG:
//
//   - traffic: the bytes of one-sided operations from each process to each,
//     a heat map with the node boundaries marked;
//   - time: each process's wall time split into computing, one-sided
//     operations, collectives and waiting, a stacked bar per process;
//   - calls: per operation kind, the distribution of its call times;
//   - tasks: the tasks each process took from a task pool (ReadInc calls).
//
// Usage:
//
//	bin/gaprof [-o NAME] [-format png|svg] [-all FILE] goga-profile.json
//
// writes NAME-traffic.png, NAME-time.png, NAME-calls.png and, when the run
// used ReadInc, NAME-tasks.png; -all FILE draws the four as panels of one
// picture instead (its format from its extension). It needs no MPI.
package main

import (
	"flag"
	"fmt"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/gaplot"
)

// The pictures' sizes and, for PNG, resolution.
const (
	panelWidth  = 14 * vg.Centimeter
	panelHeight = 11 * vg.Centimeter
	dpi         = 96
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gaprof:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("gaprof", flag.ContinueOnError)
	out := fs.String("o", "profile", "output name: writes NAME-traffic.EXT, NAME-time.EXT, NAME-calls.EXT, NAME-tasks.EXT")
	format := fs.String("format", "png", "png or svg")
	all := fs.String("all", "", "draw every picture as a panel of this one file (.png or .svg) instead")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("want one profile file, got %d arguments", fs.NArg())
	}
	p, err := ga.ReadProfile(fs.Arg(0))
	if err != nil {
		return err
	}
	plots, names, err := pictures(p)
	if err != nil {
		return err
	}
	if *all != "" {
		return saveAll(*all, plots)
	}
	if *format != "png" && *format != "svg" {
		return fmt.Errorf("-format %q: want png or svg", *format)
	}
	for i, pl := range plots {
		if err := save(*out+"-"+names[i]+"."+*format, panelWidth, panelHeight, func(c draw.Canvas) { pl.Draw(c) }); err != nil {
			return err
		}
	}
	return nil
}

// pictures are the plots of p and their names; tasks only where the run
// used ReadInc.
func pictures(p *ga.Profile) ([]*plot.Plot, []string, error) {
	traffic, _ := trafficPlot(p)
	timePl, _ := timePlot(p)
	calls, _, err := callsPlot(p)
	if err != nil {
		return nil, nil, err
	}
	plots, names := []*plot.Plot{traffic, timePl, calls}, []string{"traffic", "time", "calls"}
	if tasks, v := tasksPlot(p); sumValues(v) > 0 {
		plots, names = append(plots, tasks), append(names, "tasks")
	}
	return plots, names, nil
}

// saveAll draws plots as panels, two across, in one file.
func saveAll(name string, plots []*plot.Plot) error {
	rows := (len(plots) + 1) / 2
	w, h := 2*panelWidth, vg.Length(rows)*panelHeight
	return save(name, w, h, func(c draw.Canvas) {
		tiles := draw.Tiles{Rows: rows, Cols: 2, PadX: vg.Millimeter, PadY: vg.Millimeter}
		for i, pl := range plots {
			pl.Draw(tiles.At(c, i%2, i/2))
		}
	})
}

// save draws paint on a w × h canvas and writes it to name, in the format
// of its extension.
func save(name string, w, h vg.Length, paint func(draw.Canvas)) error {
	return gaplot.SaveDrawing(name, w, h, dpi, paint)
}
