package ga

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unsafe"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/layout"
)

// User-defined element types (GA 5's NGA_Register_type). Array[T] is
// generic over the numbers its arithmetic needs, so an element type of the
// program's own is a separate type, UserArray[U], with only the calls that
// move bytes: Put, Get, their non-blocking forms, Scatter, Gather, the
// field calls, and those of usertype_ops.go (Zero, Fill, Copy, Access, the
// periodic and strided transfers, Locate, Duplicate, Print). A collective that needs arithmetic on U (Add, Dot, Scale...)
// does not exist for it, so misuse is a compile error rather than GA's
// abort. Underneath, a UserArray is an array whose element size is U's: it
// shares the layouts, the validation and the armci transfers of Array.

// types are the registered element types, process-wide as GA's are.
var types sync.Map // reflect.Type -> struct{}

// RegisterType lets arrays hold elements of U (NGA_Register_type): U must
// be plain data of a fixed, non-zero size — numbers, bools, and arrays and
// structs of them — because its bytes are moved between processes as they
// are; pointers, strings, slices, maps, interfaces, channels and functions
// are refused. Like GA's, it is local: each process that makes arrays of U
// registers it.
func RegisterType[U any]() error {
	t := reflect.TypeFor[U]()
	if err := plain(t); err != "" {
		return errorf("RegisterType", "", "element type %v: %s; only plain data moves between processes", t, err)
	}
	if t.Size() == 0 {
		return errorf("RegisterType", "", "element type %v has no bytes", t)
	}
	if _, dup := types.LoadOrStore(t, struct{}{}); dup {
		return errorf("RegisterType", "", "element type %v is already registered", t)
	}
	return nil
}

// DeregisterType ends U's registration (NGA_Deregister_type): no new
// arrays of U can be made; those that exist keep working, as in GA.
func DeregisterType[U any]() error {
	t := reflect.TypeFor[U]()
	if _, ok := types.LoadAndDelete(t); !ok {
		return errorf("DeregisterType", "", "element type %v is not registered", t)
	}
	return nil
}

// plain says why t cannot be copied as bytes, or "" if it can.
func plain(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return ""
	case reflect.Array:
		return plain(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if why := plain(t.Field(i).Type); why != "" {
				return fmt.Sprintf("field %s: %s", t.Field(i).Name, why)
			}
		}
		return ""
	}
	return fmt.Sprintf("%v is a %v", t, t.Kind())
}

// UserArray is a global array of elements of a registered type U
// (NGA_Create with a type from NGA_Register_type).
type UserArray[U any] struct {
	// a places, checks and moves the elements: its element size is U's,
	// and only its calls that go by a.es, never by its own element type,
	// are used.
	a *Array[int32]
}

// CreateUser makes an array of U on the default group, distributed as
// Create distributes (NGA_Create with a registered type). It is collective;
// U must be registered on every process.
func CreateUser[U any](name string, dims, chunk []int) (*UserArray[U], error) {
	return createUser[U]("CreateUser", New[int32](dims...).Name(name).Chunk(chunk...))
}

// CreateUserConfig is CreateUser on p's processes (NGA_Create_config with a
// registered type); p may not be the mirror group.
func CreateUserConfig[U any](name string, dims, chunk []int, p *Pgroup) (*UserArray[U], error) {
	return createUser[U]("CreateUserConfig", New[int32](dims...).Name(name).Chunk(chunk...).Pgroup(p))
}

// createUser makes the array b describes, with elements of U: b's element
// type only places it, by U's size.
func createUser[U any](op string, b *Builder[int32]) (*UserArray[U], error) {
	g, err := b.on(op)
	if err != nil {
		return nil, err
	}
	t := reflect.TypeFor[U]()
	size := int(t.Size())
	m, check := b.layout(op, g.size())
	if _, ok := types.Load(t); check == nil && !ok {
		check = errorf(op, b.name, "element type %v is not registered (RegisterType)", t)
	}
	if _, ok := layout.CheckedProduct(b.dims, size); check == nil && !ok {
		check = errorf(op, b.name, "dims %v of %d-byte elements are more bytes than an int counts", b.dims, size)
	}
	if check == nil && b.pg.mirror() {
		check = errorf(op, b.name, "an array of a registered type cannot be mirrored: MergeMirrored would need its arithmetic")
	}
	return makeUser[U](g, op, b.name, m, check, newArgs(op).ints("dims", b.dims...).ints("chunk", b.chunk...))
}

