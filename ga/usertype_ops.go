package ga

import (
	"io"
	"os"
	"reflect"
	"strings"
	"unsafe"

	"github.com/goga-hpc/goga/armci"
	"github.com/goga-hpc/goga/internal/layout"
)

// The calls of a UserArray that move or place whole elements without
// arithmetic, as GA's calls of the same names do on a registered type:
// Zero, Copy and CopyPatch copy bytes; Access reaches the storage in place;
// the periodic and strided forms of Put and Get; Locate; Duplicate. GA C
// refuses Fill and Print on a registered type ("type not supported", "wrong
// type"): here Fill copies the value's bytes, and Print writes elements as
// fmt's %v does. Each goes by the walks Array's calls use, with U's size.

// local is this process's storage of u as elements of U (nil if it stores
// nothing).
func (u *UserArray[U]) local() ([]U, error) {
	a := u.a
	if a.n == 0 {
		return nil, nil
	}
	b, err := armci.LocalAs[byte](a.seg)
	if err != nil {
		return nil, err
	}
	return unsafe.Slice((*U)(unsafe.Pointer(unsafe.SliceData(b))), a.n), nil
}

// collective runs f on this process's storage of u as Array's collective
// calls run theirs.
func (u *UserArray[U]) collective(op string, l *args, check error, f func(local []U) error, more ...*Array[int32]) error {
	return u.arr().collective(op, l, check, func([]int32) error {
		local, err := u.local()
		if err != nil {
			return err
		}
		return f(local)
	}, more...)
}

// Zero sets every element's bytes to 0 (GA_Zero). It is collective.
func (u *UserArray[U]) Zero() error {
	return u.collective("Zero", nil, nil, func(l []U) error {
		for _, s := range u.a.spans {
			clear(l[s.Off : s.Off+s.N])
		}
		return nil
	})
}

// Fill sets every element to v (GA_Fill, which refuses a registered type).
// It is collective.
func (u *UserArray[U]) Fill(v U) error {
	return u.collective("Fill", nil, nil, func(l []U) error {
		for _, s := range u.a.spans {
			run := l[s.Off : s.Off+s.N]
			for i := range run {
				run[i] = v
			}
		}
		return nil
	})
}

// CopyUser copies a into b (GA_Copy) as Copy does: the same number of
// elements, matched in C order; shapes and distributions may differ. It is
// collective over b's group, which a's group must contain.
func CopyUser[U any](a, b *UserArray[U]) error {
	x, y := a.arr(), b.arr()
	var check error
	var alo, ahi, blo, bhi []int
	if x.valid("Copy") == nil && y.valid("Copy") == nil {
		alo, ahi = x.whole()
		blo, bhi = y.whole()
		if n, m := layout.Product(x.dims), layout.Product(y.dims); n != m {
			check = errorf("Copy", y.name, "%v has %d elements, source %s has %d", y.dims, m, x.name, n)
		}
	}
	return copyUser("Copy", NoTrans, a, alo, ahi, b, blo, bhi, check)
}

// CopyPatchUser copies a's patch [alo, ahi] into b's patch [blo, bhi]
// (NGA_Copy_patch) as CopyPatch does, elements paired in linear order, a's
// read column-major with Trans. a and b are different arrays. It is
// collective over b's group, which a's group must contain.
func CopyPatchUser[U any](trans TransOp, a *UserArray[U], alo, ahi []int, b *UserArray[U], blo, bhi []int) error {
	return copyUser("CopyPatch", trans, a, alo, ahi, b, blo, bhi, nil)
}

// copyUser is CopyUser and CopyPatchUser: each process fetches what its
// part of b's patch pairs with, by CopyPatch's walk, and writes it in place.
func copyUser[U any](op string, trans TransOp, a *UserArray[U], alo, ahi []int, b *UserArray[U], blo, bhi []int, check error) error {
	x, y := a.arr(), b.arr()
	t, terr := transFlag(op, x.Name(), trans)
	if check == nil {
		check = terr
	}
	if check == nil {
		check = checkSides(op, side[int32]{a: y, lo: blo, hi: bhi}, side[int32]{x, alo, ahi, t})
	}
	if check == nil && x == y && x != nil {
		check = errorf(op, x.name, "source and destination are the same array")
	}
	over, other := y, x
	if pushes(x, y) {
		// Collective over a's group, which is all that calls.
		over, other = x, y
		if check == nil {
			check = errorf(op, y.name, "lives on %d processes, more than source %s's %d: a registered type's copy runs on the destination's processes", y.g.size(), x.name, x.g.size())
		}
	}
	l := writing(patchArgs(patchArgs(newArgs(op).between(), "A", x, alo, ahi, trans), "B", y, blo, bhi, 0), y)
	get := func(plo, phi []int, buf []U) error { return a.Get(plo, phi, buf, nil) }
	return over.collective(op, l, check, func([]int32) error {
		local, err := b.local()
		if err != nil {
			return err
		}
		return y.regions(blo, bhi, func(r region) error {
			buf, err := fetchPaired(alo, ahi, t, blo, bhi, r, get)
			r.runs(func(off, at, n int) {
				if err == nil {
					copy(local[off:off+n], buf[at:at+n])
				}
			})
			return err
		})
	}, other)
}

