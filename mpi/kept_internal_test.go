package mpi

import (
	"errors"
	"slices"
	"testing"
	"unsafe"
)

// TestKept: a flush lets go only of the buffers of operations issued before
// it started; buffers other goroutines added while it ran stay reachable, as
// do all of them when the flush fails.
func TestKept(t *testing.T) {
	var k kept
	p := make([]unsafe.Pointer, 6)
	for i := range p {
		p[i] = unsafe.Pointer(new(int))
	}
	k.add(2, 1, p[0])
	n := k.mark(1) // a flush to rank 1 starts
	k.add(2, 1, p[1])
	k.add(2, 0, p[2])
	if err := k.drop(1, n, nil); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(k.bufs[1], p[1:2]) || !slices.Equal(k.bufs[0], p[2:3]) {
		t.Errorf("after a flush to rank 1: kept %v and %v, want [%v] and [%v]", k.bufs[0], k.bufs[1], p[2], p[1])
	}
	marks := k.markAll() // a flush to every rank starts
	k.add(2, 0, p[3])
	fail := errors.New("flush failed")
	if err := k.dropAll(marks, fail); err != fail {
		t.Errorf("dropAll returned %v, want %v", err, fail)
	}
	if len(k.bufs[0]) != 2 || len(k.bufs[1]) != 1 {
		t.Errorf("after a failed flush: kept %v and %v, want everything", k.bufs[0], k.bufs[1])
	}
	k.dropAll(marks, nil)
	if !slices.Equal(k.bufs[0], p[3:4]) || len(k.bufs[1]) != 0 {
		t.Errorf("after a flush to every rank: kept %v and %v, want [%v] and none", k.bufs[0], k.bufs[1], p[3])
	}
}
