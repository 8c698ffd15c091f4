package layout

import (
	"fmt"
	"slices"
)

// Ghosts deals one block per rank, as OnePerRank does (or as Restricted
// does, to Ranks), and stores each block with Width[d] more elements on
// each side along dimension d: its halo of ghost cells
// (NGA_Create_ghosts). Place's extents and offsets include the halo and
// Spans leaves it out, so that everything that reaches storage through
// them works on arrays with ghosts unchanged.
type Ghosts struct {
	Width []int
	// Fixed marks the dimensions that are not periodic: their outer
	// ghost cells, past an end of the array, are not filled (nil: every
	// dimension is periodic, as in GA).
	Fixed []bool
	// Ranks, where not nil, are the ranks the blocks are restricted to
	// (WithRestricted).
	Ranks []int
}

// blocks is the deal of the blocks themselves.
func (g Ghosts) blocks() Deal {
	if g.Ranks != nil {
		return Restricted{Ranks: g.Ranks}
	}
	return OnePerRank{}
}

func (g Ghosts) Owner(m *Map, i int) int { return g.blocks().Owner(m, i) }

func (g Ghosts) LocalBlocks(m *Map, rank int) []int { return g.blocks().LocalBlocks(m, rank) }

func (g Ghosts) Coords(m *Map, rank int) ([]int, bool) { return g.blocks().Coords(m, rank) }

func (g Ghosts) Place(m *Map, c, at, ext []int) (rank, off int) {
	i, _ := inBlock(m, c, at, ext)
	rank = g.Owner(m, i)
	for d, w := range g.Width {
		ext[d] += 2 * w
		lo, _ := m.BlockRange(d, c[d])
		off = off*ext[d] + w
		if at != nil {
			off += at[d] - lo
		}
	}
	return rank, off
}

func (g Ghosts) LocalSize(m *Map, rank int) int {
	own := g.LocalBlocks(m, rank)
	if len(own) == 0 {
		return 0
	}
	lo, hi := m.Patch(own[0])
	n := 1
	for d, w := range g.Width {
		n *= hi[d] - lo[d] + 1 + 2*w
	}
	return n
}

// WithGhosts returns m with a halo of width[d] ghost cells on each side of
// every block along dimension d. Each part of a halo is filled from one
// neighbour, so no width may pass the extent of a block along its
// dimension; all-zero widths leave m as it is (NGA_Create_ghosts is then
// NGA_Create). m must deal one block per rank.
func WithGhosts(m Map, width []int) (Map, error) {
	if m.deal != nil {
		return Map{}, fmt.Errorf("ghost cells need one block per process; the map is dealt %T", m.deal)
	}
	if len(width) != len(m.Dims) {
		return Map{}, fmt.Errorf("%d ghost widths %v for %d dimensions", len(width), width, len(m.Dims))
	}
	for d, w := range width {
		if w < 0 {
			return Map{}, fmt.Errorf("ghost width %d along dimension %d is negative", w, d)
		}
		for b := range m.Starts[d] {
			if lo, hi := m.BlockRange(d, b); w > hi-lo+1 {
				return Map{}, fmt.Errorf("ghost width %d along dimension %d is wider than the block [%d, %d] there", w, d, lo, hi)
			}
		}
	}
	if slices.Max(width) == 0 {
		return m, nil
	}
	m.deal = Ghosts{Width: slices.Clone(width)}
	return m, nil
}

// GhostWidths returns the widths of m's halo, or nil if it has none.
func (m Map) GhostWidths() []int {
	if g, ok := m.deal.(Ghosts); ok {
		return g.Width
	}
	return nil
}

// WithFixed returns m, which has ghost cells, with the dimensions where
// fixed is true not periodic: Ghost gives no piece past their ends.
func WithFixed(m Map, fixed []bool) (Map, error) {
	g, ok := m.deal.(Ghosts)
	if !ok {
		return Map{}, fmt.Errorf("the map has no ghost cells")
	}
	if len(fixed) != len(m.Dims) {
		return Map{}, fmt.Errorf("%d flags %v for %d dimensions", len(fixed), fixed, len(m.Dims))
	}
	g.Fixed = nil
	if slices.Contains(fixed, true) {
		g.Fixed = slices.Clone(fixed)
	}
	m.deal = g
	return m, nil
}

// GhostPiece is the part of a block's halo that lies in one direction from
// the block, and where its values come from: At is its first element in the
// block's storage coordinates (the halo's first element is at 0 along every
// dimension), Lo and Hi the patch of the array, owned by one block, whose
// values it holds.
type GhostPiece struct{ At, Lo, Hi []int }

