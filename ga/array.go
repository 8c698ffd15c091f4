package ga

import (
	"fmt"
	"math/big"
	"strconv"
	"unsafe"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/holds"
	"github.com/goga-hpc/goga/internal/layout"
)

// Elem is the set of element types of global arrays: GA's C_INT, C_LONG,
// C_FLOAT, C_DBL, C_SCPL and C_DCPL.
type Elem interface {
	~int32 | ~int64 | ~float32 | ~float64 | ~complex64 | ~complex128
}

// MaxDim is the most dimensions an array may have (GA_MAX_DIM).
const MaxDim = layout.MaxDim

// Array is a global array of T: an n-dimensional array whose blocks live on
// the GA processes and that any process can read and write one-sidedly.
// Indices are 0-based in C order (the last one fastest) and patches [lo, hi]
// are inclusive, as in GA's C interface.
type Array[T Elem] struct {
	g     *group // the processes it lives on
	id    int
	name  string
	dims  []int
	m     layout.Map
	seg   *armci.Segment
	es    int   // element size in bytes
	lo    []int // this rank's block, or nil if it owns nothing or the array is block-cyclic
	hi    []int
	own   []int         // the blocks this rank owns
	spans []layout.Span // where in its storage this rank's own elements are
	n     int           // elements this rank stores
	bytes int           // this rank's allocation
	dead  bool
	// mirrored: one copy per node, on the node's group (see mirror.go).
	mirrored bool
	// See handles.go: Deallocate's freed memory, an overlay's parent, and
	// the read_only property.
	freed    bool
	parent   overlaid
	readOnly bool
	// nodeCopy is the whole array on this process's node, which gets read
	// while read_only, when the array's processes span several nodes.
	nodeCopy *Array[T]
	// cache is the per-node cache of remote blocks that gets read while
	// read_cache, when the array's processes span several nodes.
	cache *readCache[T]
	// faces holds the slabs of this process's block that its neighbours
	// copy into their halos (see exchangeGhosts), from the first update on,
	// in two halves that updates use in turn: facesHalf is the next one's.
	faces     *armci.Segment
	facesHalf int
	plan      *ghostPlan  // UpdateGhosts' copies, from its first call on
	stage     []T         // where reads of other nodes' faces land (stageSpans)
	staged    []stageSpan // the spans of the last update's staged reads, kept for the next
	// corners places each block for quick (quick.go); nil for arrays of
	// many blocks. direct.at(r) is rank r's storage where this process maps
	// it (a zero Direct elsewhere), for quick's transfers.
	corners *cornerTable
	direct  directs[T]
	// direct64 and direct32 are direct itself where T is int64 or int32,
	// typed for ReadInc's fetch-and-add without a type switch per call.
	direct64 directs[int64]
	direct32 directs[int32]
}

// directs holds the Directs of the ranks from the lowest to the highest
// that this process maps (its node's, in one run of ranks where mpirun
// places ranks by node): entries for those, not for every process of the
// array. A rank outside is not mapped.
type directs[T armci.AccElem] struct {
	base int
	d    []armci.Direct[T]
	none armci.Direct[T] // the zero Direct, for ranks outside
}

// directsOf makes the directs of seg's n ranks.
func directsOf[T armci.AccElem](seg *armci.Segment, n int) directs[T] {
	lo, hi := n, -1
	for r := range n {
		if seg.Mapped(r) {
			lo, hi = min(lo, r), r
		}
	}
	t := directs[T]{base: lo}
	if hi >= lo {
		t.d = make([]armci.Direct[T], hi-lo+1)
		for i := range t.d {
			t.d[i], _ = armci.DirectTo[T](seg, lo+i)
		}
	}
	return t
}

// at returns rank r's Direct, the zero one where this process does not map
// r's storage.
func (t *directs[T]) at(r int) *armci.Direct[T] {
	if i := uint(r - t.base); i < uint(len(t.d)) {
		return &t.d[i]
	}
	return &t.none
}

// typed is t where its element type is E, else nil.
func typed[E armci.AccElem, T armci.AccElem](t *directs[T]) *directs[E] {
	e, _ := any(t).(*directs[E])
	return e
}

