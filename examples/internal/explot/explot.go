// Package explot is what the examples' -plot flags share: the picture
// format a file name asks for, and writing a drawing to the file.
package explot

import (
	"fmt"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/goga-hpc/goga/gaplot"
)

// Format is the format name's extension asks for, "png" or "svg", or an
// error naming the -plot flag, the file and its extension.
func Format(name string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(name)); ext {
	case ".png", ".svg":
		return ext[1:], nil
	default:
		return "", fmt.Errorf("-plot %q: extension %q; want .png or .svg", name, ext)
	}
}

// Save makes a picture of w × h (at dpi, for PNG) in the format name's
// extension asks for, has paint draw it on the whole canvas, and writes it
// to the file name.
func Save(name string, w, h vg.Length, dpi float64, paint func(draw.Canvas)) error {
	if _, err := Format(name); err != nil {
		return err
	}
	return gaplot.SaveDrawing(name, w, h, int(dpi), paint)
}
