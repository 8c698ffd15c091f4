package ga_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestGATestingPrint ports global/testing/print.c of GlobalArrays/ga (commit
// dd40347): a 15-element integer array "dst" filled with -1, in turn of
// C_INT (int32), C_LONG and C_LONGLONG (both int64 in goga, as both are
// 64 bits wide on the machines GA C runs on here), is printed whole
// (GA_Print), its patch 5-10 printed plain and pretty (NGA_Print_patch), and
// each process reads the first element of its block through Access. The
// original only shows the text; this checks it. The patch texts are GA C
// 5.8.2's lines with 0-based indices (GA C prints 6-11) under goga's header
// "global array: dst[5:10]"; the whole print is goga's own (a row of
// fifteen -1); each block starts where GA C's does (0, 8 on 2 processes; 0,
// 5, 10 on 3; 0, 4, 8, 12 on 4) and holds -1 there.
func TestGATestingPrint(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		printCase[int32](t, "C_INT")
		printCase[int64](t, "C_LONG")
		printCase[int64](t, "C_LONGLONG")
	})
}

func printCase[T int32 | int64](t *testing.T, kind string) {
	const sizeDst = 15
	me := ga.Nodeid()
	a, err := ga.Create[T]("dst", []int{sizeDst}, nil)
	must(t, err)
	defer destroy(t, a)
	must(t, a.Fill(-1))
	must(t, ga.Sync())

	var whole, plain, pretty bytes.Buffer
	must(t, a.Fprint(&whole))
	must(t, a.FprintPatch(&plain, []int{5}, []int{10}, false))
	must(t, a.FprintPatch(&pretty, []int{5}, []int{10}, true))
	if me == 0 {
		if row := "]:" + strings.Repeat(" -1", sizeDst) + "\n"; !strings.Contains(whole.String(), row) {
			t.Errorf("%s: Print wrote\n%s\nwithout the row %q", kind, whole.String(), row)
		}
		wantPlain := "global array: dst[5:10]\n"
		wantPretty := "global array: dst[5:10]\n\n"
		for i := 5; i <= 10; i++ {
			wantPlain += fmt.Sprintf("dst(%d) = -1\n", i)
			wantPretty += fmt.Sprintf("%4d         -1\n", i)
		}
		if plain.String() != wantPlain {
			t.Errorf("%s: PrintPatch(5, 10, false) wrote\n%s\nwant\n%s", kind, plain.String(), wantPlain)
		}
		if pretty.String() != wantPretty {
			t.Errorf("%s: PrintPatch(5, 10, true) wrote\n%q\nwant\n%q", kind, pretty.String(), wantPretty)
		}
	} else if whole.Len()+plain.Len()+pretty.Len() != 0 {
		t.Errorf("%s: process %d printed %q %q %q; only process 0 prints", kind, me, whole.String(), plain.String(), pretty.String())
	}

	lo, hi, ok := a.Distribution(me)
	if !ok {
		fatalf(t, "%s: process %d owns no block of %d elements", kind, me, sizeDst)
	}
	starts := map[int][]int{1: {0}, 2: {0, 8}, 3: {0, 5, 10}, 4: {0, 4, 8, 12}}[ga.Nnodes()]
	if lo[0] != starts[me] {
		t.Errorf("%s: process %d's block starts at %d, GA C's at %d", kind, me, lo[0], starts[me])
	}
	p, _, err := a.Access(lo, hi)
	must(t, err)
	if p[0] != -1 {
		t.Errorf("%s: [%d] (%d)=%d, want -1", kind, me, lo[0], p[0])
	}
	must(t, a.Release(lo, hi))
}
