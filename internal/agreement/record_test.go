package agreement

import (
	"math"
	"reflect"
	"testing"
)

// TestRecordTrim: an exchange sends a record's words up to Len, and the
// receiver's pad (Received) makes the rest read as the sender's record would:
// whatever the receiving buffer held before (a pooled record, last used by
// another call) must not leak into the combination.
func TestRecordTrim(t *testing.T) {
	blank := func() *Record {
		var r Record
		for i := range MaxReduce {
			r[i] = math.MinInt64
		}
		return &r
	}
	barrier := blank()
	verdict := blank()
	verdict[0] = 3
	sum := blank()
	sum[Header] = Reduction(Sum, reflect.Float64, 24, 0)
	bcast := blank()
	bcast[Header] = Reduction(Bcast, reflect.Uint8, 9, 1)
	mixedRec := blank()
	mixedRec[Header] = Mixed
	for _, c := range []struct {
		name string
		rec  *Record
		want int
	}{
		{"barrier", barrier, 0},
		{"agreement", verdict, Header + 1},
		{"sum of 3 float64", sum, Header + 1 + 3},
		{"broadcast of 9 bytes", bcast, Header + 1 + 2},
		{"mixed", mixedRec, Header + 1},
	} {
		k := Len(c.rec)
		if k != c.want {
			t.Errorf("%s: Len %d, want %d", c.name, k, c.want)
		}
		// A receiving buffer last used by another reduction.
		got := blank()
		for i := range got {
			got[i] = int64(1000 + i)
		}
		copy(got[:k], c.rec[:k])
		pad(got, k)
		for i := range max(k, Header+1) {
			if got[i] != c.rec[i] {
				t.Errorf("%s: word %d received as %d, sent %d", c.name, i, got[i], c.rec[i])
			}
		}
	}
}
