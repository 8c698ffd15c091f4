// Package explot is what the examples' -plot flags share: the picture
// format a file name asks for, and writing a drawing to the file.
package explot

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
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
	format, err := Format(name)
	if err != nil {
		return err
	}
	var c interface {
		vg.CanvasSizer
		io.WriterTo
	}
	if format == "svg" {
		c = vgsvg.New(w, h)
	} else {
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(int(dpi)))}
	}
	paint(draw.New(c))
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	_, err = c.WriteTo(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
