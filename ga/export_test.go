package ga

// SimulateNodes makes the next Init place rank r of a job of n processes on
// node nodeOf(r, n) instead of asking MPI, so that a test on one machine
// sees several nodes; the function it returns undoes it.
func SimulateNodes(nodeOf func(rank, size int) int) (undo func()) {
	simulatedNodes = nodeOf
	return func() { simulatedNodes = nil }
}
