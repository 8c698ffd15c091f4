package main

import (
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const sample = `2	1+1	brdcst_8_us	10	us
2	1+1	mpi_bcast_8_limit_us	5	us
2	1+1	sync_us	12	us
2	1+1	mpi_barrier_limit_us	10	us
2	1+1	demo_s	3.5	s
4	1+1+1+1	brdcst_8_us	30	us
4	1+1+1+1	mpi_bcast_8_limit_us	10	us
4	1+1+1+1	sync_us	24	us
4	1+1+1+1	mpi_barrier_limit_us	20	us
4	1+1+1+1	demo_s	5	s
`

// TestScalePlot: the table read back is what the lines say, the ratios
// are ga's over MPI's at each process count, and the picture is a PNG of
// the plots' size.
func TestScalePlot(t *testing.T) {
	tab, err := read(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if got := tab["demo_s"][4]; got != 5 {
		t.Errorf("demo_s at 4: %v, want 5", got)
	}
	r := tab.ratios("brdcst_8_us", "mpi_bcast_8_limit_us")
	if len(r) != 2 || r[0].X != 2 || r[0].Y != 2 || r[1].X != 4 || r[1].Y != 3 {
		t.Errorf("Brdcst ratios %v, want (2, 2) (4, 3)", r)
	}
	if r := tab.ratios("gop_d_sum_us", "mpi_allreduce_8_limit_us"); len(r) != 0 {
		t.Errorf("ratios of a metric not measured: %v", r)
	}
	_, _, timed, compared, err := plots(tab)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Brdcst / MPI_Bcast", "Sync / MPI_Barrier", "demo (s)"}; !slices.Equal(timed, want) {
		t.Errorf("times drawn %q, want %q", timed, want)
	}
	if want := []string{"Brdcst / MPI_Bcast", "Sync / MPI_Barrier"}; !slices.Equal(compared, want) {
		t.Errorf("ratios drawn %q, want %q", compared, want)
	}
	file := filepath.Join(t.TempDir(), "scale.png")
	if err := draw2(tab, file); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 960 || b.Dy() != 384 { // 10 × 4 inches at 96 dpi
		t.Errorf("picture %v, want 960 × 384", b)
	}
	if _, err := read(strings.NewReader("2\tx\n")); err == nil {
		t.Errorf("a line of 2 fields: no error")
	}
}
