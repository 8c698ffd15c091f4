package ga

import (
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strconv"
	"sync/atomic"
	"unsafe"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/ga/internal/kernels"
	"github.com/goga-hpc/goga/internal/layout"
	"github.com/goga-hpc/goga/mpi"
)

// Collective array operations are called by every process; each works on the
// data it owns, between implicit synchronizations (see MaskSync).

// collective runs f on this process's storage of a (whose own elements are
// a.spans: every local computation walks those, never the whole storage)
// between the implicit syncs, where the processes agree on the call (see agree). more are the
// call's other arrays, which must be valid and the same on every process too;
// l (nil: none) is the text of its other arguments that must agree, and
// check is the call's own verdict on them.
func (a *Array[T]) collective(op string, l *args, check error, f func(local []T) error, more ...*Array[T]) error {
	return collectiveReduce[T, T](a, op, l, check, nil, mpi.Sum, f, more...)
}

// collectiveReduce is collective for a call whose parts combine into one
// value: f puts this process's part in *part (nil: no value), which ends
// as the parts combined over every process by o (mpi.Sum or mpi.Max),
// carried by the end sync's agreement (armci's AllMaxReduce, in rank
// order, so every process gets the same bits) rather than by a reduction
// of its own. Where MaskSync masks the end sync, an MPI_Allreduce
// combines them.
func collectiveReduce[T, R Elem](a *Array[T], op string, l *args, check error, part *R, o mpi.Op, f func(local []T) error, more ...*Array[T]) error {
	if l == nil {
		l = newArgs(op)
	}
	array(l, "a", a)
	err := a.valid(op)
	for i, x := range more {
		array(l, strconv.Itoa(i), x)
		if err == nil {
			err = x.valid(op)
		}
	}
	if err == nil {
		err = check
	}
	g, gerr := groupOf(op, a)
	if gerr != nil {
		return gerr
	}
	if masked, err := begin(g, op, a.Name(), err, l); err != nil {
		if masked {
			// Unagreed: still meet the others at the end, with the error.
			return end(g, op, a.Name(), err)
		}
		return err
	}
	// f runs on every process, those that store nothing included: it may
	// synchronize.
	local, err := a.localData()
	if err == nil {
		err = f(local)
	}
	if part == nil {
		return end(g, op, a.Name(), err)
	}
	return endReducing(g, op, a.Name(), err, part, o)
}

// endReducing is end that also combines every process's part by o.
func endReducing[R Elem](g *group, op, array string, local error, part *R, o mpi.Op) error {
	g.mu.Lock()
	do := g.mask.end
	g.mask.end = true
	g.mu.Unlock()
	out := []R{*part}
	if !do {
		if local == nil {
			local = mpi.Allreduce(g.comm(), nil, out, o)
		}
		*part = out[0]
		return local
	}
	if err := fenceOthers(g); err != nil && local == nil {
		local = err
	}
	g.endFence()
	if err := g.rt.AllFence(); err != nil && local == nil {
		local = err
	}
	r := armci.ReduceSum
	if o == mpi.Max {
		r = armci.ReduceMax
	}
	if err := agreeCarrying(g, op, local, nil, func(v [3]int64) ([3]int64, error) {
		_, err := armci.AllMaxReduce(g.rt, v[:], out, out, r)
		return v, err
	}); err != nil {
		return err
	}
	*part = out[0]
	return nil
}

// Zero sets every element to 0 (GA_Zero).
func (a *Array[T]) Zero() error {
	return a.collective("Zero", nil, nil, func(l []T) error {
		for _, s := range a.spans {
			clear(l[s.Off : s.Off+s.N])
		}
		return nil
	})
}

// Fill sets every element to v (GA_Fill).
func (a *Array[T]) Fill(v T) error {
	return a.collective("Fill", nil, nil, func(l []T) error {
		for _, s := range a.spans {
			run := l[s.Off : s.Off+s.N]
			for i := range run {
				run[i] = v
			}
		}
		return nil
	})
}

