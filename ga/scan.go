package ga

import (
	"slices"

	"github.com/goga-hpc/goga/ga/internal/kernels"
	"github.com/goga-hpc/goga/mpi"
)

// Sparse data operations (GA's sparse.c) work on vectors, over a range
// [lo, hi] of indices. A mask element that is not zero marks a segment's
// start (the scans) or an element that counts (Pack, Unpack); only marks
// in the range count, and the mask may be of any element type, as in GA C. Each process works on the regions of
// the range it owns, in the array that drives the call (the output, or the
// mask for Pack); operands distributed like it are read in place, others
// fetched by one-sided Gets of the same regions, which Get splits among
// their owners. GA C requires the arrays to be distributed alike; goga
// does not. What crosses process boundaries (a scan's carry, a pack's
// offset) comes from one summary per region, which every process gathers,
// and folds in index order, so that block-cyclic vectors work too. The
// output may not be one of the inputs: GA C refuses that for the scans and
// races for Pack and Unpack.

// PatchEnum sets a[lo], …, a[hi] to start, start+inc, start+2·inc, …
// (GA_Patch_enum): element i is start + (i-lo)·inc, computed per element as
// GA does, not by repeated addition. a is a vector. It is collective.
func (a *Array[T]) PatchEnum(lo, hi int, start, inc T) error {
	const op = "PatchEnum"
	check := checkSparse(op, lo, hi, vecOf(op, a), nil, vecOf(op, a))
	l := newArgs(op).ints("lo", lo).ints("hi", hi)
	return a.collective(op, l, check, func(local []T) error {
		return a.regions([]int{lo}, []int{hi}, func(r region) error {
			kernels.Enum(local[r.off:r.off+r.hi[0]-r.lo[0]+1], r.lo[0]-lo, start, inc)
			return nil
		})
	})
}

// ScanCopy sets dst over [lo, hi] to a segmented copy of src
// (GA_Scan_copy): a nonzero mask element starts a segment, and every
// element of a segment gets src's value at its start. Elements before the
// first segment in the range get 0, as in GA C 5.8. src, dst and mask are
// vectors of one length; dst is neither src nor mask. It is collective.
func ScanCopy[T, M Elem](src, dst *Array[T], mask *Array[M], lo, hi int) error {
	return scan("ScanCopy", src, dst, mask, lo, hi, false, false)
}

// ScanAdd sets dst over [lo, hi] to a segmented prefix sum of src
// (GA_Scan_add): a nonzero mask element starts a segment, where the sum
// restarts. Inclusive, dst[i] sums src from its segment's start to i;
// exclusive (GA's excl = 1), to i-1, so that a segment's first element is 0.
// Elements before the first segment in the range are left unchanged, as in
// GA C 5.8. Integer sums wrap on overflow without an error, as in GA C.
// src, dst and mask are vectors of one length; dst is neither src nor
// mask. It is collective.
func ScanAdd[T, M Elem](src, dst *Array[T], mask *Array[M], lo, hi int, exclusive bool) error {
	return scan("ScanAdd", src, dst, mask, lo, hi, true, exclusive)
}

// Pack copies the elements of src over [lo, hi] whose mask element is not
// zero, in index order, to dst[0], dst[1], … (GA_Pack), and returns their
// count; the rest of dst is unchanged. src and mask are vectors of one
// length; dst is a vector at least count long (else the call is refused,
// with nothing changed, where GA C aborts), neither src nor mask. It is
// collective, and every process gets the count.
func Pack[T, M Elem](src, dst *Array[T], mask *Array[M], lo, hi int) (count int, err error) {
	const op = "Pack"
	in := []vec{vecOf(op, src), vecOf(op, mask)}
	check := checkSparse(op, lo, hi, vecOf(op, dst), in, in...)
	err = sparse(op, dst, sparseArgs(op, lo, hi, src, dst, mask), check, func([]T) error {
		parts, total, err := marks(op, mask, mask, lo, hi, dst.name, dst.dims[0])
		for _, p := range parts {
			if err != nil || p.n == 0 {
				continue
			}
			var x []T
			if x, err = paired(src, mask, p.r); err == nil {
				packed := kernels.Pack(make([]T, 0, p.n), x, p.bits)
				err = dst.Put([]int{p.off}, []int{p.off + p.n - 1}, packed, nil)
			}
		}
		count = total
		return err
	})
	if err != nil {
		return 0, err
	}
	return count, nil
}

