package layout

import (
	"fmt"
	"slices"
)

// Restricted deals block i to Ranks[i], which stores it packed
// (GA_Set_restricted): the array lives on the listed ranks only, in that
// order, and every other rank owns nothing. The blocks are those of a map
// made for len(Ranks) processes.
type Restricted struct{ Ranks []int }

// WithRestricted deals m's blocks to ranks: m, made for len(ranks)
// processes, deals one block per rank (its halo kept, where it has ghost
// cells), with no more blocks than ranks, or is block-cyclic, whose process
// i becomes ranks[i]; ranks must be distinct and in [0, nproc).
func WithRestricted(m Map, ranks []int, nproc int) (Map, error) {
	g, ghosts := m.deal.(Ghosts)
	cyclic := false
	switch m.deal.(type) {
	case *RoundRobin, *ProcGrid, *TiledGrid:
		cyclic = true
	}
	if m.deal != nil && !cyclic && (!ghosts || g.Ranks != nil) {
		return Map{}, fmt.Errorf("a restricted array needs one block per process or a block-cyclic deal; the map is dealt %T", m.deal)
	}
	if len(ranks) == 0 {
		return Map{}, fmt.Errorf("the list of processes is empty")
	}
	seen := make(map[int]bool, len(ranks))
	for _, r := range ranks {
		if r < 0 || r >= nproc {
			return Map{}, fmt.Errorf("process %d in the list %v is out of range [0, %d)", r, ranks, nproc)
		}
		if seen[r] {
			return Map{}, fmt.Errorf("process %d appears twice in the list %v", r, ranks)
		}
		seen[r] = true
	}
	if cyclic {
		m.deal = RestrictedCyclic{Inner: m.deal, Ranks: slices.Clone(ranks)}
		return m, nil
	}
	if m.Blocks() > len(ranks) {
		return Map{}, fmt.Errorf("%d blocks for the %d listed processes", m.Blocks(), len(ranks))
	}
	if ghosts {
		g.Ranks = slices.Clone(ranks)
		m.deal = g
		return m, nil
	}
	m.deal = Restricted{Ranks: slices.Clone(ranks)}
	return m, nil
}

// slot returns the block rank owns, or -1.
func (r Restricted) slot(m *Map, rank int) int {
	if i := slices.Index(r.Ranks, rank); i < m.Blocks() {
		return i
	}
	return -1
}

func (r Restricted) Owner(_ *Map, i int) int { return r.Ranks[i] }

func (r Restricted) Place(m *Map, c, at, ext []int) (rank, off int) {
	i, off := inBlock(m, c, at, ext)
	return r.Ranks[i], off
}

func (r Restricted) LocalBlocks(m *Map, rank int) []int {
	if i := r.slot(m, rank); i >= 0 {
		return []int{i}
	}
	return nil
}

func (r Restricted) LocalSize(m *Map, rank int) int {
	i := r.slot(m, rank)
	if i < 0 {
		return 0
	}
	lo, hi := m.Patch(i)
	return Volume(lo, hi)
}

func (r Restricted) Coords(m *Map, rank int) ([]int, bool) {
	i := r.slot(m, rank)
	if i < 0 {
		return nil, false
	}
	return m.BlockCoords(i), true
}

// RestrictedCyclic is a block-cyclic deal (RoundRobin, ProcGrid or
// TiledGrid, made for len(Ranks) processes) whose process i is Ranks[i]
// (GA_Set_restricted of a block-cyclic array, as GA's iterator maps its
// process i to rstrctd_list[i]): every other rank owns nothing.
type RestrictedCyclic struct {
	Inner Deal
	Ranks []int
}

func (r RestrictedCyclic) Owner(m *Map, i int) int { return r.Ranks[r.Inner.Owner(m, i)] }

// Place calls the inner deal's Place directly, as Map.Place does: an
// interface call would make c, at and ext escape in every map's Place.
func (r RestrictedCyclic) Place(m *Map, c, at, ext []int) (rank, off int) {
	var k int
	switch d := r.Inner.(type) {
	case *RoundRobin:
		k, off = d.Place(m, c, at, ext)
	case *ProcGrid:
		k, off = d.Place(m, c, at, ext)
	case *TiledGrid:
		k, off = d.Place(m, c, at, ext)
	default:
		panic(fmt.Sprintf("layout: a restriction of a map dealt by %T", r.Inner))
	}
	return r.Ranks[k], off
}

func (r RestrictedCyclic) LocalBlocks(m *Map, rank int) []int {
	if k := slices.Index(r.Ranks, rank); k >= 0 {
		return r.Inner.LocalBlocks(m, k)
	}
	return nil
}

func (r RestrictedCyclic) LocalSize(m *Map, rank int) int {
	if k := slices.Index(r.Ranks, rank); k >= 0 {
		return r.Inner.LocalSize(m, k)
	}
	return 0
}

func (r RestrictedCyclic) Coords(m *Map, rank int) ([]int, bool) {
	if k := slices.Index(r.Ranks, rank); k >= 0 {
		return r.Inner.Coords(m, k)
	}
	return nil, false
}

// BaseDeal is m's deal, less the restriction of a block-cyclic one: the
// deal over len(Restriction()) processes that names their grid.
func (m Map) BaseDeal() Deal {
	if r, ok := m.deal.(RestrictedCyclic); ok {
		return r.Inner
	}
	return m.Deal()
}

// Restriction returns the ranks m is restricted to, or nil.
func (m Map) Restriction() []int {
	switch d := m.deal.(type) {
	case Restricted:
		return d.Ranks
	case Ghosts:
		return d.Ranks
	case RestrictedCyclic:
		return d.Ranks
	}
	return nil
}
