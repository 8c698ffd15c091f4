package dra

import (
	"fmt"
	"io"
	"os"
)

// PrintInternals writes what d is made of to standard output
// (DRA_Print_internals): its file, type, dims, tiles and layout in the
// file, its mode, how its transfers share the I/O and this process's part
// in them, and the transfer in flight. It is not collective: it says what
// this process holds.
func (d *Array[T]) PrintInternals() error { return d.FprintInternals(os.Stdout) }

// FprintInternals is PrintInternals to w.
func (d *Array[T]) FprintInternals(w io.Writer) error {
	if err := d.valid("PrintInternals"); err != nil {
		return err
	}
	h := d.h
	np := d.comm.Size()
	k := ioProcsOf(d.cfg, np)
	part := "none"
	if i := ioIndex(d.comm.Rank(), np, k); i >= 0 {
		part = fmt.Sprintf("I/O process %d of them", i)
	}
	flight := "none"
	if r := d.pending; r != nil {
		done, _ := r.Probe()
		flight = fmt.Sprintf("started, its I/O here done: %v", done)
	}
	under := ""
	if d.tmp != "" {
		under = "\n  written under " + d.tmp + " until Close"
	}
	_, err := fmt.Fprintf(w, `disk array %q in %s%s
  %s, %d bytes each, dims %v
  tiles %v (a grid of %v), %d checksums
  header %d bytes, data %d bytes from byte %d
  mode %v
  I/O processes %d of %d; this process (rank %d): %s
  transfer in flight: %s
`, h.name, d.file, under, typeNames[h.typ], h.esize, h.dims, h.tile, h.tileGrid(), len(h.sums),
		h.size, h.dataBytes(), h.size, d.mode, k, np, d.comm.Rank(), part, flight)
	return err
}