// Scale multiplies every element by v (GA_Scale).
func (a *Array[T]) Scale(v T) error {
	return a.collective("Scale", nil, nil, func(l []T) error {
		for _, s := range a.spans {
			run := l[s.Off : s.Off+s.N]
			for i := range run {
				run[i] *= v
			}
		}
		return nil
	})
}

// Copy copies a into b (GA_Copy). They must have the same number of elements;
// shapes and distributions may differ, and elements are matched in C
// (row-major) order. It is collective over the array's group; between
// arrays of different processor groups, one of which contains the other, it
// is collective over the smaller one, as in GA.
func Copy[T Elem](a, b *Array[T]) error {
	var check error
	switch {
	case a == nil || b == nil || a.dead || b.dead:
		// collective names it
	case a == b:
		check = errorf("Copy", a.name, "source and destination are the same array")
	case layout.Product(a.dims) != layout.Product(b.dims):
		check = errorf("Copy", b.name, "%v has %d elements, source %s has %d", b.dims, layout.Product(b.dims), a.name, layout.Product(a.dims))
	}
	l := writing(newArgs("Copy").between(), b)
	if pushes(a, b) {
		return a.collective("Copy", l, check, func([]T) error {
			alo, ahi := a.whole()
			blo, bhi := b.whole()
			return spread(a, alo, ahi, false, b, blo, bhi)
		}, b)
	}
	over, other, check := filler("Copy", a, b, check)
	return over.collective("Copy", l, check, func([]T) error {
		blo, bhi := b.whole()
		alo, ahi := a.whole()
		return combine("Copy", b, blo, bhi, []side[T]{{a, alo, ahi, false}}, func(dst []T, s [][]T) { copy(dst, s[0]) })
	}, other)
}

// sameCount checks that arrays have one element count, for Add and Dot;
// invalid arrays are left to collective to name.
func sameCount[T Elem](op string, arrays ...*Array[T]) error {
	for _, x := range arrays {
		if x.valid(op) != nil {
			return nil
		}
	}
	n := layout.Product(arrays[0].dims)
	for _, x := range arrays[1:] {
		if m := layout.Product(x.dims); m != n {
			return errorf(op, x.name, "dims %v hold %d elements; %s's %v hold %d", x.dims, m, arrays[0].name, arrays[0].dims, n)
		}
	}
	return nil
}

// shaped reports whether every array has x's shape.
func shaped[T Elem](x *Array[T], arrays ...*Array[T]) bool {
	for _, y := range arrays {
		if !slices.Equal(x.dims, y.dims) {
			return false
		}
	}
	return true
}

// operand returns x's elements laid out like this process's storage of c (n
// elements; c.spans index both): in place when x is distributed like c,
// fetched otherwise.
func operand[T Elem](x, c *Array[T], n int) ([]T, error) {
	if CompareDistr(x, c) {
		return x.localData()
	}
	buf := make([]T, n)
	return buf, c.storedBlocks(func(lo, hi []int, off int, ext []int) error {
		return x.Get(lo, hi, buf[off:], ext[1:])
	})
}

// Add sets c = alpha·a + beta·b elementwise (GA_Add). The three arrays hold
// the same number of elements, paired in C order (their shapes and
// distributions may differ, as in GA); c may be a or b. It is collective.
func Add[T Elem](alpha T, a *Array[T], beta T, b, c *Array[T]) error {
	return c.collective("Add", writing(newArgs("Add"), c), sameCount("Add", a, b, c), func(local []T) error {
		if !shaped(c, a, b) {
			clo, chi := c.whole()
			alo, ahi := a.whole()
			blo, bhi := b.whole()
			return combine("Add", c, clo, chi, []side[T]{{a, alo, ahi, false}, {b, blo, bhi, false}}, func(dst []T, s [][]T) {
				kernels.Axpby(dst, s[0], s[1], alpha, beta)
			})
		}
		x, err := operand(a, c, len(local))
		if err != nil {
			return err
		}
		y, err := operand(b, c, len(local))
		if err != nil {
			return err
		}
		for _, s := range c.spans {
			kernels.Axpby(local[s.Off:s.Off+s.N], x[s.Off:], y[s.Off:], alpha, beta)
		}
		return nil
	}, a, b)
}

