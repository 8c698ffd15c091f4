package layout

import (
	"encoding/binary"
	"errors"
	"math"
	"math/big"
	"testing"
)

func TestCheckedArithmetic(t *testing.T) {
	const max = math.MaxInt
	for _, c := range []struct{ a, b, prod int }{
		{0, max, 0}, {1, max, max}, {max, 1, max}, {2, max/2 + 1, -1}, {2, max / 2, max - 1},
		{1 << 31, 1 << 31, 1 << 62}, {1 << 32, 1 << 31, -1}, {3037000499, 3037000499, 3037000499 * 3037000499},
		{3037000500, 3037000500, -1}, {max, max, -1},
	} {
		got, ok := Mul(c.a, c.b)
		if ok != (c.prod >= 0) || (ok && got != c.prod) {
			t.Errorf("Mul(%d, %d) = %d, %v; want %d", c.a, c.b, got, ok, c.prod)
		}
	}
	for _, c := range []struct{ a, b, sum int }{
		{0, max, max}, {1, max - 1, max}, {1, max, -1}, {max, max, -1}, {max / 2, max/2 + 1, max},
	} {
		got, ok := Add(c.a, c.b)
		if ok != (c.sum >= 0) || (ok && got != c.sum) {
			t.Errorf("Add(%d, %d) = %d, %v; want %d", c.a, c.b, got, ok, c.sum)
		}
	}
	for _, c := range []struct {
		dims []int
		es   int
		want int
	}{
		{[]int{1 << 32, 1<<32 + 1}, 4, -1}, // the int32 array
		{[]int{1 << 40}, 8, 1 << 43},
		{[]int{1 << 30, 1 << 30}, 8, -1},
		{[]int{1 << 30, 1 << 29}, 8, 1 << 62},
		{[]int{}, 8, 8},
		{[]int{7, 1, 3}, 16, 336},
	} {
		got, ok := CheckedProduct(c.dims, c.es)
		if ok != (c.want >= 0) || (ok && got != c.want) {
			t.Errorf("CheckedProduct(%v, %d) = %d, %v; want %d", c.dims, c.es, got, ok, c.want)
		}
	}
}

// bufferModel is BufferOf in arbitrary precision: the pitches, and the
// elements the buffer must hold, or ok = false where a value a transfer
// would compute (a pitch or the need, in bytes) does not fit an int, or ld
// is invalid.
func bufferModel(count, ld []int, es int) (pitch []int, need int, ok bool) {
	nd := len(count)
	if ld != nil && len(ld) != nd-1 {
		return nil, 0, false
	}
	p := make([]*big.Int, nd)
	p[nd-1] = big.NewInt(1)
	for d := nd - 2; d >= 0; d-- {
		l := count[d+1]
		if ld != nil {
			if ld[d] < l {
				return nil, 0, false
			}
			l = ld[d]
		}
		p[d] = new(big.Int).Mul(p[d+1], big.NewInt(int64(l)))
	}
	n := big.NewInt(1)
	for d := range nd {
		n.Add(n, new(big.Int).Mul(big.NewInt(int64(count[d]-1)), p[d]))
	}
	maxInt, bes := big.NewInt(math.MaxInt), big.NewInt(int64(es))
	if new(big.Int).Mul(p[0], bes).Cmp(maxInt) > 0 || new(big.Int).Mul(n, bes).Cmp(maxInt) > 0 {
		return nil, 0, false
	}
	pitch = make([]int, nd)
	for d := range nd {
		pitch[d] = int(p[d].Int64())
	}
	return pitch, int(n.Int64()), true
}

// fuzzValues reads data as positive ints: a chunk's top bit picks a huge
// value (up to MaxInt), else a small one, so both edges come up often.
func fuzzValues(data []byte) []int {
	var out []int
	for len(data) >= 8 {
		v := binary.LittleEndian.Uint64(data)
		data = data[8:]
		if v>>63 == 1 {
			out = append(out, int(v&math.MaxInt)|1)
		} else {
			out = append(out, int(v%64)+1)
		}
	}
	return out
}

func encodeValues(v ...uint64) []byte {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], x)
	}
	return b
}

const huge = 1 << 63 // marks a value as huge for fuzzValues

// FuzzBufferOf checks BufferOf against bufferModel for patches of 1 to MaxDim
// dimensions with counts and leading dimensions from 1 to MaxInt: the same
// verdict, and where both accept, the same pitches and need.
func FuzzBufferOf(f *testing.F) {
	// The cases: ld = {1<<62} on a 3 × 3 patch, ld shorter than the
	// extent, ld of the wrong length; then edges.
	f.Add(uint8(1), uint8(3), uint8(1), encodeValues(2, 2, huge|1<<62))
	f.Add(uint8(1), uint8(3), uint8(1), encodeValues(2, 5, 3))
	f.Add(uint8(2), uint8(3), uint8(2), encodeValues(2, 2, 2, 3))
	f.Add(uint8(6), uint8(0), uint8(3), encodeValues(huge|1<<9, 1, 1, 1, 1, 1, 63, huge|1<<53))
	f.Add(uint8(0), uint8(4), uint8(0), encodeValues(huge|math.MaxInt))
	f.Fuzz(func(t *testing.T, nd, es, mode uint8, data []byte) {
		n := int(nd)%MaxDim + 1
		size := []int{1, 2, 4, 8, 16}[int(es)%5]
		vals := fuzzValues(data)
		next := func() int {
			if len(vals) == 0 {
				return 1
			}
			v := vals[0]
			vals = vals[1:]
			return v
		}
		count := make([]int, n)
		for d := range count {
			count[d] = next()
		}
		var ld []int
		switch mode % 4 {
		case 1: // as given, perhaps smaller than the extent
			for range n - 1 {
				ld = append(ld, next())
			}
		case 2: // one too many
			for range n {
				ld = append(ld, next())
			}
		case 3: // at least the extent
			for d := range n - 1 {
				e, ok := Add(count[d+1], next()-1)
				if !ok {
					e = math.MaxInt
				}
				ld = append(ld, e)
			}
		}
		var b Buffer
		err := BufferOf(count, ld, size, &b)
		pitch, need, ok := bufferModel(count, ld, size)
		if (err == nil) != ok {
			t.Fatalf("BufferOf(%v, %v, %d) = %v; the model says ok = %v", count, ld, size, err, ok)
		}
		if err != nil {
			var le *LayoutError
			if !errors.As(err, &le) {
				t.Fatalf("BufferOf(%v, %v, %d): %T %v, want a *LayoutError", count, ld, size, err, err)
			}
			return
		}
		for d := range n {
			if b.Pitch[d] != pitch[d] {
				t.Fatalf("BufferOf(%v, %v, %d): pitch %v, want %v", count, ld, size, b.Pitch[:n], pitch)
			}
		}
		if b.Need != need {
			t.Fatalf("BufferOf(%v, %v, %d): need %d, want %d", count, ld, size, b.Need, need)
		}
	})
}