// makeUser allocates an array of U placed by m on g, once every process
// agrees on check and l.
func makeUser[U any](g *group, op, name string, m layout.Map, check error, l *args) (*UserArray[U], error) {
	t := reflect.TypeFor[U]()
	size := int(t.Size())
	a := placed[int32](g, name, m, check == nil)
	a.es, a.bytes = size, size*a.n
	if check == nil {
		check = a.limit(op)
	}
	if err := agree(g, false, op, name, check, l.str("type", t.String()).ints("size", size)); err != nil {
		return nil, err
	}
	if err := a.malloc(op); err != nil {
		return nil, err
	}
	u := &UserArray[U]{a: a}
	a.id = g.register(u)
	return u, nil
}

// arr is u's array; nil for nil, whose calls then refuse it (a collective
// one on every process).
func (u *UserArray[U]) arr() *Array[int32] {
	if u == nil {
		return nil
	}
	return u.a
}

// Destroy frees the array (GA_Destroy). It is collective.
func (u *UserArray[U]) Destroy() error { return u.arr().Destroy() }

// Name returns the array's name; "" for nil.
func (u *UserArray[U]) Name() string { return u.arr().Name() }

// Dims returns the array's dimensions; nil for nil.
func (u *UserArray[U]) Dims() []int { return u.arr().Dims() }

// Distribution returns the patch that rank owns, as Array.Distribution.
func (u *UserArray[U]) Distribution(rank int) (lo, hi []int, ok bool) {
	return u.arr().Distribution(rank)
}

// summary is Summarize's lines for u: its array's, whose first names the
// element type, int32, which is U.
func (u *UserArray[U]) summary(b *strings.Builder, verbose bool) {
	var s strings.Builder
	u.a.summary(&s, verbose)
	b.WriteString(strings.Replace(s.String(), "int32 ", reflect.TypeFor[U]().String()+" ", 1))
}

// asBytes views s's memory as bytes; U is plain (RegisterType checked it).
func asBytes[U any](s []U) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(*new(U))))
}

// Put copies buf into the patch [lo, hi] (NGA_Put), as Array.Put.
func (u *UserArray[U]) Put(lo, hi []int, buf []U, ld []int) error {
	return moveAs(u, "Put", lo, hi, asBytes(buf), len(buf), ld, field{}, statPut, armci.PutS[byte])
}

// Get copies the patch [lo, hi] into buf (NGA_Get), as Array.Get.
func (u *UserArray[U]) Get(lo, hi []int, buf []U, ld []int) error {
	return moveAs(u, "Get", lo, hi, asBytes(buf), len(buf), ld, field{}, statGet, armci.GetS[byte])
}

// NbPut is Put that returns at once (NGA_NbPut).
func (u *UserArray[U]) NbPut(lo, hi []int, buf []U, ld []int) (*Handle, error) {
	return nbMove(u, "NbPut", lo, hi, buf, ld, field{}, statPut, armci.NbPutS[byte])
}

// NbGet is Get that returns at once (NGA_NbGet).
func (u *UserArray[U]) NbGet(lo, hi []int, buf []U, ld []int) (*Handle, error) {
	return nbMove(u, "NbGet", lo, hi, buf, ld, field{}, statGet, armci.NbGetS[byte])
}

// Scatter sets element subs[k] to v[k] for every k (NGA_Scatter).
func (u *UserArray[U]) Scatter(v []U, subs [][]int) error {
	return u.vector("Scatter", v, subs, statScatter, armci.PutV[byte])
}

// Gather sets v[k] to element subs[k] for every k (NGA_Gather).
func (u *UserArray[U]) Gather(v []U, subs [][]int) error {
	return u.vector("Gather", v, subs, statGather, armci.GetV[byte])
}

