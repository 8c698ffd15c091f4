package ga

import (
	"slices"
	"strconv"
	"unsafe"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/layout"
)

// Ghost cells: an array made with ghost widths stores its block on each
// process with a halo of width[d] elements on each side along dimension d,
// copies of the neighbours' elements. The halo is part of the layout's
// storage only: every patch, one-sided operation and collective sees the
// array's own elements and nothing else. An update fills each piece of the
// halo (a face, an edge or a corner, one per neighbour) from the slab of the
// neighbour's block beside it, which the neighbour packs first into a
// buffer of its own (see exchangeGhosts); over shared memory that is one
// memory copy on each side per piece. As in GA, the
// update always wraps around: the halo past an end of the array holds the
// other end's elements; an application that wants fixed boundaries ignores
// (or overwrites) the outer halo, or makes dimensions not periodic with
// SetPeriodic (goga's own call). Arrays whose ghost widths or periodicity
// differ have different layouts, so CompareDistr reports them distributed
// differently and operations between them fetch their operands instead of
// pairing storage in place.

// Ghosts sets the width of the halo of ghost cells along each dimension
// (GA_Set_ghosts). Every width must be at most the extent of every block
// along its dimension, so that each piece of a halo comes from one
// neighbour; all-zero widths make an ordinary array. Block-cyclic arrays
// have no ghost cells.
func (b *Builder[T]) Ghosts(width ...int) *Builder[T] {
	b.ghosts = slices.Clone(width)
	return b
}

// ghostLayout is the builder's layout with its ghost cells, if any.
func (b *Builder[T]) ghostLayout(op string, nproc int) (layout.Map, error) {
	m, err := b.layout(op, nproc)
	if err != nil || b.ghosts == nil {
		return m, err
	}
	if m, err = layout.WithGhosts(m, b.ghosts); err != nil {
		return layout.Map{}, errorf(op, b.name, "%v", err)
	}
	return m, nil
}

// CreateGhosts makes an array with GA's default distribution and a halo of
// width[d] ghost cells along dimension d (NGA_Create_ghosts); chunk may be
// nil.
func CreateGhosts[T Elem](name string, dims, width, chunk []int) (*Array[T], error) {
	return New[T](dims...).Name(name).Chunk(chunk...).Ghosts(width...).allocate("CreateGhosts")
}

// CreateGhostsIrreg makes an array with the given block boundaries (see
// Builder.Irregular) and ghost widths (NGA_Create_ghosts_irreg).
func CreateGhostsIrreg[T Elem](name string, dims, width []int, starts [][]int) (*Array[T], error) {
	return New[T](dims...).Name(name).Irregular(starts...).Ghosts(width...).allocate("CreateGhostsIrreg")
}

// HasGhosts reports whether the array has ghost cells (GA_Has_ghosts).
func (a *Array[T]) HasGhosts() bool { return a != nil && a.m.GhostWidths() != nil }

// GhostWidths returns the ghost width along each dimension, zeros for an
// array without ghost cells (the widths given to NGA_Create_ghosts).
func (a *Array[T]) GhostWidths() []int {
	if a == nil {
		return nil
	}
	if w := a.m.GhostWidths(); w != nil {
		return slices.Clone(w)
	}
	return make([]int, len(a.dims))
}

// SetPeriodic sets which dimensions of an array with ghost cells are
// periodic, one flag per dimension; at creation all are, as
// GA_Update_ghosts always wraps around. The ghost cells past the ends of a
// dimension that is not are left as they were by UpdateGhosts,
// UpdateGhostDir, NbGetGhostDir and NbUpdateGhosts. GA has no such call.
// It is collective.
func (a *Array[T]) SetPeriodic(periodic ...bool) error {
	const op = "SetPeriodic"
	fixed := make([]bool, len(periodic))
	flags := make([]int, len(periodic))
	for d, p := range periodic {
		fixed[d] = !p
		if p {
			flags[d] = 1
		}
	}
	var m layout.Map
	check := a.valid(op)
	if check == nil {
		if m, check = layout.WithFixed(a.m, fixed); check != nil {
			check = errorf(op, a.name, "periodic %v: %v", periodic, check)
		}
	}
	return a.collective(op, newArgs(op).ints("periodic", flags...), check, func([]T) error {
		a.m, a.plan = m, nil
		return nil
	})
}