// Ghost returns the piece of block i's halo in direction dir (-1, 0 or +1
// along each dimension: below the block, beside it, above it), with periodic
// wrap-around: a piece past an end of the array holds the other end's
// elements, unless the dimension is fixed (see WithFixed). It returns false
// if the piece is empty (a zero width along a dimension where dir is not 0),
// lies past the end of a fixed dimension, or dir is all 0 (the block
// itself).
func (m Map) Ghost(i int, dir []int) (GhostPiece, bool) {
	g, ok := m.deal.(Ghosts)
	if !ok {
		return GhostPiece{}, false
	}
	w := g.Width
	c := m.BlockCoords(i)
	p := GhostPiece{At: make([]int, len(dir)), Lo: make([]int, len(dir)), Hi: make([]int, len(dir))}
	moved := false
	for d, s := range dir {
		lo, hi := m.BlockRange(d, c[d])
		n := m.Dims[d]
		switch {
		case s != 0 && w[d] == 0,
			g.Fixed != nil && g.Fixed[d] && (s < 0 && lo == 0 || s > 0 && hi == n-1):
			return GhostPiece{}, false
		case s < 0:
			// The block below ends at lo-1 and, its extent being at least
			// the width, holds all of [lo-w, lo-1]; below 0 is the far end.
			p.At[d], p.Lo[d], p.Hi[d] = 0, (lo-w[d]+n)%n, (lo-1+n)%n
		case s > 0:
			p.At[d], p.Lo[d], p.Hi[d] = w[d]+hi-lo+1, (hi+1)%n, (hi+w[d])%n
		default:
			p.At[d], p.Lo[d], p.Hi[d] = w[d], lo, hi
		}
		moved = moved || s != 0
	}
	return p, moved
}

// Directions calls f with every direction around a block of nd dimensions
// (-1, 0 or +1 along each, not all 0), in row-major order with -1 first;
// f must not keep dir.
func Directions(nd int, f func(dir []int)) {
	three := slices.Repeat([]int{3}, nd)
	dir := make([]int, nd)
	for k := range Product(three) {
		centre := true
		for d, x := range Unravel(three, k) {
			dir[d] = x - 1
			centre = centre && x == 1
		}
		if !centre {
			f(dir)
		}
	}
}

// Neighbour returns the block next to block i in direction dir, wrapping
// around the ends of the grid of blocks.
func (m Map) Neighbour(i int, dir []int) int {
	c := m.BlockCoords(i)
	for d, s := range m.Starts {
		c[d] = (c[d] + dir[d] + len(s)) % len(s)
	}
	return m.Index(c)
}

// Face is the slab of a block's own elements beside one of its sides: what
// the neighbour on that side copies into the piece of its halo that faces
// the block. At is its first element in the block's storage coordinates
// (as GhostPiece's), Count its extents, and Off where it starts when all
// the block's faces are packed one after another, row-major each, in the
// order of Directions, into as many elements as the block's halo has.
type Face struct {
	At, Count []int
	Off       int
}

// Face returns block i's face in direction dir (not all 0), on a map with
// ghost cells: width[d] elements thick along each dimension d where dir[d]
// is not 0, the block's whole extent where it is.
func (m Map) Face(i int, dir []int) Face {
	w := m.deal.(Ghosts).Width
	c := m.BlockCoords(i)
	nd := len(dir)
	f := Face{At: make([]int, nd), Count: make([]int, nd)}
	ext := make([]int, nd)
	for d := range nd {
		lo, hi := m.BlockRange(d, c[d])
		ext[d] = hi - lo + 1
	}
	// side is the face's thickness along d on side s; a dimension's three
	// sides together span its storage extent, ext + 2w.
	side := func(d, s int) int {
		if s == 0 {
			return ext[d]
		}
		return w[d]
	}
	// The faces before dir: those that agree with it on the dimensions
	// before d and come before it along d, whatever they are past d.
	inner, past := 1, 1
	for d := range nd {
		past *= ext[d] + 2*w[d]
	}
	for d, s := range dir {
		past /= ext[d] + 2*w[d]
		for b := -1; b < s; b++ {
			f.Off += inner * side(d, b) * past
		}
		inner *= side(d, s)
		f.Count[d] = side(d, s)
		f.At[d] = w[d]
		if s > 0 {
			f.At[d] = ext[d]
		}
	}
	// The block's own elements, dir all 0, are not a face: take them out
	// where they come before dir, which they do when dir's first nonzero
	// entry is +1.
	for _, s := range dir {
		if s != 0 {
			if s > 0 {
				f.Off -= Product(ext)
			}
			break
		}
	}
	return f
}