// vector moves v's values to or from the elements subs names, by one
// armci vector call per owner: f's.
func (u *UserArray[U]) vector(op string, v []U, subs [][]int, stat opKind, f func(*armci.Segment, int, []byte, []armci.IOVec) error) error {
	a := u.arr()
	return a.byOwners(op, subs, len(v), stat, func(r int, vec []armci.IOVec) error {
		return f(a.seg, r, asBytes(v), vec)
	})
}

// field is the part of each element a transfer moves: off bytes in, size
// bytes long; size 0 is the whole element.
type field struct{ off, size int }

// fieldOf checks a field of F at byte offset off in U: F's bytes must be
// one part of U (a field, an element or run of elements of an array, a
// complex number's real or imaginary part, nested to any depth), not a
// misaligned cut or a span across two parts.
func fieldOf[F, U any](op, name string, off uintptr) (field, error) {
	fs, us := int(unsafe.Sizeof(*new(F))), int(unsafe.Sizeof(*new(U)))
	if why := plain(reflect.TypeFor[F]()); why != "" {
		return field{}, errorf(op, name, "field type %v: %s", reflect.TypeFor[F](), why)
	}
	if fs == 0 || off > uintptr(us) || int(off) > us-fs {
		return field{}, errorf(op, name, "a %d-byte field at byte %d does not fit a %d-byte %v", fs, off, us, reflect.TypeFor[U]())
	}
	u := reflect.TypeFor[U]()
	if p := partAt(u, off, uintptr(fs), ""); !p.exact {
		where := fmt.Sprintf("byte %d is padding of %v", off, u)
		if p.path != "" {
			where = fmt.Sprintf("byte %d is inside %s (%v, bytes %d to %d)", off, p.path, p.typ, p.lo, p.lo+p.typ.Size()-1)
		}
		return field{}, errorf(op, name, "a %d-byte field at byte %d is not one part of %v: %s", fs, off, u, where)
	}
	return field{off: int(off), size: fs}, nil
}

// part is where a byte offset falls in a type: the innermost named part
// that holds it (path "" for the type itself, or padding), its type and
// first byte, and whether a field of the size asked for is exactly a part.
type part struct {
	path  string
	typ   reflect.Type
	lo    uintptr
	exact bool
}

// partAt finds the part of t, itself named path, that a field of size
// bytes at byte off of t would be.
func partAt(t reflect.Type, off, size uintptr, path string) part {
	p := part{path: path, typ: t}
	if off == 0 && t.Size() == size {
		p.exact = true
		return p
	}
	in := func(name string, ft reflect.Type, at uintptr) part {
		q := partAt(ft, off-at, size, name)
		q.lo += at
		return q
	}
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if off >= f.Offset && off < f.Offset+f.Type.Size() {
				return in(strings.TrimPrefix(path+"."+f.Name, "."), f.Type, f.Offset)
			}
		}
		p.path = "" // padding
	case reflect.Array:
		es := t.Elem().Size()
		if es == 0 {
			break
		}
		if off%es == 0 && size%es == 0 && off+size <= t.Size() && size > es {
			p.path, p.lo, p.exact = fmt.Sprintf("%s[%d:%d]", path, off/es, (off+size)/es), 0, true
			return p
		}
		i := off / es
		return in(fmt.Sprintf("%s[%d]", path, i), t.Elem(), i*es)
	case reflect.Complex64, reflect.Complex128:
		h, ft := t.Size()/2, reflect.TypeFor[float64]()
		if t.Kind() == reflect.Complex64 {
			ft = reflect.TypeFor[float32]()
		}
		if off < h {
			return in(path+" real part", ft, 0)
		}
		return in(path+" imaginary part", ft, h)
	}
	return p
}