// UpdateGhosts fills every ghost cell of every process, corners included,
// from the neighbours that own its element, wrapping around the ends of the
// array's periodic dimensions (GA_Update_ghosts; see SetPeriodic). It is
// collective; on an array without ghost cells it only synchronizes. With
// both its syncs masked (MaskSync(false, false), as GA's boltzmann example
// calls it each step) it still reads what every neighbour held when it
// called: each process packs its faces into a buffer of its own, one of two
// taken in turn, and the processes meet in a barrier before they read them.
// What the masks drop is the completion of one-sided operations on the
// array issued before the call, and the wait for the others at its end.
func (a *Array[T]) UpdateGhosts() error {
	return a.updateGhosts("UpdateGhosts", nil, nil, nil)
}

// UpdateGhostDir fills the ghost cells on one side (-1 below, +1 above) of
// dimension dim, and with corners those beside it along the other
// dimensions too (NGA_Update_ghost_dir). dim is in C order: GA's C call
// numbers dimensions the Fortran way, its 0 being goga's last. It is
// collective.
func (a *Array[T]) UpdateGhostDir(dim, side int, corners bool) error {
	const op = "UpdateGhostDir"
	l := newArgs(op).ints("dim", dim).ints("side", side).str("corners", strconv.FormatBool(corners))
	check := a.valid(op)
	if check == nil && (dim < 0 || dim >= len(a.dims) || side != -1 && side != 1) {
		check = errorf(op, a.name, "dimension %d side %d; want a dimension in [0, %d) and side -1 or 1", dim, side, len(a.dims))
	}
	return a.updateGhosts(op, l, check, func(dir []int) bool {
		if dir[dim] != side {
			return false
		}
		for d, s := range dir {
			if d != dim && s != 0 && !corners {
				return false
			}
		}
		return true
	})
}

// updateGhosts fills, between the implicit syncs, the pieces of this
// process's halo in the directions that want picks (nil: all of them, by
// the plan kept for UpdateGhosts).
func (a *Array[T]) updateGhosts(op string, l *args, check error, want func(dir []int) bool) error {
	return a.collective(op, l, check, func(local []T) error {
		if a.m.GhostWidths() == nil {
			return nil
		}
		if err := a.makeFaces(op); err != nil {
			return err
		}
		p := a.plan
		switch {
		case want != nil:
			p = a.planGhosts(want)
		case p == nil:
			p = a.planGhosts(func([]int) bool { return true })
			a.plan = p
		}
		return a.exchangeGhosts(op, local, p)
	})
}

// ghostPlan is what an update copies on this process, worked out from the
// layout once: the faces it packs for its neighbours, then the pieces of
// its halo.
type ghostPlan struct{ packs, reads []ghostCopy }

// ghostCopy is one box an update copies: the face or piece in direction
// dir, of extents count, from element src (of this process's storage for a
// pack or for a read with owner -1, of owner's buffer of faces otherwise)
// to element dst (of the buffer of faces for a pack, of the storage for a
// read), with the pitches of both sides. half is the length of a half of
// the buffer of faces involved, where the second half's copy of the face
// starts.
type ghostCopy struct {
	dir, count     [MaxDim]int
	src, dst       int
	spitch, dpitch [MaxDim]int
	owner, half    int
}