// Builder sets an array's properties one by one before Allocate, as GA's
// create_handle / set_data / set_array_name / set_chunk / set_irreg_distr /
// allocate do. Every process must make the same calls.
type Builder[T Elem] struct {
	// pg is the processor group it is made on; nil: the default group.
	pg     *Pgroup
	name   string
	dims   []int
	chunk  []int
	starts [][]int
	cyclic bool  // block-cyclic, with:
	block  []int // the block size
	grid   []int // the process grid, or nil for a round-robin deal
	tiled  bool  // blocks over grid stored one after another (GA 5's tiled)
	ghosts []int // ghost widths, or nil
	// restricted lists the processes the array lives on, or is nil.
	restricted []int
	device     string // SetMemoryDev's
}

// New starts building an array of T with the given dimensions
// (GA_Create_handle plus GA_Set_data).
func New[T Elem](dims ...int) *Builder[T] {
	return &Builder[T]{name: "array", dims: append([]int(nil), dims...)}
}

// Name sets the array's name (GA_Set_array_name).
func (b *Builder[T]) Name(name string) *Builder[T] { b.name = name; return b }

// Chunk sets the minimum block size along each dimension; values below 1
// leave the choice to GA (GA_Set_chunk).
func (b *Builder[T]) Chunk(chunk ...int) *Builder[T] {
	b.chunk = append([]int(nil), chunk...)
	return b
}

// Irregular sets the block boundaries: starts[d] lists the first index of each
// block along dimension d, beginning with 0 (GA_Set_irreg_distr, with map and
// block in Go's shape). Block (i, j, ...) goes to rank i·n1·n2… + j·n2… + …
func (b *Builder[T]) Irregular(starts ...[]int) *Builder[T] {
	b.starts = make([][]int, len(starts))
	for d, s := range starts {
		b.starts[d] = append([]int(nil), s...)
	}
	return b
}

// Allocate creates the array (GA_Allocate). It is collective: the processes
// agree on the properties (see agree) and all fail alike.
func (b *Builder[T]) Allocate() (*Array[T], error) { return b.allocate("Allocate") }

func (b *Builder[T]) allocate(op string) (*Array[T], error) {
	g, err := b.on(op)
	if err != nil {
		return nil, err
	}
	m, err := b.restrictedLayout(op, g.size())
	if err == nil {
		err = b.checkDevice(op)
	}
	mirrored := b.pg.mirror()
	a, err := allocate[T](g, op, b.name, m, err, b.args(op).ints("ghosts", b.ghosts...).ints("restricted", b.restricted...).str("mirrored", strconv.FormatBool(mirrored)).str("device", b.device))
	if a != nil {
		a.mirrored = mirrored
	}
	return a, err
}

// args are the properties every process must give an array alike.
func (b *Builder[T]) args(op string) *args {
	var z T
	l := newArgs(op).str("type", fmt.Sprintf("%T", z)).ints("dims", b.dims...).ints("chunk", b.chunk...)
	for d, s := range b.starts {
		l.ints("starts"+strconv.Itoa(d), s...)
	}
	if b.cyclic {
		l.ints("block", b.block...).ints("grid", b.grid...).str("tiled", strconv.FormatBool(b.tiled))
	}
	return l
}

