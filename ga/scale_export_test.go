package ga

// DirectEntries is how many ranks' Directs a keeps in this process.
func DirectEntries[T Elem](a *Array[T]) int { return len(a.direct.d) }

// CornerEntries is how many blocks a's corner table places (0: none).
func CornerEntries[T Elem](a *Array[T]) int {
	if a.corners == nil {
		return 0
	}
	return len(a.corners.blocks)
}
