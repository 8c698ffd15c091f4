package armci

import (
	"math"
	"slices"

	"github.com/goga-hpc/goga/mpi"
)

// MaxStrideLevels is the deepest strided patch (ARMCI's limit).
const MaxStrideLevels = 7

// Strided describes a strided patch as ARMCI's PutS, GetS and AccS take it:
// Count[0] contiguous bytes, repeated Count[1] times at LocalStride[0] bytes
// apart in the local buffer and RemoteStride[0] bytes apart in the segment,
// the whole repeated Count[2] times at LocalStride[1] and RemoteStride[1], and
// so on: len(Count) is the number of stride levels plus one, at most
// MaxStrideLevels plus one. (ARMCI's src and dst strides are LocalStride and
// RemoteStride for a put, the other way round for a get.)
type Strided struct {
	Count        []int
	LocalStride  []int
	RemoteStride []int
}

// Bytes returns the number of bytes the patch moves.
func (p Strided) Bytes() int {
	n := 1
	for _, c := range p.Count {
		n *= c
	}
	return n
}

// extent returns the bytes from the first to just past the last byte the patch
// touches with the given strides (0 for an empty patch).
func (p Strided) extent(stride []int) int {
	if p.Bytes() == 0 {
		return 0
	}
	e := p.Count[0]
	for i, s := range stride {
		e += (p.Count[i+1] - 1) * s
	}
	return e
}

func (p Strided) check(op string, elem int) error {
	levels := len(p.Count) - 1
	switch {
	case levels < 0:
		return argErr(op, "Count", "empty")
	case levels > MaxStrideLevels:
		return argErr(op, "Count", "%d stride levels; at most %d", levels, MaxStrideLevels)
	case len(p.LocalStride) != levels:
		return argErr(op, "LocalStride", "%d strides for %d levels", len(p.LocalStride), levels)
	case len(p.RemoteStride) != levels:
		return argErr(op, "RemoteStride", "%d strides for %d levels", len(p.RemoteStride), levels)
	}
	for i, c := range p.Count {
		if c < 0 {
			return argErr(op, "Count", "Count[%d] = %d is negative", i, c)
		}
	}
	for i := range levels {
		for _, side := range [...]struct {
			name   string
			stride int
		}{{"LocalStride", p.LocalStride[i]}, {"RemoteStride", p.RemoteStride[i]}} {
			if side.stride < 0 {
				return argErr(op, side.name, "%s[%d] = %d is negative", side.name, i, side.stride)
			}
			if elem > 1 && side.stride%elem != 0 {
				return argErr(op, side.name, "%s[%d] = %d is not a multiple of the element size %d", side.name, i, side.stride, elem)
			}
		}
	}
	// A byte count or extent that wraps around int would pass every bound
	// below and then walk (or copy) far past them.
	total := 1
	for _, c := range p.Count {
		if c > 0 && total > math.MaxInt/c {
			return argErr(op, "Count", "%v: the patch has more than %d bytes", p.Count, math.MaxInt)
		}
		total *= c
	}
	if total > 0 {
		for _, side := range [...]struct {
			name    string
			strides []int
		}{{"LocalStride", p.LocalStride}, {"RemoteStride", p.RemoteStride}} {
			e := p.Count[0]
			for i, st := range side.strides {
				step := p.Count[i+1] - 1
				if step > 0 && st > (math.MaxInt-e)/step {
					return argErr(op, side.name, "%v with counts %v spans more than %d bytes", side.strides, p.Count, math.MaxInt)
				}
				e += step * st
			}
		}
	}
	if elem > 1 && p.Count[0]%elem != 0 {
		return argErr(op, "Count", "Count[0] = %d bytes is not a whole number of %d-byte elements", p.Count[0], elem)
	}
	return nil
}

// blocks calls f with the local and remote byte offsets of every contiguous
// block of the patch, in order.
func (p Strided) blocks(f func(local, remote int)) {
	levels := len(p.Count) - 1
	if p.Bytes() == 0 {
		return
	}
	var idx [MaxStrideLevels]int
	for {
		l, r := 0, 0
		for i := range levels {
			l += idx[i] * p.LocalStride[i]
			r += idx[i] * p.RemoteStride[i]
		}
		f(l, r)
		i := 0
		for ; i < levels; i++ {
			idx[i]++
			if idx[i] < p.Count[i+1] {
				break
			}
			idx[i] = 0
		}
		if i == levels {
			return
		}
	}
}

