package mpi_test

import (
	"testing"
	"time"

	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// The 2-D geometry of these tests, row-major, 0-based:
//
//	target window: R×C = 6×7 elements on every rank
//	patch:         rows 1..3, columns 2..5 (3×4) of the target
//	origin buffer: OR×OC = 5×8, holding the patch at row 1, column 3
//
// so target element (i, j) of the patch pairs with origin element (i, j+1).
const (
	dtR, dtC   = 6, 7
	dtOR, dtOC = 5, 8
	pRow, pCol = 1, 2 // patch corner in the target
	pRows      = 3
	pCols      = 4
	oRow, oCol = 1, 3 // patch corner in the origin
)

func inPatch(i, j int) bool {
	return i >= pRow && i < pRow+pRows && j >= pCol && j < pCol+pCols
}

// tv is rank r's initial target element (i, j); ov is rank r's origin element (a, b).
func tv(r, i, j int) int { return 1000*r + 10*i + j }
func ov(r, a, b int) int { return -(5000 + 100*r + 10*a + b) }

// patchLayout describes the patch on both sides with one kind of datatype.
type patchLayout struct {
	name       string
	ot, tt     *mpi.Datatype
	originOff  int // origin buffer passed from this element on
	originLen  int // origin buffer length (from originOff)
	targetDisp int
	packed     bool // the origin holds just the 12 patch elements, in order
}

func layouts[T mpi.Elem](t *testing.T) []patchLayout {
	t.Helper()
	mk := func(d *mpi.Datatype, err error) *mpi.Datatype {
		t.Helper()
		must(t, err)
		return d
	}
	sub := mk(mpi.TypeSubarray[T]([]int{dtR, dtC}, []int{pRows, pCols}, []int{pRow, pCol}))
	osub := mk(mpi.TypeSubarray[T]([]int{dtOR, dtOC}, []int{pRows, pCols}, []int{oRow, oCol}))
	vec := mk(mpi.TypeVector[T](pRows, pCols, dtC))
	ovec := mk(mpi.TypeVector[T](pRows, pCols, dtOC))
	var bl, td, od []int
	for a := 0; a < pRows; a++ {
		bl = append(bl, pCols)
		td = append(td, (pRow+a)*dtC+pCol)
		od = append(od, (oRow+a)*dtOC+oCol)
	}
	idx := mk(mpi.TypeIndexed[T](bl, td))
	oidx := mk(mpi.TypeIndexed[T](bl, od))
	packed := mk(mpi.TypeVector[T](1, pRows*pCols, pRows*pCols))
	return []patchLayout{
		{"Subarray", osub, sub, 0, dtOR * dtOC, 0, false},
		{"Vector", ovec, vec, oRow*dtOC + oCol, dtOR*dtOC - (oRow*dtOC + oCol), pRow*dtC + pCol, false},
		{"Indexed", oidx, idx, 0, dtOR * dtOC, 0, false},
		{"PackedToSubarray", packed, sub, 0, pRows * pCols, 0, true},
		{"IndexedToVector", oidx, vec, 0, dtOR * dtOC, pRow*dtC + pCol, false},
	}
}

// originIndex returns the index in the full origin buffer of the element that
// pairs with target (i, j) of the patch.
func (l patchLayout) originIndex(i, j int) int {
	if l.packed {
		return (i-pRow)*pCols + (j - pCol)
	}
	return (i-pRow+oRow)*dtOC + (j - pCol + oCol)
}

// originValue is rank r's origin element that pairs with target (i, j).
func (l patchLayout) originValue(r, i, j int) int {
	if l.packed {
		return -(7000 + 100*r + l.originIndex(i, j))
	}
	return ov(r, i-pRow+oRow, j-pCol+oCol)
}

// origin builds rank r's origin buffer for l (the full buffer; pass
// buf[l.originOff:] to the calls).
func (l patchLayout) origin(r int, fill func(int) int) []int {
	if l.packed {
		out := make([]int, pRows*pCols)
		for k := range out {
			out[k] = fill(-(7000 + 100*r + k))
		}
		return out
	}
	out := make([]int, dtOR*dtOC)
	for a := 0; a < dtOR; a++ {
		for b := 0; b < dtOC; b++ {
			out[a*dtOC+b] = fill(ov(r, a, b))
		}
	}
	return out
}

func toT[T mpi.Elem](xs []int) []T {
	out := make([]T, len(xs))
	for i, x := range xs {
		out[i] = val[T](x)
	}
	return out
}

func identityInt(x int) int { return x }

func TestDatatype(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		t.Run("Shapes", func(t *testing.T) {
			shapes[int32](t)
			shapes[float64](t)
			shapes[complex128](t)
			badTypes(t)
		})
		for _, k := range winKinds {
			t.Run(k.name, func(t *testing.T) {
				w, err := k.alloc(mpi.World(), 8, 8)
				if !allAgree(t, err == nil) {
					if mpitest.OverNetwork() && k.shared {
						t.Skipf("%s windows not available over osc ucx: %v", k.name, err)
					}
					must(t, err)
				}
				must(t, w.Free())
				mpitest.SkipUnderMPICH(t, mpitest.MPICHRMABug)
				patchSuite[int32](t, k)
				patchSuite[float64](t, k)
				patchSuite[complex128](t, k)
				patch3D[float64](t, k)
				typedErrors(t, k)
			})
		}
	}, mpitest.Transports(mpitest.SharedMemory, mpitest.TCP), mpitest.Timeout(90*time.Second))
}

