package mpi_test

// Collective operations of package mpi, checked against closed forms on every
// element type and every operator MPI defines for it.
//
// Every rank runs the same subtests in the same order. A value that comes out
// wrong is reported with t.Errorf, which does not change what the rank does
// next, so the ranks stay in step. An unexpected error from a call is different:
// that rank may have skipped a collective the others entered, so pcMust ends the
// job at once (mpitest.Fatalf) instead of leaving the others to wait for the
// launcher's timeout.
//
// The closed forms assume at most 4 ranks (the launcher's default counts); the
// values then fit in int8.

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/goga-hpc/goga/internal/mpitest"
	"github.com/goga-hpc/goga/mpi"
)

// Named element types exercise the reflection path of the type lookup.
type (
	pcCelsius float32
	pcFlags   uint16
)

// pcTypes runs f once per element type.
func pcTypes(t *testing.T, c *mpi.Comm, f map[string]func(*testing.T, *mpi.Comm)) {
	t.Helper()
	for _, name := range []string{
		"int8", "int16", "int32", "int64", "int",
		"uint8", "uint16", "uint32", "uint64", "uint",
		"float32", "float64", "complex64", "complex128",
		"named_float32", "named_uint16",
	} {
		fn, ok := f[name]
		if !ok {
			fatalf(t, "test bug: no instantiation for %s", name)
		}
		t.Run(name, func(t *testing.T) { fn(t, c) })
	}
}

// pcInstances returns f instantiated for every element type, by name.
func pcInstances(
	i8, i16, i32, i64, i, u8, u16, u32, u64, u, f32, f64, c64, c128, nf32, nu16 func(*testing.T, *mpi.Comm),
) map[string]func(*testing.T, *mpi.Comm) {
	return map[string]func(*testing.T, *mpi.Comm){
		"int8": i8, "int16": i16, "int32": i32, "int64": i64, "int": i,
		"uint8": u8, "uint16": u16, "uint32": u32, "uint64": u64, "uint": u,
		"float32": f32, "float64": f64, "complex64": c64, "complex128": c128,
		"named_float32": nf32, "named_uint16": nu16,
	}
}

// ---- helpers shared with p2p_test.go ----

// pcMust is must with the failing call named.
func pcMust(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		fatalf(t, "%s: unexpected error: %v", what, err)
	}
}

// pcArgErr checks that err is an *mpi.ArgError naming arg.
func pcArgErr(t *testing.T, what string, err error, arg string) {
	t.Helper()
	var ae *mpi.ArgError
	if !errors.As(err, &ae) {
		t.Errorf("%s: rank %d: got error %v (%T), want *mpi.ArgError on %q", what, mpi.World().Rank(), err, err, arg)
		return
	}
	if ae.Arg != arg {
		t.Errorf("%s: rank %d: ArgError names %q, want %q (%v)", what, mpi.World().Rank(), ae.Arg, arg, err)
	}
}

// pcEq reports got != want.
func pcEq[T comparable](t *testing.T, what string, got, want []T) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s: rank %d of %d: got %v, want %v", what, mpi.World().Rank(), mpi.World().Size(), got, want)
	}
}

// pcStatus reports a status that differs from want.
func pcStatus(t *testing.T, what string, got, want mpi.Status) {
	t.Helper()
	if got != want {
		t.Errorf("%s: rank %d of %d: status %+v, want %+v", what, mpi.World().Rank(), mpi.World().Size(), got, want)
	}
}

type pcKind int

const (
	pcSigned pcKind = iota
	pcUnsigned
	pcFloat
	pcComplex
)

func pcKindOf[T mpi.Elem]() pcKind {
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		return pcSigned
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint:
		return pcUnsigned
	case reflect.Float32, reflect.Float64:
		return pcFloat
	}
	return pcComplex
}

// pcMk makes the T of value re (+ im·i for complex types; im is ignored for
// the others).
func pcMk[T mpi.Elem](re, im int) T {
	var z T
	v := reflect.ValueOf(&z).Elem()
	switch pcKindOf[T]() {
	case pcSigned:
		v.SetInt(int64(re))
	case pcUnsigned:
		if re < 0 {
			panic(fmt.Sprintf("test bug: negative value %d for %T", re, z))
		}
		v.SetUint(uint64(re))
	case pcFloat:
		v.SetFloat(float64(re))
	default:
		v.SetComplex(complex(float64(re), float64(im)))
	}
	return z
}

// pcV is the element value v (v - v·i for complex types, so that imaginary
// parts travel too).
func pcV[T mpi.Elem](v int) T { return pcMk[T](v, -v) }

// pcFill returns n copies of x.
func pcFill[T any](n int, x T) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = x
	}
	return s
}

const pcSentinel = 77

// ---- reductions ----

const redLen = 3 // elements per reduction vector

// redCase is an operator with each rank's input and the closed form of the
// reduction over the first m ranks.
type redCase[T mpi.Elem] struct {
	op   mpi.Op
	in   func(k, i int) T // rank k's element i
	want func(m, i int) T // op over in(0, i) ... in(m-1, i), for m ≥ 2 (see at)
}

func pcFact(m int) int {
	f := 1
	for k := 2; k <= m; k++ {
		f *= k
	}
	return f
}

// pcIPow is i^q as (re, im).
func pcIPow(q int) (int, int) {
	switch q % 4 {
	case 0:
		return 1, 0
	case 1:
		return 0, 1
	case 2:
		return -1, 0
	}
	return 0, -1
}

// pcOnePlusIPow is (1+i)^m = (2i)^(m/2) · (1+i)^(m%2) as (re, im).
func pcOnePlusIPow(m int) (int, int) {
	re, im := pcIPow(m / 2)
	re, im = re<<(m/2), im<<(m/2)
	if m%2 == 1 {
		re, im = re-im, re+im
	}
	return re, im
}

// pcXorUpTo is 0 ^ 1 ^ ... ^ x.
func pcXorUpTo(x int) int { return [4]int{x, 1, x + 1, 0}[x%4] }

