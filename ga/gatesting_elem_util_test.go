package ga_test

import "github.com/goga-hpc/goga/ga"

// elemOfC is z as a T: its real part for the real types (truncated toward
// zero for the integers).
func elemOfC[T ga.Elem](z complex128) T {
	var v T
	switch p := any(&v).(type) {
	case *int32:
		*p = int32(real(z))
	case *int64:
		*p = int64(real(z))
	case *float32:
		*p = float32(real(z))
	case *float64:
		*p = real(z)
	case *complex64:
		*p = complex64(z)
	case *complex128:
		*p = z
	}
	return v
}
