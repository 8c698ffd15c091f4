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

// TestSteps: a band cut into steps is covered exactly, in order, by the
// steps' rows, elements and runs, in 1 to 3 dimensions.
func TestSteps(t *testing.T) {
	for _, c := range []struct {
		dims      []int
		size      int // bytes a step, of float64
		wantSteps int
	}{
		{[]int{100}, 80, 10},      // 1-D: 10 elements a step
		{[]int{100}, 1 << 20, 1},  // all in one
		{[]int{10, 7}, 3 * 56, 4}, // 3 rows a step, 10 rows
		{[]int{10, 7}, 8, 10},     // a row at least
		{[]int{6, 4, 5}, 250, 6},  // 160 B a row of the first dimension: 1 a step
		{[]int{6, 4, 5}, 500, 2},  // 3 rows a step
	} {
		for np := 1; np <= 3; np++ {
			for me := range np {
				p := bandPlan(c.dims, make([]int, len(c.dims)), c.dims, me, np)
				ss := p.steps(8, c.size)
				if p.lo == nil {
					if ss != nil {
						t.Errorf("%v: empty band has steps", c.dims)
					}
					continue
				}
				if np == 1 && len(ss) != c.wantSteps {
					t.Errorf("%v size %d: %d steps, want %d", c.dims, c.size, len(ss), c.wantSteps)
				}
				var runs []run
				off, row := 0, p.lo[0]
				for _, s := range ss {
					if s.off != off || s.lo[0] != row || !slices.Equal(s.lo[1:], p.lo[1:]) || !slices.Equal(s.hi[1:], p.hi[1:]) {
						t.Errorf("%v band %d/%d: step %+v does not follow at element %d, row %d", c.dims, me, np, s, off, row)
					}
					n := 0
					for _, r := range s.runs {
						n += r.n
					}
					if n != s.n || s.n != (s.hi[0]-s.lo[0]+1)*(p.total/(p.hi[0]-p.lo[0]+1)) {
						t.Errorf("%v band %d/%d: step %+v holds %d elements in its runs", c.dims, me, np, s, n)
					}
					runs = append(runs, s.runs...)
					off, row = off+s.n, s.hi[0]+1
				}
				if off != p.total || row != p.hi[0]+1 {
					t.Errorf("%v band %d/%d: steps end at element %d row %d, band has %d rows to %d", c.dims, me, np, off, row, p.total, p.hi[0])
				}
				// The runs, merged where contiguous, are the band's.
				if merged := mergeRuns(runs); !slices.Equal(merged, mergeRuns(p.runs)) {
					t.Errorf("%v band %d/%d: steps' runs %v, band's %v", c.dims, me, np, merged, mergeRuns(p.runs))
				}
			}
		}
	}
}

// mergeRuns joins runs that follow one another in the file.
func mergeRuns(rs []run) []run {
	var m []run
	for _, r := range rs {
		if k := len(m) - 1; k >= 0 && m[k].file+m[k].n == r.file {
			m[k].n += r.n
			continue
		}
		m = append(m, r)
	}
	return m
}

// TestChecksumDefinition: the checksum is the sum the file format
// defines, word by word, at any position and length, for 4- and 8-byte
// words; and a pinned value keeps files written earlier readable.
func TestChecksumDefinition(t *testing.T) {
	key := func(p uint64) uint64 { return keys[p%(1<<keyBits)] + 2*mix(p>>keyBits) }
	w := make([]uint64, 5000)
	for i := range w {
		w[i] = mix(uint64(i) * 7)
	}
	for _, c := range []struct{ pos, n int }{{0, 5000}, {1, 4999}, {1023, 3}, {1021, 2050}, {3 << 20, 777}, {5, 0}} {
		var want uint64
		for i, x := range w[:c.n] {
			want += x * key(uint64(c.pos+i))
		}
		if got := sumWords(w[:c.n], uint64(c.pos)); got != want {
			t.Errorf("64-bit words at %d, %d of them: %x, want %x", c.pos, c.n, got, want)
		}
		var want32 uint64
		for i, x := range w[:c.n] {
			want32 += uint64(uint32(x)) * key(uint64(c.pos+i))
		}
		u := make([]uint32, c.n)
		for i := range u {
			u[i] = uint32(w[i])
		}
		if got := sumWords(u, uint64(c.pos)); got != want32 {
			t.Errorf("32-bit words at %d, %d of them: %x, want %x", c.pos, c.n, got, want32)
		}
	}
	if got, want := sumWords(w, 12345), uint64(0x812ea2d4f98fae4c); got != want {
		t.Errorf("sumWords(w, 12345) = %#x, pinned %#x: files written before would not read", got, want)
	}
}