// pieces calls f with sub-patches of p of at most maxPiece bytes each that
// together make p, in order, with the byte offsets of each in the local and
// remote buffers; it stops at the first error. It splits the outermost level
// first, into runs of whole inner patches.
func (p Strided) pieces(f func(q Strided, local, remote int) error) error {
	if p.Bytes() <= maxPiece {
		return f(p, 0, 0)
	}
	top := len(p.Count) - 1
	if top == 0 {
		return inPieces(p.Count[0], func(o, n int) error { return f(Strided{Count: []int{n}}, o, o) })
	}
	inner := Strided{Count: p.Count[:top], LocalStride: p.LocalStride[:top-1], RemoteStride: p.RemoteStride[:top-1]}
	step := max(1, maxPiece/inner.Bytes())
	for i := 0; i < p.Count[top]; i += step {
		q := inner
		if step > 1 {
			q = Strided{Count: append(slices.Clone(inner.Count), min(step, p.Count[top]-i)),
				LocalStride: p.LocalStride, RemoteStride: p.RemoteStride}
		}
		l, r := i*p.LocalStride[top-1], i*p.RemoteStride[top-1]
		if err := q.pieces(func(q Strided, ql, qr int) error { return f(q, l+ql, r+qr) }); err != nil {
			return err
		}
	}
	return nil
}

// checkStrided validates a strided call on a local buffer of n bytes.
func (s *Segment) checkStrided(op string, rank, off int, p Strided, n, elem int) error {
	if err := s.valid(op); err != nil {
		return err
	}
	if err := p.check(op, elem); err != nil {
		return err
	}
	if e := p.extent(p.LocalStride); e > n {
		return argErr(op, "local", "buffer of %d bytes; the patch spans %d", n, e)
	}
	if err := s.span(op, rank, off, p.extent(p.RemoteStride)); err != nil {
		return err
	}
	if elem > 1 && off%elem != 0 {
		return argErr(op, "offset", "%d is not a multiple of the element size %d", off, elem)
	}
	return nil
}

// types builds the MPI datatypes of the local and remote sides.
func (p Strided) types() (local, remote *mpi.Datatype, err error) {
	if local, err = mpi.TypeStrided[byte](p.Count, p.LocalStride); err != nil {
		return nil, nil, err
	}
	if remote, err = mpi.TypeStrided[byte](p.Count, p.RemoteStride); err != nil {
		local.Free()
		return nil, nil, err
	}
	return local, remote, nil
}

// typedPieces calls f for each piece of p (see pieces) with local from the
// piece's start on, the piece's local and remote datatypes, and its remote
// byte offset.
func (p Strided) typedPieces(local []byte, f func(local []byte, lt *mpi.Datatype, remote int, rt *mpi.Datatype) error) error {
	return p.pieces(func(q Strided, l, r int) error {
		lt, rt, err := q.types()
		if err != nil {
			return err
		}
		defer freeTypes(lt, rt) // MPI keeps them alive until the operation completes
		return f(local[l:], lt, r, rt)
	})
}

func freeTypes(a, b *mpi.Datatype) {
	a.Free()
	b.Free()
}

// PutS copies a strided patch of local into rank's part of s from byte offset
// off on (ARMCI_PutS).
func PutS[T mpi.Elem](s *Segment, rank, off int, local []T, p Strided) error {
	b := bytesOf(local)
	if err := s.checkStrided("PutS", rank, off, p, len(b), 1); err != nil {
		return err
	}
	_, err := s.to[rank].putS(off, b, p, true)
	return err
}

// GetS copies a strided patch from rank's part of s at byte offset off into
// local (ARMCI_GetS).
func GetS[T mpi.Elem](s *Segment, rank, off int, local []T, p Strided) error {
	b := bytesOf(local)
	if err := s.checkStrided("GetS", rank, off, p, len(b), 1); err != nil {
		return err
	}
	_, err := s.to[rank].getS(off, b, p, true)
	return err
}

// AccS adds scale times a strided patch of local to rank's part of s from byte
// offset off on (ARMCI_AccS). Counts, strides and off must be whole elements.
func AccS[T AccElem](s *Segment, rank, off int, local []T, p Strided, scale T) error {
	b := bytesOf(local)
	es := sizeOf[T]()
	if err := s.checkStrided("AccS", rank, off, p, len(b), es); err != nil {
		return err
	}
	if p.Bytes() == 0 {
		return nil
	}
	// The processor's accumulate inline where it is the part's atomics, as
	// in Acc: through accKind's dictionary, a 128-byte patch took a quarter
	// longer.
	if m := s.near[rank]; m != nil && m.lock != nil {
		dst, n := m.part[off:], p.Count[0]/es
		lockWord(m.lock)
		p.blocks(func(l, r int) { accumulate(elems[T](&dst[r], n), local[l/es:l/es+n], scale) })
		unlockWord(m.lock)
		return nil
	}
	return s.at[rank].accS(off, b, p, kindOf[T]{}, scaleWords(scale))
}
