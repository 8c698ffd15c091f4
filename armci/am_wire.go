package armci

import "encoding/binary"

// The wire format of active messages: a request's header words and the
// shapes of its remote side, and how payloads are packed.

// encode lays out a request: the number of header words, the words, then
// the inline payload.
func encode(h []int64, payload []byte) []byte {
	b := make([]byte, 8*(len(h)+1)+len(payload))
	binary.LittleEndian.PutUint64(b, uint64(len(h)))
	for i, w := range h {
		binary.LittleEndian.PutUint64(b[8*(i+1):], uint64(w))
	}
	copy(b[8*(len(h)+1):], payload)
	return b
}

func decode(b []byte) (h []int64, payload []byte) {
	n := int(binary.LittleEndian.Uint64(b))
	h = make([]int64, n)
	for i := range h {
		h[i] = int64(binary.LittleEndian.Uint64(b[8*(i+1):]))
	}
	return h, b[8*(n+1):]
}

// The header words of a request.
const (
	hOp    = iota // operation
	hID           // the part's id at the target
	hReply        // reply tag, or 0
	hBytes        // payload bytes
	hFlags        // flagFollows | element code << 8 | rmw kind << 16
	hOff          // byte offset of the remote side
	hShape        // shapeContig, shapeStrided or shapeList
	hRest         // scale (2 words), then the shape's description
)

const flagFollows = 1

// walk calls f with the remote byte offset, packed offset and length of each
// block of a request's remote side.
func walk(h []int64, f func(remote, packed, n int)) {
	off, n := int(h[hOff]), int(h[hBytes])
	d := h[hRest+2:]
	switch h[hShape] {
	case shapeContig:
		f(off, 0, n)
	case shapeStrided:
		levels := int(d[0])
		p := Strided{Count: make([]int, levels+1), RemoteStride: make([]int, levels), LocalStride: make([]int, levels)}
		for i := range p.Count {
			p.Count[i] = int(d[1+i])
		}
		for i := range levels {
			p.RemoteStride[i] = int(d[2+levels+i])
		}
		packedStrides(p.Count, p.LocalStride)
		p.blocks(func(l, r int) { f(off+r, l, p.Count[0]) })
	case shapeList:
		size, q := int(d[0]), 0
		for _, r := range d[1:] {
			f(int(r), q, size)
			q += size
		}
	}
}

// scatter puts a packed payload into mem for the commonest strided shape,
// one level of blocks (a column of a row-major block, a ghost face),
// without walk's calls per block, and reports whether the shape was that.
// A ghost column of 2048 elements spent more time in those calls than in
// its copies.
func scatter(h []int64, mem, payload []byte) bool {
	d := h[hRest+2:]
	if h[hShape] != shapeStrided || d[0] != 1 {
		return false
	}
	off, n, count, stride := int(h[hOff]), int(d[1]), int(d[2]), int(d[3])
	for i := range count {
		copyBytes(mem[off+i*stride:off+i*stride+n], payload[i*n:(i+1)*n])
	}
	return true
}

// packedStrides fills s with the strides of count's patch packed densely.
func packedStrides(count []int, s []int) {
	n := count[0]
	for i := range s {
		s[i] = n
		n *= count[i+1]
	}
}

// amShape is the remote side of a request: one block at an offset, a strided
// patch, or a list of equal blocks.
type amShape struct {
	off     int
	strided *Strided
	size    int   // a list's block size
	list    []int // a list's remote offsets
}

// stridedShape is the remote side of a strided patch at off: one block
// where the patch is dense there (a ghost face packed by its owner, say),
// so that the owner moves it in place.
func stridedShape(off int, p *Strided) amShape {
	if !dense(p.Count, p.RemoteStride) {
		return amShape{off: off, strided: p}
	}
	return amShape{off: off}
}

// dense reports whether a patch of count with the given strides is one
// block of memory.
func dense(count, strides []int) bool {
	n := count[0]
	for i, st := range strides {
		if st != n && count[i+1] > 1 {
			return false
		}
		n *= count[i+1]
	}
	return true
}

func (sh amShape) words() []int64 {
	switch {
	case sh.strided != nil:
		p := sh.strided
		w := []int64{shapeStrided, int64(len(p.Count) - 1)}
		for _, c := range p.Count {
			w = append(w, int64(c))
		}
		for _, s := range p.RemoteStride {
			w = append(w, int64(s))
		}
		return w
	case sh.list != nil:
		w := make([]int64, 0, 2+len(sh.list))
		w = append(w, shapeList, int64(sh.size))
		for _, r := range sh.list {
			w = append(w, int64(r))
		}
		return w
	}
	return []int64{shapeContig}
}

// packStrided copies the blocks of a strided patch of b into one dense buffer.
func packStrided(b []byte, p Strided) []byte {
	if dense(p.Count, p.LocalStride) {
		return b[:p.Bytes()] // packed already (a ghost face its owner packed)
	}
	q := Strided{Count: p.Count, LocalStride: p.LocalStride, RemoteStride: make([]int, len(p.LocalStride))}
	packedStrides(p.Count, q.RemoteStride)
	out, n := make([]byte, p.Bytes()), p.Count[0]
	q.blocks(func(l, k int) { copy(out[k:k+n], b[l:l+n]) })
	return out
}

// lists calls f with runs of the pieces of vecs, each run of one IOVec and
// at most maxPiece bytes (a piece larger than that alone, split), as the
// local offsets, remote offsets and size of its pieces.
func lists(vecs []IOVec, f func(local, remote []int, size int) error) error {
	for _, v := range vecs {
		if v.Bytes == 0 {
			continue
		}
		if v.Bytes > maxPiece {
			for i := range v.Local {
				err := inPieces(v.Bytes, func(o, n int) error { return f([]int{v.Local[i] + o}, []int{v.Remote[i] + o}, n) })
				if err != nil {
					return err
				}
			}
			continue
		}
		step := maxPiece / v.Bytes
		for i := 0; i < len(v.Local); i += step {
			j := min(i+step, len(v.Local))
			if err := f(v.Local[i:j], v.Remote[i:j], v.Bytes); err != nil {
				return err
			}
		}
	}
	return nil
}

func packList(b []byte, local []int, size int) []byte {
	out := make([]byte, len(local)*size)
	for i, l := range local {
		copy(out[i*size:], b[l:l+size])
	}
	return out
}
