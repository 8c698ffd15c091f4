package ga_test

import (
	"slices"
	"testing"

	"github.com/goga-hpc/goga/ga"
	"github.com/goga-hpc/goga/internal/mpitest"
)

// TestManualOps checks the GA user manual's scatter and periodic examples
// (sections 4.3 and 4.4; the manual's periodic accumulate gives a(2,4) = 24,
// where 31 is right), strided transfers and the non-blocking pattern of
// section 4.5, in 0-based C order, on 1-4 processes.
func TestManualOps(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		mpitest.Must(t, ga.Init())
		defer endGA(t)
		t.Run("T2Scatter", testScatterT2)
		t.Run("T3T4Periodic", testPeriodicGet)
		t.Run("T7PeriodicAcc", testPeriodicAcc)
		t.Run("PeriodicPut", testPeriodicPut)
		t.Run("Strided", testStrided)
		t.Run("T18NonBlocking", testNonBlocking)
	})
}

func testScatterT2(t *testing.T) {
	a, err := ga.Create[float64]("scatter", []int{10, 10}, nil)
	mpitest.Must(t, err)
	defer destroy(t, a)
	mpitest.Must(t, a.Zero())
	v := []float64{5, 3, 8, 7, 2}
	subs := [][]int{{2, 3}, {3, 4}, {8, 5}, {3, 7}, {6, 3}}
	if ga.Nodeid() == 0 {
		mpitest.Must(t, a.Scatter(v, subs))
	}
	mpitest.Must(t, ga.Sync())
	all := make([]float64, 100)
	mpitest.Must(t, a.Get([]int{0, 0}, []int{9, 9}, all, nil))
	want := make([]float64, 100)
	want[2*10+3], want[3*10+4], want[3*10+7], want[6*10+3], want[8*10+5] = 5, 3, 7, 2, 8
	if !slices.Equal(all, want) {
		fatalf(t, "after scatter the array is %v", all)
	}
	got := make([]float64, 5)
	mpitest.Must(t, a.Gather(got, subs))
	if !slices.Equal(got, v) {
		fatalf(t, "gather = %v, want %v", got, v)
	}
	mpitest.Must(t, ga.Sync())
	// Every process scatter-accumulates 1·v: each element gains n·v[k].
	mpitest.Must(t, a.ScatterAcc(v, subs, 1))
	mpitest.Must(t, ga.Sync())
	mpitest.Must(t, a.Gather(got, subs))
	n := float64(ga.Nnodes())
	for k := range v {
		if got[k] != v[k]*(1+n) {
			fatalf(t, "after ScatterAcc element %v = %v, want %v", subs[k], got[k], v[k]*(1+n))
		}
	}
	// Bad subscripts are refused and write nothing.
	if err := a.Scatter([]float64{99}, [][]int{{10, 0}}); err == nil {
		fatalf(t, "scatter outside the array succeeded")
	}
	if err := a.Scatter([]float64{99, 98}, [][]int{{0, 0}}); err == nil {
		fatalf(t, "scatter with more values than subscripts succeeded")
	}
	mpitest.Must(t, ga.Sync())
}

// manual5x5 is the manual's 5x5 array a(i,j) = i + 5(j-1) in C order:
// A[r][c] = (r+1) + 5c.
func manual5x5(t *testing.T) *ga.Array[int32] {
	a, err := ga.Create[int32]("periodic", []int{5, 5}, nil)
	mpitest.Must(t, err)
	if ga.Nodeid() == 0 {
		v := make([]int32, 25)
		for r := range 5 {
			for c := range 5 {
				v[r*5+c] = int32(r + 1 + 5*c)
			}
		}
		mpitest.Must(t, a.Put([]int{0, 0}, []int{4, 4}, v, nil))
	}
	mpitest.Must(t, ga.Sync())
	return a
}