func pcB2I(b bool) int {
	if b {
		return 1
	}
	return 0
}

func redCases[T mpi.Elem]() []redCase[T] {
	kind := pcKindOf[T]()
	signed := kind == pcSigned || kind == pcFloat
	mk := pcMk[T]
	// s flips element 1 negative where the type has negative values.
	s := func(i int) int {
		if signed && i == 1 {
			return -1
		}
		return 1
	}
	cases := []redCase[T]{{
		op:   mpi.Sum,
		in:   func(k, i int) T { return mk(s(i)*(k+1+i), (i+1)*k) },
		want: func(m, i int) T { return mk(s(i)*(m*(m+1)/2+i*m), (i+1)*m*(m-1)/2) },
	}}
	if kind == pcComplex {
		cases = append(cases, redCase[T]{
			op: mpi.Prod,
			in: func(k, i int) T {
				return [redLen]T{mk(k+1, 0), mk(1, 1), mk(0, 1)}[i]
			},
			want: func(m, i int) T {
				switch i {
				case 0:
					return mk(pcFact(m), 0)
				case 1:
					return mk(pcOnePlusIPow(m))
				}
				return mk(pcIPow(m))
			},
		})
		return cases
	}
	neg := 1 // the value of element 2 of Prod: -1 where there are negatives
	if signed {
		neg = -1
	}
	cases = append(cases,
		redCase[T]{
			op: mpi.Prod,
			in: func(k, i int) T { return [redLen]T{mk(k+1, 0), mk(2, 0), mk(neg, 0)}[i] },
			want: func(m, i int) T {
				p := 1
				if neg < 0 && m%2 == 1 {
					p = -1
				}
				return [redLen]T{mk(pcFact(m), 0), mk(1<<m, 0), mk(p, 0)}[i]
			},
		},
		redCase[T]{
			op: mpi.Min,
			in: func(k, i int) T {
				third := 4 + 3*pcB2I(k%2 == 0) // 7, 4, 7, 4, ...
				if signed {
					third = -k
				}
				return [redLen]T{mk(k+1, 0), mk(10-k, 0), mk(third, 0)}[i]
			},
			want: func(m, i int) T {
				third := 4 + 3*pcB2I(m == 1)
				if signed {
					third = 1 - m
				}
				return [redLen]T{mk(1, 0), mk(11-m, 0), mk(third, 0)}[i]
			},
		},
		redCase[T]{
			op: mpi.Max,
			in: func(k, i int) T {
				third := 7 - 3*pcB2I(k%2 == 0) // 4, 7, 4, 7, ...
				if signed {
					third = -(k + 1)
				}
				return [redLen]T{mk(k+1, 0), mk(10-k, 0), mk(third, 0)}[i]
			},
			want: func(m, i int) T {
				third := 7 - 3*pcB2I(m == 1)
				if signed {
					third = -1
				}
				return [redLen]T{mk(m, 0), mk(10, 0), mk(third, 0)}[i]
			},
		},
	)
	if kind == pcFloat {
		return cases
	}
	// Logical and bitwise operators, integers only. Logical results are 0 or 1.
	return append(cases,
		redCase[T]{
			op:   mpi.Land,
			in:   func(k, i int) T { return [redLen]T{mk(2*(k+1), 0), mk(k%2, 0), mk((k+1)%2, 0)}[i] },
			want: func(m, i int) T { return [redLen]T{mk(1, 0), mk(0, 0), mk(pcB2I(m == 1), 0)}[i] },
		},
		redCase[T]{
			op:   mpi.Lor,
			in:   func(k, i int) T { return [redLen]T{mk(0, 0), mk(k%2, 0), mk(3, 0)}[i] },
			want: func(m, i int) T { return [redLen]T{mk(0, 0), mk(pcB2I(m >= 2), 0), mk(1, 0)}[i] },
		},
		redCase[T]{
			op: mpi.Lxor,
			in: func(k, i int) T { return [redLen]T{mk(5, 0), mk(k%2, 0), mk(0, 0)}[i] },
			// m ranks are all true; m/2 of ranks 0..m-1 are odd.
			want: func(m, i int) T { return [redLen]T{mk(m%2, 0), mk((m/2)%2, 0), mk(0, 0)}[i] },
		},
		redCase[T]{
			op: mpi.Band,
			in: func(k, i int) T { return [redLen]T{mk(1<<k, 0), mk(15&^(1<<k), 0), mk(0x7f, 0)}[i] },
			want: func(m, i int) T {
				return [redLen]T{mk(pcB2I(m == 1), 0), mk(15&^(1<<m-1), 0), mk(0x7f, 0)}[i]
			},
		},
		redCase[T]{
			op: mpi.Bor,
			in: func(k, i int) T { return [redLen]T{mk(1<<k, 0), mk(15&^(1<<k), 0), mk(0, 0)}[i] },
			want: func(m, i int) T {
				return [redLen]T{mk(1<<m-1, 0), mk(15-pcB2I(m == 1), 0), mk(0, 0)}[i]
			},
		},
		redCase[T]{
			op: mpi.Bxor,
			in: func(k, i int) T { return [redLen]T{mk(1<<k, 0), mk(0x55, 0), mk(k, 0)}[i] },
			want: func(m, i int) T {
				return [redLen]T{mk(1<<m-1, 0), mk(0x55*(m%2), 0), mk(pcXorUpTo(m-1), 0)}[i]
			},
		},
	)
}

// at is the reduction over m ranks. Over one rank MPI returns the input as it
// is: the logical operators yield 0 or 1 only when they combine two values.
func (rc redCase[T]) at(m, i int) T {
	if m == 1 {
		return rc.in(0, i)
	}
	return rc.want(m, i)
}

func (rc redCase[T]) vec(k int) []T {
	v := make([]T, redLen)
	for i := range v {
		v[i] = rc.in(k, i)
	}
	return v
}

func (rc redCase[T]) wantVec(m int) []T {
	v := make([]T, redLen)
	for i := range v {
		v[i] = rc.at(m, i)
	}
	return v
}