// Dot returns the sum of a[i]·b[i] over every element (GA_Ddot, GA_Zdot, …;
// complex values are not conjugated). a and b hold the same number of
// elements, paired in C order (their shapes and distributions may differ,
// as in GA). It is collective, and every process gets the result.
func Dot[T Elem](a, b *Array[T]) (T, error) {
	var sum T
	err := collectiveReduce(a, "Dot", nil, sameCount("Dot", a, b), &sum, mpi.Sum, func(local []T) error {
		if !shaped(a, b) {
			alo, ahi := a.whole()
			blo, bhi := b.whole()
			return combine("Dot", a, alo, ahi, []side[T]{{a, alo, ahi, false}, {b, blo, bhi, false}}, func(_ []T, s [][]T) {
				sum += kernels.Dot(s[0], s[1])
			})
		}
		y, err := operand(b, a, len(local))
		if err != nil {
			return err
		}
		for _, s := range a.spans {
			sum += kernels.Dot(local[s.Off:s.Off+s.N], y[s.Off:])
		}
		return nil
	}, b)
	return sum, err
}

// Brdcst copies root's buf into every process's buf (GA_Brdcst).
func Brdcst[T mpi.Elem](buf []T, root int) error {
	g, err := current("Brdcst")
	if err != nil {
		return err
	}
	return brdcst(g, "Brdcst", buf, root)
}

// brdcst is Brdcst on g's processes.
func brdcst[T mpi.Elem](g *group, op string, buf []T, root int) error {
	if p := prof.Load(); p != nil {
		defer p.leave(p.enter(), "Brdcst")
	}
	var check error
	if root < 0 || root >= g.size() {
		check = errorf(op, "", "root %d out of range [0, %d)", root, g.size())
	}
	if unchecked.Load() {
		if check != nil {
			return check
		}
		return mpi.Bcast(g.comm(), buf, root)
	}
	l := messageArgs(&g.lastBrdcst, reflect.TypeFor[T](), len(buf), root, "", func() *args {
		return typ[T](newArgs("Brdcst").ints("len", len(buf)).ints("root", root), "buf")
	})
	if b := asBytes(buf); len(b) <= g.rt.ReduceCap() {
		// A small broadcast rides on the agreement's collective; buf
		// stays as it was until all agreed.
		out := asBytes(scratchFor(len(b)))[:len(b)]
		if err := agreeCarrying(g, op, check, l, func(v [3]int64) ([3]int64, error) {
			_, err := g.rt.AllMaxBrdcst(v[:], b, out, root)
			return v, err
		}); err != nil {
			return err
		}
		copy(b, out)
		return nil
	}
	if err := agree(g, false, op, "", check, l); err != nil {
		return err
	}
	return mpi.Bcast(g.comm(), buf, root)
}

// scratchFor returns at least n bytes of scratch, at most armci.GatherCap,
// aligned for any element type. It is inlined, so they live on the
// caller's stack; only what a small call needs is zeroed (a whole
// GatherCap was a seventh of a one-element Gop's time on one process).
func scratchFor(n int) []uint64 {
	if n <= 64 {
		var small [8]uint64
		return small[:]
	}
	var big [armci.GatherCap / 8]uint64
	return big[:]
}

