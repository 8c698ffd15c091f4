package ga

import (
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/goga-hpc/goga/internal/layout"
)

// PrintPatch writes the patch [lo, hi] of a to standard output from process
// 0 (NGA_Print_patch); see FprintPatch. It is collective.
func (a *Array[T]) PrintPatch(lo, hi []int, pretty bool) error {
	return a.FprintPatch(os.Stdout, lo, hi, pretty)
}

// FprintPatch writes the patch [lo, hi] of a to w from process 0
// (NGA_Print_patch to a file, as GA's print_patch_file). It begins with the
// line "global array: NAME[lo0:hi0,lo1:hi1]". Pretty, the patch follows
// as tables of its last two dimensions, at most 8 columns of integers, 6 of
// reals or 3 of complex numbers wide, with the indices along the top and
// down the left; an array of three dimensions or more gets a table for every
// index of the others, after a line "-- patch: NAME[i,lo1:hi1,lo2:hi2]". Not
// pretty, every element gets a line "NAME(i,j) = value". Indices are C
// order and 0-based, where GA C prints Fortran's; reals show 5 decimals, in
// e-notation from 1e5 up. An error in process 0's reading or writing is an
// error on every process. It is collective.
func (a *Array[T]) FprintPatch(w io.Writer, lo, hi []int, pretty bool) error {
	const op = "PrintPatch"
	l := newArgs(op).ints("lo", lo...).ints("hi", hi...).str("pretty", strconv.FormatBool(pretty))
	return a.collective(op, l, a.checkPatch(op, lo, hi), func([]T) error {
		if a.g.rank != 0 {
			return nil
		}
		return a.fprintPatch(w, lo, hi, pretty)
	})
}

// fprintPatch writes the patch, one Get and one Write per table: per index
// of the dimensions before the last two.
func (a *Array[T]) fprintPatch(w io.Writer, lo, hi []int, pretty bool) error {
	nd := len(lo)
	lead := max(nd-2, 0)
	var b strings.Builder
	fmt.Fprintf(&b, "global array: %s[%s]\n", a.name, rangesText(lo, hi, 0))
	slo, shi := slices.Clone(lo), slices.Clone(hi)
	for {
		copy(shi[:lead], slo[:lead])
		buf := make([]T, layout.Volume(slo, shi))
		if err := a.Get(slo, shi, buf, nil); err != nil {
			return err
		}
		switch {
		case !pretty:
			sub := slices.Clone(slo)
			for _, v := range buf {
				fmt.Fprintf(&b, "%s(%s) = %s\n", a.name, rangesText(sub, sub, nd), elemText(v, true))
				for d := nd - 1; d >= 0; d-- {
					if sub[d]++; sub[d] <= shi[d] {
						break
					}
					sub[d] = slo[d]
				}
			}
		case nd == 1:
			width, _ := cellShape[T]()
			b.WriteString("\n")
			for i, v := range buf {
				fmt.Fprintf(&b, "%4d   %*s\n", lo[0]+i, width, elemText(v, false))
			}
		default:
			if lead > 0 {
				fmt.Fprintf(&b, "\n-- patch: %s[%s]\n", a.name, rangesText(slo, shi, lead))
			}
			table(&b, buf, slo[nd-2], shi[nd-2], slo[nd-1], shi[nd-1])
		}
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
		b.Reset()
		d := lead - 1
		for ; d >= 0; d-- {
			if slo[d]++; slo[d] <= hi[d] {
				break
			}
			slo[d] = lo[d]
		}
		if d < 0 {
			return nil
		}
	}
}