// testReductions runs Allreduce, Reduce, Scan, Exscan and ReduceScatter for
// every operator defined on T, each also in place.
func testReductions[T mpi.Elem](t *testing.T, c *mpi.Comm) {
	n, r := c.Size(), c.Rank()
	sent := pcMk[T](pcSentinel, pcSentinel)
	for _, rc := range redCases[T]() {
		func() {
			lbl := rc.op.String() + ": "
			send := rc.vec(r)
			orig := slices.Clone(send)
			all := rc.wantVec(n)

			recv := pcFill(redLen, sent)
			pcMust(t, lbl+"Allreduce", mpi.Allreduce(c, send, recv, rc.op))
			pcEq(t, lbl+"Allreduce", recv, all)
			pcEq(t, lbl+"Allreduce send buffer afterwards", send, orig)

			// recv longer than send: only len(send) elements are written.
			long := pcFill(redLen+2, sent)
			pcMust(t, lbl+"Allreduce long recv", mpi.Allreduce(c, send, long, rc.op))
			pcEq(t, lbl+"Allreduce long recv", long, append(slices.Clone(all), sent, sent))

			inplace := slices.Clone(send)
			pcMust(t, lbl+"Allreduce in place", mpi.Allreduce(c, nil, inplace, rc.op))
			pcEq(t, lbl+"Allreduce in place", inplace, all)

			for root := 0; root < n; root++ {
				recv := pcFill(redLen, sent)
				pcMust(t, lbl+"Reduce", mpi.Reduce(c, send, recv, rc.op, root))
				if r == root {
					pcEq(t, lbl+fmt.Sprintf("Reduce to root %d", root), recv, all)
				}
				// In place at root: root's data is in recv; the others send.
				if r == root {
					buf := slices.Clone(send)
					pcMust(t, lbl+"Reduce in place", mpi.Reduce(c, nil, buf, rc.op, root))
					pcEq(t, lbl+fmt.Sprintf("Reduce in place to root %d", root), buf, all)
				} else {
					pcMust(t, lbl+"Reduce in place (non-root)", mpi.Reduce(c, send, nil, rc.op, root))
				}
			}

			recv = pcFill(redLen, sent)
			pcMust(t, lbl+"Scan", mpi.Scan(c, send, recv, rc.op))
			pcEq(t, lbl+"Scan", recv, rc.wantVec(r+1))
			inplace = slices.Clone(send)
			pcMust(t, lbl+"Scan in place", mpi.Scan(c, nil, inplace, rc.op))
			pcEq(t, lbl+"Scan in place", inplace, rc.wantVec(r+1))

			recv = pcFill(redLen, sent)
			pcMust(t, lbl+"Exscan", mpi.Exscan(c, send, recv, rc.op))
			if r == 0 {
				pcEq(t, lbl+"Exscan on rank 0 leaves recv", recv, pcFill(redLen, sent))
			} else {
				pcEq(t, lbl+"Exscan", recv, rc.wantVec(r))
			}
			inplace = slices.Clone(send)
			pcMust(t, lbl+"Exscan in place", mpi.Exscan(c, nil, inplace, rc.op))
			if r == 0 {
				pcEq(t, lbl+"Exscan in place on rank 0 leaves recv", inplace, send)
			} else {
				pcEq(t, lbl+"Exscan in place", inplace, rc.wantVec(r))
			}

			// ReduceScatter: rank j gets counts[j] = j+1 elements of the
			// reduced vector, whose element e is the reduction of in(·, e%redLen).
			counts := make([]int, n)
			total, off := 0, 0
			for j := range counts {
				counts[j] = j + 1
				if j < r {
					off += j + 1
				}
				total += j + 1
			}
			full := make([]T, total)
			for e := range full {
				full[e] = rc.in(r, e%redLen)
			}
			want := make([]T, r+1)
			for e := range want {
				want[e] = rc.at(n, (off+e)%redLen)
			}
			recv = pcFill(r+2, sent)
			pcMust(t, lbl+"ReduceScatter", mpi.ReduceScatter(c, full, recv, counts, rc.op))
			pcEq(t, lbl+"ReduceScatter", recv, append(slices.Clone(want), sent))
			inplace = slices.Clone(full)
			pcMust(t, lbl+"ReduceScatter in place", mpi.ReduceScatter(c, nil, inplace, counts, rc.op))
			pcEq(t, lbl+"ReduceScatter in place", inplace[:r+1], want)
		}()
	}
}

// ---- data movement ----