func testPeriodicGet(t *testing.T) {
	a := manual5x5(t)
	defer destroy(t, a)
	// The periodic patch view: Fortran [2:4, -1:3] is rows 1..3, columns -2..2 here.
	got := make([]int32, 15)
	mpitest.Must(t, a.PeriodicGet([]int{1, -2}, []int{3, 2}, got, nil))
	want := []int32{17, 22, 2, 7, 12, 18, 23, 3, 8, 13, 19, 24, 4, 9, 14}
	if !slices.Equal(got, want) {
		fatalf(t, "periodic get of [1:3, -2:2] = %v, want %v", got, want)
	}
	// A periodic get: lo {-2, 3}, hi {1, 5}, ld {3}.
	got = make([]int32, 12)
	mpitest.Must(t, a.PeriodicGet([]int{-2, 3}, []int{1, 5}, got, []int{3}))
	want = []int32{19, 24, 4, 20, 25, 5, 16, 21, 1, 17, 22, 2}
	if !slices.Equal(got, want) {
		fatalf(t, "periodic get of [-2:1, 3:5] = %v, want %v", got, want)
	}
	// A wider ld leaves the gaps alone.
	got = []int32{-1, -1, -1, -1, -1, -1, -1, -1}
	mpitest.Must(t, a.PeriodicGet([]int{4, 4}, []int{5, 5}, got, []int{4}))
	if want := []int32{25, 5, -1, -1, 21, 1, -1, -1}; !slices.Equal(got, want) {
		fatalf(t, "periodic get with ld 4 = %v, want %v", got, want)
	}
	// Outside one period, or wider than the array, is refused.
	for _, c := range [][2][]int{{{-6, 0}, {-5, 0}}, {{0, 0}, {5, 4}}, {{0, 3}, {0, 10}}} {
		if err := a.PeriodicGet(c[0], c[1], make([]int32, 100), nil); err == nil {
			fatalf(t, "periodic get of lo %v hi %v succeeded", c[0], c[1])
		}
	}
	mpitest.Must(t, ga.Sync())
}

func testPeriodicAcc(t *testing.T) {
	a := manual5x5(t)
	defer destroy(t, a)
	// The periodic accumulate: alpha 2, the same patch; the manual's a(2,4) = 24 is wrong, 31 is right.
	if ga.Nodeid() == 0 {
		buf := []int32{1, 5, 9, 4, 6, 5, 3, 2, 1, 7, 8, 2}
		mpitest.Must(t, a.PeriodicAcc([]int{-2, 3}, []int{1, 5}, buf, []int{3}, 2))
	}
	mpitest.Must(t, ga.Sync())
	got := make([]int32, 25)
	mpitest.Must(t, a.Get([]int{0, 0}, []int{4, 4}, got, nil))
	want := []int32{
		3, 6, 11, 22, 25,
		6, 7, 12, 31, 38,
		3, 8, 13, 18, 23,
		22, 9, 14, 21, 34,
		15, 10, 15, 28, 37,
	}
	if !slices.Equal(got, want) {
		fatalf(t, "periodic acc: array is %v, want %v", got, want)
	}
	mpitest.Must(t, ga.Sync())
}

func testPeriodicPut(t *testing.T) {
	a := manual5x5(t)
	defer destroy(t, a)
	if ga.Nodeid() == ga.Nnodes()-1 {
		// A 2x2 patch over the corner wraps to the four corners.
		mpitest.Must(t, a.PeriodicPut([]int{4, 4}, []int{5, 5}, []int32{-1, -2, -3, -4}, nil))
	}
	mpitest.Must(t, ga.Sync())
	got := make([]int32, 25)
	mpitest.Must(t, a.Get([]int{0, 0}, []int{4, 4}, got, nil))
	if got[24] != -1 || got[20] != -2 || got[4] != -3 || got[0] != -4 || got[1] != 6 || got[23] != 20 {
		fatalf(t, "periodic put at the corner: array is %v", got)
	}
	mpitest.Must(t, ga.Sync())
}