// table writes the matrix buf, rows r0 to r1 and columns c0 to c1, as
// tables of at most cellShape's columns, the indices along the top and down
// the left.
func table[T Elem](b *strings.Builder, buf []T, r0, r1, c0, c1 int) {
	width, cols := cellShape[T]()
	for g0 := c0; g0 <= c1; g0 += cols {
		g1 := min(g0+cols-1, c1)
		b.WriteString("\n      ")
		for j := g0; j <= g1; j++ {
			fmt.Fprintf(b, " %*d", width, j)
		}
		b.WriteString("\n      ")
		for range g1 - g0 + 1 {
			b.WriteString(" " + strings.Repeat("-", width))
		}
		b.WriteString("\n")
		for i := r0; i <= r1; i++ {
			fmt.Fprintf(b, "%4d  ", i)
			for j := g0; j <= g1; j++ {
				fmt.Fprintf(b, " %*s", width, elemText(buf[(i-r0)*(c1-c0+1)+j-c0], false))
			}
			b.WriteString("\n")
		}
	}
}

// rangesText is "lo0:hi0,lo1:hi1,…", the dimensions before fixed showing
// their index alone.
func rangesText(lo, hi []int, fixed int) string {
	parts := make([]string, len(lo))
	for d := range lo {
		parts[d] = strconv.Itoa(lo[d])
		if d >= fixed {
			parts[d] += ":" + strconv.Itoa(hi[d])
		}
	}
	return strings.Join(parts, ",")
}

// cellShape is a pretty table's column width for T and how many columns a
// table has at most.
func cellShape[T Elem]() (width, cols int) {
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Int32, reflect.Int64:
		return 8, 8
	case reflect.Float32, reflect.Float64:
		return 11, 6
	}
	return 23, 3
}

// elemText is v as PrintPatch shows it: integers in full, reals with 5
// decimals (e-notation from 1e5 up), complex numbers as "re,im", in
// parentheses if paren.
func elemText[T Elem](v T, paren bool) string {
	r := reflect.ValueOf(v)
	size := 8 * int(r.Type().Size())
	num := func(x float64, size int) string {
		if math.Abs(x) < 1e5 {
			return strconv.FormatFloat(x, 'f', 5, size)
		}
		return strconv.FormatFloat(x, 'e', 5, size)
	}
	switch r.Kind() {
	case reflect.Int32, reflect.Int64:
		return strconv.FormatInt(r.Int(), 10)
	case reflect.Float32, reflect.Float64:
		return num(r.Float(), size)
	}
	c := r.Complex()
	s := num(real(c), size/2) + "," + num(imag(c), size/2)
	if paren {
		return "(" + s + ")"
	}
	return s
}

// Summarize writes a summary of the default group's arrays to standard
// output (GA_Summarize); see Fsummarize.
func Summarize(verbose bool) error { return Fsummarize(os.Stdout, verbose) }

// Fsummarize writes a summary of the default group's arrays to w
// (GA_Summarize): a line "  array ID => TYPE NAME(dims)" for each, in the
// order they were made (ID is the array's number in that order, which every
// process gives it), and, if verbose, a line "    [lo0:hi0,…] -> process
// P" for every block. As GA's, it is local: any process may call it, and
// writes what it knows, which is the same on every process.
func Fsummarize(w io.Writer, verbose bool) error {
	g, err := current("Summarize")
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("Summary of allocated global arrays\n-----------------------------------\n")
	g.mu.Lock()
	arrays := make([]destroyer, 0, len(g.arrays))
	for _, id := range slices.Sorted(maps.Keys(g.arrays)) {
		arrays = append(arrays, g.arrays[id])
	}
	g.mu.Unlock()
	if len(arrays) == 0 {
		b.WriteString("  No active global arrays\n")
	}
	for _, a := range arrays {
		a.(interface{ summary(*strings.Builder, bool) }).summary(&b, verbose)
	}
	_, err = io.WriteString(w, b.String())
	return err
}

func (a *Array[T]) summary(b *strings.Builder, verbose bool) {
	var z T
	dims := rangesText(a.dims, a.dims, len(a.dims))
	fmt.Fprintf(b, "  array %d => %T %s(%s)\n", a.id, z, a.name, dims)
	if !verbose {
		return
	}
	for i := range a.m.Blocks() {
		lo, hi := a.m.Patch(i)
		fmt.Fprintf(b, "    [%s] -> process %d\n", rangesText(lo, hi, 0), a.m.BlockOwner(i))
	}
}
