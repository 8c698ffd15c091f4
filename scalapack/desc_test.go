package scalapack

import (
	"testing"

	"github.com/goga-hpc/goga/internal/scalapackref"
)

// TestIndexMaps compares Numroc and the index maps with ScaLAPACK's own
// NUMROC, INDXG2P, INDXG2L and INDXL2G (1-based Fortran routines) over a grid
// of sizes, block sizes, process counts and source processes.
func TestIndexMaps(t *testing.T) {
	cases := 0
	for _, n := range []int{0, 1, 2, 5, 7, 16, 17, 100, 1001} {
		for _, nb := range []int{1, 2, 3, 4, 7, 32, 64} {
			for _, np := range []int{1, 2, 3, 4, 5} {
				for isrc := range np {
					total := 0
					for p := range np {
						got, want := Numroc(n, nb, p, isrc, np), scalapackref.Numroc(n, nb, p, isrc, np)
						if got != want {
							t.Fatalf("Numroc(%d, %d, %d, %d, %d) = %d, ScaLAPACK says %d", n, nb, p, isrc, np, got, want)
						}
						total += got
						for l := range got {
							g := LocalToGlobal(l, nb, p, isrc, np)
							if want := scalapackref.Indxl2g(l+1, nb, p, isrc, np) - 1; g != want {
								t.Fatalf("LocalToGlobal(%d, nb %d, p %d, src %d, np %d) = %d, ScaLAPACK says %d", l, nb, p, isrc, np, g, want)
							}
							if GlobalToProc(g, nb, isrc, np) != p || GlobalToLocal(g, nb, np) != l {
								t.Fatalf("global %d maps back to (%d, %d), want (%d, %d)", g, GlobalToProc(g, nb, isrc, np), GlobalToLocal(g, nb, np), p, l)
							}
						}
						cases++
					}
					if total != n {
						t.Fatalf("n=%d nb=%d np=%d src=%d: local counts sum to %d", n, nb, np, isrc, total)
					}
					for i := range n {
						if p, want := GlobalToProc(i, nb, isrc, np), scalapackref.Indxg2p(i+1, nb, 0, isrc, np); p != want {
							t.Fatalf("GlobalToProc(%d, %d, %d, %d) = %d, ScaLAPACK says %d", i, nb, isrc, np, p, want)
						}
						if l, want := GlobalToLocal(i, nb, np), scalapackref.Indxg2l(i+1, nb, 0, isrc, np)-1; l != want {
							t.Fatalf("GlobalToLocal(%d, %d, %d) = %d, ScaLAPACK says %d", i, nb, np, l, want)
						}
					}
				}
			}
		}
	}
	if cases < 1000 {
		t.Fatalf("only %d cases", cases)
	}
}
