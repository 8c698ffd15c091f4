//go:build !linux

package dra

import "os"

// reserve does nothing where fallocate is not available.
func reserve(string, int) error { return nil }

// writeBehind is a Linux hint; elsewhere the fsync does it all.
func writeBehind(*os.File, int, int) {}