// messageArgs is the agreement text of a Gop or Brdcst of n elements of t
// with op or root: last's if it has the same, else made by make and kept in
// last. Iterative solvers call them in their inner loops with the same
// arguments; building and hashing the text each time cost half of a
// one-element Gop on one process.
func messageArgs(last *atomic.Pointer[keptMessage], t reflect.Type, n, root int, op Op, make func() *args) *args {
	if m := last.Load(); m != nil && m.t == t && m.n == n && m.root == root && m.op == op {
		return m.l
	}
	m := &keptMessage{t: t, n: n, root: root, op: op, l: make().kept()}
	last.Store(m)
	return m.l
}

// keptMessage is what messageArgs keeps: the arguments, and their text.
type keptMessage struct {
	t       reflect.Type
	n, root int
	op      Op
	l       *args
}

// Gop combines x elementwise over every process and leaves the result in every
// process's x (GA_Gop, GA_Dgop, GA_Igop, …). op is OpSum, OpProd, OpMax,
// OpMin, OpAbsMax, OpAbsMin or OpOr (GA's "+", "*", "max", "min", "absmax",
// "absmin" and "or"): the four after OpProd are for real types only, and
// OpOr, the bitwise or (GA_Igop's; MPI_BOR under ARMCI-MPI), for integer
// types only.
func Gop[T Elem](x []T, op Op) error {
	g, err := current("Gop")
	if err != nil {
		return err
	}
	return gop(g, "Gop", x, op)
}

// gop is Gop on g's processes; name is the call's.
func gop[T Elem](g *group, name string, x []T, op Op) error {
	if p := prof.Load(); p != nil {
		defer p.leave(p.enter(), "Gop")
	}
	var z T
	k := reflect.TypeFor[T]().Kind()
	isComplex := k == reflect.Complex64 || k == reflect.Complex128
	var o mpi.Op
	var r armci.ReduceOp
	var check error
	switch op {
	case OpSum:
		o, r = mpi.Sum, armci.ReduceSum
	case OpProd:
		o, r = mpi.Prod, armci.ReduceProd
	case OpMax, OpAbsMax:
		o, r = mpi.Max, armci.ReduceMax
	case OpMin, OpAbsMin:
		o, r = mpi.Min, armci.ReduceMin
	case OpOr:
		o, r = mpi.Bor, armci.ReduceOr
	default:
		check = errorf(name, "", "unknown operation %q; want OpSum (+), OpProd (*), OpMax, OpMin, OpAbsMax, OpAbsMin or OpOr", op)
	}
	if check == nil && (isComplex && o != mpi.Sum && o != mpi.Prod || o == mpi.Bor && k != reflect.Int32 && k != reflect.Int64) {
		check = errorf(name, "", "operation %q is not defined for %T", op, z)
	}
	abs := op == OpAbsMax || op == OpAbsMin
	if unchecked.Load() {
		if check != nil {
			return check
		}
		return reduceInPlace(g, x, o, abs)
	}
	l := messageArgs(&g.lastGop, reflect.TypeFor[T](), len(x), 0, op, func() *args {
		return typ[T](newArgs("Gop").ints("len", len(x)).str("op", string(op)), "x")
	})
	if n := len(x) * int(unsafe.Sizeof(z)); n <= g.rt.ReduceCap() {
		// A small reduction rides on the agreement's collective, combined
		// in rank order so that every process gets the same bits; x stays
		// as it was until all agreed.
		out := unsafe.Slice((*T)(unsafe.Pointer(&scratchFor(n)[0])), len(x))
		copy(out, x)
		if abs {
			for i, v := range out {
				out[i] = absReal(v)
			}
		}
		if err := agreeCarrying(g, name, check, l, func(v [3]int64) ([3]int64, error) {
			_, err := armci.AllMaxReduce(g.rt, v[:], out, out, r)
			return v, err
		}); err != nil {
			return err
		}
		copy(x, out)
		return nil
	}
	if err := agree(g, false, name, "", check, l); err != nil {
		return err
	}
	return reduceInPlace(g, x, o, abs)
}