// Unpack copies src[0], src[1], … in order to the elements of dst over
// [lo, hi] whose mask element is not zero (GA_Unpack), and returns their
// count; the other elements of dst are unchanged. dst and mask are vectors
// of one length; src is a vector at least count long (else the call is
// refused, with nothing changed, where GA C aborts); dst is neither src nor
// mask. It is collective, and every process gets the count.
func Unpack[T, M Elem](src, dst *Array[T], mask *Array[M], lo, hi int) (count int, err error) {
	const op = "Unpack"
	out, in := vecOf(op, dst), []vec{vecOf(op, src), vecOf(op, mask)}
	check := checkSparse(op, lo, hi, out, in, out, in[1])
	err = sparse(op, dst, sparseArgs(op, lo, hi, src, dst, mask), check, func(local []T) error {
		parts, total, err := marks(op, dst, mask, lo, hi, src.name, src.dims[0])
		// Read everything before writing: a refusal then leaves dst as it was.
		vals := make([][]T, len(parts))
		for k, p := range parts {
			if err != nil || p.n == 0 {
				continue
			}
			vals[k] = make([]T, p.n)
			err = src.Get([]int{p.off}, []int{p.off + p.n - 1}, vals[k], nil)
		}
		if err != nil {
			return err
		}
		for k, p := range parts {
			kernels.Unpack(local[p.r.off:p.r.off+len(p.bits)], vals[k], p.bits)
		}
		count = total
		return nil
	})
	if err != nil {
		return 0, err
	}
	return count, nil
}

// scan is ScanCopy (add false) and ScanAdd. Each process scans the regions
// of dst it owns with no carry, gathers every region's carry out, folds
// those that come before each of its regions into that region's carry in,
// and scans again, writing dst.
func scan[T, M Elem](op string, src, dst *Array[T], mask *Array[M], lo, hi int, add, excl bool) error {
	out, in := vecOf(op, dst), []vec{vecOf(op, src), vecOf(op, mask)}
	check := checkSparse(op, lo, hi, out, in, out, in[0], in[1])
	l := sparseArgs(op, lo, hi, src, dst, mask).ints("exclusive", boolInt(excl))
	return sparse(op, dst, l, check, func(local []T) error {
		type part struct {
			r    region
			x    []T
			bits []M
		}
		var parts []part
		var mine []summary[T]
		err := dst.regions([]int{lo}, []int{hi}, func(r region) error {
			x, err := paired(src, dst, r)
			if err != nil {
				return err
			}
			bits, err := paired(mask, dst, r)
			if err != nil {
				return err
			}
			parts = append(parts, part{r, x, bits})
			carry := kernels.Scan[T]{Add: add}
			kernels.ScanRun(&carry, x, bits, nil, false)
			mine = append(mine, summary[T]{at: r.lo[0], bit: carry.Started, v: carry.Acc})
			return nil
		})
		all, err := exchange(op, dst.g, dst.name, mine, err)
		if err != nil {
			return err
		}
		// Matched with all, in index order.
		slices.SortFunc(parts, func(x, y part) int { return x.r.lo[0] - y.r.lo[0] })
		// Before the range, ScanCopy's value is 0; ScanAdd has none.
		in := kernels.Scan[T]{Add: add, Started: !add}
		k := 0
		for _, s := range all {
			if k < len(parts) && s.at == parts[k].r.lo[0] {
				p := parts[k]
				run := in
				kernels.ScanRun(&run, p.x, p.bits, local[p.r.off:p.r.off+len(p.x)], excl)
				k++
			}
			in.Step(s.v, s.bit)
		}
		return nil
	})
}

// vec is what the checks of a sparse operation need of an operand of any
// element type.
type vec struct {
	name  string
	dims  []int
	err   error // why the array cannot be used (nil, destroyed), or nil
	array any   // the *Array, to tell whether two operands are one array
}

func vecOf[T Elem](op string, a *Array[T]) vec {
	return vec{a.Name(), a.Dims(), a.valid(op), a}
}

// checkSparse checks a sparse operation's operands: the output out and
// the inputs in are usable vectors, out none of the inputs; ranged, the
// ones [lo, hi] indexes (the first named in errors), have one length that
// holds the range.
func checkSparse(op string, lo, hi int, out vec, in []vec, ranged ...vec) error {
	for _, v := range append([]vec{out}, in...) {
		if v.err != nil {
			return v.err
		}
		if len(v.dims) != 1 {
			return errorf(op, v.name, "has %d dimensions %v; %s works on vectors", len(v.dims), v.dims, op)
		}
	}
	for _, v := range in {
		if v.array == out.array {
			return errorf(op, out.name, "is both the output and an input; they must be different arrays")
		}
	}
	n := ranged[0].dims[0]
	for _, v := range ranged[1:] {
		if v.dims[0] != n {
			return errorf(op, v.name, "has %d elements; %s has %d", v.dims[0], ranged[0].name, n)
		}
	}
	if lo < 0 || hi >= n || lo > hi {
		return errorf(op, ranged[0].name, "range lo %d hi %d is not inside [0, %d)", lo, hi, n)
	}
	return nil
}

