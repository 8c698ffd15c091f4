package dra

import (
	"encoding/binary"
	"fmt"
	"hash/crc64"
	"math/bits"
	"unsafe"

	"github.com/goga-hpc/goga/ga"
)

// The file format (see the package documentation): a header, padded to
// headerAlign bytes, then the array's elements in C order, little-endian.
const (
	magic       = "GOGADRA\x00"
	version     = 1
	headerAlign = 4096
	fixedHeader = 40 // magic, version, type, byte order, ndim, data offset, tiles
	littleEnd   = 1
	// tileBytes is the default tile's size when Create gets no request
	// shape: large enough that the checksum table stays small, small enough
	// that an unaligned section reads little more than itself.
	tileBytes = 1 << 20
	maxTiles  = 1 << 16
)

var crcTable = crc64.MakeTable(crc64.ECMA)

// typeCode numbers the six element types in the header.
func typeCode[T ga.Elem]() (code int, name string) {
	switch any(*new(T)).(type) {
	case int32:
		return 1, "int32"
	case int64:
		return 2, "int64"
	case float32:
		return 3, "float32"
	case float64:
		return 4, "float64"
	case complex64:
		return 5, "complex64"
	case complex128:
		return 6, "complex128"
	}
	return 0, fmt.Sprintf("%T", *new(T))
}

var typeNames = []string{"", "int32", "int64", "float32", "float64", "complex64", "complex128"}

func elemSize[T ga.Elem]() int { return int(unsafe.Sizeof(*new(T))) }

// header is what a file says about itself.
type header struct {
	typ   int // typeCode
	dims  []int
	tile  []int // the tile shape: checksums are kept per tile
	name  string
	sums  []uint64 // one checksum per tile, tiles in C order
	size  int      // bytes of the header, padded: where the data starts
	esize int      // bytes per element
}

// layoutSize is the padded size of a header with these fields.
func headerSize(ndim int, name string, tiles int) int {
	n := fixedHeader + 16*ndim + 4 + len(name) + 8*tiles + 8
	return (n + headerAlign - 1) / headerAlign * headerAlign
}

// tileGrid is the number of tiles along each dimension.
func (h *header) tileGrid() []int {
	g := make([]int, len(h.dims))
	for d := range g {
		g[d] = (h.dims[d] + h.tile[d] - 1) / h.tile[d]
	}
	return g
}

// tileBox returns tile k's section of the array.
func (h *header) tileBox(k int) (lo, hi []int) {
	g := h.tileGrid()
	lo, hi = make([]int, len(g)), make([]int, len(g))
	for d := len(g) - 1; d >= 0; d-- {
		c := k % g[d]
		k /= g[d]
		lo[d] = c * h.tile[d]
		hi[d] = min(lo[d]+h.tile[d], h.dims[d]) - 1
	}
	return lo, hi
}

// expand returns the smallest section made of whole tiles that holds
// [lo, hi].
func (h *header) expand(lo, hi []int) (blo, bhi []int) {
	blo, bhi = make([]int, len(lo)), make([]int, len(lo))
	for d := range lo {
		blo[d] = lo[d] / h.tile[d] * h.tile[d]
		bhi[d] = min((hi[d]/h.tile[d]+1)*h.tile[d], h.dims[d]) - 1
	}
	return blo, bhi
}

// tilesOf returns the tiles that [lo, hi] (made of whole tiles) covers.
func (h *header) tilesOf(lo, hi []int) []int {
	g := h.tileGrid()
	var out []int
	var walk func(d, k int)
	walk = func(d, k int) {
		if d == len(g) {
			out = append(out, k)
			return
		}
		for c := lo[d] / h.tile[d]; c <= hi[d]/h.tile[d]; c++ {
			walk(d+1, k*g[d]+c)
		}
	}
	walk(0, 0)
	return out
}

