package holds

import "testing"

func TestHolds(t *testing.T) {
	a, b := new(int), new(int)
	if Why(a) != "" || Any() != "" {
		t.Fatalf("held before any hold: %q %q", Why(a), Any())
	}
	r1 := Hold(a, "write of a.dra")
	r2 := Hold(a, "read of b.dra")
	if got := Why(a); got != "write of a.dra" {
		t.Errorf("Why(a) = %q, want the oldest hold's", got)
	}
	if Why(b) != "" {
		t.Errorf("b held: %q", Why(b))
	}
	r1()
	r1()
	if got := Why(a); got != "read of b.dra" {
		t.Errorf("after one release, Why(a) = %q", got)
	}
	if Any() != "read of b.dra" {
		t.Errorf("Any() = %q", Any())
	}
	r2()
	if Why(a) != "" || Any() != "" {
		t.Errorf("held after every release: %q %q", Why(a), Any())
	}
}