// strided is pc's transfer of f: the piece as it comes for whole elements
// of size es, or with one more level, each element's field, whose values
// lie packed in the local buffer.
func (f field) strided(pc piece, es int) (remote, local int, p armci.Strided) {
	if f.size == 0 {
		return pc.remote, pc.local * es, pc.p
	}
	p.Count = append([]int{f.size, pc.p.Count[0] / es}, pc.p.Count[1:]...)
	p.RemoteStride = append([]int{es}, pc.p.RemoteStride...)
	p.LocalStride = []int{f.size}
	for _, s := range pc.p.LocalStride {
		p.LocalStride = append(p.LocalStride, s/es*f.size)
	}
	return pc.remote + f.off, pc.local * f.size, p
}

// moveAs moves the patch [lo, hi] between the array and buf, n values of
// an element or of field f each, by one armci call per piece: xfer's.
func moveAs[U any](u *UserArray[U], op string, lo, hi []int, buf []byte, n int, ld []int, f field, stat opKind, xfer func(*armci.Segment, int, int, []byte, armci.Strided) error) error {
	a := u.arr()
	var b layout.Buffer
	if err := a.transfer(op, lo, hi, ld, n, &b); err != nil {
		return err
	}
	a.countCall(stat)
	return a.pieces(lo, hi, b.Pitch[:len(lo)], func(pc piece) error {
		remote, local, p := f.strided(pc, a.es)
		a.notePiece(pc.rank, stat, p.Bytes())
		return xfer(a.seg, pc.rank, remote, buf[local:], p)
	})
}

// nbMove is moveAs with non-blocking calls, gathered in one Handle.
func nbMove[U, V any](u *UserArray[U], op string, lo, hi []int, buf []V, ld []int, f field, stat opKind, issue func(*armci.Segment, int, int, []byte, armci.Strided) (*armci.Handle, error)) (*Handle, error) {
	bytes := asBytes(buf)
	return issued(func(keep func(*armci.Handle, error) error) error {
		return moveAs(u, op, lo, hi, bytes, len(buf), ld, f, stat, func(s *armci.Segment, rank, remote int, local []byte, p armci.Strided) error {
			return keep(issue(s, rank, remote, local, p))
		})
	})
}

// The statistics that transfers count in.

// PutField writes one field of each element of the patch [lo, hi]: the F
// at byte offset off of U (unsafe.Offsetof), from buf, which holds the
// patch's values of that field in C order with leading dimensions ld
// (NGA_Put_field, whose fsize is F's size). The rest of each element is
// left as it is.
func PutField[F, U any](u *UserArray[U], off uintptr, lo, hi []int, buf []F, ld []int) error {
	f, err := fieldOf[F, U]("PutField", u.Name(), off)
	if err != nil {
		return err
	}
	return moveAs(u, "PutField", lo, hi, asBytes(buf), len(buf), ld, f, statPut, armci.PutS[byte])
}

// GetField reads one field of each element of the patch [lo, hi] into buf
// (NGA_Get_field), as PutField writes it.
func GetField[F, U any](u *UserArray[U], off uintptr, lo, hi []int, buf []F, ld []int) error {
	f, err := fieldOf[F, U]("GetField", u.Name(), off)
	if err != nil {
		return err
	}
	return moveAs(u, "GetField", lo, hi, asBytes(buf), len(buf), ld, f, statGet, armci.GetS[byte])
}

// NbPutField is PutField that returns at once (NGA_NbPut_field).
func NbPutField[F, U any](u *UserArray[U], off uintptr, lo, hi []int, buf []F, ld []int) (*Handle, error) {
	f, err := fieldOf[F, U]("NbPutField", u.Name(), off)
	if err != nil {
		return nil, err
	}
	return nbMove(u, "NbPutField", lo, hi, buf, ld, f, statPut, armci.NbPutS[byte])
}

// NbGetField is GetField that returns at once (NGA_NbGet_field).
func NbGetField[F, U any](u *UserArray[U], off uintptr, lo, hi []int, buf []F, ld []int) (*Handle, error) {
	f, err := fieldOf[F, U]("NbGetField", u.Name(), off)
	if err != nil {
		return nil, err
	}
	return nbMove(u, "NbGetField", lo, hi, buf, ld, f, statGet, armci.NbGetS[byte])
}