// chooseTile picks the tile shape: the request shape when given (clipped
// to the array), else rows of about tileBytes; then doubled along its
// dimension with the most tiles until there are at most maxTiles.
func chooseTile(dims, req []int, esize int) []int {
	t := make([]int, len(dims))
	if req != nil {
		for d := range t {
			t[d] = min(max(req[d], 1), dims[d])
		}
	} else {
		left := max(tileBytes/esize, 1)
		for d := len(dims) - 1; d >= 0; d-- {
			t[d] = min(dims[d], left)
			left = max(left/t[d], 1)
		}
	}
	for {
		n, most, at := 1, 0, 0
		for d := range t {
			k := (dims[d] + t[d] - 1) / t[d]
			n *= k
			if k > most {
				most, at = k, d
			}
		}
		if n <= maxTiles {
			return t
		}
		t[at] = min(2*t[at], dims[at])
	}
}

// encode writes h into a buffer of h.size bytes, ending (at the end of its
// fields, before the padding) with a CRC-64 of everything before.
func (h *header) encode() []byte {
	b := make([]byte, 0, h.size)
	le := binary.LittleEndian
	b = append(b, magic...)
	b = le.AppendUint32(b, version)
	b = le.AppendUint32(b, uint32(h.typ))
	b = le.AppendUint32(b, littleEnd)
	b = le.AppendUint32(b, uint32(len(h.dims)))
	b = le.AppendUint64(b, uint64(h.size))
	b = le.AppendUint64(b, uint64(len(h.sums)))
	for _, v := range h.dims {
		b = le.AppendUint64(b, uint64(v))
	}
	for _, v := range h.tile {
		b = le.AppendUint64(b, uint64(v))
	}
	b = le.AppendUint32(b, uint32(len(h.name)))
	b = append(b, h.name...)
	for _, s := range h.sums {
		b = le.AppendUint64(b, s)
	}
	b = le.AppendUint64(b, crc64.Checksum(b, crcTable))
	return b[:h.size]
}

// fixedFields reads the fixed part of a header: how large the whole is.
func fixedFields(b []byte) (size int, err error) {
	le := binary.LittleEndian
	switch {
	case len(b) < fixedHeader || string(b[:8]) != magic:
		return 0, fmt.Errorf("not a goga disk array (no %q at the start)", magic[:7])
	case le.Uint32(b[8:]) != version:
		return 0, fmt.Errorf("format version %d; this goga reads version %d", le.Uint32(b[8:]), version)
	case le.Uint32(b[16:]) != littleEnd:
		return 0, fmt.Errorf("byte order %d: only little-endian data (1) is read", le.Uint32(b[16:]))
	}
	size = int(le.Uint64(b[24:]))
	if size < fixedHeader || size > 1<<40 {
		return 0, fmt.Errorf("header size %d is not plausible", size)
	}
	return size, nil
}

