package ga

import "github.com/goga-hpc/goga/ga/internal/kernels"

// SimulateNodes makes the next Init place rank r of a job of n processes on
// node nodeOf(r, n) instead of asking MPI, so that a test on one machine
// sees several nodes; the function it returns undoes it.
func SimulateNodes(nodeOf func(rank, size int) int) (undo func()) {
	simulatedNodes = nodeOf
	return func() { simulatedNodes = nil }
}

// NodeCopied reports whether a has a copy on this process's node, made
// when it became read_only on several nodes.
func NodeCopied[T Elem](a *Array[T]) bool { return a.nodeCopy != nil }

// StreamKernels makes every element-wise kernel run that can write with
// non-temporal stores do so, however short; the function it returns undoes
// it. Init resets it.
func StreamKernels() (undo func()) {
	old := kernels.SwapStreamAbove(1)
	return func() { kernels.SwapStreamAbove(old) }
}

// IsUnchecked reports whether the running GA was started Unchecked.
func IsUnchecked() bool { return unchecked.Load() }

// CachedBlocks reports how many of a's blocks this process has read from
// its node's read_cache, or -1 if a has no cache.
func CachedBlocks[T Elem](a *Array[T]) int {
	if a.cache == nil {
		return -1
	}
	n := 0
	for i := range a.cache.seen {
		if a.cache.seen[i].Load() {
			n++
		}
	}
	return n
}
