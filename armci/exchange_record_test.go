package armci

import (
	"math"
	"reflect"
	"testing"
)

// TestRecordTrim: an exchange sends a record's words up to recLen, and the
// receiver's padRecord makes the rest read as the sender's record would:
// whatever the receiving buffer held before (a pooled record, last used by
// another call) must not leak into the combination.
func TestRecordTrim(t *testing.T) {
	blank := func() *[recWords]int64 {
		var r [recWords]int64
		for i := range MaxReduce {
			r[i] = math.MinInt64
		}
		return &r
	}
	barrier := blank()
	agreement := blank()
	agreement[0] = 3
	sum := blank()
	sum[recHeader] = reduction(ReduceSum, reflect.Float64, 24, 0)
	bcast := blank()
	bcast[recHeader] = reduction(reduceBcast, reflect.Uint8, 9, 1)
	mixedRec := blank()
	mixedRec[recHeader] = mixed
	for _, c := range []struct {
		name string
		rec  *[recWords]int64
		want int
	}{
		{"barrier", barrier, 0},
		{"agreement", agreement, recHeader + 1},
		{"sum of 3 float64", sum, recHeader + 1 + 3},
		{"broadcast of 9 bytes", bcast, recHeader + 1 + 2},
		{"mixed", mixedRec, recHeader + 1},
	} {
		k := recLen(c.rec)
		if k != c.want {
			t.Errorf("%s: recLen %d, want %d", c.name, k, c.want)
		}
		// A receiving buffer last used by another reduction.
		got := blank()
		for i := range got {
			got[i] = int64(1000 + i)
		}
		copy(got[:k], c.rec[:k])
		padRecord(got, k)
		for i := range max(k, recHeader+1) {
			if got[i] != c.rec[i] {
				t.Errorf("%s: word %d received as %d, sent %d", c.name, i, got[i], c.rec[i])
			}
		}
	}
}