// shapes checks Size, Elems and Span in closed form.
func shapes[T mpi.Elem](t *testing.T) {
	t.Run(typeName[T](), func(t *testing.T) {
		sz := sizeOf[T]()
		for _, tc := range []struct {
			name        string
			make        func() (*mpi.Datatype, error)
			elems, span int
		}{
			{"Subarray 6×7 [1:4, 2:6]", func() (*mpi.Datatype, error) {
				return mpi.TypeSubarray[T]([]int{6, 7}, []int{3, 4}, []int{1, 2})
			}, 12, 42},
			{"Subarray 4×5×6 [1:3, 1:4, 2:6]", func() (*mpi.Datatype, error) {
				return mpi.TypeSubarray[T]([]int{4, 5, 6}, []int{2, 3, 4}, []int{1, 1, 2})
			}, 24, 120},
			{"Subarray 1-D whole", func() (*mpi.Datatype, error) {
				return mpi.TypeSubarray[T]([]int{9}, []int{9}, []int{0})
			}, 9, 9},
			{"Vector 3×4 stride 7", func() (*mpi.Datatype, error) { return mpi.TypeVector[T](3, 4, 7) }, 12, 18},
			{"Vector 5×1 stride 3", func() (*mpi.Datatype, error) { return mpi.TypeVector[T](5, 1, 3) }, 5, 13},
			{"Vector contiguous", func() (*mpi.Datatype, error) { return mpi.TypeVector[T](1, 12, 12) }, 12, 12},
			{"Vector empty", func() (*mpi.Datatype, error) { return mpi.TypeVector[T](0, 1, 1) }, 0, 0},
			{"Indexed 3 blocks", func() (*mpi.Datatype, error) {
				return mpi.TypeIndexed[T]([]int{4, 4, 4}, []int{9, 16, 23})
			}, 12, 27},
			{"Indexed unordered with an empty block", func() (*mpi.Datatype, error) {
				return mpi.TypeIndexed[T]([]int{2, 0, 3}, []int{5, 1, 10})
			}, 5, 13},
		} {
			d, err := tc.make()
			must(t, err)
			if d.Elems() != tc.elems || d.Size() != tc.elems*sz || d.Span() != tc.span {
				t.Errorf("%s: Elems %d Size %d Span %d, want %d, %d, %d", tc.name, d.Elems(), d.Size(), d.Span(), tc.elems, tc.elems*sz, tc.span)
			}
			must(t, d.Free())
			wantArgErr(t, tc.name+" freed twice", d.Free(), "d", mpi.ErrFreed)
		}
	})
}