// testMovement runs Bcast, the gathers, the scatters and the all-to-alls on T.
func testMovement[T mpi.Elem](t *testing.T, c *mpi.Comm) {
	n, r := c.Size(), c.Rank()
	v := pcV[T]
	sent := v(pcSentinel)
	// enc is element i of rank s's contribution (s < 4, i < 10).
	enc := func(s, i int) T { return v(10*s + i) }
	// packed gives counts[s] = s+1 and displacements in rank order.
	uneven := make([]int, n)
	packed := make([]int, n)
	total := 0
	for s := range uneven {
		uneven[s] = s + 1
		packed[s] = total
		total += s + 1
	}
	// gapped places the parts in reverse rank order with a one-element gap
	// before each; span is the buffer length it needs.
	gapped := make([]int, n)
	span := 0
	for s := n - 1; s >= 0; s-- {
		span++
		gapped[s] = span
		span += uneven[s]
	}
	// layout returns what a gathered buffer holds: rank s's part at displs[s],
	// sentinel elsewhere.
	layout := func(displs []int, length int) []T {
		out := pcFill(length, sent)
		for s := 0; s < n; s++ {
			for i := 0; i < uneven[s]; i++ {
				out[displs[s]+i] = enc(s, i)
			}
		}
		return out
	}
	mine := make([]T, r+1)
	for i := range mine {
		mine[i] = enc(r, i)
	}

	func() { // Bcast
		for root := 0; root < n; root++ {
			buf := pcFill(5, sent)
			if r == root {
				for i := range buf {
					buf[i] = enc(root, i)
				}
			}
			pcMust(t, "Bcast", mpi.Bcast(c, buf, root))
			want := make([]T, 5)
			for i := range want {
				want[i] = enc(root, i)
			}
			pcEq(t, fmt.Sprintf("Bcast from root %d", root), buf, want)
		}
	}()

	func() { // Gather
		const k = 2
		want := make([]T, k*n)
		for s := 0; s < n; s++ {
			for i := 0; i < k; i++ {
				want[s*k+i] = enc(s, i)
			}
		}
		for root := 0; root < n; root++ {
			var recv []T
			if r == root {
				recv = pcFill(k*n+1, sent)
			}
			pcMust(t, "Gather", mpi.Gather(c, mine[:0:0], nil, root)) // an empty round first
			pcMust(t, "Gather", mpi.Gather(c, []T{enc(r, 0), enc(r, 1)}, recv, root))
			if r == root {
				pcEq(t, fmt.Sprintf("Gather to root %d", root), recv, append(slices.Clone(want), sent))
			}
			// In place at root: root's part is already in recv.
			if r == root {
				buf := pcFill(k*n, sent)
				buf[root*k], buf[root*k+1] = enc(r, 0), enc(r, 1)
				pcMust(t, "Gather in place", mpi.Gather(c, nil, buf, root))
				pcEq(t, fmt.Sprintf("Gather in place to root %d", root), buf, want)
			} else {
				pcMust(t, "Gather in place (non-root)", mpi.Gather(c, []T{enc(r, 0), enc(r, 1)}, nil, root))
			}
		}
	}()

	func() { // Gatherv
		for root := 0; root < n; root++ {
			for _, tc := range []struct {
				name   string
				displs []int
				layout []int
				length int
			}{{"packed", nil, packed, total}, {"gapped", gapped, gapped, span + 1}} {
				var recv []T
				var counts []int
				if r == root {
					recv, counts = pcFill(tc.length, sent), uneven
				}
				pcMust(t, "Gatherv "+tc.name, mpi.Gatherv(c, mine, recv, counts, tc.displs, root))
				if r == root {
					pcEq(t, fmt.Sprintf("Gatherv %s to root %d", tc.name, root), recv, layout(tc.layout, tc.length))
				}
				if r == root {
					buf := pcFill(tc.length, sent)
					copy(buf[tc.layout[r]:], mine)
					pcMust(t, "Gatherv in place", mpi.Gatherv(c, nil, buf, uneven, tc.displs, root))
					pcEq(t, fmt.Sprintf("Gatherv %s in place to root %d", tc.name, root), buf, layout(tc.layout, tc.length))
				} else {
					pcMust(t, "Gatherv in place (non-root)", mpi.Gatherv(c, mine, nil, nil, nil, root))
				}
			}
		}
	}()

	func() { // Allgather
		const k = 3
		want := make([]T, k*n)
		for s := 0; s < n; s++ {
			for i := 0; i < k; i++ {
				want[s*k+i] = enc(s, i)
			}
		}
		recv := pcFill(k*n+1, sent)
		pcMust(t, "Allgather", mpi.Allgather(c, []T{enc(r, 0), enc(r, 1), enc(r, 2)}, recv))
		pcEq(t, "Allgather", recv, append(slices.Clone(want), sent))
		buf := pcFill(k*n, sent)
		for i := 0; i < k; i++ {
			buf[r*k+i] = enc(r, i)
		}
		pcMust(t, "Allgather in place", mpi.Allgather(c, nil, buf))
		pcEq(t, "Allgather in place", buf, want)
	}()

	func() { // Allgatherv
		for _, tc := range []struct {
			name   string
			displs []int
			layout []int
			length int
		}{{"packed", nil, packed, total}, {"gapped", gapped, gapped, span + 1}} {
			recv := pcFill(tc.length, sent)
			pcMust(t, "Allgatherv "+tc.name, mpi.Allgatherv(c, mine, recv, uneven, tc.displs))
			pcEq(t, "Allgatherv "+tc.name, recv, layout(tc.layout, tc.length))
			buf := pcFill(tc.length, sent)
			copy(buf[tc.layout[r]:], mine)
			pcMust(t, "Allgatherv in place "+tc.name, mpi.Allgatherv(c, nil, buf, uneven, tc.displs))
			pcEq(t, "Allgatherv in place "+tc.name, buf, layout(tc.layout, tc.length))
		}
	}()

	// part is element i of what root sends to rank d.
	part := func(root, d, i int) T { return v(16*d + 4*root + i) }

	func() { // Scatter
		const k = 3
		for root := 0; root < n; root++ {
			var send []T
			if r == root {
				send = make([]T, k*n)
				for d := 0; d < n; d++ {
					for i := 0; i < k; i++ {
						send[d*k+i] = part(root, d, i)
					}
				}
			}
			orig := slices.Clone(send)
			want := []T{part(root, r, 0), part(root, r, 1), part(root, r, 2)}
			recv := pcFill(k, sent)
			pcMust(t, "Scatter", mpi.Scatter(c, send, recv, root))
			pcEq(t, fmt.Sprintf("Scatter from root %d", root), recv, want)
			pcEq(t, "Scatter send afterwards", send, orig)
			// In place at root: root keeps its part in send.
			if r == root {
				pcMust(t, "Scatter in place", mpi.Scatter(c, send, nil, root))
				pcEq(t, "Scatter in place leaves root's send", send, orig)
			} else {
				recv := pcFill(k, sent)
				pcMust(t, "Scatter in place (non-root)", mpi.Scatter(c, nil, recv, root))
				pcEq(t, fmt.Sprintf("Scatter (root in place) from root %d", root), recv, want)
			}
		}
	}()

	func() { // Scatterv
		for root := 0; root < n; root++ {
			for _, tc := range []struct {
				name   string
				displs []int
				layout []int
				length int
			}{{"packed", nil, packed, total}, {"gapped", gapped, gapped, span + 1}} {
				// Rank d gets d+1 elements.
				var send []T
				var counts []int
				if r == root {
					counts = uneven
					send = pcFill(tc.length, sent)
					for d := 0; d < n; d++ {
						for i := 0; i <= d; i++ {
							send[tc.layout[d]+i] = part(root, d, i)
						}
					}
				}
				want := make([]T, r+1)
				for i := range want {
					want[i] = part(root, r, i)
				}
				recv := pcFill(r+2, sent)
				pcMust(t, "Scatterv "+tc.name, mpi.Scatterv(c, send, counts, tc.displs, recv[:r+1], root))
				pcEq(t, fmt.Sprintf("Scatterv %s from root %d", tc.name, root), recv, append(slices.Clone(want), sent))
				if r == root {
					orig := slices.Clone(send)
					pcMust(t, "Scatterv in place", mpi.Scatterv(c, send, counts, tc.displs, nil, root))
					pcEq(t, "Scatterv in place leaves root's send", send, orig)
				} else {
					recv := pcFill(r+1, sent)
					pcMust(t, "Scatterv in place (non-root)", mpi.Scatterv(c, nil, nil, nil, recv, root))
					pcEq(t, fmt.Sprintf("Scatterv %s (root in place) from root %d", tc.name, root), recv, want)
				}
			}
		}
	}()

	// msg is element j of what rank s sends to rank d.
	msg := func(s, d, j int) T { return v(16*s + 4*d + j) }

	func() { // Alltoall
		const k = 2
		send := make([]T, k*n)
		want := make([]T, k*n)
		for p := 0; p < n; p++ {
			for j := 0; j < k; j++ {
				send[p*k+j] = msg(r, p, j)
				want[p*k+j] = msg(p, r, j)
			}
		}
		orig := slices.Clone(send)
		recv := pcFill(k*n+1, sent)
		pcMust(t, "Alltoall", mpi.Alltoall(c, send, recv))
		pcEq(t, "Alltoall", recv, append(want, sent))
		pcEq(t, "Alltoall send afterwards", send, orig)
	}()

	func() { // Alltoallv
		for _, tc := range []struct {
			name  string
			count func(s, d int) int // how many elements rank s sends to rank d
			gaps  bool
		}{
			{"uneven", func(s, d int) int { return (s + d) % 3 }, false},
			{"uneven_gapped", func(s, d int) int { return (s + d) % 3 }, true},
			// Rank 0 sends nothing (an empty, non-nil send) but receives.
			{"rank0_sends_nothing", func(s, d int) int {
				if s == 0 {
					return 0
				}
				return d + 1
			}, false},
			{"all_empty", func(s, d int) int { return 0 }, false},
		} {
			func() {
				sc, rcnt := make([]int, n), make([]int, n)
				for p := 0; p < n; p++ {
					sc[p], rcnt[p] = tc.count(r, p), tc.count(p, r)
				}
				// place lays parts out in rank order, or in reverse rank order with
				// a gap of one before each.
				place := func(counts []int) ([]int, []int, int) {
					d := make([]int, n)
					off := 0
					if !tc.gaps {
						for p := 0; p < n; p++ {
							d[p] = off
							off += counts[p]
						}
						return nil, d, off
					}
					for p := n - 1; p >= 0; p-- {
						off++
						d[p] = off
						off += counts[p]
					}
					return d, d, off + 1
				}
				sd, sLayout, sLen := place(sc)
				rd, rLayout, rLen := place(rcnt)
				send := pcFill(sLen, sent)
				want := pcFill(rLen, sent)
				for p := 0; p < n; p++ {
					for j := 0; j < sc[p]; j++ {
						send[sLayout[p]+j] = msg(r, p, j)
					}
					for j := 0; j < rcnt[p]; j++ {
						want[rLayout[p]+j] = msg(p, r, j)
					}
				}
				recv := pcFill(rLen, sent)
				pcMust(t, "Alltoallv", mpi.Alltoallv(c, send, sc, sd, recv, rcnt, rd))
				pcEq(t, "Alltoallv "+tc.name, recv, want)
			}()
		}
	}()
}

