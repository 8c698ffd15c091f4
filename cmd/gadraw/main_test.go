package main

import (
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

func TestMain(m *testing.M) { os.Exit(mpitest.Main(m)) }

// TestGadraw draws each layout the flags name, on 1-4 processes: both
// files are written, the PNG decodes, and the SVG labels every process
// that owns a block (with at most 4 processes, every one does here).
func TestGadraw(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		dir := t.TempDir() // process 0's is written in
		for _, c := range []struct{ layout, dims, extra string }{
			{"regular", "40,30", "ghosts"},
			{"irregular", "100", "starts"},
			{"blockcyclic", "32,32", "block"},
			{"blockcyclicgrid", "32,32", "grid"},
		} {
			*lay, *dims, *out = c.layout, c.dims, filepath.Join(dir, c.layout)
			*ghosts, *starts, *block, *grid, *patch = "", "", "", "", ""
			n := mpi.World().Size()
			switch c.extra {
			case "ghosts":
				*ghosts, *patch = "2,2", "5,5:20,20"
			case "starts":
				*starts = []string{"0", "0,30", "0,30,50", "0,30,50,90"}[n-1]
			case "block":
				*block = "8,16"
			case "grid":
				*block, *grid = "8,8", map[int]string{1: "1,1", 2: "1,2", 3: "3,1", 4: "2,2"}[n]
			}
			mpitest.Must(t, run())
			if mpi.World().Rank() != 0 {
				continue
			}
			f, err := os.Open(*out + ".png")
			mpitest.Must(t, err)
			_, err = png.Decode(f)
			f.Close()
			mpitest.Must(t, err)
			svg, err := os.ReadFile(*out + ".svg")
			mpitest.Must(t, err)
			for r := range n {
				if !strings.Contains(string(svg), ">P"+strconv.Itoa(r)+"</text>") {
					t.Errorf("%s on %d processes: no label P%d", c.layout, n, r)
				}
			}
		}
	})
}