// badTypes: constructor arguments refused before MPI.
func badTypes(t *testing.T) {
	_, err := mpi.TypeSubarray[float64](nil, nil, nil)
	wantArgErr(t, "Subarray no dimensions", err, "sizes", nil)
	_, err = mpi.TypeSubarray[float64]([]int{6, 7}, []int{3}, []int{1, 2})
	wantArgErr(t, "Subarray length mismatch", err, "subsizes", nil)
	_, err = mpi.TypeSubarray[float64]([]int{6, 7}, []int{3, 4}, []int{4, 2})
	wantArgErr(t, "Subarray block past the end", err, "subsizes", nil)
	_, err = mpi.TypeSubarray[float64]([]int{6, 7}, []int{3, 4}, []int{-1, 2})
	wantArgErr(t, "Subarray negative start", err, "subsizes", nil)
	_, err = mpi.TypeSubarray[float64]([]int{6, 7}, []int{0, 4}, []int{0, 2})
	wantArgErr(t, "Subarray empty block", err, "subsizes", nil)
	_, err = mpi.TypeSubarray[float64]([]int{1 << 20, 1 << 20}, []int{1, 1}, []int{0, 0})
	wantArgErr(t, "Subarray of 2^40 elements", err, "sizes", nil)
	_, err = mpi.TypeVector[float64](3, 4, 3)
	wantArgErr(t, "Vector stride < blocklen", err, "stride", nil)
	_, err = mpi.TypeVector[float64](-1, 1, 1)
	wantArgErr(t, "Vector negative count", err, "stride", nil)
	_, err = mpi.TypeVector[float64](2, 1, 1<<31)
	wantArgErr(t, "Vector stride past int32", err, "stride", nil)
	_, err = mpi.TypeIndexed[float64]([]int{1, 2}, []int{0})
	wantArgErr(t, "Indexed length mismatch", err, "displs", nil)
	_, err = mpi.TypeIndexed[float64]([]int{-1}, []int{0})
	wantArgErr(t, "Indexed negative block", err, "blocklens", nil)
	_, err = mpi.TypeIndexed[float64]([]int{1}, []int{-4})
	wantArgErr(t, "Indexed negative displacement", err, "blocklens", nil)
	var nilType *mpi.Datatype
	wantArgErr(t, "Free nil", nilType.Free(), "d", mpi.ErrNil)
}

// patchWindow makes a 6×7 window of T holding tv(me, i, j).
func patchWindow[T mpi.Elem](t *testing.T, k winKind) (*mpi.Win, []T) {
	t.Helper()
	w, loc := newWin[T](t, k, dtR*dtC, 0)
	resetPatchWindow(t, loc)
	return w, loc
}

func resetPatchWindow[T mpi.Elem](t *testing.T, loc []T) {
	t.Helper()
	me := mpi.World().Rank()
	for i := 0; i < dtR; i++ {
		for j := 0; j < dtC; j++ {
			loc[i*dtC+j] = val[T](tv(me, i, j))
		}
	}
	must(t, mpi.World().Barrier())
}

// patchSuite moves the strided patch with PutTyped, GetTyped and
// AccumulateTyped in every layout and checks every element.
func patchSuite[T mpi.Elem](t *testing.T, k winKind) {
	t.Run(typeName[T](), func(t *testing.T) {
		world := mpi.World()
		n, me := world.Size(), world.Rank()
		tg, pred := (me+1)%n, (me+n-1)%n
		w, loc := patchWindow[T](t, k)
		ls := layouts[T](t)
		v := val[T]

		// wantWindow checks my window against want for patch elements and tv elsewhere.
		wantWindow := func(t *testing.T, what string, want func(i, j int) int) {
			t.Helper()
			bad := 0
			for i := 0; i < dtR; i++ {
				for j := 0; j < dtC; j++ {
					exp := tv(me, i, j)
					if inPatch(i, j) {
						exp = want(i, j)
					}
					if got := loc[i*dtC+j]; got != v(exp) && bad < 5 {
						bad++
						t.Errorf("%s: rank %d element (%d,%d) = %v, want %v (patch: %v)", what, me, i, j, got, v(exp), inPatch(i, j))
					}
				}
			}
		}

		for _, l := range ls {
			t.Run(l.name, func(t *testing.T) {
				origin := toT[T](l.origin(me, identityInt))
				keep := append([]T(nil), origin...)
				ob := origin[l.originOff : l.originOff+l.originLen]

				// Put to the next rank.
				resetPatchWindow(t, loc)
				must(t, w.LockAll(0))
				must(t, mpi.PutTyped(w, ob, l.ot, tg, l.targetDisp, l.tt))
				must(t, w.Flush(tg))
				must(t, w.UnlockAll())
				barrier(t)
				wantWindow(t, "PutTyped", func(i, j int) int { return l.originValue(pred, i, j) })
				for i := range origin {
					if origin[i] != keep[i] {
						t.Errorf("PutTyped changed origin element %d", i)
						break
					}
				}

				// Get from the next rank into a buffer full of a sentinel.
				resetPatchWindow(t, loc)
				got := make([]T, len(origin))
				setAll(got, v(-1))
				must(t, w.LockAll(0))
				must(t, mpi.GetTyped(w, got[l.originOff:l.originOff+l.originLen], l.ot, tg, l.targetDisp, l.tt))
				must(t, w.Flush(tg))
				must(t, w.UnlockAll())
				want := make([]T, len(got))
				setAll(want, v(-1))
				for i := pRow; i < pRow+pRows; i++ {
					for j := pCol; j < pCol+pCols; j++ {
						want[l.originIndex(i, j)] = v(tv(tg, i, j))
					}
				}
				for i := range got {
					if got[i] != want[i] {
						t.Errorf("GetTyped origin element %d: %v, want %v", i, got[i], want[i])
					}
				}
				barrier(t)

				// Everyone accumulates into everyone's patch.
				resetPatchWindow(t, loc)
				must(t, w.LockAll(0))
				for dst := 0; dst < n; dst++ {
					must(t, mpi.AccumulateTyped(w, ob, l.ot, dst, l.targetDisp, l.tt, mpi.Sum))
					must(t, w.Flush(dst))
				}
				must(t, w.UnlockAll())
				barrier(t)
				wantWindow(t, "AccumulateTyped Sum", func(i, j int) int {
					s := tv(me, i, j)
					for r := 0; r < n; r++ {
						s += l.originValue(r, i, j)
					}
					return s
				})

				// Replace from the previous rank only.
				resetPatchWindow(t, loc)
				must(t, w.LockAll(0))
				must(t, mpi.AccumulateTyped(w, ob, l.ot, tg, l.targetDisp, l.tt, mpi.Replace))
				must(t, w.Flush(tg))
				must(t, w.UnlockAll())
				barrier(t)
				wantWindow(t, "AccumulateTyped Replace", func(i, j int) int { return l.originValue(pred, i, j) })
			})
		}
		freed := map[*mpi.Datatype]bool{} // layouts share datatypes
		for _, l := range ls {
			for _, d := range []*mpi.Datatype{l.ot, l.tt} {
				if !freed[d] {
					must(t, d.Free())
					freed[d] = true
				}
			}
		}
		must(t, w.Free())
	})
}

