package gaplot

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"os"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

func TestMain(m *testing.M) { os.Exit(mpitest.Main(m)) }

var must = mpitest.Must

// TestPictures draws arrays of every layout on 1-4 processes and checks the
// pictures against the arrays' own locality queries: one block per block
// the array has, each where Distribution puts it and in its owner's
// colour, labelled with its owner in the SVG, and the PNG that colour at
// the block's inside.
func TestPictures(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer mpitest.Cleanup(t, ga.Terminate)
		n := ga.Nnodes()
		regular, err := ga.New[float64](40, 60).Name("regular").Allocate()
		must(t, err)
		defer mpitest.Cleanup(t, regular.Destroy)
		ghosts, err := ga.New[int32](40, 30).Name("ghosts").Ghosts(2, 3).Allocate()
		must(t, err)
		defer mpitest.Cleanup(t, ghosts.Destroy)
		starts := []int{0, 7, 50, 61}[:min(n, 4)]
		irregular, err := ga.New[float64](100).Name("irregular").Irregular(starts).Allocate()
		must(t, err)
		defer mpitest.Cleanup(t, irregular.Destroy)
		cyclic, err := ga.New[float64](32, 48).Name("cyclic").BlockCyclic(8, 16).Allocate()
		must(t, err)
		defer mpitest.Cleanup(t, cyclic.Destroy)
		cube, err := ga.New[float64](6, 20, 24).Name("cube").Allocate()
		must(t, err)
		defer mpitest.Cleanup(t, cube.Destroy)
		if mpi.World().Rank() != 0 {
			return
		}
		patch := Options{PatchLo: []int{5, 5}, PatchHi: []int{20, 40}}
		checkPicture(t, regular, Options{}, byRank(regular, n, nil))
		checkPicture(t, regular, patch, byRank(regular, n, nil))
		checkPicture(t, ghosts, Options{}, byRank(ghosts, n, nil))
		checkPicture(t, irregular, Options{PatchLo: []int{3}, PatchHi: []int{9}}, byRank(irregular, n, nil))
		checkPicture(t, cyclic, patch, byBlock(cyclic))
		for _, k := range []int{0, 5} {
			checkPicture(t, cube, Options{At: []int{k, 0, 0}}, byRank(cube, n, []int{k, -1, -1}))
		}
		// The plane of dimensions 0 and 2 at index 13 of dimension 1.
		want := byRank(cube, n, []int{-1, 13, -1})
		checkPicture(t, cube, Options{Rows: 0, Cols: 2, At: []int{0, 13, 0}}, want)
	})
}

// byRank is what a picture of a (not block-cyclic) must show: each rank's
// block from Distribution, cut by the plane whose fixed indices at gives
// (-1 for the dimensions drawn; nil for a 1-D or 2-D array).
func byRank[T ga.Elem](a *ga.Array[T], n int, at []int) []Block {
	var want []Block
	for r := range n {
		lo, hi, ok := a.Distribution(r)
		if !ok {
			continue
		}
		var shown []int
		in := true
		for d := range lo {
			if at == nil || at[d] < 0 {
				shown = append(shown, d)
			} else {
				in = in && lo[d] <= at[d] && at[d] <= hi[d]
			}
		}
		if !in {
			continue
		}
		b := Block{Rank: r, Index: r}
		if len(shown) == 1 {
			b.Lo[1], b.Hi[1] = lo[shown[0]], hi[shown[0]]
		} else {
			b.Lo, b.Hi = [2]int{lo[shown[0]], lo[shown[1]]}, [2]int{hi[shown[0]], hi[shown[1]]}
		}
		want = append(want, b)
	}
	return want
}

// byBlock is what the picture of a 2-D block-cyclic array must show.
func byBlock[T ga.Elem](a *ga.Array[T]) []Block {
	var want []Block
	for i := range a.TotalBlocks() {
		lo, hi, _ := a.Distribution(i)
		want = append(want, Block{Rank: a.BlockOwner(i), Index: i, Lo: [2]int(lo), Hi: [2]int(hi)})
	}
	return want
}

func checkPicture(t *testing.T, a Array, o Options, want []Block) {
	t.Helper()
	name := fmt.Sprintf("%s %v", a.Name(), o)
	got, err := Blocks(a, o)
	must(t, err)
	if !slices.Equal(got, want) {
		t.Errorf("%s: blocks %v, want %v", name, got, want)
		return
	}
	blocks := map[int]int{} // per rank
	for _, b := range want {
		blocks[b.Rank]++
	}

	var svg bytes.Buffer
	must(t, Write(&svg, a, o, "svg"))
	s := svg.String()
	for r, k := range blocks {
		// A block is one closed path filled with its owner's colour, and
		// its label.
		c := color.NRGBAModel.Convert(Colour(r)).(color.NRGBA)
		fill := fmt.Sprintf("Z\" style=\"fill:#%02X%02X%02X\"", c.R, c.G, c.B)
		if got := strings.Count(s, fill); got != k {
			t.Errorf("%s: %d rectangles in P%d's colour, want %d", name, got, r, k)
		}
		if got := strings.Count(s, fmt.Sprintf(">P%d</text>", r)); got != k {
			t.Errorf("%s: %d labels P%d, want %d", name, got, r, k)
		}
	}

	var pic bytes.Buffer
	must(t, Write(&pic, a, o, "png"))
	img, err := png.Decode(&pic)
	must(t, err)
	w, h, err := Size(a, o)
	must(t, err)
	px := func(l vg.Length) int { return int(l.Dots(DPI) + 0.5) }
	if b := img.Bounds(); b.Dx() != px(w) || b.Dy() != px(h) {
		t.Errorf("%s: PNG is %v, want %d × %d", name, b, px(w), px(h))
	}
	// Where the plot puts data coordinates on this canvas.
	pl, err := Plot(a, o)
	must(t, err)
	dc := pl.DataCanvas(framed(vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(DPI))))
	tx, ty := pl.Transforms(&dc)
	ghost := a.GhostWidths()
	for _, b := range want {
		// A point a fifth of the way in from the block's corner: clear of
		// its label in the middle, and of the halo, for these arrays.
		x := float64(b.Lo[1]) + 0.2*float64(b.Hi[1]-b.Lo[1]+1)
		y := float64(b.Lo[0]) + 0.2*float64(b.Hi[0]-b.Lo[0]+1)
		if len(a.Dims()) == 1 {
			y = 0.2
		}
		if o.PatchLo != nil || slices.Max(ghost) > 0 {
			continue // shaded or outlined there, maybe
		}
		got := color.NRGBAModel.Convert(img.At(px(tx(x)), px(h)-px(ty(y)))).(color.NRGBA)
		if wantC := color.NRGBAModel.Convert(Colour(b.Rank)).(color.NRGBA); !near(got, wantC) {
			t.Errorf("%s: block %d of P%d is %v at (%g, %g), want %v", name, b.Index, b.Rank, got, y, x, wantC)
		}
	}
}

func near(a, b color.NRGBA) bool {
	d := func(x, y uint8) bool { return x-y < 3 || y-x < 3 }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B) && a.A == 255
}
