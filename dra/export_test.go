package dra

// WrapBandIO makes every band's I/O run through wrap, and returns the
// function that undoes it.
func WrapBandIO(wrap func(io func() error) error) (undo func()) {
	old := bandIO
	bandIO = wrap
	return func() { bandIO = old }
}

// ResetDefaultConfig forgets SetDefaultConfig: every process does I/O.
func ResetDefaultConfig() { defaultConfig.Store(nil) }
