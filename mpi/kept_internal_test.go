package mpi

import (
	"errors"
	"slices"
	"testing"
	"unsafe"
)

// TestKept: a flush lets go only of the buffers of operations issued before
// it started; buffers other goroutines added while it ran stay reachable, as
// do all of them when the flush fails, and flushes that overlap let go of
// each buffer once.
func TestKept(t *testing.T) {
	var k kept
	if err := k.drop(0, k.mark(0), nil); err != nil { // a flush before any operation
		t.Fatal(err)
	}
	p := make([]unsafe.Pointer, 6)
	for i := range p {
		p[i] = unsafe.Pointer(new(int))
	}
	want := func(what string, r0, r1 []unsafe.Pointer) {
		t.Helper()
		if !slices.Equal(k.bufs[0], r0) || !slices.Equal(k.bufs[1], r1) {
			t.Errorf("%s: kept %v and %v, want %v and %v", what, k.bufs[0], k.bufs[1], r0, r1)
		}
	}
	k.add(2, 1, p[0])
	m := k.mark(1) // a flush to rank 1 starts
	k.add(2, 1, p[1])
	k.add(2, 0, p[2])
	k.drop(1, m, nil)
	want("after a flush to rank 1", p[2:3], p[1:2])

	marks := k.markAll() // a flush to every rank starts
	k.add(2, 0, p[3])
	fail := errors.New("flush failed")
	if err := k.dropAll(marks, fail); err != fail {
		t.Errorf("dropAll returned %v, want %v", err, fail)
	}
	want("after a failed flush", p[2:4], p[1:2])
	k.dropAll(marks, nil)
	want("after a flush to every rank", p[3:4], nil)

	// Two flushes to rank 0 overlap; an operation is issued between the
	// first one's end and the second one's.
	m1, m2 := k.mark(0), k.mark(0)
	k.drop(0, m1, nil)
	k.add(2, 0, p[4])
	k.drop(0, m2, nil)
	want("after overlapping flushes", p[4:5], nil)
}