// testEmpty runs every collective with count 0.
func testEmpty[T mpi.Elem](t *testing.T, c *mpi.Comm) {
	n := c.Size()
	e := []T{}
	zeros := make([]int, n)
	sent := pcV[T](pcSentinel)
	guard := []T{sent} // a non-empty buffer that must stay untouched
	pcMust(t, "Bcast", mpi.Bcast(c, e, 0))
	pcMust(t, "Bcast nil", mpi.Bcast[T](c, nil, n-1))
	pcMust(t, "Allreduce", mpi.Allreduce(c, e, e, mpi.Sum))
	pcMust(t, "Allreduce empty send, longer recv", mpi.Allreduce(c, e, guard, mpi.Sum))
	pcMust(t, "Allreduce in place, empty", mpi.Allreduce(c, nil, e, mpi.Prod))
	pcMust(t, "Reduce", mpi.Reduce(c, e, e, mpi.Sum, 0))
	pcMust(t, "Scan", mpi.Scan(c, e, e, mpi.Sum))
	pcMust(t, "Exscan", mpi.Exscan(c, e, e, mpi.Sum))
	pcMust(t, "ReduceScatter", mpi.ReduceScatter(c, e, e, zeros, mpi.Sum))
	pcMust(t, "Gather", mpi.Gather(c, e, e, 0))
	pcMust(t, "Gatherv", mpi.Gatherv(c, e, e, zeros, nil, n-1))
	pcMust(t, "Allgather", mpi.Allgather(c, e, guard))
	pcMust(t, "Allgatherv", mpi.Allgatherv(c, e, e, zeros, nil))
	pcMust(t, "Scatter", mpi.Scatter(c, e, e, 0))
	pcMust(t, "Scatterv", mpi.Scatterv(c, e, zeros, nil, e, n-1))
	pcMust(t, "Alltoall", mpi.Alltoall(c, e, guard))
	pcMust(t, "Alltoallv", mpi.Alltoallv(c, e, zeros, nil, guard, zeros, nil))
	pcEq(t, "untouched buffer", guard, []T{sent})
}

