package ga

import (
	"slices"

	"github.com/goga-hpc/goga/ga/internal/kernels"
	"github.com/goga-hpc/goga/internal/layout"
	"github.com/goga-hpc/goga/mpi"
)

// Patch operations work on the parts of the output patch that each process
// owns (regions), in runs contiguous in its storage. An operand patch is
// paired with the output element by element in linear order: the output
// and an untransposed operand are read row-major (C order), a transposed
// operand column-major, as the GA C library pairs them. An operand laid out
// like the output (same distribution, same patch, not transposed) is read in
// place; any other is fetched, per region, by one-sided Gets sized to its
// owners' blocks: the whole region at once when the shapes agree, else one
// Get per run of the operand's linear order.

// region is the part of a patch that this process owns in one block: its
// bounds, the storage offset of its corner and the storage's extents.
type region struct {
	lo, hi []int
	off    int
	ext    []int
}

// regions calls f for every part of the patch [lo, hi] that this process
// owns, in the order it stores its blocks.
func (a *Array[T]) regions(lo, hi []int, f func(r region) error) error {
	nd := len(a.dims)
	for _, i := range a.own {
		blo, bhi := a.m.Patch(i)
		r := region{lo: make([]int, nd), hi: make([]int, nd), ext: make([]int, nd)}
		empty := false
		for d := range nd {
			r.lo[d], r.hi[d] = max(blo[d], lo[d]), min(bhi[d], hi[d])
			empty = empty || r.lo[d] > r.hi[d]
		}
		if empty {
			continue
		}
		_, r.off = a.m.Place(a.m.BlockCoords(i), r.lo, r.ext)
		if err := f(r); err != nil {
			return err
		}
	}
	return nil
}

