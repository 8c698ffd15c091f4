package agreement

import "testing"

// reduce is the elementwise maximum of the processes' verdicts, as the
// agreement's reduction leaves it.
func reduce(vs ...[Words]int64) []int64 {
	out := vs[0]
	for _, v := range vs[1:] {
		for i := range out {
			out[i] = max(out[i], v[i])
		}
	}
	return out[:]
}

// TestVerdict: the reduced verdicts name the highest rank that refused, or
// none, and read as a mismatch exactly where the hashes differ.
func TestVerdict(t *testing.T) {
	a, b := Hash([]byte("Fill a=[3] a.type=float64")), Hash([]byte("Fill a=[4] a.type=float64"))
	if a == b || a < 0 || b < 0 {
		t.Fatalf("Hash: %d and %d, want two different non-negative hashes", a, b)
	}
	for _, c := range []struct {
		name     string
		v        []int64
		refuser  int
		mismatch bool
	}{
		{"all agree", reduce(Verdict(0, false, a), Verdict(1, false, a), Verdict(2, false, a)), -1, false},
		{"1 and 2 refuse", reduce(Verdict(0, false, a), Verdict(1, true, a), Verdict(2, true, a)), 2, false},
		{"0 refuses", reduce(Verdict(0, true, a), Verdict(1, false, a)), 0, false},
		{"2 differs", reduce(Verdict(0, false, a), Verdict(1, false, a), Verdict(2, false, b)), -1, true},
		{"no arguments", reduce(Verdict(0, false, 0), Verdict(1, false, 0)), -1, false},
	} {
		if got := Refuser(c.v); got != c.refuser {
			t.Errorf("%s: Refuser %d, want %d", c.name, got, c.refuser)
		}
		if got := Mismatch(c.v); got != c.mismatch {
			t.Errorf("%s: Mismatch %v, want %v", c.name, got, c.mismatch)
		}
	}
}