func testStrided(t *testing.T) {
	a, err := ga.Create[int64]("strided", []int{9, 11, 5}, nil)
	mpitest.Must(t, err)
	defer destroy(t, a)
	mpitest.Must(t, a.Zero())
	lo, hi, skip := []int{1, 0, 1}, []int{8, 10, 4}, []int{3, 2, 2}
	// Selected: rows 1,4,7 × columns 0,2,...,10 × planes 1,3 = 3×6×2 values.
	buf := make([]int64, 36)
	for i := range buf {
		buf[i] = int64(i + 1)
	}
	if ga.Nodeid() == 0 {
		mpitest.Must(t, a.StridedPut(lo, hi, skip, buf, nil))
	}
	mpitest.Must(t, ga.Sync())
	all := make([]int64, 9*11*5)
	mpitest.Must(t, a.Get([]int{0, 0, 0}, []int{8, 10, 4}, all, nil))
	for i := range 9 {
		for j := range 11 {
			for k := range 5 {
				var want int64
				if i%3 == 1 && j%2 == 0 && k%2 == 1 {
					want = int64(((i/3)*6+j/2)*2+k/2) + 1
				}
				if got := all[(i*11+j)*5+k]; got != want {
					fatalf(t, "after StridedPut element (%d,%d,%d) = %d, want %d", i, j, k, got, want)
				}
			}
		}
	}
	back := make([]int64, 36)
	mpitest.Must(t, a.StridedGet(lo, hi, skip, back, nil))
	if !slices.Equal(back, buf) {
		fatalf(t, "StridedGet = %v, want %v", back, buf)
	}
	mpitest.Must(t, ga.Sync())
	mpitest.Must(t, a.StridedAcc(lo, hi, skip, buf, nil, 10))
	mpitest.Must(t, ga.Sync())
	mpitest.Must(t, a.StridedGet(lo, hi, skip, back, nil))
	n := int64(ga.Nnodes())
	for i := range back {
		if back[i] != buf[i]*(1+10*n) {
			fatalf(t, "after StridedAcc value %d = %d, want %d", i, back[i], buf[i]*(1+10*n))
		}
	}
	if err := a.StridedGet(lo, hi, []int{0, 1, 1}, back, nil); err == nil {
		fatalf(t, "a zero skip was accepted")
	}
	if err := a.StridedGet(lo, hi, skip, back[:35], nil); err == nil {
		fatalf(t, "a short buffer was accepted")
	}
	mpitest.Must(t, ga.Sync())
}

// testNonBlocking is the manual's non-blocking pattern: get one array, start getting another, compute, wait,
// then use it; plus non-blocking puts and accumulates completed out of order.
func testNonBlocking(t *testing.T) {
	pressure, err := ga.Create[float64]("pressure", []int{7, 13}, nil)
	mpitest.Must(t, err)
	defer destroy(t, pressure)
	temperature, err := pressure.Duplicate("temperature")
	mpitest.Must(t, err)
	defer destroy(t, temperature)
	mpitest.Must(t, pressure.Fill(1.5))
	mpitest.Must(t, temperature.Fill(300))
	lo, hi := []int{0, 0}, []int{6, 12}
	p := make([]float64, 91)
	mpitest.Must(t, pressure.Get(lo, hi, p, nil))
	tb := make([]float64, 91)
	h, err := temperature.NbGet(lo, hi, tb, nil)
	mpitest.Must(t, err)
	sum := 0.0
	for _, v := range p {
		sum += v
	}
	mpitest.Must(t, h.Wait())
	for i, v := range tb {
		if v != 300 {
			fatalf(t, "temperature[%d] = %v after NbWait", i, v)
		}
	}
	if sum != 1.5*91 {
		fatalf(t, "pressure sum %v", sum)
	}
	mpitest.Must(t, ga.Sync())
	// Every process: one NbPut of its row (rows are disjoint), one NbAcc into
	// row 0, waited in reverse order.
	me, n := ga.Nodeid(), ga.Nnodes()
	row := make([]float64, 13)
	for i := range row {
		row[i] = float64(me*100 + i)
	}
	h1, err := pressure.NbPut([]int{me + 1, 0}, []int{me + 1, 12}, row, nil)
	mpitest.Must(t, err)
	h2, err := pressure.NbAcc([]int{0, 0}, []int{0, 12}, row, nil, 2)
	mpitest.Must(t, err)
	mpitest.Must(t, h2.Wait())
	ok, err := h1.Test()
	mpitest.Must(t, err)
	if !ok {
		mpitest.Must(t, h1.Wait())
	}
	mpitest.Must(t, ga.Sync())
	mpitest.Must(t, pressure.Get(lo, hi, p, nil))
	for i := range 13 {
		want := 1.5
		for r := range n {
			want += 2 * float64(r*100+i)
		}
		if p[i] != want {
			fatalf(t, "row 0 col %d = %v, want %v", i, p[i], want)
		}
		for r := range n {
			if got := p[(r+1)*13+i]; got != float64(r*100+i) {
				fatalf(t, "row %d col %d = %v, want %v", r+1, i, got, float64(r*100+i))
			}
		}
	}
	mpitest.Must(t, ga.Sync())
}
