package ga

import (
	"slices"

	"github.com/goga-hpc/goga/internal/layout"
)

// SetRestricted makes the array live on the listed processes only, in that
// order (GA_Set_restricted): it is distributed as it would be over
// len(list) processes, its i-th block stored on process list[i]. Every
// other process of the group stores nothing, but reads and writes the
// array one-sidedly and takes part in its collectives like any other.
// Ranks are the group's; a list that is empty, repeats a rank or names one
// out of range makes Allocate fail on every process. An array with ghost
// cells may be restricted (its halos are those of the listed processes'
// blocks), and so may a block-cyclic one, whose blocks are dealt as over
// len(list) processes, process i's to list[i] (a BlockCyclicGrid's grid
// then has len(list) processes, as GA requires).
func (b *Builder[T]) SetRestricted(list ...int) *Builder[T] {
	b.restricted = slices.Clone(list)
	if b.restricted == nil {
		b.restricted = []int{}
	}
	return b
}

// SetRestrictedRange is SetRestricted of the processes lo to hi, inclusive
// (GA_Set_restricted_range).
func (b *Builder[T]) SetRestrictedRange(lo, hi int) *Builder[T] {
	list := []int{}
	for r := lo; r <= hi; r++ {
		list = append(list, r)
	}
	return b.SetRestricted(list...)
}

// restrictedLayout is the builder's layout, restricted to its list of
// processes if it has one.
func (b *Builder[T]) restrictedLayout(op string, nproc int) (layout.Map, error) {
	if b.restricted == nil {
		return b.ghostLayout(op, nproc)
	}
	switch {
	case len(b.restricted) == 0:
		return layout.Map{}, errorf(op, b.name, "the list of processes to restrict to is empty")
	case len(b.restricted) > nproc:
		return layout.Map{}, errorf(op, b.name, "%d processes listed %v; the group has %d", len(b.restricted), b.restricted, nproc)
	}
	m, err := b.ghostLayout(op, len(b.restricted))
	if err != nil {
		return m, err
	}
	if m, err = layout.WithRestricted(m, b.restricted, nproc); err != nil {
		return layout.Map{}, errorf(op, b.name, "restricted to %v: %v", b.restricted, err)
	}
	return m, nil
}
