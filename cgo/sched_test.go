package cgo

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestSchedSlice sets this thread's time slice to 100 µs and back, and reads
// each from the kernel's account of the thread (se.slice in
// /proc/thread-self/sched), where the kernel keeps custom slices.
func TestSchedSlice(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before, ok := slice(t)
	if !ok {
		t.Skip("the kernel reports no se.slice: no custom time slices (Linux 6.12)")
	}
	tid := syscall.Gettid()
	if !SchedSlice(tid, 100000) {
		t.Fatal("SchedSlice(100 µs) refused")
	}
	if got, _ := slice(t); got != 100000 {
		t.Errorf("se.slice after SchedSlice(100 µs) = %d ns", got)
	}
	if !SchedSlice(tid, 0) {
		t.Fatal("SchedSlice(0) refused")
	}
	if got, _ := slice(t); got != before {
		t.Errorf("se.slice after SchedSlice(0) = %d ns, want %d as before", got, before)
	}
}

func slice(t *testing.T) (int64, bool) {
	b, err := os.ReadFile("/proc/thread-self/sched")
	if err != nil {
		t.Skip(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "se.slice" {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}