func (b *Builder[T]) layout(op string, nproc int) (layout.Map, error) {
	if len(b.dims) < 1 || len(b.dims) > MaxDim {
		return layout.Map{}, errorf(op, b.name, "%d dimensions %v; want 1 to %d", len(b.dims), b.dims, MaxDim)
	}
	for d, n := range b.dims {
		if n < 1 {
			return layout.Map{}, errorf(op, b.name, "dims %v: dimension %d is %d", b.dims, d, n)
		}
	}
	var z T
	bytes, ok := layout.CheckedProduct(b.dims, int(unsafe.Sizeof(z)))
	if !ok {
		return layout.Map{}, errorf(op, b.name, "dims %v: %s elements of %d bytes are more bytes than an int counts", b.dims, productText(b.dims), unsafe.Sizeof(z))
	}
	// Refuse what no set of machines like this one could hold before the
	// map is built: a block-cyclic map keeps a few words per block.
	if mem := armci.MachineMemory(); uint64(bytes)/uint64(nproc) > mem {
		return layout.Map{}, &Error{Op: op, Array: b.name, Err: armci.ErrNoRoom,
			Msg: fmt.Sprintf("dims %v: %d bytes over %d processes is more than this machine's %d bytes of memory and swap for each", b.dims, bytes, nproc, mem)}
	}
	if b.cyclic {
		return b.cyclicLayout(op, nproc)
	}
	if b.starts != nil {
		m := layout.Map{Dims: b.dims, Starts: b.starts}
		if err := m.Check(); err != nil {
			return layout.Map{}, errorf(op, b.name, "irregular distribution: %v", err)
		}
		if m.Blocks() > nproc {
			return layout.Map{}, errorf(op, b.name, "irregular distribution has %d blocks for %d processes", m.Blocks(), nproc)
		}
		return m, nil
	}
	if b.chunk != nil && len(b.chunk) != len(b.dims) {
		return layout.Map{}, errorf(op, b.name, "%d chunk sizes %v for %d dimensions", len(b.chunk), b.chunk, len(b.dims))
	}
	m, err := layout.Regular(b.dims, b.chunk, nproc)
	if err != nil {
		return layout.Map{}, errorf(op, b.name, "%v", err)
	}
	return m, nil
}

// productText is the exact product of dims, however large, for messages.
func productText(dims []int) string {
	p := big.NewInt(1)
	for _, d := range dims {
		p.Mul(p, big.NewInt(int64(d)))
	}
	return p.String()
}

// Create makes an array with GA's default distribution (NGA_Create); chunk
// may be nil.
func Create[T Elem](name string, dims, chunk []int) (*Array[T], error) {
	return New[T](dims...).Name(name).Chunk(chunk...).allocate("Create")
}

// CreateIrreg makes an array with the given block boundaries (NGA_Create_irreg;
// see Builder.Irregular).
func CreateIrreg[T Elem](name string, dims []int, starts [][]int) (*Array[T], error) {
	return New[T](dims...).Name(name).Irregular(starts...).allocate("CreateIrreg")
}

// allocate makes the array of map m on g once the processes agree: check is this
// process's verdict on the properties, l their text.
func allocate[T Elem](g *group, op, name string, m layout.Map, check error, l *args) (*Array[T], error) {
	a := placed[T](g, name, m, check == nil)
	if check == nil {
		check = a.limit(op)
	}
	if err := agree(g, false, op, name, check, l); err != nil {
		return nil, err
	}
	if err := a.malloc(op); err != nil {
		return nil, err
	}
	if err := a.makeFaces(op); err != nil {
		a.release()
		return nil, err
	}
	a.id = g.register(a)
	return a, nil
}

// placed is an array of map m on g without memory; with place, it knows
// this process's blocks and storage.
func placed[T Elem](g *group, name string, m layout.Map, place bool) *Array[T] {
	var z T
	a := &Array[T]{g: g, name: name, dims: m.Dims, m: m, es: int(unsafe.Sizeof(z))}
	if place {
		a.corners = cornersOf(&a.m)
		me := g.rank
		if lo, hi, ok := m.Block(me); ok {
			a.lo, a.hi = lo, hi
		}
		a.own = m.LocalBlocks(me)
		a.spans = m.Spans(me)
		a.n = m.LocalSize(me)
		a.bytes = a.es * a.n
	}
	return a
}

// limit is the memory limit's verdict on a's storage: one more thing to
// agree on.
func (a *Array[T]) limit(op string) error {
	proc.mu.Lock()
	used, limit := proc.used, proc.limit
	proc.mu.Unlock()
	if limit >= 0 && a.bytes > limit-used {
		return &Error{Op: op, Array: a.name, Err: ErrMemoryLimit,
			Msg: fmt.Sprintf("%d bytes more would pass this process's memory limit (%d used of %d)", a.bytes, used, limit)}
	}
	return nil
}

// malloc gives a its storage, once the processes agree.
func (a *Array[T]) malloc(op string) error {
	seg, err := a.g.rt.Malloc(a.bytes)
	if err != nil {
		var z T
		return &Error{Op: op, Array: a.name, Err: err, Msg: fmt.Sprintf("%d bytes on this process (%T %v): %v", a.bytes, z, a.dims, err)}
	}
	a.seg = seg
	a.direct = directsOf[T](seg, a.g.size())
	if d := typed[int64](&a.direct); d != nil {
		a.direct64 = *d
	}
	if d := typed[int32](&a.direct); d != nil {
		a.direct32 = *d
	}
	proc.mu.Lock()
	proc.used += a.bytes
	proc.maxUsed = max(proc.maxUsed, proc.used)
	proc.mu.Unlock()
	return nil
}

