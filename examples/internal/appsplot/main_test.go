package main

import (
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sample is bench-apps.sh's output for two applications, one of which did
// not finish on 2 + 2 ranks.
const sample = "# 2026-11-28 SIZE=full BENCH_RUNS=3 LIMIT=300 GA_SRC=/tmp/ga (dd40347)\n" +
	"app\tlayout\tmetric\tsize\tgoga\toriginal\tunit\tratio\n" +
	"scf\t2\ttotal_s\tBe5\t3.286\t3.216\ts\t0.98\n" +
	"scf\t2\tper_iter_ms\tBe5\t193.3\t189.2\tms\t0.98\n" +
	"scf\t2\titerations\tBe5\t17\t17\titers\t1.00\n" +
	"scf\t1+1\ttotal_s\tBe5\t5.855\t31.48\ts\t5.38\n" +
	"scf\t2+2\ttotal_s\tBe5\t5.551\t58.51\ts\t10.54\n" +
	"cg\t2\ttotal_s\t500x500\t1.711\t1.347\ts\t0.79\n" +
	"cg\t1+1\ttotal_s\t500x500\t3.023\t5.195\ts\t1.72\n" +
	"cg\t2+2\t-\t-\t-\t-\t-\tnone: status 124 (not finished in 300 s)\n" +
	"# cg 2+2 original: status 124 (not finished in 300 s), see bin/bench-apps/cg-full/orig-2+2.log\n"

func TestParse(t *testing.T) {
	tb, err := parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if tb.date != "2026-11-28" {
		t.Errorf("date %q, want 2026-11-28", tb.date)
	}
	if len(tb.apps) != 2 || tb.apps[0] != "scf" || tb.apps[1] != "cg" {
		t.Fatalf("applications %v, want [scf cg]", tb.apps)
	}
	want := map[string][]float64{"scf": {0.98, 5.38, 10.54}, "cg": {0.79, 1.72, math.NaN()}}
	for app, w := range want {
		for i, v := range w {
			got := tb.ratio[app][i]
			if math.IsNaN(v) != math.IsNaN(got) || !math.IsNaN(v) && got != v {
				t.Errorf("%s on %s: ratio %v, want %v", app, layouts[i].key, got, v)
			}
		}
	}
}

func TestParseRefuses(t *testing.T) {
	for _, in := range []string{
		"",
		"# only a comment\n",
		"scf\t2\ttotal_s\tBe5\t1\t1\ts\tfast\n",
		"scf\t2\ttotal_s\tBe5\t1\t1\ts\t-1\n",
	} {
		if _, err := parse(strings.NewReader(in)); err == nil {
			t.Errorf("parse(%q) took it", in)
		}
	}
}

func TestDraw(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "bench-apps.tsv")
	if err := os.WriteFile(in, []byte(sample), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "apps.png")
	if err := run(in, out); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the picture is not a PNG: %v", err)
	}
	// 24 × 12 cm at 110 dpi.
	if b := img.Bounds(); b.Dx() != 1039 || b.Dy() != 520 {
		t.Errorf("picture of %d × %d pixels, want 1039 × 520", b.Dx(), b.Dy())
	}
	if err := run(in, filepath.Join(dir, "apps.jpg")); err == nil {
		t.Errorf("run drew a .jpg")
	}
}
