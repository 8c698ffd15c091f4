package cgo

/*
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

// The kernel's struct sched_attr up to its first version's end.
struct goga_sched_attr {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t priority;
	uint64_t runtime, deadline, period;
};

// goga_sched_slice sets thread tid's time slice to ns nanoseconds (0: the
// default), keeping its policy, nice value and priority.
static int goga_sched_slice(int tid, uint64_t ns) {
#if defined(SYS_sched_setattr) && defined(SYS_sched_getattr)
	struct goga_sched_attr a;
	memset(&a, 0, sizeof a);
	if (syscall(SYS_sched_getattr, tid, &a, sizeof a, 0) != 0) return -1;
	a.size = sizeof a;
	a.flags = 0;
	a.runtime = ns;
	return syscall(SYS_sched_setattr, tid, &a, 0);
#else
	return -1;
#endif
}
*/
import "C"

// SchedSlice asks the kernel to give thread tid time slices of ns
// nanoseconds (0: its default), keeping the thread's policy and nice value,
// and reports whether it accepted. Linux's EEVDF scheduler (6.12 and later)
// takes a custom slice for a normal thread and lets a thread with a shorter
// one preempt the running thread when it wakes; older kernels ignore the
// request for normal threads.
func SchedSlice(tid int, ns uint64) bool {
	return C.goga_sched_slice(C.int(tid), C.uint64_t(ns)) == 0
}
