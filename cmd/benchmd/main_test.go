package main

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// The table comes out in the columns of the one measured on 2026-11-22
// (testdata/table-ga.txt), from the compare.sh output it was made from.
func TestTable(t *testing.T) {
	in, err := os.Open("testdata/compare-ga.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	rows, err := parseCompare(in)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/table-ga.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got := table(rows, "GA C"); got != string(want) {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
}

func TestParseCompareRefuses(t *testing.T) {
	for _, in := range []string{
		"",
		"metric\tsize\tA_median\tB_median\tunit\tspeedup_A_over_B\n",
		"put_contig_us\t8\t0.1\t0.3\tus\n",
		"put_contig_us\t8\t0.1\tfailed\tus\t3.00\n",
	} {
		if rows, err := parseCompare(strings.NewReader(in)); err == nil {
			t.Errorf("parseCompare(%q) = %v, want an error", in, rows)
		}
	}
}

const doc = `# Benchmarks

Prose before.

<!-- bench:ga -->
old ga text
<!-- /bench:ga -->

Notes on ga.

<!-- bench:armci -->
old armci text
<!-- /bench:armci -->

Notes on armci.
`

func TestRewrite(t *testing.T) {
	got, err := rewrite(doc, "ga", "new\n")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(doc, "old ga text\n", "new\n", 1)
	if got != want {
		t.Errorf("rewrite:\n%s\nwant:\n%s", got, want)
	}
	again, err := rewrite(got, "ga", "new\n")
	if err != nil || again != got {
		t.Errorf("rewriting with the same text changed the file (err %v):\n%s", err, again)
	}
	for _, bad := range []string{
		strings.Replace(doc, "<!-- bench:ga -->\n", "", 1),
		strings.Replace(doc, "<!-- /bench:ga -->", "", 1),
		doc + "<!-- bench:ga -->\n",
		"<!-- /bench:ga -->\n" + strings.Replace(doc, "<!-- /bench:ga -->", "", 1),
	} {
		if _, err := rewrite(bad, "ga", "new\n"); err == nil {
			t.Errorf("rewrite accepted markers missing, doubled or out of order:\n%s", bad)
		}
	}
	if _, err := rewrite(doc, "mpi", "new\n"); err == nil {
		t.Error("rewrite of a section without markers succeeded")
	}
}

// run rewrites the file in place from compare.sh's output, and leaves it
// alone when the output holds no figures.
func TestRun(t *testing.T) {
	file := filepath.Join(t.TempDir(), "BENCHMARKS.md")
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	in := "metric\tsize\tA_median\tB_median\tunit\tspeedup_A_over_B\nsync_us\t2\t0.8299\t0.596\tus\t0.72\n"
	if err := run(file, "armci", "ARMCI-MPI", "2 ranks on one node, `make bench-armci`", 7, "a test machine", "2026-11-24", strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(doc, "old armci text\n", "Measured on 2026-11-24, 2 ranks on one node, `make bench-armci`, run\nalternately 7 times, medians. Machine: a test machine.\n\n```\n"+
		"metric                             bytes      goga ARMCI-MPI  unit  goga speedup\n"+
		"sync_us                                2    0.8299     0.596  us      0.72\n```\n", 1)
	if string(got) != want {
		t.Errorf("file after run:\n%s\nwant:\n%s", got, want)
	}
	if err := run(file, "ga", "GA C", "x", 5, "m", "d", strings.NewReader("")); err == nil {
		t.Error("run with no figures succeeded")
	}
	if again, _ := os.ReadFile(file); string(again) != want {
		t.Errorf("a failed run changed the file:\n%s", again)
	}
}

// BENCHMARKS.md has the sections that make bench and make bench-armci
// rewrite, so that a long benchmark run does not end in a missing marker.
func TestBenchmarksMarkers(t *testing.T) {
	b, err := os.ReadFile("../../BENCHMARKS.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ga", "armci"} {
		if _, err := rewrite(string(b), name, ""); err != nil {
			t.Errorf("section %s: %v", name, err)
		}
	}
	// And the README the sections that show their plots.
	if b, err = os.ReadFile("../../README.md"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ga-plot", "armci-plot"} {
		if _, err := rewrite(string(b), name, ""); err != nil {
			t.Errorf("README section %s: %v", name, err)
		}
	}
}

// The plot of a compare.sh output: a PNG of the size asked, an SVG with a
// bar, labelled and valued, for every operation measured at one or two
// sizes, and a line for each measured at more; and the README section that
// shows it.
func TestPlot(t *testing.T) {
	in, err := os.ReadFile("testdata/compare-ga.tsv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := parseCompare(bytes.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	readme := filepath.Join(dir, "README.md")
	if err := os.WriteFile(readme, []byte("# x\n\n<!-- bench:ga-plot -->\n<!-- /bench:ga-plot -->\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pic := filepath.Join(dir, "docs", "bench-ga.png")
	os.Mkdir(filepath.Dir(pic), 0o755)
	if err := runPlot(pic, readme, "ga", "GA C", "a test machine", "2026-11-22", bytes.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(pic)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b, w, h := img.Bounds(), int((30*vg.Centimeter).Dots(plotDPI)+0.5), int((16*vg.Centimeter).Dots(plotDPI)+0.5); b.Dx() != w || b.Dy() != h {
		t.Errorf("PNG is %v, want %d × %d", b, w, h)
	}
	doc, _ := os.ReadFile(readme)
	want := "<!-- bench:ga-plot -->\n![goga against GA C: speedups measured on 2026-11-22](docs/bench-ga.png)\n\nMeasured on 2026-11-22. Machine: a test machine.\n<!-- /bench:ga-plot -->"
	if !strings.Contains(string(doc), want) {
		t.Errorf("README:\n%s\nwant it to hold\n%s", doc, want)
	}

	svg := filepath.Join(dir, "bench.svg")
	if err := writePlot(svg, rows, "GA C", "2026-11-22"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(svg)
	s := string(b)
	count := map[string]int{}
	for _, f := range figures(rows) {
		count[f.name]++
	}
	for _, f := range figures(rows) {
		label := ">" + f.name + "<" // a line's legend entry
		if count[f.name] < 3 {
			label = fmt.Sprintf(">%s (%s)<", f.name, f.label)
			if v := ">" + strconv.FormatFloat(f.speedup, 'g', 3, 64) + "×<"; !strings.Contains(s, v) {
				t.Errorf("no value %s in the SVG", v)
			}
		}
		if !strings.Contains(s, label) {
			t.Errorf("no %s in the SVG", label)
		}
	}
}