// sparseArgs is the text of a sparse operation's range and arrays, which
// every process must pass alike.
func sparseArgs[T, M Elem](op string, lo, hi int, src, dst *Array[T], mask *Array[M]) *args {
	return array(array(array(newArgs(op).ints("lo", lo).ints("hi", hi), "src", src), "dst", dst), "mask", mask)
}

// sparse runs act on dst's storage: this process's part of a sparse
// operation, whose arguments are l and this process's verdict on them
// check. act communicates in its middle, so the processes agree on the
// arguments before it even when MaskSync masks the opening sync, as the
// linear algebra does (see opening).
func sparse[T Elem](op string, dst *Array[T], l *args, check error, act func(local []T) error) error {
	g, err := groupOf(op, dst)
	if err != nil {
		return err
	}
	err = opening(g, op, dst.Name(), check, writing(l, dst))
	if err == nil {
		var local []T
		if local, err = dst.localData(); err == nil {
			err = act(local)
		}
	}
	// Refused too, the call ends as it began, using the end mask up.
	return closing(g, op, dst.Name(), err)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// paired returns x's elements at the indices of region r of vector d: in
// place when x is distributed like d (a vector's region is one run of its
// storage), else fetched.
func paired[T, D Elem](x *Array[T], d *Array[D], r region) ([]T, error) {
	n := r.hi[0] - r.lo[0] + 1
	if CompareDistr(x, d) {
		local, err := x.localData()
		if err != nil {
			return nil, err
		}
		return local[r.off : r.off+n], nil
	}
	buf := make([]T, n)
	return buf, x.Get(r.lo, r.hi, buf, nil)
}

// counted is a region of the vector that drives Pack or Unpack, with the
// mask's elements there, how many are not zero, and where the first of
// them goes in the packed vector.
type counted[M Elem] struct {
	r      region
	bits   []M
	n, off int
}

// marks returns this process's parts of Pack's or Unpack's range, over
// the regions of d, the vector that drives the call, in any order, and the
// count of the mask's marks over all processes, which the packed vector
// (its name and length) must hold.
func marks[D, M Elem](op string, d *Array[D], mask *Array[M], lo, hi int, packed string, length int) ([]counted[M], int, error) {
	var parts []counted[M]
	err := d.regions([]int{lo}, []int{hi}, func(r region) error {
		bits, err := paired(mask, d, r)
		parts = append(parts, counted[M]{r: r, bits: bits, n: kernels.Nonzero(bits)})
		return err
	})
	mine := make([]summary[int], len(parts))
	for k, p := range parts {
		mine[k] = summary[int]{at: p.r.lo[0], v: p.n}
	}
	all, err := exchange(op, d.g, d.name, mine, err)
	if err != nil {
		return nil, 0, err
	}
	at := make(map[int]int, len(parts))
	for k, p := range parts {
		at[p.r.lo[0]] = k
	}
	total := 0
	for _, s := range all {
		if k, ok := at[s.at]; ok {
			parts[k].off = total
		}
		total += s.v
	}
	if total > length {
		return nil, 0, errorf(op, packed, "has %d elements; the mask selects %d in [%d, %d]", length, total, lo, hi)
	}
	return parts, total, nil
}

// summary is what a process tells the others about one of its regions of
// a sparse operation's range: the index it starts at, whether the mask
// starts a segment in it, and a value (a scan's carry out, a count).
type summary[V mpi.Elem] struct {
	at  int
	bit bool
	v   V
}

// exchange gives every process every process's summaries, ordered by
// index. The processes first agree on err, each one's failure so far, so
// that all return alike instead of some waiting in the gathers.
func exchange[V mpi.Elem](op string, g *group, name string, mine []summary[V], err error) ([]summary[V], error) {
	if err := agree(g, false, op, name, err, nil); err != nil {
		return nil, err
	}
	c := g.comm()
	counts := make([]int, g.size())
	if err := mpi.Allgather(c, []int{len(mine)}, counts); err != nil {
		return nil, err
	}
	total := 0
	for _, n := range counts {
		total += n
	}
	if total == 0 {
		return nil, nil
	}
	keys, vals := make([]int, 0, 2*len(mine)), make([]V, 0, len(mine))
	for _, s := range mine {
		keys = append(keys, s.at, boolInt(s.bit))
		vals = append(vals, s.v)
	}
	allVals := make([]V, total)
	if err := mpi.Allgatherv(c, vals, allVals, counts, nil); err != nil {
		return nil, err
	}
	for r := range counts {
		counts[r] *= 2
	}
	allKeys := make([]int, 2*total)
	if err := mpi.Allgatherv(c, keys, allKeys, counts, nil); err != nil {
		return nil, err
	}
	all := make([]summary[V], total)
	for k := range all {
		all[k] = summary[V]{at: allKeys[2*k], bit: allKeys[2*k+1] != 0, v: allVals[k]}
	}
	slices.SortFunc(all, func(x, y summary[V]) int { return x.at - y.at })
	return all, nil
}