// testCollectivesFor is every collective check for one element type.
func testCollectivesFor[T mpi.Elem](t *testing.T, c *mpi.Comm) {
	testReductions[T](t, c)
	testMovement[T](t, c)
	testEmpty[T](t, c)
}

// ---- MinLoc and MaxLoc ----

func testLoc[V mpi.LocValue](t *testing.T, c *mpi.Comm) {
	n, r := c.Size(), c.Rank()
	type vi = mpi.ValueIndex[V]
	big := 1 << 40
	if unsafe.Sizeof(V(0)) == 4 {
		big = 1 << 20 // exact in float32, fits int32
	}
	idx := func(k int) int32 { return int32(10*k + 7) }
	in := []vi{
		{V(r + 1), idx(r)},     // distinct values, extremes at ranks 0 and n-1
		{V(r % 2), idx(r)},     // ties: the smaller index wins
		{V(-(r + 1)), idx(r)},  // negative values
		{V(big + r), idx(r)},   // values beyond 32 bits where V allows
		{V(5), int32(100 - r)}, // all equal: the smallest index, from the last rank
		{V(r + 1), -int32(r)},  // negative indices
	}
	last := n - 1
	minWant := []vi{
		{V(1), idx(0)},
		{V(0), idx(0)},
		{V(-n), idx(last)},
		{V(big), idx(0)},
		{V(5), int32(100 - last)},
		{V(1), 0},
	}
	maxWant := []vi{
		{V(n), idx(last)},
		{V(pcB2I(n > 1)), idx(pcB2I(n > 1))},
		{V(-1), idx(0)},
		{V(big + last), idx(last)},
		{V(5), int32(100 - last)},
		{V(n), -int32(last)},
	}
	for _, tc := range []struct {
		op   mpi.Op
		want []vi
	}{{mpi.MinLoc, minWant}, {mpi.MaxLoc, maxWant}} {
		t.Run(tc.op.String(), func(t *testing.T) {
			recv := make([]vi, len(in))
			pcMust(t, "AllreduceLoc", mpi.AllreduceLoc(c, in, recv, tc.op))
			pcEq(t, "AllreduceLoc", recv, tc.want)
			buf := slices.Clone(in)
			pcMust(t, "AllreduceLoc in place", mpi.AllreduceLoc(c, nil, buf, tc.op))
			pcEq(t, "AllreduceLoc in place", buf, tc.want)
			for root := 0; root < n; root++ {
				var recv []vi
				if r == root {
					recv = make([]vi, len(in))
				}
				pcMust(t, "ReduceLoc", mpi.ReduceLoc(c, in, recv, tc.op, root))
				if r == root {
					pcEq(t, fmt.Sprintf("ReduceLoc to root %d", root), recv, tc.want)
					buf := slices.Clone(in)
					pcMust(t, "ReduceLoc in place", mpi.ReduceLoc(c, nil, buf, tc.op, root))
					pcEq(t, fmt.Sprintf("ReduceLoc in place to root %d", root), buf, tc.want)
				} else {
					pcMust(t, "ReduceLoc in place (non-root)", mpi.ReduceLoc(c, in, nil, tc.op, root))
				}
			}
			pcMust(t, "AllreduceLoc empty", mpi.AllreduceLoc(c, []vi{}, []vi{}, tc.op))
		})
	}
}

// ---- the test ----