// runs calls f for the region's elements as runs contiguous in storage, in
// row-major order: the storage offset of each run and its position in the
// region's packed row-major order. A run is a row along the last dimension,
// or several where the trailing dimensions are whole in storage.
func (r region) runs(f func(off, at, n int)) {
	nd := len(r.lo)
	var count, pitch [MaxDim]int
	run, whole := 1, true
	p := 1
	for d := nd - 1; d >= 0; d-- {
		pitch[d] = p
		p *= r.ext[d]
		count[d] = r.hi[d] - r.lo[d] + 1
		if whole {
			run *= count[d]
			whole = count[d] == r.ext[d]
			count[d] = 1
		}
	}
	var k [MaxDim]int
	for at := 0; ; at += run {
		off := r.off
		for d := range nd {
			off += k[d] * pitch[d]
		}
		f(off, at, run)
		d := nd - 1
		for ; d >= 0; d-- {
			if k[d]++; k[d] < count[d] {
				break
			}
			k[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// side is one operand of a patch operation: an array's patch, read
// column-major if trans.
type side[T Elem] struct {
	a      *Array[T]
	lo, hi []int
	trans  bool
}

func (s side[T]) shape() []int {
	sh := make([]int, len(s.lo))
	for d := range sh {
		sh[d] = s.hi[d] - s.lo[d] + 1
	}
	return sh
}

// alignedWith reports whether s can be read in place where out's patch
// [lo, hi] is stored: the same patch of an array distributed alike.
func (s side[T]) alignedWith(out *Array[T], lo, hi []int) bool {
	return !s.trans && CompareDistr(s.a, out) && slices.Equal(s.lo, lo) && slices.Equal(s.hi, hi)
}

// fetch reads the elements of s paired with region r of the output patch
// [lo, hi] into a new buffer, in the region's packed row-major order.
func (s side[T]) fetch(lo, hi []int, r region) ([]T, error) {
	return fetchPaired(s.lo, s.hi, s.trans, lo, hi, r, func(plo, phi []int, buf []T) error {
		return s.a.Get(plo, phi, buf, nil)
	})
}

// fetchPaired reads the elements of the source patch [slo, shi] (read
// column-major if trans) paired with region r of the output patch [lo, hi]
// into a new buffer, in the region's packed row-major order; get reads a
// patch of the source, packed.
func fetchPaired[E any](slo, shi []int, trans bool, lo, hi []int, r region, get func(plo, phi []int, buf []E) error) ([]E, error) {
	nd := len(r.lo)
	n := layout.Volume(r.lo, r.hi)
	buf := make([]E, n)
	outShape := side[int32]{lo: lo, hi: hi}.shape()
	shape := side[int32]{lo: slo, hi: shi}.shape()
	if !trans && slices.Equal(shape, outShape) {
		// The region's own place in the source patch.
		plo, phi := make([]int, nd), make([]int, nd)
		for d := range nd {
			plo[d], phi[d] = slo[d]+r.lo[d]-lo[d], slo[d]+r.hi[d]-lo[d]
		}
		return buf, get(plo, phi, buf)
	}
	if trans && nd == 2 && len(shape) == 2 && shape[0] == outShape[1] && shape[1] == outShape[0] {
		// A transposed matrix: the region's mirror in the source, turned over.
		h, w := r.hi[0]-r.lo[0]+1, r.hi[1]-r.lo[1]+1
		tmp := make([]E, n)
		plo := []int{slo[0] + r.lo[1] - lo[1], slo[1] + r.lo[0] - lo[0]}
		phi := []int{plo[0] + w - 1, plo[1] + h - 1}
		if err := get(plo, phi, tmp); err != nil {
			return nil, err
		}
		kernels.Transpose(buf, tmp, h, w)
		return buf, nil
	}
	// Any other pairing: each row of the region is a range of linear
	// positions in the source patch, read one run along its fastest
	// dimension at a time.
	var err error
	w := r.hi[nd-1] - r.lo[nd-1] + 1
	row := slices.Clone(r.lo)
	for at := 0; at < n && err == nil; at += w {
		l := 0
		for d := range nd {
			l = l*outShape[d] + row[d] - lo[d]
		}
		dst := buf[at : at+w]
		err = linearRuns(slo, shape, trans, l, w, func(plo, phi []int, at, n int) error {
			return get(plo, phi, dst[at:at+n])
		})
		for d := nd - 2; d >= 0; d-- {
			if row[d]++; row[d] <= r.hi[d] {
				break
			}
			row[d] = r.lo[d]
		}
	}
	return buf, err
}

// linearRuns calls f for the runs along the fastest dimension of the patch
// at lo of the given shape that hold its n elements from linear position l
// on (row-major, or column-major if colMajor): each run's bounds, and its
// first element's place among the n.
func linearRuns(lo, shape []int, colMajor bool, l, count int, f func(plo, phi []int, at, n int) error) error {
	nd := len(shape)
	fast := nd - 1
	if colMajor {
		fast = 0
	}
	sub := make([]int, nd)
	plo, phi := make([]int, nd), make([]int, nd)
	for at := 0; at < count; {
		rem := l
		if colMajor {
			for d := range nd {
				sub[d], rem = rem%shape[d], rem/shape[d]
			}
		} else {
			for d := nd - 1; d >= 0; d-- {
				sub[d], rem = rem%shape[d], rem/shape[d]
			}
		}
		n := min(count-at, shape[fast]-sub[fast])
		for d := range nd {
			plo[d] = lo[d] + sub[d]
			phi[d] = plo[d]
		}
		phi[fast] += n - 1
		if err := f(plo, phi, at, n); err != nil {
			return err
		}
		at, l = at+n, l+n
	}
	return nil
}

// combine sets out's patch [lo, hi], on this process, to f of the operands:
// f gets each run of the output's storage and the operands' paired runs.
// Operands are read before anything is written on any process (when one is
// out itself, read elsewhere). It is this process's part of a collective
// call.
func combine[T Elem](op string, out *Array[T], lo, hi []int, ops []side[T], f func(dst []T, src [][]T)) error {
	local, err := out.localData()
	if err != nil {
		return err
	}
	// Read: each operand's runs, in place or fetched.
	type part struct {
		r   region
		buf [][]T // per operand: the fetched region, or nil when in place
	}
	var parts []part
	err = out.regions(lo, hi, func(r region) error {
		p := part{r: r, buf: make([][]T, len(ops))}
		for k, s := range ops {
			if s.alignedWith(out, lo, hi) {
				continue
			}
			b, err := s.fetch(lo, hi, r)
			if err != nil {
				return err
			}
			p.buf[k] = b
		}
		parts = append(parts, p)
		return nil
	})
	racy := false
	for _, s := range ops {
		racy = racy || (s.a == out && !s.alignedWith(out, lo, hi))
	}
	if racy {
		// Whether to sync is the same on every process: it depends only on
		// the arguments, which agree.
		if err := agree(out.g, true, op, out.name, err, nil); err != nil {
			return err
		}
	} else if err != nil {
		return err
	}
	srcs := make([][]T, len(ops))
	var operands [][]T
	for k, s := range ops {
		if s.alignedWith(out, lo, hi) {
			if operands == nil {
				operands = make([][]T, len(ops))
			}
			if operands[k], err = s.a.localData(); err != nil {
				return err
			}
		}
	}
	for _, p := range parts {
		p.r.runs(func(off, at, n int) {
			for k := range ops {
				if p.buf[k] != nil {
					srcs[k] = p.buf[k][at : at+n]
				} else {
					srcs[k] = operands[k][off : off+n]
				}
			}
			f(local[off:off+n], srcs)
		})
	}
	return nil
}

// whole returns the patch that covers a: zeros and dims-1.
func (a *Array[T]) whole() (lo, hi []int) {
	lo, hi = make([]int, len(a.dims)), make([]int, len(a.dims))
	for d, n := range a.dims {
		hi[d] = n - 1
	}
	return lo, hi
}

// patchArgs appends an operand's identity and patch to l.
func patchArgs[T Elem](l *args, name string, a *Array[T], lo, hi []int, trans TransOp) *args {
	return array(l, name, a).ints(name+".lo", lo...).ints(name+".hi", hi...).ints(name+".trans", int(trans))
}

// checkSides checks each operand's patch and that all have the output's
// element count; invalid arrays are left to collective to name.
func checkSides[T Elem](op string, out side[T], ops ...side[T]) error {
	for _, s := range append([]side[T]{out}, ops...) {
		if s.a.valid(op) != nil {
			return nil
		}
	}
	if err := out.a.checkPatch(op, out.lo, out.hi); err != nil {
		return err
	}
	n := layout.Volume(out.lo, out.hi)
	for _, s := range ops {
		if err := s.a.checkPatch(op, s.lo, s.hi); err != nil {
			return err
		}
		if m := layout.Volume(s.lo, s.hi); m != n {
			return errorf(op, s.a.name, "patch lo %v hi %v has %d elements; %s's patch lo %v hi %v has %d", s.lo, s.hi, m, out.a.name, out.lo, out.hi, n)
		}
	}
	return nil
}

// transFlag reads a patch's transpose argument: NoTrans or Trans, in GA's
// either case.
func transFlag(op, array string, t TransOp) (bool, error) {
	switch upperTrans(t) {
	case NoTrans:
		return false, nil
	case Trans:
		return true, nil
	}
	return false, errorf(op, array, "transpose %q; want NoTrans or Trans ('n' or 't', either case)", t)
}

// eachRun runs f, collectively, on every run of this process's part of the patch [lo, hi].
func (a *Array[T]) eachRun(op string, lo, hi []int, f func(run []T)) error {
	l := newArgs(op).ints("lo", lo...).ints("hi", hi...)
	var check error
	if a.valid(op) == nil {
		check = a.checkPatch(op, lo, hi)
	}
	return a.collective(op, l, check, func(local []T) error {
		return a.regions(lo, hi, func(r region) error {
			r.runs(func(off, _, n int) { f(local[off : off+n]) })
			return nil
		})
	})
}

// ZeroPatch sets the patch [lo, hi] to 0 (NGA_Zero_patch). It is
// collective.
func (a *Array[T]) ZeroPatch(lo, hi []int) error {
	return a.eachRun("ZeroPatch", lo, hi, func(run []T) { clear(run) })
}

// FillPatch sets every element of the patch [lo, hi] to v (NGA_Fill_patch).
// It is collective.
func (a *Array[T]) FillPatch(lo, hi []int, v T) error {
	return a.eachRun("FillPatch", lo, hi, func(run []T) { kernels.Fill(run, v) })
}

// ScalePatch multiplies every element of the patch [lo, hi] by v
// (NGA_Scale_patch). It is collective.
func (a *Array[T]) ScalePatch(lo, hi []int, v T) error {
	return a.eachRun("ScalePatch", lo, hi, func(run []T) { kernels.Scale(run, v) })
}

// CopyPatch copies a's patch [alo, ahi] into b's patch [blo, bhi]
// (NGA_Copy_patch). The patches have the same number of elements; their
// shapes and the arrays' distributions may differ. Elements pair in linear
// order: b's patch is filled row-major (C order) from a's read row-major
// with trans NoTrans, column-major with Trans (for matrices, b's patch is
// then the transpose of a's). a and b are different arrays, as GA requires. It is
// collective, over the smaller group where the arrays' processor groups
// differ (see Copy).
func CopyPatch[T Elem](trans TransOp, a *Array[T], alo, ahi []int, b *Array[T], blo, bhi []int) error {
	const op = "CopyPatch"
	t, check := transFlag(op, a.Name(), trans)
	src := side[T]{a, alo, ahi, t}
	if check == nil {
		check = checkSides(op, side[T]{a: b, lo: blo, hi: bhi}, src)
	}
	if check == nil && a == b && a != nil {
		check = errorf(op, a.name, "source and destination are the same array")
	}
	l := writing(patchArgs(patchArgs(newArgs(op).between(), "A", a, alo, ahi, trans), "B", b, blo, bhi, 0), b)
	if pushes(a, b) {
		return a.collective(op, l, check, func([]T) error { return spread(a, alo, ahi, t, b, blo, bhi) }, b)
	}
	over, other, check := filler(op, a, b, check)
	return over.collective(op, l, check, func([]T) error {
		return combine(op, b, blo, bhi, []side[T]{src}, func(dst []T, s [][]T) { copy(dst, s[0]) })
	}, other)
}

// AddPatch sets c's patch to alpha·(a's patch) + beta·(b's patch), element by
// element in C order (NGA_Add_patch). The three patches have the same number
// of elements; shapes and distributions may differ. c may be a or b, and the
// patches may overlap. It is collective.
func AddPatch[T Elem](alpha T, a *Array[T], alo, ahi []int, beta T, b *Array[T], blo, bhi []int, c *Array[T], clo, chi []int) error {
	const op = "AddPatch"
	ops := []side[T]{{a, alo, ahi, false}, {b, blo, bhi, false}}
	check := checkSides(op, side[T]{a: c, lo: clo, hi: chi}, ops...)
	l := writing(patchArgs(patchArgs(patchArgs(newArgs(op), "A", a, alo, ahi, 0), "B", b, blo, bhi, 0), "C", c, clo, chi, 0), c)
	return c.collective(op, l, check, func([]T) error {
		return combine(op, c, clo, chi, ops, func(dst []T, s [][]T) {
			kernels.Axpby(dst, s[0], s[1], alpha, beta)
		})
	}, a, b)
}

// DotPatch returns the sum of the products of a's patch [alo, ahi] and b's
// patch [blo, bhi], paired in linear order, each read row-major with NoTrans
// or column-major with Trans; Trans on both pairs like NoTrans on both, as in GA
// (NGA_Ddot_patch and its kin; complex values are not conjugated). The
// patches have the same number of elements. It is collective, and every
// process gets the result.
func DotPatch[T Elem](a *Array[T], ta TransOp, alo, ahi []int, b *Array[T], tb TransOp, blo, bhi []int) (T, error) {
	const op = "DotPatch"
	var sum T
	at, check := transFlag(op, a.Name(), ta)
	bt, berr := transFlag(op, b.Name(), tb)
	if check == nil {
		check = berr
	}
	if at && bt {
		at, bt = false, false
	}
	// The side read row-major drives: its own regions, the other paired.
	drive, other := side[T]{a, alo, ahi, at}, side[T]{b, blo, bhi, bt}
	if at {
		drive, other = other, drive
	}
	if check == nil {
		check = checkSides(op, drive, other)
	}
	l := patchArgs(patchArgs(newArgs(op), "A", a, alo, ahi, ta), "B", b, blo, bhi, tb)
	err := collectiveReduce(a, op, l, check, &sum, mpi.Sum, func([]T) error {
		return combine(op, drive.a, drive.lo, drive.hi, []side[T]{drive, other}, func(_ []T, s [][]T) {
			sum += kernels.Dot(s[0], s[1])
		})
	}, b)
	return sum, err
}