// planGhosts works out the copies of an update of the pieces in the
// directions that want picks. A process packs a face for each neighbour
// that reads it; it reads each piece of its halo from the neighbour's
// buffer of faces, or in place from its own block (a periodic dimension
// with one block).
func (a *Array[T]) planGhosts(want func(dir []int) bool) *ghostPlan {
	p := &ghostPlan{}
	if a.lo == nil || a.m.GhostWidths() == nil {
		return p
	}
	nd := len(a.dims)
	me := a.own[0]
	var ext, pitch [MaxDim]int // this process's storage
	a.m.Place(a.m.BlockCoords(me), nil, ext[:nd])
	pitchesOf(ext[:nd], pitch[:nd])
	back := make([]int, nd)
	layout.Directions(nd, func(dir []int) {
		for d, s := range dir {
			back[d] = -s
		}
		r := a.m.Neighbour(me, dir)
		if _, ok := a.m.Ghost(r, back); !ok || !want(back) || a.m.BlockOwner(r) == a.g.rank {
			return
		}
		f := a.m.Face(me, dir)
		c := ghostCopy{src: offsetOf(f.At, pitch[:nd]), dst: f.Off, spitch: pitch, half: a.facesLen(me)}
		copy(c.dir[:], dir)
		copy(c.count[:], f.Count)
		pitchesOf(f.Count, c.dpitch[:nd])
		p.packs = append(p.packs, c)
	})
	a.eachGhost(want, func(dir []int, gp layout.GhostPiece, at int, _ []int) error {
		c := ghostCopy{dst: at, dpitch: pitch, owner: -1}
		copy(c.dir[:], dir)
		for d := range nd {
			c.count[d] = gp.Hi[d] - gp.Lo[d] + 1
		}
		q := a.m.BlockAt(gp.Lo)
		if owner := a.m.BlockOwner(q); owner != a.g.rank {
			for d, s := range dir {
				back[d] = -s
			}
			c.owner, c.src, c.half = owner, a.m.Face(q, back).Off, a.facesLen(q)
			pitchesOf(c.count[:nd], c.spitch[:nd])
		} else {
			var from [MaxDim]int
			for d, w := range a.m.GhostWidths() {
				from[d] = gp.Lo[d] - a.lo[d] + w
			}
			c.src, c.spitch = offsetOf(from[:nd], pitch[:nd]), pitch
		}
		p.reads = append(p.reads, c)
		return nil
	})
	return p
}

