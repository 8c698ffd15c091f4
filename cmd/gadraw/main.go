// Command gadraw draws how goga distributes an array of a given shape and
// layout over a given number of processes, as an SVG and a PNG picture
// (package gaplot): a colour per process, blocks labelled with their owner,
// ghost cells shaded, a patch outlined.
//
//	bin/gadraw -np 6 -dims 100,80 -o a                    # GA's default: a.svg, a.png
//	bin/gadraw -np 4 -dims 60,90 -ghosts 2,3 -patch 10,20:39,69
//	bin/gadraw -np 3 -dims 100 -layout irregular -starts 0,10,60
//	bin/gadraw -np 4 -dims 64,64 -layout blockcyclic -block 16,8
//	bin/gadraw -np 6 -dims 64,64 -layout blockcyclicgrid -block 8,8 -grid 2,3
//	bin/gadraw -np 4 -dims 8,40,30 -at 5,0,0               # the plane [5, :, :]
//
// It starts mpirun itself (through mpirun.sh) on -np ranks, since the
// distribution is the one ga makes for that many processes; process 0
// draws. -starts separates dimensions with '/': "0,30/0,40,60".
package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/gaplot"
	"github.com/goga-hpc/goga/internal/program"
)

var (
	np     = flag.Int("np", 4, "number of processes")
	dims   = flag.String("dims", "100,80", "the array's extents, comma-separated")
	lay    = flag.String("layout", "regular", "regular (GA's default), irregular, blockcyclic or blockcyclicgrid")
	chunk  = flag.String("chunk", "", "regular: minimum block extents")
	starts = flag.String("starts", "", "irregular: the first index of each block, per dimension, dimensions separated by /")
	block  = flag.String("block", "", "block-cyclic: block extents")
	grid   = flag.String("grid", "", "blockcyclicgrid: process grid extents")
	ghosts = flag.String("ghosts", "", "ghost widths (regular and irregular)")
	patch  = flag.String("patch", "", "a patch to outline, lo:hi, e.g. 10,20:39,69")
	rows   = flag.Int("rows", 0, "the dimension drawn down, for arrays of more than two")
	cols   = flag.Int("cols", 0, "the dimension drawn across, for arrays of more than two")
	at     = flag.String("at", "", "the index along every dimension not drawn (all of them listed)")
	title  = flag.String("title", "", "the picture's title")
	out    = flag.String("o", "distribution", "output name: writes NAME.svg and NAME.png")
)

func main() {
	flag.Parse()
	program.Main("gadraw", *np, run)
}

// ints parses a comma-separated list; "" is nil.
func ints(name, s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var v []int
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("-%s %q: %v", name, s, err)
		}
		v = append(v, n)
	}
	return v, nil
}

// options is what the flags ask of the array and the picture.
func options() (b *ga.Builder[float64], o gaplot.Options, err error) {
	d, err := ints("dims", *dims)
	if err != nil {
		return nil, o, err
	}
	b = ga.New[float64](d...).Name(*lay)
	var c, bl, g, w []int
	if c, err = ints("chunk", *chunk); err != nil {
		return nil, o, err
	}
	if bl, err = ints("block", *block); err != nil {
		return nil, o, err
	}
	if g, err = ints("grid", *grid); err != nil {
		return nil, o, err
	}
	if w, err = ints("ghosts", *ghosts); err != nil {
		return nil, o, err
	}
	switch *lay {
	case "regular":
		b.Chunk(c...)
	case "irregular":
		var s [][]int
		for part := range strings.SplitSeq(*starts, "/") {
			v, err := ints("starts", part)
			if err != nil {
				return nil, o, err
			}
			s = append(s, v)
		}
		b.Irregular(s...)
	case "blockcyclic":
		b.BlockCyclic(bl...)
	case "blockcyclicgrid":
		b.BlockCyclicGrid(bl, g)
	default:
		return nil, o, fmt.Errorf("-layout %q: want regular, irregular, blockcyclic or blockcyclicgrid", *lay)
	}
	if w != nil {
		b.Ghosts(w...)
	}
	o = gaplot.Options{Title: *title, Rows: *rows, Cols: *cols}
	if o.At, err = ints("at", *at); err != nil {
		return nil, o, err
	}
	if *patch != "" {
		lo, hi, ok := strings.Cut(*patch, ":")
		if !ok {
			return nil, o, fmt.Errorf("-patch %q: want lo:hi", *patch)
		}
		if o.PatchLo, err = ints("patch", lo); err != nil {
			return nil, o, err
		}
		if o.PatchHi, err = ints("patch", hi); err != nil {
			return nil, o, err
		}
	}
	return b, o, nil
}

func run() error {
	b, o, err := options()
	if err != nil {
		return err
	}
	if err := ga.Init(); err != nil {
		return err
	}
	defer ga.Terminate()
	a, err := b.Allocate()
	if err != nil {
		return err
	}
	defer a.Destroy()
	if o.Title == "" {
		o.Title = fmt.Sprintf("%s float64, %s, on %d processes", strings.ReplaceAll(*dims, ",", " × "), describe(), ga.Nnodes())
	}
	if ga.Nodeid() == 0 {
		if err := gaplot.Save(a, o, *out+".svg", *out+".png"); err != nil {
			return err
		}
		fmt.Printf("wrote %s.svg and %s.png\n", *out, *out)
	}
	return ga.Sync()
}

// describe names the layout for the title.
func describe() string {
	s := *lay
	switch *lay {
	case "irregular":
		s += " " + *starts
	case "blockcyclic":
		s = "block-cyclic, blocks " + strings.ReplaceAll(*block, ",", "×")
	case "blockcyclicgrid":
		s = "block-cyclic, blocks " + strings.ReplaceAll(*block, ",", "×") + " on a " + strings.ReplaceAll(*grid, ",", "×") + " grid"
	}
	if *ghosts != "" {
		s += ", ghosts " + *ghosts
	}
	return s
}