// Access returns the patch [lo, hi] of this process's storage in place, as
// Array.Access (NGA_Access): element (i, j, …) is at ((i-lo0)·ld[0] +
// (j-lo1))·ld[1] + …. Release or ReleaseUpdate ends the access.
func (u *UserArray[U]) Access(lo, hi []int) ([]U, []int, error) {
	off, ld, err := u.arr().accessAt("Access", lo, hi)
	if err != nil {
		return nil, nil, err
	}
	local, err := u.local()
	if err != nil {
		return nil, nil, err
	}
	return local[off:], ld, nil
}

// Release ends an access that only read (NGA_Release).
func (u *UserArray[U]) Release(lo, hi []int) error { return u.arr().Release(lo, hi) }

// ReleaseUpdate ends an access that wrote (NGA_Release_update).
func (u *UserArray[U]) ReleaseUpdate(lo, hi []int) error { return u.arr().ReleaseUpdate(lo, hi) }

// PeriodicGet is Get of a patch that may wrap around the array's ends, as
// Array.PeriodicGet (NGA_Periodic_get).
func (u *UserArray[U]) PeriodicGet(lo, hi []int, buf []U, ld []int) error {
	return u.arr().periodic("PeriodicGet", lo, hi, ld, len(buf), func(plo, phi []int, off int, ld []int) error {
		return u.Get(plo, phi, buf[off:], ld)
	})
}

// PeriodicPut is Put with wrap-around (NGA_Periodic_put).
func (u *UserArray[U]) PeriodicPut(lo, hi []int, buf []U, ld []int) error {
	return u.arr().periodic("PeriodicPut", lo, hi, ld, len(buf), func(plo, phi []int, off int, ld []int) error {
		return u.Put(plo, phi, buf[off:], ld)
	})
}

// StridedPut copies buf into every skip[d]-th element of [lo, hi] along
// each dimension, as Array.StridedPut (NGA_Strided_put).
func (u *UserArray[U]) StridedPut(lo, hi, skip []int, buf []U, ld []int) error {
	return u.strided("StridedPut", lo, hi, skip, buf, ld, statPut, armci.PutS[byte])
}

// StridedGet is the reverse of StridedPut (NGA_Strided_get).
func (u *UserArray[U]) StridedGet(lo, hi, skip []int, buf []U, ld []int) error {
	return u.strided("StridedGet", lo, hi, skip, buf, ld, statGet, armci.GetS[byte])
}

// strided moves buf's elements by Array's strided walk, one xfer per piece.
func (u *UserArray[U]) strided(op string, lo, hi, skip []int, buf []U, ld []int, stat opKind, xfer func(*armci.Segment, int, int, []byte, armci.Strided) error) error {
	a, bytes := u.arr(), asBytes(buf)
	return a.stridedPieces(op, lo, hi, skip, ld, len(buf), stat, func(pc piece) error {
		a.notePiece(pc.rank, stat, pc.p.Bytes())
		return xfer(a.seg, pc.rank, pc.remote, bytes[pc.local*a.es:], pc.p)
	})
}

// Locate returns the rank that owns the element at sub (NGA_Locate).
func (u *UserArray[U]) Locate(sub []int) (int, error) { return u.arr().Locate(sub) }

// LocateRegion lists the blocks that hold parts of the patch [lo, hi], as
// Array.LocateRegion (NGA_Locate_region).
func (u *UserArray[U]) LocateRegion(lo, hi []int) ([]Region, error) {
	return u.arr().LocateRegion(lo, hi)
}

// Duplicate makes an array of U with the same shape and distribution, with
// its own (uninitialized) data (GA_Duplicate). It is collective; U need not still be
// registered, as in GA.
func (u *UserArray[U]) Duplicate(name string) (*UserArray[U], error) {
	a := u.arr()
	g, m, check, err := a.duplicated()
	if err != nil {
		return nil, err
	}
	return makeUser[U](g, "Duplicate", name, m, check, array(newArgs("Duplicate"), "a", a))
}

// Print writes the whole array to standard output from process 0, each
// element as fmt's %v writes it (GA_Print, which refuses a registered
// type). It is collective.
func (u *UserArray[U]) Print() error { return u.Fprint(os.Stdout) }

// Fprint is Print to w.
func (u *UserArray[U]) Fprint(w io.Writer) error {
	a := u.arr()
	return a.printing(func() error {
		desc := strings.Replace(a.String(), "(int32 ", "("+reflect.TypeFor[U]().String()+" ", 1)
		return fprintWhole(w, desc, a.dims, func(lo, hi []int, buf []U) error { return u.Get(lo, hi, buf, nil) })
	})
}
