package ga

import (
	"strings"
	"testing"
	"unsafe"
)

// TestFieldOf: a field is one part of the element, at any depth, or a run
// of an array's elements; anything else is refused naming where it falls.
func TestFieldOf(t *testing.T) {
	type inner struct {
		A int16
		B [4]int16
	}
	type rec struct {
		X  float64
		In inner
		Z  complex128
		C  complex64
		N  [2]inner
	}
	var r rec
	ok := []struct {
		what string
		f    func() (field, error)
	}{
		{"X", func() (field, error) { return fieldOf[float64, rec]("", "", unsafe.Offsetof(r.X)) }},
		{"X as two float32", func() (field, error) { return fieldOf[[2]float32, rec]("", "", 0) }},
		{"In", func() (field, error) { return fieldOf[inner, rec]("", "", unsafe.Offsetof(r.In)) }},
		{"In.B[2]", func() (field, error) {
			return fieldOf[int16, rec]("", "", unsafe.Offsetof(r.In)+unsafe.Offsetof(r.In.B)+4)
		}},
		{"In.B[1:3]", func() (field, error) {
			return fieldOf[[2]int16, rec]("", "", unsafe.Offsetof(r.In)+unsafe.Offsetof(r.In.B)+2)
		}},
		{"Z's imaginary part", func() (field, error) { return fieldOf[float64, rec]("", "", unsafe.Offsetof(r.Z)+8) }},
		{"C's real part", func() (field, error) { return fieldOf[float32, rec]("", "", unsafe.Offsetof(r.C)) }},
		{"N[1].A", func() (field, error) {
			return fieldOf[int16, rec]("", "", unsafe.Offsetof(r.N)+unsafe.Sizeof(inner{}))
		}},
		{"the whole element", func() (field, error) { return fieldOf[rec, rec]("", "", 0) }},
	}
	for _, c := range ok {
		if _, err := c.f(); err != nil {
			t.Errorf("%s: %v", c.what, err)
		}
	}
	bad := []struct {
		what, says string
		f          func() (field, error)
	}{
		{"misaligned", "inside X (float64, bytes 0 to 7)", func() (field, error) { return fieldOf[float64, rec]("", "", 3) }},
		{"X and In", "inside X", func() (field, error) { return fieldOf[[2]float64, rec]("", "", 0) }},
		{"In.A and In.B", "inside In.A (int16, bytes 8 to 9)", func() (field, error) {
			return fieldOf[int32, rec]("", "", unsafe.Offsetof(r.In))
		}},
		{"Z's two parts", "inside Z real part (float64, bytes 24 to 31)", func() (field, error) {
			return fieldOf[float64, rec]("", "", unsafe.Offsetof(r.Z)+4)
		}},
		{"padding after In", "padding", func() (field, error) {
			return fieldOf[int16, rec]("", "", unsafe.Offsetof(r.In)+unsafe.Sizeof(inner{}))
		}},
		{"In.B[3] and beyond", "inside In.B[3]", func() (field, error) {
			return fieldOf[[2]int16, rec]("", "", unsafe.Offsetof(r.In)+unsafe.Offsetof(r.In.B)+6)
		}},
		{"past the end", "does not fit", func() (field, error) { return fieldOf[float64, rec]("", "", unsafe.Sizeof(r)-4) }},
	}
	for _, c := range bad {
		if _, err := c.f(); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: error %v, want one that says %q", c.what, err, c.says)
		}
	}
}