// decode parses a whole header, checking its CRC and its fields.
func decode(b []byte) (*header, error) {
	le := binary.LittleEndian
	h := &header{size: len(b), typ: int(le.Uint32(b[12:]))}
	ndim, tiles := int(le.Uint32(b[20:])), le.Uint64(b[32:])
	if ndim < 1 || ndim > ga.MaxDim || tiles > maxTiles {
		return nil, fmt.Errorf("header says %d dimensions, %d tiles", ndim, tiles)
	}
	p := fixedHeader
	u64 := func() int {
		if p+8 > len(b) {
			p += 8
			return 0
		}
		v := le.Uint64(b[p:])
		p += 8
		return int(min(v, 1<<62))
	}
	h.dims, h.tile = make([]int, ndim), make([]int, ndim)
	for d := range h.dims {
		h.dims[d] = u64()
	}
	for d := range h.tile {
		h.tile[d] = u64()
	}
	if p+4 > len(b) {
		return nil, fmt.Errorf("header of %d bytes is too short", len(b))
	}
	nl := int(le.Uint32(b[p:]))
	p += 4
	if nl > len(b)-p {
		return nil, fmt.Errorf("header of %d bytes is too short for a name of %d", len(b), nl)
	}
	h.name = string(b[p : p+nl])
	p += nl
	if p+8*int(tiles)+8 > len(b) {
		return nil, fmt.Errorf("header of %d bytes is too short for %d checksums", len(b), tiles)
	}
	h.sums = make([]uint64, tiles)
	for k := range h.sums {
		h.sums[k] = le.Uint64(b[p:])
		p += 8
	}
	if le.Uint64(b[p:]) != crc64.Checksum(b[:p], crcTable) {
		return nil, fmt.Errorf("header checksum mismatch: the header is damaged")
	}
	if h.typ < 1 || h.typ >= len(typeNames) {
		return nil, fmt.Errorf("element type code %d is unknown", h.typ)
	}
	n := 1
	for d := range h.dims {
		if h.dims[d] < 1 || h.tile[d] < 1 || h.tile[d] > h.dims[d] {
			return nil, fmt.Errorf("dimension %d: extent %d, tile %d", d, h.dims[d], h.tile[d])
		}
		hi, lo := bits.Mul64(uint64(n), uint64(h.dims[d]))
		if hi != 0 || lo > 1<<50 {
			return nil, fmt.Errorf("dims %v overflow", h.dims)
		}
		n = int(lo)
	}
	if g := h.tileGrid(); product(g) != len(h.sums) {
		return nil, fmt.Errorf("%d checksums for %d tiles", len(h.sums), product(g))
	}
	return h, nil
}

func product(v []int) int {
	n := 1
	for _, x := range v {
		n *= x
	}
	return n
}

// dataBytes is the size of the data region.
func (h *header) dataBytes() int { return product(h.dims) * h.esize }

// mix is a 64-bit finalizer (SplitMix64's).
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// keyBits is log2 of the length of the key table.
const keyBits = 10

// keys are the odd keys of word positions modulo 1024.
var keys = func() (k [1 << keyBits]uint64) {
	for i := range k {
		k[i] = mix(uint64(i)+0x9e3779b97f4a7c15) | 1
	}
	return k
}()

// sumWords is the checksum of words that start at word position pos of
// the data region: the sum, modulo 2^64, of w·k(p) over the words w at
// positions p, where k(p) = keys[p mod 1024] + 2·mix(p / 1024) is odd, so
// that changing any one word changes the sum. A sum over any part of a
// tile can be computed by whoever holds that part and the parts added up,
// in any order (an Allreduce), and a word of zeros adds nothing, so a new
// file's tiles all have the sum 0. It guards against damage, not against
// tampering. One multiply-add per word: 16 MiB take 1.1 ms here with the
// words in cache, about 2 ms straight after the read that brought them.
func sumWords[W uint32 | uint64](w []W, pos uint64) uint64 {
	var s0, s1 uint64
	for len(w) > 0 {
		// The words up to the next multiple of 1024 share mix(p / 1024).
		j := pos & (1<<keyBits - 1)
		n := min(len(w), 1<<keyBits-int(j))
		base := mix(pos>>keyBits) << 1
		k := keys[j : int(j)+n]
		v := w[:n]
		i := 0
		for ; i+1 < n; i += 2 {
			s0 += uint64(v[i]) * (k[i] + base)
			s1 += uint64(v[i+1]) * (k[i+1] + base)
		}
		if i < n {
			s0 += uint64(v[i]) * (k[i] + base)
		}
		w, pos = w[n:], pos+uint64(n)
	}
	return s0 + s1
}

// checksum is sumWords over elements of T that start at element e of the
// data region: an element is read as 4-byte words when it has 4 bytes,
// else as 8-byte words.
func checksum[T ga.Elem](v []T, e int) uint64 {
	if len(v) == 0 {
		return 0
	}
	size := elemSize[T]()
	p := unsafe.Pointer(unsafe.SliceData(v))
	if size == 4 {
		return sumWords(unsafe.Slice((*uint32)(p), len(v)), uint64(e))
	}
	per := size / 8
	return sumWords(unsafe.Slice((*uint64)(p), len(v)*per), uint64(e*per))
}
