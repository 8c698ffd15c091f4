package dra

import (
	"errors"
	"math"
	"slices"
	"testing"
)

// TestChecksum: parts add up to the whole in any split, zeros add nothing,
// and changing any one bit of any word changes the sum.
func TestChecksum(t *testing.T) {
	v := make([]complex128, 3000)
	for i := range v {
		v[i] = complex(float64(i)+0.5, -float64(i))
	}
	whole := checksum(v, 17)
	for _, cut := range []int{0, 1, 511, 512, 1024, 2999} {
		if s := checksum(v[:cut], 17) + checksum(v[cut:], 17+cut); s != whole {
			t.Errorf("split at %d: %x + … = %x, want %x", cut, checksum(v[:cut], 17), s, whole)
		}
	}
	if s := checksum(make([]float32, 5000), 3); s != 0 {
		t.Errorf("zeros sum to %x", s)
	}
	w := make([]float64, 2100)
	for i := range w {
		w[i] = float64(i) * 1.25
	}
	base := checksum(w, 0)
	for _, i := range []int{0, 1, 1023, 1024, 2099} {
		for bit := range 64 {
			x := slices.Clone(w)
			b := uint64(1) << bit
			x[i] = math.Float64frombits(math.Float64bits(x[i]) ^ b)
			if checksum(x, 0) == base {
				t.Errorf("flipping bit %d of word %d leaves the sum", bit, i)
			}
		}
	}
	// The same words at another position sum differently.
	if checksum(w[:8], 0) == checksum(w[:8], 1) {
		t.Errorf("the sum does not depend on position")
	}
}

// TestHeader: a header survives encoding, and any damage to it is found.
func TestHeader(t *testing.T) {
	dims := []int{100, 30, 7}
	h := &header{typ: 4, dims: dims, tile: chooseTile(dims, []int{10, 8, 7}, 8), name: "A", esize: 8}
	h.sums = make([]uint64, product(h.tileGrid()))
	for k := range h.sums {
		h.sums[k] = uint64(k) * 0x1234567
	}
	h.size = headerSize(len(dims), h.name, len(h.sums))
	b := h.encode()
	if len(b) != h.size || h.size%headerAlign != 0 {
		t.Fatalf("encoded %d bytes, size %d", len(b), h.size)
	}
	size, err := fixedFields(b)
	if err != nil || size != h.size {
		t.Fatalf("fixedFields: %d, %v", size, err)
	}
	g, err := decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.dims, dims) || !slices.Equal(g.tile, []int{10, 8, 7}) || g.name != "A" || !slices.Equal(g.sums, h.sums) {
		t.Errorf("decoded %+v", g)
	}
	for _, at := range []int{12, 20, 40, 100, fixedHeader + 48, len(b) - h.size + fixedHeader + 48 + 4 + 1 + 8} {
		c := slices.Clone(b)
		c[at] ^= 4
		if _, err := decode(c); err == nil {
			t.Errorf("byte %d damaged: decoded", at)
		}
	}
	if _, err := fixedFields([]byte("GOGADRA\x00\x02\x00\x00\x00" + string(make([]byte, 40)))); err == nil {
		t.Errorf("version 2 accepted")
	}
}

// TestTiles: the default tile is rows of about 1 MiB, tiles are capped at
// 65536, and expand and tilesOf agree.
func TestTiles(t *testing.T) {
	if got := chooseTile([]int{2048, 2048}, nil, 8); !slices.Equal(got, []int{64, 2048}) {
		t.Errorf("default tile of 2048×2048 float64: %v", got)
	}
	if got := chooseTile([]int{1 << 20, 1 << 10}, []int{1, 1}, 8); product([]int{(1<<20 + got[0] - 1) / got[0], (1<<10 + got[1] - 1) / got[1]}) > maxTiles {
		t.Errorf("tile %v makes too many tiles", got)
	}
	h := &header{dims: []int{13, 11}, tile: []int{4, 3}}
	lo, hi := h.expand([]int{5, 1}, []int{9, 5})
	if !slices.Equal(lo, []int{4, 0}) || !slices.Equal(hi, []int{11, 5}) {
		t.Errorf("expand: %v %v", lo, hi)
	}
	if got := h.tilesOf(lo, hi); !slices.Equal(got, []int{4, 5, 8, 9}) {
		t.Errorf("tilesOf: %v", got)
	}
	if lo, hi := h.tileBox(11); !slices.Equal(lo, []int{8, 9}) || !slices.Equal(hi, []int{11, 10}) {
		t.Errorf("tileBox(11): %v %v", lo, hi)
	}
	if !errors.Is(errorf("x", "f", ErrChecksum, "m"), ErrChecksum) {
		t.Errorf("errorf loses its sentinel")
	}
}
