package kernels

// Segmented scans and the packing of marked elements (GA's sparse.c) on
// runs: a mask element that is not zero marks a segment's start (the
// scans) or an element that counts (Pack, Unpack).

// Scan is a segmented scan's state: whether a segment has started, and its
// value so far (the sum if Add, else the copied value).
type Scan[T Elem] struct {
	Add     bool
	Started bool
	Acc     T
}

// Step moves the state over x, which starts a segment if bit, and returns
// the value before x, within the segment: an exclusive scan's output.
func (s *Scan[T]) Step(x T, bit bool) (before T) {
	switch {
	case bit:
		s.Started, s.Acc = true, x
		var zero T
		return zero
	case s.Add:
		before = s.Acc
		s.Acc += x
		return before
	}
	return s.Acc
}

// ScanRun moves s over a run of src x and mask bits, writing the scan
// (exclusive if excl) to dst where a segment has started (nowhere if dst is
// nil).
func ScanRun[T, M Elem](s *Scan[T], x []T, bits []M, dst []T, excl bool) {
	for i, v := range x {
		before := s.Step(v, bits[i] != 0)
		if dst != nil && s.Started {
			if excl {
				dst[i] = before
			} else {
				dst[i] = s.Acc
			}
		}
	}
}

// Nonzero returns how many of bits are not zero.
func Nonzero[M Elem](bits []M) int {
	n := 0
	for _, b := range bits {
		if b != 0 {
			n++
		}
	}
	return n
}

// Pack appends to dst the elements of x whose bit is not zero, in order.
func Pack[T, M Elem](dst, x []T, bits []M) []T {
	for i, b := range bits {
		if b != 0 {
			dst = append(dst, x[i])
		}
	}
	return dst
}

// Unpack sets the elements of dst whose bit is not zero to vals, in order.
func Unpack[T, M Elem](dst, vals []T, bits []M) {
	k := 0
	for i, b := range bits {
		if b != 0 {
			dst[i] = vals[k]
			k++
		}
	}
}

// Enum sets dst[i] to start + (first+i)·inc, computed per element as GA's
// Patch_enum does, not by repeated addition.
func Enum[T Elem](dst []T, first int, start, inc T) {
	conv := IntTo[T]()
	for i := range dst {
		dst[i] = start + conv(first+i)*inc
	}
}