// reduceInPlace is MPI_Allreduce of x in place with o, of x's absolute
// values with abs.
func reduceInPlace[T Elem](g *group, x []T, o mpi.Op, abs bool) error {
	if abs {
		for i, v := range x {
			x[i] = absReal(v)
		}
	}
	return mpi.Allreduce(g.comm(), nil, x, o)
}

// Print writes the whole array to standard output from process 0 (GA_Print).
// It is collective.
func (a *Array[T]) Print() error { return a.Fprint(os.Stdout) }

// Fprint is Print to w.
func (a *Array[T]) Fprint(w io.Writer) error {
	return a.printing(func() error {
		return fprintWhole(w, a.String(), a.dims, func(lo, hi []int, buf []T) error { return a.Get(lo, hi, buf, nil) })
	})
}

// printing runs show on process 0 of a's group, in step with the others:
// Print's collective part.
func (a *Array[T]) printing(show func() error) error {
	g, err := groupOf("Print", a)
	if err != nil {
		return err
	}
	return inStep(g, "Print", a.Name(), a.valid("Print"), array(newArgs("Print"), "a", a), func() error {
		if g.rank != 0 {
			return nil
		}
		return show()
	})
}

// fprintWhole writes the array desc names, of the given dims, read whole by
// get: a line for each row of its last dimension.
func fprintWhole[E any](w io.Writer, desc string, dims []int, get func(lo, hi []int, buf []E) error) error {
	lo := make([]int, len(dims))
	hi := make([]int, len(dims))
	for d := range hi {
		hi[d] = dims[d] - 1
	}
	buf := make([]E, layout.Product(dims))
	if err := get(lo, hi, buf); err != nil {
		return err
	}
	fmt.Fprintf(w, "global array %s\n", desc)
	last := dims[len(dims)-1]
	for off := 0; off < len(buf); off += last {
		sub := layout.Unravel(dims, off)
		fmt.Fprintf(w, "%v:", sub[:len(sub)-1])
		for _, v := range buf[off : off+last] {
			fmt.Fprintf(w, " %v", v)
		}
		fmt.Fprintln(w)
	}
	return nil
}

// absReal is |v| for the real element types (Gop refuses complex ones
// before), named types included.
func absReal[T Elem](v T) T {
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Int32, reflect.Int64:
		if r.Int() < 0 {
			return -v
		}
	case reflect.Float32, reflect.Float64:
		if r.Float() < 0 {
			return -v
		}
	}
	return v
}

// PrintDistribution writes which process owns which block, from process 0
// (GA_Print_distribution).
func (a *Array[T]) PrintDistribution() error { return a.FprintDistribution(os.Stdout) }

// FprintDistribution is PrintDistribution to w.
func (a *Array[T]) FprintDistribution(w io.Writer) error {
	if err := a.valid("PrintDistribution"); err != nil {
		return err
	}
	if a.g.rank != 0 {
		return nil
	}
	if a.m.BlockCyclic() {
		blocks, size := a.BlockInfo()
		fmt.Fprintf(w, "distribution of %s in %v blocks of %v", a, blocks, size)
		if g := a.m.ProcGrid(); g != nil {
			fmt.Fprintf(w, " over a %v process grid", g)
		}
		fmt.Fprintln(w)
		for i := range a.m.Blocks() {
			lo, hi := a.m.Patch(i)
			fmt.Fprintf(w, "  block %d: process %d, lo %v hi %v\n", i, a.m.BlockOwner(i), lo, hi)
		}
		return nil
	}
	fmt.Fprintf(w, "distribution of %s over a %v process grid\n", a, a.m.Grid())
	for r := range a.g.size() {
		if lo, hi, ok := a.m.Block(r); ok {
			fmt.Fprintf(w, "  process %d: lo %v hi %v\n", r, lo, hi)
		} else {
			fmt.Fprintf(w, "  process %d: no data\n", r)
		}
	}
	return nil
}
