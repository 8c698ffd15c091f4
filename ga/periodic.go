package ga

import "github.com/goga-hpc/goga/internal/layout"

// span is the piece of one dimension of a periodic patch that falls in one
// period: indices [lo, hi] of the array, at offset buf along the buffer.
type span struct{ lo, hi, buf int }

// periodicSpans splits [lo, hi] of a dimension of extent n, which may reach one
// period beyond either end ([-n, 2n-1]) but span at most n, into the pieces
// that wrap back into [0, n-1].
func periodicSpans(lo, hi, n int) []span {
	var out []span
	for i := lo; i <= hi; {
		shift := 0
		switch {
		case i < 0:
			shift = n
		case i >= n:
			shift = -n
		}
		// The end of this period's piece.
		end := hi
		if i < 0 {
			end = min(hi, -1)
		} else if i < n {
			end = min(hi, n-1)
		}
		out = append(out, span{lo: i + shift, hi: end + shift, buf: i - lo})
		i = end + 1
	}
	return out
}

// periodic splits a periodic patch into ordinary patches and calls f with each
// one and the element offset of its data in the caller's buffer.
func (a *Array[T]) periodic(op string, lo, hi, ld []int, n int, f func(plo, phi []int, off int, ld []int) error) error {
	if err := a.valid(op); err != nil {
		return err
	}
	nd := len(a.dims)
	if len(lo) != nd || len(hi) != nd {
		return errorf(op, a.name, "lo %v and hi %v for a %d-dimensional array", lo, hi, nd)
	}
	for d := range nd {
		if lo[d] > hi[d] || lo[d] < -a.dims[d] || hi[d] > 2*a.dims[d]-1 || hi[d]-lo[d]+1 > a.dims[d] {
			return errorf(op, a.name, "periodic patch lo %v hi %v: along dimension %d it must lie in [%d, %d] and span at most %d", lo, hi, d, -a.dims[d], 2*a.dims[d]-1, a.dims[d])
		}
	}
	// The buffer's shape is that of the whole request.
	count := make([]int, nd)
	for d := range nd {
		count[d] = hi[d] - lo[d] + 1
	}
	var b layout.Buffer
	if err := a.bufferOf(op, count, ld, n, lo, hi, &b); err != nil {
		return err
	}
	pitch := b.Pitch[:nd]
	if ld == nil {
		ld = count[1:]
	}
	spans := make([][]span, nd)
	for d := range nd {
		spans[d] = periodicSpans(lo[d], hi[d], a.dims[d])
	}
	idx := make([]int, nd)
	plo, phi := make([]int, nd), make([]int, nd)
	for {
		off := 0
		for d := range nd {
			s := spans[d][idx[d]]
			plo[d], phi[d] = s.lo, s.hi
			off += s.buf * pitch[d]
		}
		if err := f(plo, phi, off, ld); err != nil {
			return err
		}
		d := nd - 1
		for ; d >= 0; d-- {
			if idx[d]++; idx[d] < len(spans[d]) {
				break
			}
			idx[d] = 0
		}
		if d < 0 {
			return nil
		}
	}
}

// PeriodicGet is Get of a patch that may wrap around the array's ends, as if
// the array repeated once on every side (NGA_Periodic_get): lo and hi may
// reach from -dims[d] to 2·dims[d]-1, spanning at most dims[d].
func (a *Array[T]) PeriodicGet(lo, hi []int, buf []T, ld []int) error {
	return a.periodic("PeriodicGet", lo, hi, ld, len(buf), func(plo, phi []int, off int, ld []int) error {
		return a.Get(plo, phi, buf[off:], ld)
	})
}

// PeriodicPut is Put with wrap-around (NGA_Periodic_put; see PeriodicGet).
func (a *Array[T]) PeriodicPut(lo, hi []int, buf []T, ld []int) error {
	return a.periodic("PeriodicPut", lo, hi, ld, len(buf), func(plo, phi []int, off int, ld []int) error {
		return a.Put(plo, phi, buf[off:], ld)
	})
}

// PeriodicAcc is Acc with wrap-around (NGA_Periodic_acc; see PeriodicGet).
func (a *Array[T]) PeriodicAcc(lo, hi []int, buf []T, ld []int, alpha T) error {
	return a.periodic("PeriodicAcc", lo, hi, ld, len(buf), func(plo, phi []int, off int, ld []int) error {
		return a.Acc(plo, phi, buf[off:], ld, alpha)
	})
}
