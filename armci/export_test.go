package armci

// SetMaxPiece makes transfers over MPI go in pieces of at most n bytes (a
// multiple of 16, the largest element), as transfers of more than 1 GiB do,
// until the returned function restores the default.
func SetMaxPiece(n int) (restore func()) {
	old := maxPiece
	maxPiece = n
	return func() { maxPiece = old }
}