// patch3D: a 2×3×4 block in a 4×5×6 array, from a packed origin.
func patch3D[T mpi.Elem](t *testing.T, k winKind) {
	t.Run("3D/"+typeName[T](), func(t *testing.T) {
		world := mpi.World()
		n, me := world.Size(), world.Rank()
		tg, pred := (me+1)%n, (me+n-1)%n
		sizes, sub, start := []int{4, 5, 6}, []int{2, 3, 4}, []int{1, 1, 2}
		at := func(r, a, b, c int) int { return 1000*r + 100*a + 10*b + c }
		w, loc := newWin[T](t, k, 4*5*6, 0)
		for a := 0; a < 4; a++ {
			for b := 0; b < 5; b++ {
				for c := 0; c < 6; c++ {
					loc[(a*5+b)*6+c] = val[T](at(me, a, b, c))
				}
			}
		}
		must(t, world.Barrier())
		tt, err := mpi.TypeSubarray[T](sizes, sub, start)
		must(t, err)
		ot, err := mpi.TypeSubarray[T](sub, sub, []int{0, 0, 0})
		must(t, err)
		origin := make([]T, 24)
		for i := range origin {
			origin[i] = val[T](-(100*me + i + 1))
		}
		must(t, w.LockAll(0))
		must(t, mpi.PutTyped(w, origin, ot, tg, 0, tt))
		must(t, w.Flush(tg))
		must(t, w.UnlockAll())
		barrier(t)
		for a := 0; a < 4; a++ {
			for b := 0; b < 5; b++ {
				for c := 0; c < 6; c++ {
					want := at(me, a, b, c)
					if a >= 1 && a < 3 && b >= 1 && b < 4 && c >= 2 && c < 6 {
						want = -(100*pred + ((a-1)*3+(b-1))*4 + (c - 2) + 1)
					}
					if got := loc[(a*5+b)*6+c]; got != val[T](want) {
						t.Errorf("3-D PutTyped element (%d,%d,%d): %v, want %v", a, b, c, got, val[T](want))
					}
				}
			}
		}
		// Read it back packed.
		back := make([]T, 24)
		must(t, w.LockAll(0))
		must(t, mpi.GetTyped(w, back, ot, me, 0, tt))
		must(t, w.Flush(me))
		must(t, w.UnlockAll())
		for i := range back {
			if back[i] != val[T](-(100*pred + i + 1)) {
				t.Errorf("3-D GetTyped element %d: %v, want %v", i, back[i], val[T](-(100*pred + i + 1)))
			}
		}
		must(t, tt.Free())
		must(t, ot.Free())
		must(t, w.Free())
	})
}