// exchangeGhosts carries out plan p. A piece copied straight from a
// neighbour's block is, for a face across a row-major block (a column of
// a 2-D array), one element from each of thousands of the neighbour's
// rows: on a node, as many cache lines pulled from another core, each
// several times the cost of the copy. So each process first packs the
// faces its neighbours read into a buffer of its own, and after a barrier
// every process copies each of its pieces from the neighbour's buffer,
// where it is contiguous, into its halo: directly where the buffer is
// mapped, with one strided Get where it is not. All processes take part,
// those that own nothing included.
//
// Updates pack into the two halves of the buffers in turn: packing over
// the lines a neighbour read in the update before made the packing and
// the reading each about 1.3x slower here (the fastest updates of the
// 2048 × 2048 bench on 2 ranks: 14-15 µs with one half, 11.5-12.5 with
// two).
func (a *Array[T]) exchangeGhosts(op string, local []T, p *ghostPlan) error {
	nd := len(a.dims)
	half := a.facesHalf
	a.facesHalf ^= 1
	var pairs pairing[T]
	if len(p.packs) > 0 {
		faces, err := armci.LocalAs[T](a.faces)
		if err != nil {
			return errorf(op, a.name, "%v", err)
		}
		for i := range p.packs {
			c := &p.packs[i]
			pairs.copy(c.dir[:nd], c.count[:nd], box[T]{dst: faces[half*c.half+c.dst:], src: local[c.src:], dpitch: c.dpitch, spitch: c.spitch})
		}
		pairs.flush()
	}
	if err := a.g.rt.Barrier(); err != nil {
		return errorf(op, a.name, "%v", err)
	}
	defer pairs.flush()
	// Pieces from parts on other nodes, reached by active messages, come in
	// one get per owner, of the span of its buffer of faces that holds them,
	// into a staging buffer, all asked for at once and unpacked when they
	// are in: each get is a round trip that the owner's server answers one
	// at a time. Between two simulated nodes an update read two faces and
	// four corners from the other process in six gets. Other pieces are
	// read one by one, in flight together.
	spans := a.stageSpans(p, half)
	h, err := issued(func(keep func(*armci.Handle, error) error) error {
		for _, sp := range spans {
			if sp.staged {
				if err := keep(armci.NbGet(a.faces, sp.owner, sp.lo*a.es, a.stage[sp.at:sp.at+sp.hi-sp.lo])); err != nil {
					return err
				}
			}
		}
		for i := range p.reads {
			c := &p.reads[i]
			b := box[T]{dst: local[c.dst:], dpitch: c.dpitch, spitch: c.spitch}
			if c.owner < 0 {
				b.src = local[c.src:]
				pairs.copy(c.dir[:nd], c.count[:nd], b)
				continue
			}
			if part, ok := armci.PartAs[T](a.faces, c.owner); ok {
				b.src = part[half*c.half+c.src:]
				pairs.copy(c.dir[:nd], c.count[:nd], b)
				continue
			}
			if stagedSpan(spans, c.owner) != nil {
				continue // unpacked below
			}
			s := armci.Strided{Count: []int{c.count[nd-1] * a.es}}
			for d := nd - 2; d >= 0; d-- {
				s.Count = append(s.Count, c.count[d])
				s.LocalStride = append(s.LocalStride, c.dpitch[d]*a.es)
				s.RemoteStride = append(s.RemoteStride, c.spitch[d]*a.es)
			}
			if err := keep(armci.NbGetS(a.faces, c.owner, (half*c.half+c.src)*a.es, b.dst, s)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := h.Wait(); err != nil {
		return err
	}
	for i := range p.reads {
		c := &p.reads[i]
		if sp := stagedSpan(spans, c.owner); c.owner >= 0 && sp != nil {
			src := sp.at + half*c.half + c.src - sp.lo
			pairs.copy(c.dir[:nd], c.count[:nd], box[T]{dst: local[c.dst:], src: a.stage[src:], dpitch: c.dpitch, spitch: c.spitch})
		}
	}
	return nil
}

// stageSpan is the span [lo, hi) of owner's buffer of faces (elements, in
// the half being read) that holds the pieces of this process's halo it
// owns, and where in the staging buffer it lands. staged is false where
// the span would be more than twice what the pieces need: they are then
// read one by one.
type stageSpan struct {
	owner, lo, hi, need, at int
	staged                  bool
}

// stageSpans works out the spans of an update's reads from parts this
// process does not map, and sizes a.stage for the staged ones. Only parts
// reached by active messages are staged: over MPI RMA the gets of the
// pieces are in flight together anyway.
func (a *Array[T]) stageSpans(p *ghostPlan, half int) []stageSpan {
	if a.g.rt.Remote() != armci.RemoteAM {
		return nil
	}
	nd := len(a.dims)
	spans := a.staged[:0]
	for i := range p.reads {
		c := &p.reads[i]
		if c.owner < 0 || a.faces.Mapped(c.owner) {
			continue
		}
		lo, n, last := half*c.half+c.src, 1, 0
		for d := range nd {
			n *= c.count[d]
			last += (c.count[d] - 1) * c.spitch[d]
		}
		j := slices.IndexFunc(spans, func(s stageSpan) bool { return s.owner == c.owner })
		if j < 0 {
			spans = append(spans, stageSpan{owner: c.owner, lo: lo, hi: lo + last + 1, need: n})
			continue
		}
		sp := &spans[j]
		sp.lo, sp.hi, sp.need = min(sp.lo, lo), max(sp.hi, lo+last+1), sp.need+n
	}
	total := 0
	for i := range spans {
		sp := &spans[i]
		if sp.staged = sp.hi-sp.lo <= 2*sp.need; sp.staged {
			sp.at = total
			total += sp.hi - sp.lo
		}
	}
	if len(a.stage) < total {
		a.stage = make([]T, total)
	}
	a.staged = spans
	return spans
}

// stagedSpan returns owner's span if its pieces are staged, or nil.
func stagedSpan(spans []stageSpan, owner int) *stageSpan {
	for i := range spans {
		if spans[i].owner == owner && spans[i].staged {
			return &spans[i]
		}
	}
	return nil
}

// makeFaces gives an array with ghost cells its buffer of faces, if it has
// none yet, and enters the neighbours' buffers that this process reads into
// its page tables. Creation calls it, so that the first update costs no
// more than the next (GA too prepares its updates when it creates the
// array); an overlay gets its buffer at its first update. It is
// collective.
func (a *Array[T]) makeFaces(op string) error {
	if a.faces != nil || a.m.GhostWidths() == nil {
		return nil
	}
	n := 0
	if a.lo != nil {
		n = 2 * a.facesLen(a.own[0])
	}
	seg, err := a.g.rt.Malloc(n * a.es)
	if err != nil {
		return errorf(op, a.name, "the buffer of faces (%d bytes): %v", n*a.es, err)
	}
	a.faces = seg
	return a.eachGhost(func([]int) bool { return true }, func(_ []int, p layout.GhostPiece, _ int, _ []int) error {
		return seg.MapIn(a.m.Owner(p.Lo))
	})
}

// facesLen is the length of a half of the buffer of faces of block b's
// owner: as many elements as the block's halo.
func (a *Array[T]) facesLen(b int) int {
	lo, hi := a.m.Patch(b)
	return a.m.LocalSize(a.m.BlockOwner(b)) - layout.Volume(lo, hi)
}

// box is a copy of a box of elements from src, whose pitches are spitch, to
// dst, whose pitches are dpitch; both start at the box's first element.
type box[T any] struct {
	dst, src       []T
	dpitch, spitch [MaxDim]int
}

// pairing copies the boxes of a halo's pieces or a block's faces, given in
// the order of layout.Directions, holding one whose direction is -1 along
// the last dimension until its partner, +1 there and the same elsewhere,
// comes next (past the one between, 0 there): the two are copied in one
// walk.
// Such a pair is a block's two faces across its rows (a 2-D block's left
// and right columns), and one walk down both touches the end of each row
// and the start of the next together, in the same page and often the same
// cache line, where two walks would miss twice as often.
type pairing[T any] struct {
	held  bool
	nd    int
	dir   [MaxDim]int
	count [MaxDim]int
	first box[T]
}

func (p *pairing[T]) copy(dir, count []int, b box[T]) {
	nd := len(dir)
	if p.held && dir[nd-1] == 1 && slices.Equal(p.dir[:nd-1], dir[:nd-1]) && slices.Equal(p.count[:nd], count) {
		p.held = false
		copyBoxes(count, &p.first, &b)
		return
	}
	if p.held && dir[nd-1] == 0 && slices.Equal(p.dir[:nd-1], dir[:nd-1]) {
		copyBoxes(count, &b, nil) // between the pair in Directions' order
		return
	}
	p.flush()
	if dir[nd-1] == -1 {
		p.held, p.nd = true, nd
		copy(p.dir[:nd], dir)
		copy(p.count[:nd], count)
		p.first = b
		return
	}
	copyBoxes(count, &b, nil)
}

// flush copies the box held, if any.
func (p *pairing[T]) flush() {
	if p.held {
		p.held = false
		copyBoxes(p.count[:p.nd], &p.first, nil)
	}
}

// pitchesOf sets pitch to the row-major pitches, in elements, of a box of
// extents ext.
func pitchesOf(ext, pitch []int) {
	p := 1
	for d := len(ext) - 1; d >= 0; d-- {
		pitch[d] = p
		p *= ext[d]
	}
}

// offsetOf is the element offset of sub in storage of the given pitches.
func offsetOf(sub, pitch []int) int {
	at := 0
	for d, x := range sub {
		at += x * pitch[d]
	}
	return at
}

// copyBoxes copies box a, and b if not nil, of extents count, walking their
// rows together.
func copyBoxes[T any](count []int, a, b *box[T]) {
	nd := len(count)
	if slices.Contains(count, 0) {
		return
	}
	n := count[nd-1]
	var z T
	es := int(unsafe.Sizeof(z))
	var sub [MaxDim]int
	for {
		sa, da, sb, db := 0, 0, 0, 0
		for k := range nd - 1 {
			sa += sub[k] * a.spitch[k]
			da += sub[k] * a.dpitch[k]
			if b != nil {
				sb += sub[k] * b.spitch[k]
				db += sub[k] * b.dpitch[k]
			}
		}
		if n == 1 && nd > 1 {
			// Single elements down the second-last dimension: its whole
			// extent here rather than one element per turn of the walk.
			// Unchecked: the first and last elements of each of the four
			// columns are checked here, and checks on every element cost
			// more than the copies that stay in cache.
			k, m := nd-2, count[nd-2]
			_, _ = a.src[sa+(m-1)*a.spitch[k]], a.dst[da+(m-1)*a.dpitch[k]]
			as, ad := unsafe.Pointer(&a.src[sa]), unsafe.Pointer(&a.dst[da])
			asp, adp := a.spitch[k]*es, a.dpitch[k]*es
			if b == nil {
				for i := range m {
					*(*T)(unsafe.Add(ad, i*adp)) = *(*T)(unsafe.Add(as, i*asp))
				}
			} else {
				_, _ = b.src[sb+(m-1)*b.spitch[k]], b.dst[db+(m-1)*b.dpitch[k]]
				bs, bd := unsafe.Pointer(&b.src[sb]), unsafe.Pointer(&b.dst[db])
				bsp, bdp := b.spitch[k]*es, b.dpitch[k]*es
				for i := range m {
					*(*T)(unsafe.Add(ad, i*adp)) = *(*T)(unsafe.Add(as, i*asp))
					*(*T)(unsafe.Add(bd, i*bdp)) = *(*T)(unsafe.Add(bs, i*bsp))
				}
			}
			sub[k] = m - 1
		} else {
			copy(a.dst[da:da+n], a.src[sa:sa+n])
			if b != nil {
				copy(b.dst[db:db+n], b.src[sb:sb+n])
			}
		}
		k := nd - 2
		for ; k >= 0; k-- {
			if sub[k]++; sub[k] < count[k] {
				break
			}
			sub[k] = 0
		}
		if k < 0 {
			return
		}
	}
}

// eachGhost calls f for every non-empty piece of this process's halo in a
// direction that want picks, with its direction, its offset in the local
// storage and the storage's leading dimensions.
func (a *Array[T]) eachGhost(want func(dir []int) bool, f func(dir []int, p layout.GhostPiece, at int, ld []int) error) error {
	if a.lo == nil || a.m.GhostWidths() == nil {
		return nil
	}
	nd := len(a.dims)
	ext := make([]int, nd)
	a.m.Place(a.m.BlockCoords(a.own[0]), nil, ext)
	var err error
	layout.Directions(nd, func(dir []int) {
		p, ok := a.m.Ghost(a.own[0], dir)
		if err != nil || !ok || !want(dir) {
			return
		}
		at := 0
		for d := range nd {
			at = at*ext[d] + p.At[d]
		}
		err = f(dir, p, at, ext[1:])
	})
	return err
}

// NbGetGhostDir starts filling the piece of this process's halo in
// direction dir (-1, 0 or +1 along each dimension, not all 0; C order) from
// the neighbour that owns it, and returns at once (NGA_NbGet_ghost_dir).
// It is not collective: the caller syncs before, so that the neighbour's
// elements are written, and waits on the handle before reading the halo.
func (a *Array[T]) NbGetGhostDir(dir []int) (*Handle, error) {
	const op = "NbGetGhostDir"
	if err := a.valid(op); err != nil {
		return nil, err
	}
	moved := false
	for _, s := range dir {
		moved = moved || s != 0
		if s < -1 || s > 1 {
			moved = false
			break
		}
	}
	if len(dir) != len(a.dims) || !moved {
		return nil, errorf(op, a.name, "direction %v; want -1, 0 or 1 for each of %d dimensions, not all 0", dir, len(a.dims))
	}
	return a.nbGhosts(func(d []int) bool { return slices.Equal(d, dir) })
}

// NbUpdateGhosts starts filling every ghost cell of this process, as
// UpdateGhosts does, and returns at once (NGA_Update_ghosts_nb). Like
// NbGetGhostDir it is not collective: sync before, wait before reading.
func (a *Array[T]) NbUpdateGhosts() (*Handle, error) {
	if err := a.valid("NbUpdateGhosts"); err != nil {
		return nil, err
	}
	return a.nbGhosts(func([]int) bool { return true })
}

// nbGhosts starts the Gets of the pieces of this process's halo in the
// directions that want picks.
func (a *Array[T]) nbGhosts(want func(dir []int) bool) (*Handle, error) {
	local, err := a.localData()
	if err != nil {
		return nil, err
	}
	h := &Handle{}
	err = a.eachGhost(want, func(_ []int, p layout.GhostPiece, at int, ld []int) error {
		x, err := a.NbGet(p.Lo, p.Hi, local[at:], ld)
		if err == nil {
			h.hs = append(h.hs, x.hs...)
		}
		return err
	})
	if err != nil {
		h.Wait() // complete what was issued before the failure
		return nil, err
	}
	return h, nil
}

// AccessGhosts returns this process's block with its halo in place
// (NGA_Access_ghosts): data starts at the halo's first element, lo and hi
// are its corners in global indices (below 0 or past the end where the halo
// wraps around, as in GA) and ld the storage's leading dimensions. Writes
// go straight into the array; ReleaseGhosts or ReleaseUpdateGhosts ends the
// access.
func (a *Array[T]) AccessGhosts() (data []T, lo, hi, ld []int, err error) {
	ext, err := a.ghostBlock("AccessGhosts")
	if err != nil {
		return nil, nil, nil, nil, err
	}
	w := a.GhostWidths()
	lo, hi = make([]int, len(w)), make([]int, len(w))
	for d := range w {
		lo[d], hi[d] = a.lo[d]-w[d], a.hi[d]+w[d]
	}
	data, err = a.localData()
	return data, lo, hi, ext[1:], err
}

// GhostDims returns the extents of this process's block with its halo, the
// dims NGA_Access_ghosts returns; ok is false if it owns nothing.
func (a *Array[T]) GhostDims() (dims []int, ok bool) {
	ext, err := a.ghostBlock("GhostDims")
	return ext, err == nil
}

// AccessGhostElement returns, in place, this process's storage from the
// element at sub on, with the storage's leading dimensions
// (NGA_Access_ghost_element). As in GA, sub is counted from the halo's first
// element: 0 to GhostDims()[d]-1 along dimension d.
func (a *Array[T]) AccessGhostElement(sub []int) ([]T, []int, error) {
	const op = "AccessGhostElement"
	ext, err := a.ghostBlock(op)
	if err != nil {
		return nil, nil, err
	}
	at, err := a.ghostElement(op, ext, sub)
	if err != nil {
		return nil, nil, err
	}
	data, err := a.localData()
	if err != nil {
		return nil, nil, err
	}
	return data[at:], ext[1:], nil
}

// ghostBlock returns the extents of this process's block with its halo, or
// an error if the array is block-cyclic or the process owns nothing.
func (a *Array[T]) ghostBlock(op string) ([]int, error) {
	if err := a.valid(op); err != nil {
		return nil, err
	}
	if a.m.BlockCyclic() {
		return nil, errorf(op, a.name, "the array is block-cyclic and has no ghost cells")
	}
	if a.lo == nil {
		return nil, errorf(op, a.name, "process %d owns no block", a.g.rank)
	}
	ext := make([]int, len(a.dims))
	a.m.Place(a.m.BlockCoords(a.own[0]), nil, ext)
	return ext, nil
}

// ghostElement returns the storage offset of sub, counted from the halo's
// first element, or an error if it is outside the block and its halo.
func (a *Array[T]) ghostElement(op string, ext, sub []int) (int, error) {
	if len(sub) != len(ext) {
		return 0, errorf(op, a.name, "subscript %v for a %d-dimensional array", sub, len(ext))
	}
	at := 0
	for d, x := range sub {
		if x < 0 || x >= ext[d] {
			return 0, errorf(op, a.name, "subscript %v is outside the block with its ghost cells, extents %v", sub, ext)
		}
		at = at*ext[d] + x
	}
	return at, nil
}

// GetGhostBlock copies the patch [lo, hi] into buf with leading dimensions
// ld (nil: packed) as Get does, except that a patch inside this process's
// block with its halo (lo below 0 or hi past the end included, as
// AccessGhosts numbers the halo) is read from the local storage, ghost cells
// and all (NGA_Get_ghost_block). Any other patch is an ordinary Get.
func (a *Array[T]) GetGhostBlock(lo, hi []int, buf []T, ld []int) error {
	const op = "GetGhostBlock"
	ext, err := a.ghostBlock(op)
	if err != nil || len(lo) != len(ext) || len(hi) != len(ext) {
		return a.Get(lo, hi, buf, ld)
	}
	nd := len(ext)
	w := a.GhostWidths()
	var at, count, spitch [MaxDim]int // the corner in storage coordinates, the extents, the storage's pitches
	for d := range nd {
		at[d], count[d] = lo[d]-a.lo[d]+w[d], hi[d]-lo[d]+1
		if at[d] < 0 || count[d] < 1 || at[d]+count[d] > ext[d] {
			return a.Get(lo, hi, buf, ld)
		}
	}
	var b layout.Buffer
	if err := a.bufferOf(op, count[:nd], ld, len(buf), lo, hi, &b); err != nil {
		return err
	}
	local, err := a.localData()
	if err != nil {
		return err
	}
	pitchesOf(ext, spitch[:nd])
	src := box[T]{dst: buf, src: local[offsetOf(at[:nd], spitch[:nd]):], spitch: spitch}
	copy(src.dpitch[:nd], b.Pitch[:nd])
	copyBoxes(count[:nd], &src, nil)
	return nil
}

// ReleaseGhosts ends an AccessGhosts that only read (NGA_Release_ghosts).
func (a *Array[T]) ReleaseGhosts() error { return a.valid("ReleaseGhosts") }

// ReleaseUpdateGhosts ends an AccessGhosts that wrote
// (NGA_Release_update_ghosts).
func (a *Array[T]) ReleaseUpdateGhosts() error { return a.valid("ReleaseUpdateGhosts") }

// ReleaseGhostElement ends an AccessGhostElement that only read
// (NGA_Release_ghost_element).
func (a *Array[T]) ReleaseGhostElement(sub []int) error {
	return a.releaseGhostElement("ReleaseGhostElement", sub)
}

// ReleaseUpdateGhostElement ends an AccessGhostElement that wrote
// (NGA_Release_update_ghost_element).
func (a *Array[T]) ReleaseUpdateGhostElement(sub []int) error {
	return a.releaseGhostElement("ReleaseUpdateGhostElement", sub)
}

func (a *Array[T]) releaseGhostElement(op string, sub []int) error {
	ext, err := a.ghostBlock(op)
	if err == nil {
		_, err = a.ghostElement(op, ext, sub)
	}
	return err
}