func TestCollectives(t *testing.T) {
	mpitest.Run(t, func(t *testing.T) {
		w := mpi.World()
		n, r := w.Size(), w.Rank()
		if n > 4 {
			fatalf(t, "the closed forms here assume at most 4 ranks, not %d", n)
		}

		pcTypes(t, w, pcInstances(
			testCollectivesFor[int8], testCollectivesFor[int16], testCollectivesFor[int32],
			testCollectivesFor[int64], testCollectivesFor[int], testCollectivesFor[uint8],
			testCollectivesFor[uint16], testCollectivesFor[uint32], testCollectivesFor[uint64],
			testCollectivesFor[uint], testCollectivesFor[float32], testCollectivesFor[float64],
			testCollectivesFor[complex64], testCollectivesFor[complex128],
			testCollectivesFor[pcCelsius], testCollectivesFor[pcFlags],
		))

		t.Run("Loc/float64", func(t *testing.T) { testLoc[float64](t, w) })
		t.Run("Loc/float32", func(t *testing.T) { testLoc[float32](t, w) })
		t.Run("Loc/int32", func(t *testing.T) { testLoc[int32](t, w) })
		t.Run("Loc/int64", func(t *testing.T) { testLoc[int64](t, w) })

		t.Run("FloatValues", func(t *testing.T) {
			// Non-integer values, extremes and infinities travel exactly.
			send := []float64{0.5 * float64(r+1), math.MaxFloat64 / 8, -math.SmallestNonzeroFloat64 * float64(r+1), math.Inf(1 - 2*(r%2))}
			got := make([]float64, len(send))
			pcMust(t, "Allreduce Max", mpi.Allreduce(w, send, got, mpi.Max))
			wantInf := math.Inf(1)
			pcEq(t, "Allreduce Max float64", got, []float64{0.5 * float64(n), math.MaxFloat64 / 8, -math.SmallestNonzeroFloat64, wantInf})
			pcMust(t, "Allreduce Min", mpi.Allreduce(w, send, got, mpi.Min))
			wantMinInf := math.Inf(1)
			if n > 1 {
				wantMinInf = math.Inf(-1)
			}
			pcEq(t, "Allreduce Min float64", got, []float64{0.5, math.MaxFloat64 / 8, -math.SmallestNonzeroFloat64 * float64(n), wantMinInf})
			// Sum of halves: n(n+1)/4 exactly.
			half := []float32{0.5 * float32(r+1)}
			sum := []float32{0}
			pcMust(t, "Allreduce Sum", mpi.Allreduce(w, half, sum, mpi.Sum))
			pcEq(t, "Allreduce Sum float32 halves", sum, []float32{float32(n*(n+1)) / 4})
			// Prod of halves: n!/2^n exactly.
			prod := []float64{0}
			pcMust(t, "Allreduce Prod", mpi.Allreduce(w, []float64{0.5 * float64(r+1)}, prod, mpi.Prod))
			pcEq(t, "Allreduce Prod float64 halves", prod, []float64{float64(pcFact(n)) / float64(int(1)<<n)})
		})

		t.Run("Wide", func(t *testing.T) {
			// Values that need the full width of the type.
			got64 := []int64{0, 0}
			pcMust(t, "Allreduce", mpi.Allreduce(w, []int64{int64(r+1) << 40, math.MinInt64 + int64(r)}, got64, mpi.Sum))
			pcEq(t, "Allreduce int64 wide", got64[:1], []int64{int64(n*(n+1)/2) << 40})
			pcMust(t, "Allreduce", mpi.Allreduce(w, []int64{int64(r+1) << 40, math.MinInt64 + int64(r)}, got64, mpi.Min))
			pcEq(t, "Allreduce int64 Min wide", got64, []int64{1 << 40, math.MinInt64})
			gotU := []uint64{0}
			pcMust(t, "Allreduce", mpi.Allreduce(w, []uint64{math.MaxUint64 - uint64(r)}, gotU, mpi.Max))
			pcEq(t, "Allreduce uint64 Max wide", gotU, []uint64{math.MaxUint64})
			pcMust(t, "Allreduce", mpi.Allreduce(w, []uint64{1 << (60 + r)}, gotU, mpi.Bor))
			pcEq(t, "Allreduce uint64 Bor wide", gotU, []uint64{(1<<n - 1) << 60})
			gotU8 := []uint8{0}
			pcMust(t, "Allreduce", mpi.Allreduce(w, []uint8{0xff - uint8(r)}, gotU8, mpi.Min))
			pcEq(t, "Allreduce uint8 Min high values", gotU8, []uint8{0xff - uint8(n-1)})
			gotI8 := []int8{0}
			pcMust(t, "Allreduce", mpi.Allreduce(w, []int8{-128 + int8(r)}, gotI8, mpi.Min))
			pcEq(t, "Allreduce int8 Min", gotI8, []int8{-128})
			// Band of a negative pattern: -1 (all ones) and ^(1<<r).
			pcMust(t, "Allreduce", mpi.Allreduce(w, []int8{^int8(1 << r)}, gotI8, mpi.Band))
			pcEq(t, "Allreduce int8 Band negative", gotI8, []int8{^int8(1<<n - 1)})
		})

		t.Run("Long", func(t *testing.T) {
			// A vector long enough for Open MPI to pick other algorithms.
			const m = 1 << 16
			send := make([]int32, m)
			for i := range send {
				send[i] = int32(i*(r+1)) % 1000
			}
			got := make([]int32, m)
			pcMust(t, "Allreduce", mpi.Allreduce(w, send, got, mpi.Sum))
			bad := 0
			for i := range got {
				if got[i] != wantLongSum(i, n) {
					bad++
				}
			}
			if bad > 0 {
				t.Errorf("rank %d: Allreduce of %d int32: %d elements wrong", r, m, bad)
			}
			buf := make([]float64, m)
			if r == n-1 {
				for i := range buf {
					buf[i] = float64(i) + 0.25
				}
			}
			pcMust(t, "Bcast", mpi.Bcast(w, buf, n-1))
			for i := range buf {
				if buf[i] != float64(i)+0.25 {
					t.Errorf("rank %d: Bcast long: buf[%d] = %v, want %v", r, i, buf[i], float64(i)+0.25)
					break
				}
			}
		})

		t.Run("Nonblocking", func(t *testing.T) {
			// Iallreduce gives Allreduce's sums, from a send buffer and in place.
			got := []int64{-1, -1}
			req, err := mpi.Iallreduce(w, []int64{int64(r + 1), int64(r) << 33}, got, mpi.Sum)
			pcMust(t, "Iallreduce", err)
			_, err = req.Wait()
			pcMust(t, "Iallreduce Wait", err)
			pcEq(t, "Iallreduce Sum", got, []int64{int64(n * (n + 1) / 2), int64(n*(n-1)/2) << 33})
			inPlace := []float64{float64(r) + 0.5}
			req, err = mpi.Iallreduce(w, nil, inPlace, mpi.Max)
			pcMust(t, "Iallreduce in place", err)
			for done := false; !done; {
				done, _, err = req.Test()
				pcMust(t, "Iallreduce Test", err)
			}
			pcEq(t, "Iallreduce Max in place", inPlace, []float64{float64(n) - 0.5})
			_, err = mpi.Iallreduce(w, []int32{1, 2}, []int32{0}, mpi.Sum)
			pcArgErr(t, "Iallreduce into a short recv", err, "recv")

			// An Ibarrier does not complete on any rank before rank 0 has
			// entered it, and rank 0 enters it only once every other rank
			// has tested its own.
			var bar *mpi.Request
			if r != 0 {
				bar, err = w.Ibarrier()
				pcMust(t, "Ibarrier", err)
				done, _, err := bar.Test()
				pcMust(t, "Ibarrier Test", err)
				if done {
					t.Errorf("rank %d: Ibarrier complete before rank 0 entered it", r)
				}
				pcMust(t, "Send", mpi.Send(w, []int32{int32(r)}, 0, 77))
			} else {
				for range n - 1 {
					_, err := mpi.Recv(w, []int32{0}, mpi.AnySource, 77)
					pcMust(t, "Recv", err)
				}
				bar, err = w.Ibarrier()
				pcMust(t, "Ibarrier", err)
			}
			_, err = bar.Wait()
			pcMust(t, "Ibarrier Wait", err)
		})

		t.Run("UserOp", func(t *testing.T) { testUserOp(t, w) })
		t.Run("SubComm", func(t *testing.T) {
			// Collectives on a communicator smaller than World use its own
			// ranks and size: even and odd ranks of World.
			sub, err := w.Split(r%2, r)
			pcMust(t, "Split", err)
			m := (n + 1 - r%2) / 2 // ranks of my parity
			if sub.Size() != m || sub.Rank() != r/2 {
				t.Errorf("rank %d: sub communicator rank %d of %d, want %d of %d", r, sub.Rank(), sub.Size(), r/2, m)
			}
			got := []int{0}
			pcMust(t, "Allreduce", mpi.Allreduce(sub, []int{r}, got, mpi.Sum))
			// Sum of the ranks of my parity below n: p + (p+2) + ... .
			want := 0
			for k := r % 2; k < n; k += 2 {
				want += k
			}
			pcEq(t, "Allreduce on a sub communicator", got, []int{want})
			all := make([]int, m)
			pcMust(t, "Allgather", mpi.Allgather(sub, []int{r}, all))
			wantAll := make([]int, m)
			for j := range wantAll {
				wantAll[j] = 2*j + r%2
			}
			pcEq(t, "Allgather on a sub communicator", all, wantAll)
			pcMust(t, "Free", sub.Free())
			self := []float64{0}
			pcMust(t, "Allreduce on Self", mpi.Allreduce(mpi.Self(), []float64{float64(r) + 0.5}, self, mpi.Sum))
			pcEq(t, "Allreduce on Self", self, []float64{float64(r) + 0.5})
		})
	})
}

