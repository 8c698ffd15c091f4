package ga_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// twig is a registered element type of 6 bytes: not a whole number of the
// int32s a UserArray's placement counts in.
type twig struct {
	B int16
	C [3]uint8
}

func twigAt(k int) twig { return twig{B: int16(k), C: [3]uint8{uint8(k), uint8(k >> 8), 7}} }

// getAllTwigs reads the whole of u, dims d.
func getAllTwigs(t *testing.T, u *ga.UserArray[twig], d []int) []twig {
	t.Helper()
	buf := make([]twig, d[0]*d[1])
	must(t, u.Get([]int{0, 0}, []int{d[0] - 1, d[1] - 1}, buf, nil))
	return buf
}

// TestUserTypeWhole: Zero, Fill, Access, Duplicate, Copy, CopyPatch (also
// transposed and reshaped), the periodic and strided transfers, Locate and
// Print on an array of a registered type, with exact values on 1-4
// processes; misuse refused on every process with nothing changed.
func TestUserTypeWhole(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		must(t, ga.Init())
		defer endGA(t)
		me, n := ga.Nodeid(), ga.Nnodes()
		must(t, ga.RegisterType[twig]())
		d := []int{6, 5}
		u, err := ga.CreateUser[twig]("tw", d, nil)
		must(t, err)
		defer mpitest.Cleanup(t, u.Destroy)
		want := make([]twig, 30)

		must(t, u.Fill(twigAt(77)))
		for k := range want {
			want[k] = twigAt(77)
		}
		sameElems(t, "Fill", getAllTwigs(t, u, d), want)
		must(t, u.Zero())
		sameElems(t, "Zero", getAllTwigs(t, u, d), make([]twig, 30))
		must(t, ga.Sync())
		for k := range want {
			want[k] = twigAt(k)
		}
		if me == 0 {
			must(t, u.Put([]int{0, 0}, []int{5, 4}, want, nil))
		}
		must(t, ga.Sync())

		// Access in place: every process negates its own elements' B.
		if lo, hi, ok := u.Distribution(me); ok {
			p, ld, err := u.Access(lo, hi)
			must(t, err)
			for i := lo[0]; i <= hi[0]; i++ {
				for j := lo[1]; j <= hi[1]; j++ {
					e := &p[(i-lo[0])*ld[0]+j-lo[1]]
					if *e != twigAt(i*5+j) {
						t.Errorf("Access (%d, %d) = %+v, want %+v", i, j, *e, twigAt(i*5+j))
					}
					e.B = -e.B
				}
			}
			must(t, u.ReleaseUpdate(lo, hi))
		}
		must(t, ga.Sync())
		for k := range want {
			want[k].B = -want[k].B
		}
		sameElems(t, "after Access", getAllTwigs(t, u, d), want)

		// Locate agrees with Distribution.
		for k := range 30 {
			sub := []int{k / 5, k % 5}
			r, err := u.Locate(sub)
			must(t, err)
			if lo, hi, ok := u.Distribution(r); !ok || sub[0] < lo[0] || sub[0] > hi[0] || sub[1] < lo[1] || sub[1] > hi[1] {
				t.Errorf("Locate(%v) = %d, whose block is lo %v hi %v", sub, r, lo, hi)
			}
		}

		// Duplicate, Copy; CopyPatch transposed, and into another shape.
		dup, err := u.Duplicate("dup")
		must(t, err)
		defer mpitest.Cleanup(t, dup.Destroy)
		must(t, ga.CopyUser(u, dup))
		sameElems(t, "Copy into the duplicate", getAllTwigs(t, dup, d), want)
		for r := range n {
			lo, hi, _ := u.Distribution(r)
			dlo, dhi, _ := dup.Distribution(r)
			if fmt.Sprint(lo, hi) != fmt.Sprint(dlo, dhi) {
				t.Errorf("rank %d: Duplicate's block lo %v hi %v, the original's lo %v hi %v", r, dlo, dhi, lo, hi)
			}
		}
		tr, err := ga.CreateUser[twig]("tr", []int{5, 6}, nil)
		must(t, err)
		defer mpitest.Cleanup(t, tr.Destroy)
		must(t, ga.CopyPatchUser(ga.Trans, u, []int{0, 0}, []int{5, 4}, tr, []int{0, 0}, []int{4, 5}))
		got := getAllTwigs(t, tr, []int{5, 6})
		for i := range 5 {
			for j := range 6 {
				if got[i*6+j] != want[j*5+i] {
					t.Errorf("transposed (%d, %d) = %+v, want %+v", i, j, got[i*6+j], want[j*5+i])
				}
			}
		}
		line, err := ga.CreateUser[twig]("line", []int{12}, []int{2})
		must(t, err)
		defer mpitest.Cleanup(t, line.Destroy)
		// Rows 1-3, columns 1-4 of u, in C order.
		must(t, ga.CopyPatchUser(ga.NoTrans, u, []int{1, 1}, []int{3, 4}, line, []int{0}, []int{11}))
		lv := make([]twig, 12)
		must(t, line.Get([]int{0}, []int{11}, lv, nil))
		for k := range 12 {
			if w := want[(1+k/4)*5+1+k%4]; lv[k] != w {
				t.Errorf("reshaped copy element %d = %+v, want %+v", k, lv[k], w)
			}
		}

		// Periodic: rows -1..1 are 5, 0, 1; columns 3..6 are 3, 4, 0, 1.
		pg := make([]twig, 12)
		must(t, u.PeriodicGet([]int{-1, 3}, []int{1, 6}, pg, nil))
		for a, i := range []int{5, 0, 1} {
			for b, j := range []int{3, 4, 0, 1} {
				if pg[a*4+b] != want[i*5+j] {
					t.Errorf("PeriodicGet (%d, %d) = %+v, want %+v", i, j, pg[a*4+b], want[i*5+j])
				}
			}
		}
		must(t, dup.Zero())
		if me == n-1 {
			must(t, dup.PeriodicPut([]int{5, 4}, []int{6, 5}, []twig{twigAt(1), twigAt(2), twigAt(3), twigAt(4)}, nil))
		}
		must(t, ga.Sync())
		pw := make([]twig, 30)
		pw[5*5+4], pw[5*5+0], pw[0*5+4], pw[0] = twigAt(1), twigAt(2), twigAt(3), twigAt(4)
		sameElems(t, "after PeriodicPut", getAllTwigs(t, dup, d), pw)

		// Strided: every second row and column; Put every third row.
		sg := make([]twig, 9)
		must(t, u.StridedGet([]int{0, 0}, []int{5, 4}, []int{2, 2}, sg, nil))
		for k := range 9 {
			if w := want[(k/3)*2*5+(k%3)*2]; sg[k] != w {
				t.Errorf("StridedGet element %d = %+v, want %+v", k, sg[k], w)
			}
		}
		must(t, dup.Zero())
		if me == 0 {
			must(t, dup.StridedPut([]int{0, 0}, []int{5, 4}, []int{3, 2}, []twig{twigAt(1), twigAt(2), twigAt(3), twigAt(4), twigAt(5), twigAt(6)}, nil))
		}
		must(t, ga.Sync())
		sw := make([]twig, 30)
		for k := range 6 {
			sw[(k/3)*3*5+(k%3)*2] = twigAt(k + 1)
		}
		sameElems(t, "after StridedPut", getAllTwigs(t, dup, d), sw)

		// Print: the element type, and each row as %v writes it.
		var s strings.Builder
		must(t, line.Fprint(&s))
		if me == 0 {
			wp := "global array line (ga_test.twig [12])\n[]:"
			for _, v := range lv {
				wp += fmt.Sprintf(" %v", v)
			}
			if wp += "\n"; s.String() != wp {
				t.Errorf("Print wrote\n%q\nwant\n%q", s.String(), wp)
			}
		} else if s.Len() != 0 {
			t.Errorf("Print on process %d wrote %q", me, s.String())
		}

		// Misuse, on every process: nothing changes.
		must(t, ga.Sync())
		wantErr(t, "copy of another count", ga.CopyUser(u, line), "Copy", "line", nil, "12 elements", "30")
		wantErr(t, "copy onto itself", ga.CopyPatchUser(ga.NoTrans, u, []int{0, 0}, []int{0, 1}, u, []int{1, 0}, []int{1, 1}), "CopyPatch", "tw", nil, "same array")
		wantErr(t, "patches of other counts", ga.CopyPatchUser(ga.NoTrans, u, []int{0, 0}, []int{1, 1}, tr, []int{0, 0}, []int{0, 2}), "CopyPatch", "tw", nil, "4 elements", "3")
		wantErr(t, "bad trans", ga.CopyPatchUser(ga.TransOp('x'), u, []int{0, 0}, []int{0, 0}, tr, []int{0, 0}, []int{0, 0}), "CopyPatch", "tw", nil)
		wantErr(t, "skip 0", u.StridedGet([]int{0, 0}, []int{5, 4}, []int{0, 1}, sg, nil), "StridedGet", "tw", nil, "skip [0 1]")
		wantErr(t, "short strided buffer", dup.StridedPut([]int{0, 0}, []int{5, 4}, []int{2, 2}, sg[:8], nil), "StridedPut", "dup", nil)
		wantErr(t, "periodic past a period", u.PeriodicPut([]int{-7, 0}, []int{-6, 0}, pg[:2], nil), "PeriodicPut", "tw", nil, "[-7 0]")
		wantErr(t, "locate outside", func() error { _, err := u.Locate([]int{6, 0}); return err }(), "Locate", "tw", nil, "6")
		if n > 1 {
			_, _, err := u.Access([]int{0, 0}, []int{5, 4})
			wantErr(t, "access of others' elements", err, "Access", "tw", nil, "not inside")
		}
		must(t, ga.Sync())
		sameElems(t, "u after refused calls", getAllTwigs(t, u, d), want)
		sameElems(t, "dup after refused calls", getAllTwigs(t, dup, d), sw)
		got = getAllTwigs(t, tr, []int{5, 6})
		for i := range 5 {
			for j := range 6 {
				if got[i*6+j] != want[j*5+i] {
					t.Errorf("after refused calls, tr (%d, %d) = %+v, want %+v", i, j, got[i*6+j], want[j*5+i])
				}
			}
		}
		var none *ga.UserArray[twig]
		wantErr(t, "nil Zero", none.Zero(), "Zero", "", ga.ErrNil)
	})
}