// typedErrors: bad typed transfers are refused and touch nothing.
func typedErrors(t *testing.T, k winKind) {
	t.Run("Errors", func(t *testing.T) {
		world := mpi.World()
		n, me := world.Size(), world.Rank()
		tg := (me + 1) % n
		w, loc := patchWindow[float64](t, k)
		sub, err := mpi.TypeSubarray[float64]([]int{dtR, dtC}, []int{pRows, pCols}, []int{pRow, pCol})
		must(t, err)
		osub, err := mpi.TypeSubarray[float64]([]int{dtOR, dtOC}, []int{pRows, pCols}, []int{oRow, oCol})
		must(t, err)
		vec, err := mpi.TypeVector[float64](pRows, pCols, dtC)
		must(t, err)
		small, err := mpi.TypeVector[float64](pRows, pCols-1, dtC)
		must(t, err)
		ints, err := mpi.TypeVector[int32](pRows, pCols, dtC)
		must(t, err)
		freed, err := mpi.TypeVector[float64](pRows, pCols, dtC)
		must(t, err)
		must(t, freed.Free())

		origin := toT[float64](patchLayout{}.origin(me, identityInt))
		keep := append([]float64(nil), origin...)
		must(t, w.LockAll(0))
		type call struct {
			name string
			f    func(o []float64, ot *mpi.Datatype, disp int, tt *mpi.Datatype) error
		}
		calls := []call{
			{"PutTyped", func(o []float64, ot *mpi.Datatype, d int, tt *mpi.Datatype) error {
				return mpi.PutTyped(w, o, ot, tg, d, tt)
			}},
			{"GetTyped", func(o []float64, ot *mpi.Datatype, d int, tt *mpi.Datatype) error {
				return mpi.GetTyped(w, o, ot, tg, d, tt)
			}},
			{"AccumulateTyped", func(o []float64, ot *mpi.Datatype, d int, tt *mpi.Datatype) error {
				return mpi.AccumulateTyped(w, o, ot, tg, d, tt, mpi.Sum)
			}},
		}
		for _, c := range calls {
			// The origin datatype spans 40 elements (the whole 5×8 buffer).
			wantArgErr(t, c.name+" origin shorter than its datatype", c.f(origin[:dtOR*dtOC-1], osub, 0, sub), "origin", nil)
			wantArgErr(t, c.name+" origin offset past its datatype", c.f(origin[1:], osub, 0, sub), "origin", nil)
			// 12 elements one side, 9 the other.
			wantArgErr(t, c.name+" size mismatch", c.f(origin, osub, 0, small), "targetType", nil)
			// A datatype of int32 with float64 buffers.
			wantArgErr(t, c.name+" element type mismatch", c.f(origin, osub, 0, ints), "originType", nil)
			wantArgErr(t, c.name+" int32 origin type", c.f(origin, ints, 0, vec), "originType", nil)
			// The subarray spans the whole 42-element window: no room at disp 1.
			wantArgErr(t, c.name+" subarray at disp 1", c.f(origin, osub, 1, sub), "disp", nil)
			// The vector spans 18 elements: 25+18 > 42.
			wantArgErr(t, c.name+" vector at disp 25", c.f(origin, osub, 25, vec), "disp", nil)
			wantArgErr(t, c.name+" negative disp", c.f(origin, osub, -1, vec), "disp", nil)
			wantArgErr(t, c.name+" freed origin type", c.f(origin, freed, 0, vec), "originType", mpi.ErrFreed)
			wantArgErr(t, c.name+" freed target type", c.f(origin, osub, 0, freed), "targetType", mpi.ErrFreed)
			wantArgErr(t, c.name+" nil target type", c.f(origin, osub, 0, nil), "targetType", mpi.ErrNil)
		}
		wantArgErr(t, "AccumulateTyped Band on float64", mpi.AccumulateTyped(w, origin, osub, tg, 0, sub, mpi.Band), "op", nil)
		wantArgErr(t, "PutTyped rank n", mpi.PutTyped(w, origin, osub, n, 0, sub), "rank", nil)
		must(t, w.UnlockAll())
		barrier(t)
		for i := 0; i < dtR; i++ {
			for j := 0; j < dtC; j++ {
				if loc[i*dtC+j] != float64(tv(me, i, j)) {
					t.Errorf("refused typed calls changed element (%d,%d): %v", i, j, loc[i*dtC+j])
				}
			}
		}
		for i := range origin {
			if origin[i] != keep[i] {
				t.Errorf("refused typed calls changed origin element %d: %v, want %v", i, origin[i], keep[i])
				break
			}
		}
		for _, d := range []*mpi.Datatype{sub, osub, vec, small, ints} {
			must(t, d.Free())
		}
		must(t, w.Free())
	})
}