// wantLongSum is the Sum over ranks k < n of (i·(k+1)) % 1000.
func wantLongSum(i, n int) int32 {
	s := 0
	for k := 0; k < n; k++ {
		s += (i * (k + 1)) % 1000
	}
	return int32(s)
}

// digits encodes a decimal string as its value·16 + its length; concat joins
// two (in first): associative, not commutative, so it shows the order in
// which a reduction combined the ranks.
func digits(s string) int64 {
	v, _ := strconv.ParseInt(s, 10, 64)
	return v*16 + int64(len(s))
}

func concat(in, inout []int64) {
	for i, b := range inout {
		a := in[i]
		p := int64(1)
		for range b % 16 {
			p *= 10
		}
		inout[i] = ((a/16)*p+b/16)*16 + a%16 + b%16
	}
}

// ranksUpTo is "12…(k)": the digits of ranks 0..k-1, each plus one.
func ranksUpTo(k int) string {
	var b strings.Builder
	for i := range k {
		b.WriteByte(byte('1' + i))
	}
	return b.String()
}

func testUserOp(t *testing.T, w *mpi.Comm) {
	n, r := w.Size(), w.Rank()
	op, err := mpi.NewOp(concat, false)
	pcMust(t, "NewOp", err)
	mine := digits(strconv.Itoa(r + 1))

	// Every reduction combines the ranks in rank order; the second element
	// shows it per element.
	got := make([]int64, 2)
	pcMust(t, "Allreduce", mpi.Allreduce(w, []int64{mine, mine}, got, op))
	pcEq(t, "Allreduce with a user-defined operator", got, []int64{digits(ranksUpTo(n)), digits(ranksUpTo(n))})
	got = []int64{mine}
	pcMust(t, "Allreduce in place", mpi.Allreduce(w, nil, got, op))
	pcEq(t, "Allreduce in place", got, []int64{digits(ranksUpTo(n))})
	root := n - 1
	got = []int64{0}
	pcMust(t, "Reduce", mpi.Reduce(w, []int64{mine}, got, op, root))
	if r == root {
		pcEq(t, "Reduce with a user-defined operator", got, []int64{digits(ranksUpTo(n))})
	}
	pcMust(t, "Scan", mpi.Scan(w, []int64{mine}, got, op))
	pcEq(t, "Scan with a user-defined operator", got, []int64{digits(ranksUpTo(r + 1))})
	got = []int64{-1}
	pcMust(t, "Exscan", mpi.Exscan(w, []int64{mine}, got, op))
	if r > 0 {
		pcEq(t, "Exscan with a user-defined operator", got, []int64{digits(ranksUpTo(r))})
	}
	send := make([]int64, n)
	for i := range send {
		send[i] = mine
	}
	counts := make([]int, n)
	for i := range counts {
		counts[i] = 1
	}
	got = []int64{0}
	pcMust(t, "ReduceScatter", mpi.ReduceScatter(w, send, got, counts, op))
	pcEq(t, "ReduceScatter with a user-defined operator", got, []int64{digits(ranksUpTo(n))})

	// A float64 operator: the sum, combined in rank order.
	sum, err := mpi.NewOp(func(in, inout []float64) {
		for i, v := range in {
			inout[i] += v
		}
	}, true)
	pcMust(t, "NewOp", err)
	f := []float64{float64(r) + 0.5}
	pcMust(t, "Allreduce", mpi.Allreduce(w, nil, f, sum))
	pcEq(t, "Allreduce of a user-defined sum", f, []float64{float64(n*(n-1))/2 + 0.5*float64(n)})

	// Misuse: another element type, a nonblocking reduction, a freed
	// operator, a second Free, a predefined Free.
	pcArgErr(t, "Allreduce of float64 with an int64 operator", mpi.Allreduce(w, nil, f, op), "op")
	_, err = mpi.Iallreduce(w, nil, got, op)
	pcArgErr(t, "Iallreduce with a user-defined operator", err, "op")
	pcMust(t, "Free", op.Free())
	pcArgErr(t, "Allreduce with a freed operator", mpi.Allreduce(w, nil, got, op), "op")
	pcArgErr(t, "a second Free", op.Free(), "op")
	pcArgErr(t, "Free of Sum", mpi.Sum.Free(), "op")
	pcMust(t, "Free", sum.Free())

	// The slots run out, and come back when freed.
	var ops []mpi.Op
	for range 64 {
		o, err := mpi.NewOp(concat, false)
		if err != nil {
			pcArgErr(t, "NewOp past the slots", err, "f")
			break
		}
		ops = append(ops, o)
	}
	if len(ops) == 64 {
		t.Errorf("64 user-defined operators at once; want an error past the slots")
	}
	for _, o := range ops {
		pcMust(t, "Free", o.Free())
	}
	again, err := mpi.NewOp(concat, false)
	pcMust(t, "NewOp after freeing", err)
	pcMust(t, "Free", again.Free())
}