// Duplicate makes an array with the same type, shape and distribution, with
// its own (uninitialized) data (GA_Duplicate). It is collective.
func (a *Array[T]) Duplicate(name string) (*Array[T], error) {
	g, m, check, err := a.duplicated()
	if err != nil {
		return nil, err
	}
	d, err := allocate[T](g, "Duplicate", name, m, check, array(newArgs("Duplicate"), "a", a))
	if d != nil {
		d.mirrored = a.mirrored
	}
	return d, err
}

// duplicated is what Duplicate places a copy of a by: a's group and map,
// or the check that refuses a.
func (a *Array[T]) duplicated() (g *group, m layout.Map, check, err error) {
	if g, err = groupOf("Duplicate", a); err != nil {
		return nil, m, nil, err
	}
	if check = a.valid("Duplicate"); check == nil {
		m = a.m
	}
	return g, m, check, nil
}

// Destroy frees the array (GA_Destroy). It is collective; pending operations
// on it must be complete. While work in the background uses the array (a
// dra transfer, until its Wait), it is refused on every process.
func (a *Array[T]) Destroy() error {
	g, err := groupOf("Destroy", a)
	if err != nil {
		return err
	}
	check := a.handle("Destroy")
	if why := holds.Why(a); check == nil && why != "" {
		check = errorf("Destroy", a.Name(), "in use by %s until its Wait", why)
	}
	if err := agree(g, false, "Destroy", a.Name(), check, array(newArgs("Destroy"), "a", a)); err != nil {
		return err
	}
	if a.parent == nil && !a.freed {
		if err := a.release(); err != nil {
			return err
		}
	}
	if a.faces != nil {
		if err := a.faces.Free(); err != nil {
			return err
		}
		a.faces = nil
	}
	if err := a.dropNodeCopy(); err != nil {
		return err
	}
	if err := a.dropCache(); err != nil {
		return err
	}
	a.dead = true
	g.unregister(a.id)
	return nil
}

// release frees a's storage.
func (a *Array[T]) release() error {
	a.direct, a.direct64, a.direct32 = directs[T]{}, directs[int64]{}, directs[int32]{}
	if err := a.seg.Free(); err != nil {
		return err
	}
	proc.mu.Lock()
	proc.used -= a.bytes
	proc.mu.Unlock()
	return nil
}

// valid refuses an array that op cannot use: nil, destroyed, without
// memory (see handles.go), or read-only for a call that writes it.
func (a *Array[T]) valid(op string) error {
	if err := a.handle(op); err != nil {
		return err
	}
	return a.usable(op)
}

// handle refuses a nil or destroyed array: all that Destroy needs.
func (a *Array[T]) handle(op string) error {
	if a == nil {
		return stateErr(op, "", ErrNil)
	}
	if a.dead {
		return stateErr(op, a.name, ErrDestroyed)
	}
	return nil
}

// Inquiries (Name, Ndim, Dims, BlockInfo, ProcGrid, ...) answer for a nil
// array with zero values ("", 0, nil, false, -1 for an owner); calls that
// act or can fail return an error wrapping ErrNil.

// Name returns the array's name (GA_Inquire_name).
func (a *Array[T]) Name() string {
	if a == nil {
		return ""
	}
	return a.name
}

// Ndim returns the number of dimensions (GA_Ndim).
func (a *Array[T]) Ndim() int {
	if a == nil {
		return 0
	}
	return len(a.dims)
}

// Dims returns the extents (NGA_Inquire's dims).
func (a *Array[T]) Dims() []int {
	if a == nil {
		return nil
	}
	return append([]int(nil), a.dims...)
}

// Inquire returns the element type's name and the extents (NGA_Inquire).
func (a *Array[T]) Inquire() (typ string, dims []int) {
	var z T
	return fmt.Sprintf("%T", z), a.Dims()
}
